#!/usr/bin/env node
// `npm start`: builds what is needed, then opens the Electron window where Electron
// can run, and otherwise serves the same app from the node host on 127.0.0.1, saying why.
// Options: --host-only (always the node host), --data DIR, --port P (node host port).
// Where the node host serves the app (issue 23, point 7):
//   --window                 opens it in Chromium's app mode on $DISPLAY (app-window.mjs); with
//                            --display, the customer display too, in a second window. Closing
//                            the app window stops the app; Ctrl+C closes the windows and stops it.
//   --window-debug-port P    the app window's Chromium remote-debugging port (tests drive it);
//   --display-debug-port Q   the customer display window's.
//   --no-build               start what build/ holds (tests that built it once already).
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const require = createRequire(import.meta.url);
const argv = process.argv.slice(2);
/** Options start.mjs takes for itself (with their values), not passed on. */
const OWN_FLAGS = ['--host-only', '--window', '--no-build'];
const OWN_VALUES = ['--window-debug-port', '--display-debug-port'];
const passThrough = argv.filter((a, i) => !OWN_FLAGS.includes(a) && !OWN_VALUES.includes(a) && !OWN_VALUES.includes(argv[i - 1]));
const wantsWindow = argv.includes('--window');
// Said before anything is built or started: a window needs a display.
if (wantsWindow && !process.env.DISPLAY) {
  const { WINDOW_MSG } = await import('./app-window.mjs');
  console.error(WINDOW_MSG.noDisplay);
  process.exit(1);
}

function run(cmd, args, opts = {}) {
  return spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
}

/** Returns the Electron binary path, or a one-line reason why Electron cannot run here. */
function findElectron() {
  if (argv.includes('--host-only')) return { reason: 'the node host was asked for (--host-only)' };
  let dir;
  try {
    dir = dirname(require.resolve('electron/package.json'));
  } catch {
    return { reason: 'the electron package is not installed' };
  }
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) return { reason: "Electron's binary was not downloaded when the app was installed" };
  const bin = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  if (!existsSync(bin)) return { reason: `Electron's binary is missing (${bin})` };
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { reason: 'there is no graphical display (DISPLAY and WAYLAND_DISPLAY are unset)' };
  }
  return { bin };
}

/**
 * better-sqlite3 in node_modules is compiled for Node (tests and the node host use it).
 * Electron needs a build for its own ABI; we keep that one apart in build/electron-native
 * and hand its path to the core (RINGUP_SQLITE_BINDING), so neither side breaks the other.
 */
function electronSqliteBinding() {
  const target = join(root, 'build/electron-native');
  const binding = join(target, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
  const electronVersion = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version;
  const stamp = join(target, 'electron-version.txt');
  if (existsSync(binding) && existsSync(stamp) && readFileSync(stamp, 'utf8') === electronVersion) return { binding };
  mkdirSync(join(target, 'node_modules'), { recursive: true });
  cpSync(join(root, 'node_modules/better-sqlite3'), join(target, 'node_modules/better-sqlite3'), { recursive: true });
  writeFileSync(join(target, 'package.json'), JSON.stringify({ name: 'electron-native', private: true, dependencies: { 'better-sqlite3': '*' } }));
  const rebuild = join(root, 'node_modules/.bin/electron-rebuild');
  const res = run(rebuild, ['--version', electronVersion, '--module-dir', target, '--only', 'better-sqlite3', '--force']);
  if (res.status !== 0 || !existsSync(binding)) return { reason: 'better-sqlite3 could not be rebuilt for Electron' };
  writeFileSync(stamp, electronVersion);
  return { binding };
}

if (!argv.includes('--no-build') && run(process.execPath, [join(root, 'electron/tools/build.mjs'), '--quiet']).status !== 0) process.exit(1);

let { bin, reason } = findElectron();
let env = { ...process.env };
if (bin) {
  const native = electronSqliteBinding();
  if (native.binding) env = { ...env, RINGUP_SQLITE_BINDING: native.binding };
  else {
    reason = native.reason;
    bin = undefined;
  }
}

if (bin && wantsWindow) console.log('Electron opens its own window here; --window is for where only the node host runs.');
if (!bin && wantsWindow) {
  const { startWithWindows } = await import('./window-start.mjs');
  await startWithWindows({ root, argv, passThrough, reason, env });
} else {
  const child = bin
    ? spawn(bin, [join(root, 'build/main/main.mjs'), ...passThrough], { cwd: root, stdio: 'inherit', env })
    : spawn(process.execPath, [join(root, 'build/node/host.mjs'), '--reason', reason, ...passThrough], { cwd: root, stdio: 'inherit', env });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code) => process.exit(code ?? 0));
}
