/**
 * A replacement register: the old register's engine folder (`gateway/`) is copied into the
 * new data folder, but its secrets are sealed under the old register's vault key
 * (the engine's engine_meta), which only the key backup brings over; the engine answers
 * whether a key opens a folder (engineFolderSeal, through its public entry engine.ts).
 *
 * So that the new register still starts — and a manager can restore that backup on the
 * System screen — a folder sealed under another key is set aside as
 * `gateway-awaiting-keys/` and the engine starts fresh. On a later start whose vault key
 * opens it (the backup was restored), it goes back in place; the fresh folder it replaces
 * is kept as `gateway-replaced-<time>/`, never deleted.
 */
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { engineFolderSeal } from '../../gateway/engine';

export const GATEWAY_DIR = 'gateway';
export const AWAITING_KEYS_DIR = 'gateway-awaiting-keys';

/**
 * Puts the engine folder this start can open in place. Answers whether a copied folder
 * still waits for its keys (the System screen says so).
 */
export function prepareGatewayFolder(dataDir: string, vaultKey: Buffer, now = Date.now()): { awaitingKeys: boolean } {
  const current = join(dataDir, GATEWAY_DIR);
  const awaiting = join(dataDir, AWAITING_KEYS_DIR);
  if (existsSync(awaiting) && engineFolderSeal(awaiting, vaultKey) === 'opens') {
    if (existsSync(current)) renameSync(current, join(dataDir, `${GATEWAY_DIR}-replaced-${now}`));
    renameSync(awaiting, current);
    return { awaitingKeys: false };
  }
  if (engineFolderSeal(current, vaultKey) === 'other-key') {
    renameSync(current, existsSync(awaiting) ? join(dataDir, `${AWAITING_KEYS_DIR}-${now}`) : awaiting);
  }
  return { awaitingKeys: existsSync(awaiting) };
}

export const AWAITING_KEYS_MESSAGE =
  'Gateway data copied from another register is waiting for its keys. Restore that register’s key backup below, then start Ringup again: its sales and saved cards come back.';
