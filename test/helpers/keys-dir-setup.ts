/**
 * Every test file gets its own node-host keys root in a temporary folder (RINGUP_KEYS_DIR,
 * electron/core/keys/node-host-keys.ts): no test writes into the real home folder, and a host a
 * test spawns inherits the variable. Removed after the file's tests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { KEYS_DIR_ENV } from '../../electron/core/keys/node-host-keys';

const dir = mkdtempSync(join(tmpdir(), 'ringup-test-keys-'));
process.env[KEYS_DIR_ENV] = dir;
afterAll(() => rmSync(dir, { recursive: true, force: true }));
