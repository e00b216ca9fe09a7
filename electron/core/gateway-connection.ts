/**
 * Which gateway the counter uses, as a manager set it on the Gateway screen: the
 * embedded engine (the default) or a remote gateway (base URL, developer id, user id and
 * API key). The key is kept only in the SecretStore; the rest in the app database. The
 * choice applies at the next start (the engine, the clients and the health probe are set
 * up once). Environment variables (RINGUP_GATEWAY_URL …) win over the saved choice.
 * Simplification: API-key sign-in only; OAuth sign-in from the app is not built yet.
 */
import type { GatewayAuth } from '../client/gateway-client';
import type { SecretStore } from '../secrets/secret-store';
import type { PosDatabase } from './pos-database';

export const REMOTE_KEY_SECRET = 'remote-gateway-key';
const SETTING_KEY = 'gateway_connection';

export interface SavedConnection {
  kind: 'embedded' | 'remote';
  baseUrl?: string;
  developerId?: string;
  userId?: string;
}

export function readSavedConnection(db: PosDatabase): SavedConnection | null {
  const row = db.prepare('SELECT value FROM settings WHERE key = ?').get(SETTING_KEY) as { value: string } | undefined;
  if (!row) return null;
  try {
    return JSON.parse(row.value) as SavedConnection;
  } catch {
    return null;
  }
}

/** The saved remote gateway with its key, when a manager chose one (and its key is still in the store). */
export async function savedRemote(db: PosDatabase, secrets: SecretStore): Promise<{ baseUrl: string; auth: GatewayAuth } | undefined> {
  const c = readSavedConnection(db);
  if (c?.kind !== 'remote' || !c.baseUrl || !c.developerId || !c.userId) return undefined;
  const key = await secrets.get(REMOTE_KEY_SECRET);
  if (!key) return undefined;
  return { baseUrl: c.baseUrl, auth: { developerId: c.developerId, userId: c.userId, userApiKey: key.toString('utf8') } };
}

export async function saveConnection(db: PosDatabase, secrets: SecretStore, c: SavedConnection, userApiKey?: string): Promise<void> {
  if (c.kind === 'remote' && userApiKey) await secrets.set(REMOTE_KEY_SECRET, Buffer.from(userApiKey, 'utf8'));
  else if (c.kind === 'embedded') await secrets.delete(REMOTE_KEY_SECRET);
  db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(SETTING_KEY, JSON.stringify(c));
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
  try {
    const res = await fetch(`${baseUrl.replace(/\/+$/, '')}/users/me`, {
      headers: { 'developer-id': auth.developerId, 'user-id': auth.userId, 'user-api-key': auth.userApiKey, accept: 'application/json' },
      signal: AbortSignal.timeout(5_000),
    });
    const latencyMs = Math.round(performance.now() - started);
    const body = (await res.json().catch(() => null)) as { user?: { username?: string } } | null;
    if (res.ok && body?.user) return { ok: true, latencyMs, message: CONNECTION_MESSAGES.ok(latencyMs, body.user.username ?? auth.userId) };
    if (res.status === 401 || res.status === 403) return { ok: false, latencyMs, message: CONNECTION_MESSAGES.refused };
    return { ok: false, latencyMs, message: CONNECTION_MESSAGES.notV2 };
  } catch {
    return { ok: false, latencyMs: null, message: CONNECTION_MESSAGES.unreachable };
  }
}
