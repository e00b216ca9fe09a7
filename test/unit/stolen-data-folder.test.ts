/**
 * Issue 11, point 6: a copy of the data folder without the key reveals no secret.
 *
 * The node host's own SecretStore, as `npm start` runs it: key files in its keys folder
 * outside the data folder (electron/core/keys/node-host-keys.ts; under this file's temporary
 * RINGUP_KEYS_DIR), as the OS keychain holds safeStorage's key in the desktop app. After a
 * day's work — sign-in, a sale, a refund, a saved card, the cashier's and installer's engine
 * users — every file under the data folder (databases, their WAL, JSON, the engine's
 * folder) is searched for every secret the app and its embedded engine hold, in the
 * encodings they could be written in. An older data folder, whose key files sat in
 * `<data>/secrets/`, gives them up to the keys folder on its next start.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCore, type Core } from '../../electron/core/app-core';
import { CASHIER_CREDENTIALS_SECRET } from '../../electron/core/gateway/role-credentials';
import { CREDENTIALS_FILE, startEngine } from '../../electron/gateway/engine';
import { createDispatcher, type Dispatch } from '../../electron/ipc/dispatcher';
import { openNodeHostSecretStore } from '../../electron/core/keys/node-host-keys';
import { FileSecretStore } from '../../electron/secrets/file-secret-store';
import type { HandlerResults } from '../../shared/ipc/contract';
import type { Result } from '../../shared/result';
import { embeddedCredentials } from '../helpers/embedded-credentials';
import { value } from '../helpers/core-harness';

const ORIGIN = 'http://127.0.0.1:5999';
const PAN = '4111111111111111';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** Each secret in the forms a file could hold it: as text, and a binary key also as base64 and hex. */
function forms(secret: string | Buffer): Buffer[] {
  if (typeof secret === 'string') return [Buffer.from(secret)];
  return [secret, Buffer.from(secret.toString('base64')), Buffer.from(secret.toString('hex'))];
}

/** Names every (file, secret) pair where the file holds the secret. */
function leaks(dataDir: string, secrets: Record<string, string | Buffer>): string[] {
  const found: string[] = [];
  for (const file of filesUnder(dataDir)) {
    const bytes = readFileSync(file);
    for (const [name, secret] of Object.entries(secrets)) {
      if (forms(secret).some((f) => bytes.includes(f))) found.push(`${file.slice(dataDir.length + 1)} holds ${name}`);
    }
  }
  return found;
}

let dataDir = '';
let core: Core;
let call: <C extends keyof HandlerResults>(channel: C, arg?: unknown) => Promise<Result<HandlerResults[C]>>;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'ringup-stolen-'));
  // No `secrets`: the node host's own store.
  core = await startCore({ dataDir, shell: 'node-host', healthIntervalMs: 0 });
  const dispatch: Dispatch = createDispatcher(core.handlers, { allowedOrigins: [ORIGIN] });
  call = async (channel, arg) => (await dispatch(channel, { url: `${ORIGIN}/`, isMainFrame: true }, arg)) as never;
});

afterAll(async () => {
  await core?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function secretsHeld(dataDir: string): Promise<Record<string, string | Buffer>> {
  const creds = embeddedCredentials(dataDir) as unknown as {
    user_api_key: string;
    developer_encryption_key: string;
    oauth: { client_secret: string };
    login: { password: string };
  };
  const keychain = openNodeHostSecretStore(dataDir);
  const cashier = JSON.parse(((await keychain.get(CASHIER_CREDENTIALS_SECRET)) as Buffer).toString('utf8')) as { userApiKey: string };
  const held: Record<string, string | Buffer> = {
    'the admin API key': creds.user_api_key,
    "the cashier's API key": cashier.userApiKey,
    'the SSO encryption key': creds.developer_encryption_key,
    'the OAuth client secret': creds.oauth.client_secret,
    "the admin's login password": creds.login.password,
    'the card number': PAN,
  };
  for (const name of readdirSync(keychain.dir)) {
    const v = await keychain.get(name);
    if (v) held[`the keychain's ${name}`] = v;
  }
  return held;
}

describe('a stolen data folder', () => {
  it('holds none of the secrets after sign-in, a sale, a refund and a saved card — while running and after close', async () => {
    value(await call('auth:sign-in', { userId: value(await call('auth:users')).users.find((u) => u.name === 'Morgan')!.id, pin: '1234' }));
    const sale = value(await call('sale:charge', { subtotalCents: 1234, taxCents: 0, tipCents: 0, card: { number: PAN, expiry: '1230', cvv: '999', zip: '32606' }, clientRef: 'stolen-1' }));
    expect(sale.approved).toBe(true);
    value(await call('transactions:refund', { id: sale.transaction.id, amountCents: 234 }));
    const pat = value(await call('vault:add-contact', { firstName: 'Pat', lastName: 'Doe', email: 'pat@example.com' }));
    value(await call('vault:add-card', { contactId: pat.id, holderName: 'Pat Doe', number: PAN, expiry: '1230' }));

    const held = await secretsHeld(dataDir);
    expect(Object.keys(held).length).toBeGreaterThanOrEqual(9);
    expect(leaks(dataDir, held)).toEqual([]);
    // Not written at all: the engine's credentials file (its admin key).
    expect(filesUnder(dataDir).some((f) => f.endsWith(CREDENTIALS_FILE))).toBe(false);

    await core.close();
    expect(leaks(dataDir, held)).toEqual([]);
    core = await startCore({ dataDir, shell: 'node-host', healthIntervalMs: 0 });
    expect(core.status().gateway).toMatchObject({ mode: 'embedded' });
  });

  it('an older node-host folder gives its <data>/secrets key files up on the next start, and its saved card still charges', async () => {
    const old = mkdtempSync(join(tmpdir(), 'ringup-oldkeys-'));
    try {
      // As older versions ran the node host: its key files inside the data folder.
      let c = await startCore({ dataDir: old, shell: 'node-host', healthIntervalMs: 0, secrets: new FileSecretStore(join(old, 'secrets')) });
      let d: Dispatch = createDispatcher(c.handlers, { allowedOrigins: [ORIGIN] });
      const on = async <C extends keyof HandlerResults>(channel: C, arg?: unknown) => (await d(channel, { url: `${ORIGIN}/`, isMainFrame: true }, arg)) as Result<HandlerResults[C]>;
      const signIn = async () => value(await on('auth:sign-in', { userId: value(await on('auth:users')).users.find((u) => u.name === 'Morgan')!.id, pin: '1234' }));
      await signIn();
      const pat = value(await on('vault:add-contact', { firstName: 'Pat', lastName: 'Old', email: '' }));
      const saved = value(await on('vault:add-card', { contactId: pat.id, holderName: 'Pat Old', number: PAN, expiry: '1230' }));
      await c.close();
      expect(readdirSync(join(old, 'secrets'))).toContain('vault-key');

      c = await startCore({ dataDir: old, shell: 'node-host', healthIntervalMs: 0 });
      d = createDispatcher(c.handlers, { allowedOrigins: [ORIGIN] });
      try {
        await signIn();
        const charged = value(await on('vault:charge', { id: saved.id, subtotalCents: 700, taxCents: 0, tipCents: 0, clientRef: 'old-keys-1' }));
        expect(charged.approved, JSON.stringify(charged)).toBe(true);
        expect(existsSync(join(old, 'secrets'))).toBe(false);
        expect(leaks(old, await secretsHeld(old))).toEqual([]);
      } finally {
        await c.close();
      }
    } finally {
      rmSync(old, { recursive: true, force: true });
    }
  });

  it('an older folder’s plaintext engine secrets are sealed on the next start, and the same credentials still work', async () => {
    const old = mkdtempSync(join(tmpdir(), 'ringup-oldengine-'));
    try {
      // The engine as older versions ran it in the app: no key, credentials.json written.
      const before = await startEngine({ dataDir: old, port: 0, schedulerIntervalMs: 0 });
      const plainKey = before.credentials.user_api_key;
      await before.close();
      expect(readFileSync(join(old, CREDENTIALS_FILE), 'utf8')).toContain(plainKey);

      const vaultKey = Buffer.alloc(32, 7);
      const after = await startEngine({ dataDir: old, port: 0, schedulerIntervalMs: 0, vaultKey });
      try {
        expect(after.credentials.user_api_key).toBe(plainKey);
        const me = await fetch(`${after.baseUrl}/users/me`, { headers: { 'developer-id': after.credentials.developer_id, 'user-id': after.credentials.user_id, 'user-api-key': plainKey } });
        expect(me.status).toBe(200);
      } finally {
        await after.close();
      }
      expect(leaks(old, { 'the admin API key': plainKey, 'the OAuth client secret': (after.credentials.oauth as { client_secret: string }).client_secret })).toEqual([]);
    } finally {
      rmSync(old, { recursive: true, force: true });
    }
  });

  it('a sealed engine folder refuses to start without its key, in a sentence', async () => {
    const d = mkdtempSync(join(tmpdir(), 'ringup-sealed-'));
    try {
      const e = await startEngine({ dataDir: d, port: 0, schedulerIntervalMs: 0, vaultKey: Buffer.alloc(32, 9) });
      await e.close();
      await expect(startEngine({ dataDir: d, port: 0, schedulerIntervalMs: 0 })).rejects.toThrow(/sealed by the app's key/);
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });
});
