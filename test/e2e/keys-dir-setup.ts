/**
 * Playwright's global setup: the node hosts the e2e tests start keep their keys under a
 * temporary keys root (RINGUP_KEYS_DIR, electron/core/keys/node-host-keys.ts), never in the home
 * folder; workers and the hosts they spawn inherit it. The teardown removes it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KEYS_DIR_ENV } from '../../electron/core/keys/node-host-keys';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'ringup-e2e-keys-'));
  process.env[KEYS_DIR_ENV] = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
