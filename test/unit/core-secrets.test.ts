import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startCore, VAULT_KEY_SECRET } from '../../electron/core/app-core';
import { FileSecretStore } from '../../electron/secrets/file-secret-store';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('core secrets', () => {
  it("takes the engine's vault key from the secret store it is given, and keeps it across restarts", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ringup-core-'));
    const keyDir = mkdtempSync(join(tmpdir(), 'ringup-keys-'));
    dirs.push(dataDir, keyDir);
    const secrets = new FileSecretStore(keyDir);

    const core = await startCore({ dataDir, shell: 'electron', secrets, healthIntervalMs: 0 });
    await core.close();
    const key = await secrets.get(VAULT_KEY_SECRET);
    expect(key?.length).toBe(32);
    // Nothing fell back to a key file inside the data folder.
    expect(existsSync(join(dataDir, 'secrets', VAULT_KEY_SECRET))).toBe(false);
    expect(existsSync(join(dataDir, 'gateway', 'secrets', VAULT_KEY_SECRET))).toBe(false);

    const again = await startCore({ dataDir, shell: 'electron', secrets, healthIntervalMs: 0 });
    await again.close();
    expect((await secrets.get(VAULT_KEY_SECRET))!.equals(key!)).toBe(true);
  });
});
