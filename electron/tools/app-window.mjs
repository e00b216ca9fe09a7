// `npm start -- --window` where Electron cannot run (issue 23, point 7): the node host's app,
// and with --display its customer display, each in a window of Chromium's app mode (no tabs,
// no address bar) on the current X display. Each window is its own Chromium process with its
// own temporary profile (so closing the app window ends that process, which start.mjs takes as
// "stop the app"), started in a process group of its own, so closing it ends every helper
// process Chromium started (zygote, renderers, GPU): no orphan is left behind.
// Simplifications: X11 only ($DISPLAY; a Wayland desktop's XWayland sets it too); the profile
// is thrown away when the window closes (window size and zoom are not remembered).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const WINDOW_MSG = {
  noDisplay:
    'Ringup cannot open a window: there is no graphical display here ($DISPLAY is not set). Start it from a desktop session, or leave out --window and open the address it prints in a browser.',
  noChromium:
    'Ringup cannot open a window: no Chromium was found (looked for $CHROMIUM_PATH, chromium, chromium-browser, google-chrome). Install Chromium, or leave out --window and open the address it prints in a browser.',
  badPort: (name) => `--${name} takes a port number from 1 to 65535.`,
};

/** The Chromium to open windows with: $CHROMIUM_PATH, else the first of the usual names on PATH; null when none. */
export function findChromium(env = process.env) {
  if (env.CHROMIUM_PATH) return env.CHROMIUM_PATH;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    const r = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8', env });
    const path = r.stdout?.trim();
    if (r.status === 0 && path) return path;
  }
  return null;
}

/** The customer display's address: the app's, with `view=display` added to its fragment. */
export function displayUrlOf(appUrl) {
  return appUrl.includes('#') ? `${appUrl}&view=display` : `${appUrl}#view=display`;
}

/**
 * Opens `url` in an app-mode window. `debugPort`: Chromium's remote-debugging port (tests drive
 * the real window through it). Answers { exited: Promise<number|null>, close(): Promise<void> }.
 */
export function openAppWindow({ chromium, url, debugPort, title, env = process.env }) {
  const profile = mkdtempSync(join(tmpdir(), 'ringup-window-'));
  const args = [
    `--app=${url}`,
    `--user-data-dir=${profile}`,
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-features=Translate,MediaRouter',
    // No keyring prompt on a till: the profile is thrown away anyway.
    '--password-store=basic',
    '--window-position=0,0',
    '--window-size=1280,800',
    `--class=${title}`,
  ];
  if (debugPort) args.push(`--remote-debugging-port=${debugPort}`, '--remote-debugging-address=127.0.0.1');
  // Chromium refuses to run as root with its sandbox (containers, kiosk images run as root);
  // --test-type keeps its "unsupported command-line flag" bar, which a merchant cannot act on, off the window.
  if (process.getuid?.() === 0) args.push('--no-sandbox', '--test-type');
  const child = spawn(chromium, args, { env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  // Chromium is chatty on stderr (GPU, D-Bus); only its last words are kept, for a failure.
  let tail = '';
  child.stderr.on('data', (d) => (tail = (tail + d.toString()).slice(-2000)));
  const exited = new Promise((resolve) => {
    child.once('exit', (code) => {
      killGroup(child.pid, 'SIGKILL'); // whatever helper is left of it
      rmSync(profile, { recursive: true, force: true });
      resolve(code);
    });
    child.once('error', () => {
      rmSync(profile, { recursive: true, force: true });
      resolve(null);
    });
  });
  return {
    pid: child.pid,
    exited,
    lastWords: () => tail,
    /** Closes the window: SIGTERM to its process group, SIGKILL after 5 s if it is still there. */
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return void (await exited);
      killGroup(child.pid, 'SIGTERM');
      const timer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

function killGroup(pid, signal) {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is gone already.
  }
}
