/**
 * Which gateway this run talks to, and with whose credentials — decided once at start
 * (moved out of app-core.ts so that file only assembles the slices):
 *   - a copy of another register's data folder reaches no gateway at all (register-binding.ts):
 *     its client points at an address that never resolves and every channel using it is refused;
 *   - a remote gateway (environment variables, or the one a manager saved) with its credentials;
 *   - else the embedded engine, in its own supervised process (or in this process for unit tests
 *     and tools), its sandbox OAuth client when the run signs in with OAuth, and the engine users
 *     of the cashier and installer roles (role-credentials.ts).
 */
import { join } from 'node:path';
import type { PosDatabase } from '../platform/pos-database';
import type { GatewayAuth, GatewayClient } from '../../client/gateway-client';
import { startEngine, type EngineCredentials, type RunningEngine } from '../../gateway/engine';
import { getOrCreateKey, type SecretStore } from '../../secrets/secret-store';
import { EngineSupervisor, type EngineState, type SpawnEngine } from './engine-supervisor';
import { gatewayClient } from './gateway-clients';
import { readSavedConnection } from './gateway-connection';
import type { EmbeddedOAuth } from './gateway-oauth';
import { OAuthSession } from './oauth-session';
import { roleCredentials, type EngineRole } from './role-credentials';
import { GATEWAY_DIR, prepareGatewayFolder } from './sealed-gateway';

/** Name of the embedded engine's account-vault key in the secret store. */
export const VAULT_KEY_SECRET = 'vault-key';

/** Where a copied data folder's core points its (unused) gateway client: `.invalid` never resolves (RFC 2606). */
const NO_GATEWAY_URL = 'http://register-copy.invalid/v2';

export interface RemoteGateway {
  baseUrl: string;
  auth: GatewayAuth;
  /** Location and merchant account sales run against (RINGUP_LOCATION_ID / RINGUP_PRODUCT_TRANSACTION_ID); the gateway's defaults apply when absent. */
  locationId?: string;
  productTransactionId?: string;
  /** Trust only this certificate: the store's shared gateway, behind the store server's own TLS (issue 24, store-gateway.ts). */
  pinnedCertPem?: string;
}

export interface GatewayStartOptions {
  dataDir: string;
  db: PosDatabase;
  secrets: SecretStore;
  /** This data folder is a copy of another register's. */
  copy: boolean;
  /** The remote gateway to use (from the environment or saved by a manager); absent: the embedded engine. */
  remote: RemoteGateway | undefined;
  /** The saved remote gateway's OAuth session, when it signs in with OAuth. */
  savedOAuth: OAuthSession | undefined;
  /** The remote gateway comes from environment variables (a saved OAuth sign-in to the engine does not apply). */
  fromEnvironment: boolean;
  enginePort?: number;
  engineProcess?: SpawnEngine;
  timeout: { timeoutMs?: number };
  /** The signed-in window's role credentials, read per request (set once the user directory exists). */
  authFor: () => GatewayAuth | undefined;
  /** The engine process's state, as its supervisor sees it (restarting, back). */
  onEngineState: (s: EngineState) => void;
}

export interface StartedGateway {
  /** The counter's client: each request goes as the signed-in window's role user. */
  client: GatewayClient;
  /** The run's credentials: one object every client reads per request (signing out empties it). */
  auth: GatewayAuth;
  /** The embedded engine's cashier and installer users (a remote gateway has one set of credentials). */
  roleUsers: Partial<Record<EngineRole, GatewayAuth>>;
  engine?: RunningEngine;
  supervisor?: EngineSupervisor;
  embeddedOAuth?: EmbeddedOAuth;
  oauth?: OAuthSession;
  locationId?: string;
  productTransactionId?: string;
  /** A replacement register's copied engine folder waits aside for the key backup. */
  awaitingKeys: boolean;
}

export async function startGateway(o: GatewayStartOptions): Promise<StartedGateway> {
  const { timeout, authFor } = o;
  if (o.copy) {
    // No engine (its scheduler would run the original's recurring billing), no sign-in: every channel that would use this client is refused.
    const auth = { developerId: '', userId: '', userApiKey: '' };
    return { client: gatewayClient('counter', { baseUrl: NO_GATEWAY_URL, auth, ...timeout }), auth, roleUsers: {}, awaitingKeys: false };
  }
  if (o.remote) {
    const r = o.remote;
    return {
      client: gatewayClient('counter', { baseUrl: r.baseUrl, auth: r.auth, authFor, ...timeout, ...(r.pinnedCertPem ? { pinnedCertPem: r.pinnedCertPem } : {}) }),
      auth: r.auth,
      roleUsers: {},
      awaitingKeys: false,
      ...(o.savedOAuth ? { oauth: o.savedOAuth } : {}),
      ...(r.locationId ? { locationId: r.locationId } : {}),
      ...(r.productTransactionId ? { productTransactionId: r.productTransactionId } : {}),
    };
  }
  const vaultKey = await getOrCreateKey(o.secrets, VAULT_KEY_SECRET);
  const awaitingKeys = prepareGatewayFolder(o.dataDir, vaultKey).awaitingKeys;
  const engineOpts = { dataDir: join(o.dataDir, GATEWAY_DIR), port: o.enginePort ?? 0, vaultKey };
  let engine: RunningEngine | undefined;
  let supervisor: EngineSupervisor | undefined;
  let c: EngineCredentials;
  if (o.engineProcess) {
    supervisor = new EngineSupervisor({ ...engineOpts, spawn: o.engineProcess, onState: (s) => o.onEngineState(s), onLog: (line) => console.error(`[core] ${line}`) });
    c = await supervisor.start();
  } else {
    engine = await startEngine(engineOpts);
    c = engine.credentials;
  }
  let auth: GatewayAuth = { developerId: c.developer_id, userId: c.user_id, userApiKey: c.user_api_key };
  let embeddedOAuth: EmbeddedOAuth | undefined;
  let oauth: OAuthSession | undefined;
  const sandbox = c.oauth as { client_id?: string; client_secret?: string } | undefined;
  if (typeof c.auth_url === 'string' && sandbox?.client_id && sandbox.client_secret) {
    embeddedOAuth = { baseUrl: c.base_url, developerId: c.developer_id, authUrl: c.auth_url, clientId: sandbox.client_id, clientSecret: sandbox.client_secret };
    // Signed in to the embedded engine with OAuth: its own sandbox client, at this start's port.
    if (!o.fromEnvironment && readSavedConnection(o.db)?.auth === 'oauth') {
      oauth = await OAuthSession.load(o.secrets, { authUrl: embeddedOAuth.authUrl, clientId: embeddedOAuth.clientId, clientSecret: embeddedOAuth.clientSecret });
      if (oauth) auth = { developerId: c.developer_id, userId: oauth.userId, userApiKey: '', tokens: oauth };
    }
  }
  const roleUsers: Partial<Record<EngineRole, GatewayAuth>> = {};
  for (const role of ['cashier', 'installer'] as const) {
    roleUsers[role] = await roleCredentials(role, { baseUrl: c.base_url, admin: auth, locationId: c.location_id, secrets: o.secrets });
  }
  return {
    client: gatewayClient('counter', { baseUrl: c.base_url, auth, authFor, ...timeout }),
    auth,
    roleUsers,
    awaitingKeys,
    locationId: c.location_id,
    productTransactionId: c.cc_product_transaction_id,
    ...(engine ? { engine } : {}),
    ...(supervisor ? { supervisor } : {}),
    ...(embeddedOAuth ? { embeddedOAuth } : {}),
    ...(oauth ? { oauth } : {}),
  };
}
