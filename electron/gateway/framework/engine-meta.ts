/**
 * engine_meta values that are secrets (the seed's API key, the OAuth sandbox client's
 * secret, the admin's login password, the SSO encryption key).
 *
 * Embedded in the app (EngineOptions.vaultKey given, the key held by the app's
 * SecretStore — the OS keychain in the desktop app), they are sealed with AES-256-GCM
 * under a key derived from it, so a copy of the data folder without the keychain reveals
 * none of them; a plaintext value from an older data folder is sealed the first time it
 * is read. The standalone sandbox engine (no vaultKey) keeps them readable: it exists to
 * hand its credentials to integrators through credentials.json.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { EngineContext } from './context';

const SEALED = 'sealed1:';

function metaKey(vaultKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', vaultKey, Buffer.alloc(0), 'ringup engine_meta v1', 32));
}

function seal(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  return SEALED + Buffer.concat([iv, c.getAuthTag(), body]).toString('base64');
}

/** A sealed engine_meta value opened with the app's vault key (tools and tests). */
export function unsealMetaValue(vaultKey: Buffer, stored: string): unknown {
  return JSON.parse(stored.startsWith(SEALED) ? unseal(metaKey(vaultKey), stored) : stored);
}

function unseal(key: Buffer, stored: string): string {
  const raw = Buffer.from(stored.slice(SEALED.length), 'base64');
  const d = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  d.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
}

/** Reads a JSON value of engine_meta, unsealing it (and sealing a plaintext one in place). */
export function readMeta<T>(ctx: EngineContext, name: string): T | undefined {
  const row = ctx.stmt('SELECT value FROM engine_meta WHERE key = ?').get(name) as { value: string } | undefined;
  if (!row) return undefined;
  const vaultKey = ctx.options.vaultKey;
  if (row.value.startsWith(SEALED)) {
    if (!vaultKey) throw new Error(`engine_meta '${name}' is sealed by the app's key; start the engine with that key.`);
    return unsealMetaValue(vaultKey, row.value) as T;
  }
  const value = JSON.parse(row.value) as T;
  if (vaultKey) {
    // Sealing a plaintext value from an older folder: secure_delete zeroes the old row's
    // bytes instead of leaving them in a free page of the file.
    const was = ctx.db.pragma('secure_delete', { simple: true }) as number;
    ctx.db.pragma('secure_delete = ON');
    try {
      writeMeta(ctx, name, value);
    } finally {
      ctx.db.pragma(`secure_delete = ${was ? 'ON' : 'OFF'}`);
    }
  }
  return value;
}

/**
 * A secret kept in an ordinary column (a postback receiver's Basic password): sealed like
 * engine_meta's values when the engine runs with the app's key, kept as is in the
 * standalone sandbox (no key; nothing to seal with). `null`/'' pass through.
 */
export function sealColumnSecret(ctx: EngineContext, plain: string | null | undefined): string | null {
  if (plain === null || plain === undefined || plain === '') return plain ?? null;
  const vaultKey = ctx.options.vaultKey;
  return vaultKey ? seal(metaKey(vaultKey), plain) : plain;
}

/** Opens a value sealed by sealColumnSecret (a plaintext one from an older folder as it is). */
export function openColumnSecret(ctx: EngineContext, stored: string | null): string | null {
  if (stored === null || !stored.startsWith(SEALED)) return stored;
  const vaultKey = ctx.options.vaultKey;
  if (!vaultKey) throw new Error("A sealed secret needs the app's key; start the engine with that key.");
  return unseal(metaKey(vaultKey), stored);
}

/** True for a value sealed by sealColumnSecret or writeMeta. */
export const isSealed = (stored: string | null): boolean => stored !== null && stored.startsWith(SEALED);

/** Writes a JSON value to engine_meta, sealed when the engine runs with the app's key. */
export function writeMeta(ctx: EngineContext, name: string, value: unknown): void {
  const json = JSON.stringify(value);
  const vaultKey = ctx.options.vaultKey;
  ctx.stmt('INSERT OR REPLACE INTO engine_meta (key, value) VALUES (?, ?)').run(name, vaultKey ? seal(metaKey(vaultKey), json) : json);
}
