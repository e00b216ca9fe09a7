/**
 * Where the core keeps its secrets (the vault encryption key, API keys, OAuth tokens).
 * Two implementations: Electron's safeStorage in the app (safe-storage-store.ts) and
 * 0600 key files outside the data folder in the node host (file-secret-store.ts,
 * core/keys/node-host-keys.ts). Secrets never leave the
 * main process; nothing in the IPC contract returns one.
 */
import { randomBytes } from 'node:crypto';

export interface SecretStore {
  /** Human-readable backend name for diagnostics (never the secret). */
  readonly backend: string;
  get(name: string): Promise<Buffer | null>;
  set(name: string, value: Buffer): Promise<void>;
  delete(name: string): Promise<void>;
}

/** Secret names are file-name safe by construction. */
export function isSecretName(name: string): boolean {
  return /^[a-z0-9][a-z0-9._-]{0,63}$/.test(name);
}

export function assertSecretName(name: string): void {
  if (!isSecretName(name)) throw new Error(`Invalid secret name "${name}"`);
}

/** Returns the named random key, creating and storing it on first use. */
export async function getOrCreateKey(store: SecretStore, name: string, bytes = 32): Promise<Buffer> {
  const existing = await store.get(name);
  if (existing) return existing;
  const key = randomBytes(bytes);
  await store.set(name, key);
  return key;
}
