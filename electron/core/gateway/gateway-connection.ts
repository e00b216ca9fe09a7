/**
 * Which gateway the counter uses, as a manager set it on the Gateway screen: the
 * embedded engine (the default) or a remote gateway (base URL, developer id, user id and
 * API key). The key is kept only in the SecretStore; the rest in the app database. The
 * choice applies at the next start (the engine, the clients and the health probe are set
 * up once). Environment variables (RINGUP_GATEWAY_URL …) win over the saved choice.
 * A gateway signed in with OAuth 2.0 (gateway-oauth.ts) is saved the same way, with
 * `auth: 'oauth'`; its tokens and client secret live in the SecretStore (oauth-session.ts).
 */
import { GatewayError, type GatewayAuth } from '../../client/gateway-client';
import { gatewayClient } from './gateway-clients';
import type { SecretStore } from '../../secrets/secret-store';
import { OAuthSession } from './oauth-session';
import { getSetting, setSetting, type PosDatabase } from '../platform/pos-database';

export const REMOTE_KEY_SECRET = 'remote-gateway-key';
const SETTING_KEY = 'gateway_connection';

export interface SavedConnection {
  kind: 'embedded' | 'remote';
  /** Absent in folders saved before OAuth: the API key (remote) or the engine's own keys (embedded). */
  auth?: 'api-key' | 'oauth';
  baseUrl?: string;
  developerId?: string;
  userId?: string;
  /** OAuth: the app's client at that gateway and the origin of its /o/ endpoints. */
  clientId?: string;
  authUrl?: string;
}

/** The gateway's OAuth origin when not told otherwise: the base URL's origin (the engine serves /o/ beside /v2). */
export const authUrlOf = (baseUrl: string): string => new URL(baseUrl).origin;

export function readSavedConnection(db: PosDatabase): SavedConnection | null {
  const raw = getSetting(db, SETTING_KEY);
  if (raw === undefined) return null;
  try {
    return JSON.parse(raw) as SavedConnection;
  } catch {
    return null;
  }
}

/** The saved remote gateway with its key, when a manager chose one (and its key is still in the store). */
export async function savedRemote(db: PosDatabase, secrets: SecretStore): Promise<{ baseUrl: string; auth: GatewayAuth; oauth?: OAuthSession } | undefined> {
  const c = readSavedConnection(db);
  if (c?.kind !== 'remote' || !c.baseUrl || !c.developerId || !c.userId) return undefined;
  if (c.auth === 'oauth') {
    const oauth = await OAuthSession.load(secrets);
    if (!oauth) return undefined;
    return { baseUrl: c.baseUrl, auth: { developerId: c.developerId, userId: oauth.userId, userApiKey: '', tokens: oauth }, oauth };
  }
  const key = await secrets.get(REMOTE_KEY_SECRET);
  if (!key) return undefined;
  return { baseUrl: c.baseUrl, auth: { developerId: c.developerId, userId: c.userId, userApiKey: key.toString('utf8') } };
}

/** Writes the saved choice (no secret in it). */
export function writeSavedConnection(db: PosDatabase, c: SavedConnection): void {
  setSetting(db, SETTING_KEY, JSON.stringify(c));
}

export async function saveConnection(db: PosDatabase, secrets: SecretStore, c: SavedConnection, userApiKey?: string): Promise<void> {
  if (c.kind === 'remote' && userApiKey) await secrets.set(REMOTE_KEY_SECRET, Buffer.from(userApiKey, 'utf8'));
  else if (c.kind === 'embedded') await secrets.delete(REMOTE_KEY_SECRET);
  setSetting(db, SETTING_KEY, JSON.stringify(c));
}

export interface ConnectionTest {
  ok: boolean;
  message: string;
  latencyMs: number | null;
}

export const CONNECTION_MESSAGES = {
  ok: (ms: number, user: string) => `Connected: the gateway answered in ${ms} ms and accepted the credentials of ${user}.`,
  refused: 'The gateway answered but refused these credentials: check the developer id, user id and API key.',
  notV2: 'Something answered at this address, but not a v2 gateway (the base URL usually ends in /v2).',
  unreachable: 'No gateway answered at this address: check the base URL and the network.',
} as const;

/** GET /users/me with the given credentials (no state is kept; the key is not logged). */
export async function testConnection(baseUrl: string, auth: GatewayAuth): Promise<ConnectionTest> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const user = await gatewayClient('connection-test', { baseUrl, auth }).me();
    const latencyMs = elapsed();
    return { ok: true, latencyMs, message: CONNECTION_MESSAGES.ok(latencyMs, user.username ?? auth.userId) };
  } catch (err) {
    const status = err instanceof GatewayError ? err.status : 0;
    if (status === 0) return { ok: false, latencyMs: null, message: CONNECTION_MESSAGES.unreachable };
    if (status === 401 || status === 403) return { ok: false, latencyMs: elapsed(), message: CONNECTION_MESSAGES.refused };
    return { ok: false, latencyMs: elapsed(), message: CONNECTION_MESSAGES.notV2 };
  }
}
