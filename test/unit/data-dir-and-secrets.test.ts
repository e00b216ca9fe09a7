import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dataDirFromArgv, defaultUserDataDir, resolveDataDir } from '../../electron/core/platform/data-dir';
import { DATA_FOLDER_ID_FILE, keysRoot, nodeHostKeysFolder, openNodeHostSecretStore } from '../../electron/core/keys/node-host-keys';
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
    const store = new FileSecretStore(join(d, 'secrets'));
    const key = await getOrCreateKey(store, 'vault-key');
    expect(key.length).toBe(32);
    expect(statSync(join(d, 'secrets')).mode & 0o777).toBe(0o700);
    expect(statSync(join(d, 'secrets', 'vault-key')).mode & 0o777).toBe(0o600);
    expect((await getOrCreateKey(new FileSecretStore(join(d, 'secrets')), 'vault-key')).equals(key)).toBe(true);
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

describe("the node host's keys", () => {
  it('default to a per-user keys folder beside the data folders, unless RINGUP_KEYS_DIR says where', () => {
    expect(keysRoot({}, 'linux', '/home/ann')).toBe('/home/ann/.config/ringup-keys');
    expect(keysRoot({ XDG_CONFIG_HOME: '/x' }, 'linux', '/home/ann')).toBe('/x/ringup-keys');
    expect(keysRoot({}, 'darwin', '/Users/ann')).toBe('/Users/ann/Library/Application Support/ringup-keys');
    expect(keysRoot({ RINGUP_KEYS_DIR: '/keys' }, 'linux', '/home/ann')).toBe('/keys');
  });

  it('live outside the data folder (0700 folders, 0600 files), named by the data folder, and follow it when it moves', async () => {
    const root = tmp();
    const env = { RINGUP_KEYS_DIR: join(root, 'keys') };
    const d = join(tmp(), 'data');
    mkdirSync(d);
    const store = openNodeHostSecretStore(d, env);
    const key = await getOrCreateKey(store, 'vault-key');
    expect(store.dir).toBe(nodeHostKeysFolder(d, env));
    expect(store.dir.startsWith(join(root, 'keys'))).toBe(true);
    expect(statSync(join(root, 'keys')).mode & 0o777).toBe(0o700);
    expect(statSync(store.dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(store.dir, 'vault-key')).mode & 0o777).toBe(0o600);
    // The data folder holds only its id, not a key.
    expect(readdirSync(d)).toEqual([DATA_FOLDER_ID_FILE]);
    expect(readFileSync(join(d, DATA_FOLDER_ID_FILE)).includes(key.toString('base64'))).toBe(false);

    const moved = join(tmp(), 'moved');
    renameSync(d, moved);
    expect((await openNodeHostSecretStore(moved, env).get('vault-key'))!.equals(key)).toBe(true);
    // Another data folder has keys of its own.
    expect(await openNodeHostSecretStore(tmp(), env).get('vault-key')).toBeNull();
  });

  it("move out of an older data folder's secrets/ on the first start; the desktop app's .enc files stay", async () => {
    const env = { RINGUP_KEYS_DIR: join(tmp(), 'keys') };
    const d = tmp();
    const key = Buffer.alloc(32, 5);
    mkdirSync(join(d, 'secrets'), { mode: 0o700 });
    writeFileSync(join(d, 'secrets', 'vault-key'), key.toString('base64') + '\n', { mode: 0o600 });
    writeFileSync(join(d, 'secrets', 'remote-gateway-key'), Buffer.from('an-api-key-0123456789').toString('base64') + '\n', { mode: 0o600 });
    writeFileSync(join(d, 'secrets', 'vault-key.enc'), 'desktop ciphertext', { mode: 0o600 });
    writeFileSync(join(d, 'secrets', 'vault-key.123.tmp'), 'half-written', { mode: 0o600 });

    const store = openNodeHostSecretStore(d, env);
    expect((await store.get('vault-key'))!.equals(key)).toBe(true);
    expect((await store.get('remote-gateway-key'))!.toString()).toBe('an-api-key-0123456789');
    expect(statSync(join(store.dir, 'remote-gateway-key')).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(d, 'secrets'))).toEqual(['vault-key.enc']);

    // Without the desktop file the old folder goes entirely; the next start finds the moved keys.
    rmSync(join(d, 'secrets', 'vault-key.enc'));
    expect((await openNodeHostSecretStore(d, env).get('vault-key'))!.equals(key)).toBe(true);
    expect(existsSync(join(d, 'secrets'))).toBe(false);
  });
});
