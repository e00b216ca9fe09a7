/**
 * A replacement register: the old register's engine folder (`gateway/`) is copied into the
 * new data folder, but its secrets are sealed under the old register's vault key
 * (electron/gateway/framework/engine-meta.ts), which only the key backup brings over.
 *
 * So that the new register still starts — and a manager can restore that backup on the
 * System screen — a folder sealed under another key is set aside as
 * `gateway-awaiting-keys/` and the engine starts fresh. On a later start whose vault key
 * opens it (the backup was restored), it goes back in place; the fresh folder it replaces
 * is kept as `gateway-replaced-<time>/`, never deleted.
 */
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DATABASE_FILE } from '../../gateway/engine';
import { unsealMetaValue } from '../../gateway/framework/engine-meta';
import { SEED_META_KEY } from '../../gateway/merchant/seed';

export const GATEWAY_DIR = 'gateway';
export const AWAITING_KEYS_DIR = 'gateway-awaiting-keys';

type Seal = 'none' | 'opens' | 'other-key';

/** Whether `vaultKey` opens the engine folder's sealed seed (plaintext and empty folders open). */
export function sealOf(engineDir: string, vaultKey: Buffer): Seal {
  const file = join(engineDir, DATABASE_FILE);
  if (!existsSync(file)) return 'none';
  // Any other trouble with the file (damage, a lock) is left for the engine's start to report.
  const db = new Database(file, { readonly: true, fileMustExist: true });
  let stored: string | undefined;
  try {
    const hasMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'engine_meta'").get();
    stored = hasMeta ? (db.prepare('SELECT value FROM engine_meta WHERE key = ?').get(SEED_META_KEY) as { value: string } | undefined)?.value : undefined;
  } finally {
    db.close();
  }
  if (stored === undefined) return 'none';
  try {
    unsealMetaValue(vaultKey, stored);
    return 'opens';
  } catch {
    // AES-GCM refuses a key that did not seal it.
    return 'other-key';
  }
}

/**
 * Puts the engine folder this start can open in place. Answers whether a copied folder
 * still waits for its keys (the System screen says so).
 */
export function prepareGatewayFolder(dataDir: string, vaultKey: Buffer, now = Date.now()): { awaitingKeys: boolean } {
  const current = join(dataDir, GATEWAY_DIR);
  const awaiting = join(dataDir, AWAITING_KEYS_DIR);
  if (existsSync(awaiting) && sealOf(awaiting, vaultKey) === 'opens') {
    if (existsSync(current)) renameSync(current, join(dataDir, `${GATEWAY_DIR}-replaced-${now}`));
    renameSync(awaiting, current);
    return { awaitingKeys: false };
  }
  if (sealOf(current, vaultKey) === 'other-key') {
    renameSync(current, existsSync(awaiting) ? join(dataDir, `${AWAITING_KEYS_DIR}-${now}`) : awaiting);
  }
  return { awaitingKeys: existsSync(awaiting) };
}

export const AWAITING_KEYS_MESSAGE =
  'Gateway data copied from another register is waiting for its keys. Restore that register’s key backup below, then start Ringup again: its sales and saved cards come back.';
