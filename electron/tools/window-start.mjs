// `npm start -- --window` on the node host (issue 23, point 7; start.mjs hands over here when
// Electron cannot run): starts the host, reads its address from what it prints, opens the app
// (and with --display the customer display) in Chromium app-mode windows (app-window.mjs).
// Who stops whom: closing the app window stops the host; the host ending (Ctrl+C reaches it
// too, or it fails) closes the windows; Ctrl+C or SIGTERM to this process closes the windows
// and stops the host. This process exits only once all of them have.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { displayUrlOf, findChromium, openAppWindow, WINDOW_MSG } from './app-window.mjs';

function portArg(argv, name) {
  const i = argv.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const n = Number(argv[i + 1]);
  if (!Number.isInteger(n) || n < 1 || n > 65535) {
    console.error(WINDOW_MSG.badPort(name));
    process.exit(1);
  }
  return n;
}

export async function startWithWindows({ root, argv, passThrough, reason, env }) {
  const chromium = findChromium(env);
  if (!chromium) {
    console.error(WINDOW_MSG.noChromium);
    process.exit(1);
  }
  const appPort = portArg(argv, 'window-debug-port');
  const displayPort = portArg(argv, 'display-debug-port');

  const host = spawn(process.execPath, [join(root, 'build/node/host.mjs'), '--reason', reason, ...passThrough], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env });
  const hostExited = new Promise((resolve) => host.once('exit', (code, signal) => resolve(code ?? (signal ? 0 : 1))));
  const windows = [];
  let stopping = false;
  const stop = async (code) => {
    if (stopping) return;
    stopping = true;
    await Promise.all(windows.map((w) => w.close()));
    if (host.exitCode === null && host.signalCode === null) host.kill('SIGTERM');
    await hostExited;
    process.exit(code);
  };
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => void stop(0));
  void hostExited.then((code) => void stop(code));

  // The host prints its address (with the launch token in the fragment); everything it prints is passed on.
  const url = await new Promise((resolve) => {
    let found = false;
    createInterface({ input: host.stdout }).on('line', (line) => {
      console.log(line);
      const m = /(http:\/\/127\.0\.0\.1:\d+\/#token=[^\s"]+)/.exec(line);
      if (m && !found) {
        found = true;
        resolve(m[1]);
      }
    });
  });
  if (stopping) return;

  const app = openAppWindow({ chromium, url, debugPort: appPort, title: 'Ringup', env });
  windows.push(app);
  console.log('Ringup is open in a window. Close the window, or press Ctrl+C here, to stop it.');
  if (argv.includes('--display')) {
    windows.push(openAppWindow({ chromium, url: displayUrlOf(url), debugPort: displayPort, title: 'Ringup-display', env }));
    console.log('The customer display is open in a second window (move it to the screen that faces the customer).');
  }
  void app.exited.then((code) => {
    if (stopping) return;
    if (code !== 0) console.error(`The app window ended with status ${code}. Chromium said:\n${app.lastWords()}`);
    else console.log('The app window was closed: stopping Ringup.');
    void stop(code === 0 ? 0 : 1);
  });
}
