/**
 * Where an instance keeps its data. Default: the per-user app data folder of the
 * platform (the same place Electron's `app.getPath('userData')` points at for
 * "Ringup"). `--data DIR` or RINGUP_DATA_DIR override it, so several instances and
 * test runs can work side by side without touching each other's files.
 */
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export const APP_FOLDER_NAME = 'Ringup';
export const DATA_DIR_ENV = 'RINGUP_DATA_DIR';

export function defaultUserDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), APP_FOLDER_NAME);
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_FOLDER_NAME);
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), APP_FOLDER_NAME);
}

/** Reads `--data DIR` / `--data=DIR` from argv. */
export function dataDirFromArgv(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--data') return argv[i + 1];
    if (a.startsWith('--data=')) return a.slice('--data='.length);
  }
  return undefined;
}

export function resolveDataDir(argv: readonly string[] = process.argv, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = dataDirFromArgv(argv) ?? env[DATA_DIR_ENV] ?? defaultUserDataDir(process.platform, env);
  const dir = resolve(chosen);
  ownerOnlyFolder(dir);
  return dir;
}

/**
 * Makes (or tightens) a folder to 0700. `mkdirSync`'s mode applies only to a folder it
 * creates, and only through the umask; a folder `--data` names may already exist 0755.
 * Decision (issue 20, point 9): the folder itself is tightened, not only what we write in
 * it — the installer chose it for Ringup's data (PIN hashes, the offline queue, the engine's
 * vault), and a readable folder would let others list and read any file a future version or
 * SQLite makes before its mode is set. Other things the owner keeps in it stay readable by
 * the owner, which is all a folder mode can decide.
 */
export function ownerOnlyFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/**
 * Makes a file 0600 before anything is written to it (created empty with that mode when
 * missing, so it is never readable by others even for a moment), and tightens an existing
 * one (an older install's 0644 ringup.db).
 */
export function ownerOnlyFile(file: string): void {
  if (!existsSync(file)) writeFileSync(file, '', { flag: 'a', mode: 0o600 });
  chmodSync(file, 0o600);
}
