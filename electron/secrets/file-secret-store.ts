/**
 * Node-host secret store: one file per secret in its folder, the folder 0700 and each
 * file 0600, written atomically (temp file + rename). This protects against other users
 * of the machine, not against the same user; the desktop app uses the OS keychain through
 * safeStorage instead. The node host's folder is outside the data folder
 * (core/keys/node-host-keys.ts); the standalone engine keeps its vault key in `<DIR>/secrets/`.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertSecretName, type SecretStore } from './secret-store';

export class FileSecretStore implements SecretStore {
  readonly backend = 'file-0600';
  /** The folder holding the files (created 0700). */
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
  }

  async get(name: string): Promise<Buffer | null> {
    assertSecretName(name);
    try {
      return Buffer.from(readFileSync(join(this.dir, name), 'utf8').trim(), 'base64');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async set(name: string, value: Buffer): Promise<void> {
    assertSecretName(name);
    const target = join(this.dir, name);
    const tmp = `${target}.${process.pid}.tmp`;
    writeFileSync(tmp, value.toString('base64') + '\n', { mode: 0o600 });
    renameSync(tmp, target);
  }

  async delete(name: string): Promise<void> {
    assertSecretName(name);
    rmSync(join(this.dir, name), { force: true });
  }
}
