/**
 * Whether an app's vault key opens an engine data folder, asked before the engine starts (the
 * core sets aside a folder copied from another register, sealed under that register's key:
 * electron/core/gateway/sealed-gateway.ts). Answered by the engine, offered through engine.ts,
 * because only the engine knows where its sealed seed is kept and how it is sealed
 * (framework/engine-meta.ts): the core reaches the engine only through its public entry.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { unsealMetaValue } from './framework/engine-meta';
import { SEED_META_KEY } from './merchant/seed';
import { DATABASE_FILE } from './engine-files';

/** `none`: no database or no sealed seed yet (plaintext and empty folders open); `other-key`: sealed under another key. */
export type EngineFolderSeal = 'none' | 'opens' | 'other-key';

export function engineFolderSeal(engineDir: string, vaultKey: Buffer): EngineFolderSeal {
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
