/**
 * Where the node host keeps its keys: outside the data folder, so a copied or stolen data
 * folder holds no secret (issue 11, point 6). The desktop app keeps safeStorage ciphertext
 * under `<data>/secrets/` instead (the OS keychain holds its key); the node host has no
 * keychain, so its 0600 key files live in a per-user keys folder:
 *
 *   <keys root>/<data folder id>/<secret name>     folders 0700, files 0600
 *
 * - The keys root is RINGUP_KEYS_DIR when set (tests point it at a temporary folder), else
 *   `ringup-keys` beside the platform's default data folder (`~/.config/ringup-keys` on Linux).
 * - The data folder's id is a random name kept in `<data>/keys-id` (not a secret): moving
 *   or renaming the data folder keeps its keys. A copy of the data folder on the same
 *   computer carries the same id, so it finds the original's keys, but the register binding
 *   in them names the original folder and the copy is refused as one (register-binding.ts);
 *   a copy on another computer finds none (restore a key backup there).
 * - A data folder from before this kept its key files in `<data>/secrets/`: they move to the
 *   keys folder on the first start (copied, then removed; a start interrupted half-way copies
 *   again, the old files being the truth until they are gone). The desktop app's `*.enc`
 *   files there are not the node host's and stay.
 */
import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { FileSecretStore } from '../../secrets/file-secret-store';
import { isSecretName } from '../../secrets/secret-store';
import { defaultUserDataDir } from '../platform/data-dir';

export const KEYS_DIR_ENV = 'RINGUP_KEYS_DIR';
/** The data folder's id file: names its keys folder. */
export const DATA_FOLDER_ID_FILE = 'keys-id';
/** Where the node host kept its key files before they moved out of the data folder. */
export const LEGACY_SECRETS_DIR = 'secrets';
const KEYS_FOLDER_NAME = 'ringup-keys';

/** The folder that holds every data folder's keys folder. */
export function keysRoot(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home: string = homedir()): string {
  return env[KEYS_DIR_ENV] || join(dirname(defaultUserDataDir(platform, env, home)), KEYS_FOLDER_NAME);
}

/** The data folder's id, made on first use. */
export function dataFolderId(dataDir: string): string {
  const file = join(dataDir, DATA_FOLDER_ID_FILE);
  try {
    const id = readFileSync(file, 'utf8').trim();
    if (/^[a-z0-9-]{8,64}$/.test(id)) return id;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const id = randomUUID();
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${id}\n`, { mode: 0o600 });
  renameSync(tmp, file);
  return id;
}

/** The keys folder of this data folder (not created). */
export function nodeHostKeysFolder(dataDir: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(keysRoot(env), dataFolderId(dataDir));
}

/** The node host's secret store for this data folder; moves key files left in `<data>/secrets/` there first. */
export function openNodeHostSecretStore(dataDir: string, env: NodeJS.ProcessEnv = process.env): FileSecretStore {
  const root = keysRoot(env);
  mkdirSync(root, { recursive: true, mode: 0o700 });
  chmodSync(root, 0o700);
  const store = new FileSecretStore(join(root, dataFolderId(dataDir)));
  moveLegacySecrets(join(dataDir, LEGACY_SECRETS_DIR), store.dir);
  return store;
}

function moveLegacySecrets(from: string, to: string): void {
  if (!existsSync(from)) return;
  for (const name of readdirSync(from)) {
    // Only the node host's own files (a secret's name, unencrypted); a temp file of an interrupted write goes.
    if (name.endsWith('.tmp')) {
      rmSync(join(from, name), { force: true });
      continue;
    }
    if (!isSecretName(name) || name.endsWith('.enc')) continue;
    const target = join(to, name);
    const tmp = `${target}.${process.pid}.tmp`;
    writeFileSync(tmp, readFileSync(join(from, name)), { mode: 0o600 });
    renameSync(tmp, target);
    rmSync(join(from, name));
  }
  // Gone when empty; the desktop app's files, if any, keep it.
  if (readdirSync(from).length === 0) rmdirSync(from);
}
