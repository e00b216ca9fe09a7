import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dataDirFromArgv, defaultUserDataDir, resolveDataDir } from '../../electron/core/data-dir';
import { FileSecretStore } from '../../electron/secrets/file-secret-store';
import { getOrCreateKey } from '../../electron/secrets/secret-store';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'ringup-unit-'));
  dirs.push(d);
  return d;
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('data folder', () => {
  it('defaults to the per-user app data folder of each platform', () => {
    expect(defaultUserDataDir('linux', {}, '/home/ann')).toBe('/home/ann/.config/Ringup');
    expect(defaultUserDataDir('linux', { XDG_CONFIG_HOME: '/x' }, '/home/ann')).toBe('/x/Ringup');
    expect(defaultUserDataDir('darwin', {}, '/Users/ann')).toBe('/Users/ann/Library/Application Support/Ringup');
    expect(defaultUserDataDir('win32', { APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' }, 'C:\\Users\\ann')).toContain('Ringup');
  });

  it('takes --data DIR, --data=DIR, or RINGUP_DATA_DIR, and creates the folder', () => {
    expect(dataDirFromArgv(['node', 'x', '--data', '/a'])).toBe('/a');
    expect(dataDirFromArgv(['--data=/b'])).toBe('/b');
    const d = join(tmp(), 'nested', 'data');
    expect(resolveDataDir(['--data', d], {})).toBe(d);
    expect(statSync(d).isDirectory()).toBe(true);
    const e = join(tmp(), 'from-env');
    expect(resolveDataDir([], { RINGUP_DATA_DIR: e })).toBe(e);
  });
});

describe('file secret store', () => {
  it('keeps each secret in a 0600 file inside a 0700 folder, and returns the same key later', async () => {
    const d = tmp();
    const store = new FileSecretStore(d);
    const key = await getOrCreateKey(store, 'vault-key');
    expect(key.length).toBe(32);
    expect(statSync(join(d, 'secrets')).mode & 0o777).toBe(0o700);
    expect(statSync(join(d, 'secrets', 'vault-key')).mode & 0o777).toBe(0o600);
    expect((await getOrCreateKey(new FileSecretStore(d), 'vault-key')).equals(key)).toBe(true);
    expect(readFileSync(join(d, 'secrets', 'vault-key'), 'utf8').trim()).toBe(key.toString('base64'));
    await store.delete('vault-key');
    expect(await store.get('vault-key')).toBeNull();
  });

  it('refuses names that could escape its folder', async () => {
    const store = new FileSecretStore(tmp());
    await expect(store.get('../etc/passwd')).rejects.toThrow(/Invalid secret name/);
    await expect(store.set('a/b', Buffer.from('x'))).rejects.toThrow(/Invalid secret name/);
  });
});
