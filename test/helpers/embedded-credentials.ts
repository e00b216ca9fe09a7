/**
 * The credentials of the engine embedded in an app (node host or core) with this data
 * folder, as tests need them to seed or check records through the v2 API.
 *
 * The embedded engine writes no credentials.json: its secrets stay sealed in engine_meta
 * under the app's vault key (electron/gateway/framework/engine-meta.ts). The node host
 * keeps that key in its keys folder outside the data folder (node-host-keys.ts, under the
 * tests' RINGUP_KEYS_DIR), so a test can open them the way only someone holding the key
 * can; engine.json gives the rest (base_url, ids). `embeddedClient` is a v2 client with them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { GatewayClient } from '../../electron/client/gateway-client';
import { VAULT_KEY_SECRET } from '../../electron/core/app-core';
import { nodeHostKeysFolder } from '../../electron/core/keys/node-host-keys';
import { DATABASE_FILE, PUBLIC_INFO_FILE } from '../../electron/gateway/engine';
import { unsealMetaValue } from '../../electron/gateway/framework/engine-meta';
import { SEED_META_KEY } from '../../electron/gateway/merchant/seed';
import { OAUTH_META_KEY, type OAuthSeed } from '../../electron/gateway/oauth/oauth-module';
import type { SeedInfo } from '../../electron/gateway/framework/context';
import type { StandaloneCreds } from './standalone-engine';

/** What the standalone engine's credentials.json holds. */
export type EngineCreds = Record<string, string> & StandaloneCreds;

/** `keysFolder`: the folder of the app's FileSecretStore (the node host's keys folder of this data folder unless given). */
export function embeddedCredentials(appDataDir: string, keysFolder = nodeHostKeysFolder(appDataDir)): EngineCreds {
  const gatewayDir = join(appDataDir, 'gateway');
  const pub = JSON.parse(readFileSync(join(gatewayDir, PUBLIC_INFO_FILE), 'utf8')) as Record<string, Record<string, unknown>>;
  const key = Buffer.from(readFileSync(join(keysFolder, VAULT_KEY_SECRET), 'utf8').trim(), 'base64');
  const db = new Database(join(gatewayDir, DATABASE_FILE), { readonly: true, fileMustExist: true });
  try {
    const meta = <T>(name: string): T => unsealMetaValue(key, (db.prepare('SELECT value FROM engine_meta WHERE key = ?').get(name) as { value: string }).value) as T;
    const seed = meta<SeedInfo>(SEED_META_KEY);
    const oauth = meta<OAuthSeed>(OAUTH_META_KEY);
    return {
      ...pub,
      user_api_key: seed.userApiKey,
      oauth: { ...pub.oauth, client_secret: oauth.client.client_secret },
      login: { ...pub.login, password: oauth.password },
      developer_encryption_key: oauth.developer_encryption_key,
    } as unknown as EngineCreds;
  } finally {
    db.close();
  }
}

/** The engine's admin user as a v2 client, to check what the gateway itself recorded (read afresh: the engine's port changes on a restart). */
export function embeddedClient(appDataDir: string): GatewayClient {
  const c = embeddedCredentials(appDataDir);
  return new GatewayClient({ baseUrl: c.base_url, auth: { developerId: c.developer_id, userId: c.user_id, userApiKey: c.user_api_key } });
}
