/**
 * Where an instance keeps its data. Default: the per-user app data folder of the
 * platform (the same place Electron's `app.getPath('userData')` points at for
 * "Ringup"). `--data DIR` or RINGUP_DATA_DIR override it, so several instances and
 * test runs can work side by side without touching each other's files.
 */
import { mkdirSync } from 'node:fs';
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
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}
