/**
 * Desktop secret store: each secret encrypted with Electron's safeStorage (the OS
 * keychain: Keychain, DPAPI, libsecret/kwallet) and kept as ciphertext in a 0600 file.
 * On Linux without a keyring safeStorage falls back to the hard-coded `basic_text`
 * key; like Signal Desktop, we refuse that unless the user opted in, because it would
 * only pretend to protect the keys.
 */
import { safeStorage } from 'electron';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertSecretName, type SecretStore } from './secret-store';

export const SAFE_STORAGE_ERRORS = {
  unavailable: 'The operating system offers no secure storage for Ringup\'s keys. Start Ringup with --allow-plaintext-keys to accept weaker protection.',
} as const;

export class SafeStorageSecretStore implements SecretStore {
  readonly backend: string;
  private readonly dir: string;

  constructor(dataDir: string, opts: { allowBasicText?: boolean } = {}) {
    const linuxBackend = process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : 'os';
    if (!safeStorage.isEncryptionAvailable() || (linuxBackend === 'basic_text' && !opts.allowBasicText)) {
      throw new Error(SAFE_STORAGE_ERRORS.unavailable);
    }
    this.backend = `safeStorage:${linuxBackend}`;
    this.dir = join(dataDir, 'secrets');
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
  }

  async get(name: string): Promise<Buffer | null> {
    assertSecretName(name);
    try {
      const cipher = readFileSync(join(this.dir, `${name}.enc`));
      return Buffer.from(safeStorage.decryptString(cipher), 'base64');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async set(name: string, value: Buffer): Promise<void> {
    assertSecretName(name);
    const target = join(this.dir, `${name}.enc`);
    const tmp = `${target}.${process.pid}.tmp`;
    writeFileSync(tmp, safeStorage.encryptString(value.toString('base64')), { mode: 0o600 });
    renameSync(tmp, target);
  }

  async delete(name: string): Promise<void> {
    assertSecretName(name);
    rmSync(join(this.dir, `${name}.enc`), { force: true });
  }
}
