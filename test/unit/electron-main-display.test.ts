/**
 * The customer display in Electron (issue 23, point 4), against a mocked 'electron' module:
 * `--display` opens a second window with the same locked-down renderer asking for `view=display`,
 * full screen on the second monitor when there is one and a customer screen's size otherwise; the
 * core's broadcast events reach it though it never signs in, another window's do not; and without
 * `--display` there is one window only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const h = vi.hoisted(() => ({
  app: {
    requestSingleInstanceLock: vi.fn(() => true),
    quit: vi.fn(),
    on: vi.fn(),
    setPath: vi.fn(),
    whenReady: vi.fn(async () => undefined),
    getPath: vi.fn(() => '/tmp/ringup-test'),
    exit: vi.fn(),
  },
  screen: { getAllDisplays: vi.fn(), getPrimaryDisplay: vi.fn() },
  utilityProcess: { fork: vi.fn() },
  BrowserWindow: vi.fn(),
}));

vi.mock('electron', () => ({
  app: h.app,
  protocol: { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() },
  ipcMain: { handle: vi.fn() },
  shell: { openExternal: vi.fn() },
  dialog: { showMessageBox: vi.fn(), showSaveDialog: vi.fn(), showErrorBox: vi.fn() },
  utilityProcess: h.utilityProcess,
  safeStorage: {
    isEncryptionAvailable: () => true,
    getSelectedStorageBackend: () => 'gnome_libsecret',
    encryptString: (t: string) => Buffer.from(t),
    decryptString: (b: Buffer) => b.toString(),
  },
  BrowserWindow: h.BrowserWindow,
  screen: h.screen,
  net: { fetch: vi.fn() },
  session: { defaultSession: { setPermissionRequestHandler: vi.fn(), setPermissionCheckHandler: vi.fn() } },
}));

import { EVENT_CHANNEL } from '../../shared/ipc/contract';
import { APP_ORIGIN, customerDisplayPlacement, DISPLAY_PAGE_URL, DISPLAY_WINDOW_SIZE, startApp, WEB_PREFERENCES } from '../../electron/main';

/** The core's utilityProcess: answers `start` with `ready`; the test says the rest. */
class FakeCore {
  readonly listeners = new Map<string, ((...a: unknown[]) => void)[]>();
  readonly posted: Array<{ type: string; [k: string]: unknown }> = [];
  readonly pid = 4100;
  on(name: string, fn: (...a: unknown[]) => void) {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), fn]);
    return this;
  }
  once(name: string, fn: (...a: unknown[]) => void) {
    return this.on(name, fn);
  }
  say(msg: unknown) {
    for (const fn of this.listeners.get('message') ?? []) fn(msg);
  }
  postMessage(msg: { type: string }) {
    this.posted.push(msg);
    if (msg.type === 'start') queueMicrotask(() => this.say({ type: 'ready', status: { appName: 'Ringup', gateway: { health: 'ok' } } }));
  }
  kill = vi.fn();
}

function fakeWindow(id: number) {
  const once = new Map<string, () => void>();
  return {
    webContents: { id, send: vi.fn(), once: vi.fn((name: string, fn: () => void) => once.set(`wc:${name}`, fn)) },
    once: vi.fn((name: string, fn: () => void) => once.set(name, fn)),
    fire: (name: string) => once.get(name)?.(),
    isDestroyed: () => false,
    isMinimized: () => false,
    show: vi.fn(),
    close: vi.fn(),
    loadURL: vi.fn(async () => undefined),
  };
}

const MONITOR_A = { id: 1, bounds: { x: 0, y: 0, width: 1920, height: 1080 } };
const MONITOR_B = { id: 2, bounds: { x: 1920, y: 0, width: 1024, height: 600 } };

let dir: string;
let argv: string[];
beforeEach(() => {
  vi.clearAllMocks();
  dir = mkdtempSync(join(tmpdir(), 'ringup-main-display-'));
  h.app.getPath.mockReturnValue(dir);
  argv = process.argv;
});
afterEach(() => {
  process.argv = argv;
  rmSync(dir, { recursive: true, force: true });
});

/** Starts the app with `args` on the command line and `monitors` attached; answers the windows it made and the fake core. */
async function start(args: string[], monitors = [MONITOR_A]) {
  process.argv = [...argv, ...args];
  h.screen.getAllDisplays.mockReturnValue(monitors);
  h.screen.getPrimaryDisplay.mockReturnValue(monitors[0]);
  const core = new FakeCore();
  h.utilityProcess.fork.mockReturnValue(core);
  const windows: Array<ReturnType<typeof fakeWindow>> = [];
  h.BrowserWindow.mockImplementation(function () {
    const w = fakeWindow(7 + windows.length);
    windows.push(w);
    return w;
  });
  await startApp();
  return { core, windows, options: h.BrowserWindow.mock.calls.map((c) => c[0] as Electron.BrowserWindowConstructorOptions) };
}

describe('the customer display window', () => {
  it('places itself full screen on the second monitor, or as a customer screen-sized window on the only one', () => {
    expect(customerDisplayPlacement([MONITOR_A, MONITOR_B], 1)).toEqual({ ...MONITOR_B.bounds, fullscreen: true });
    // The primary is not always the first listed.
    expect(customerDisplayPlacement([MONITOR_B, MONITOR_A], 2)).toEqual({ ...MONITOR_A.bounds, fullscreen: true });
    expect(customerDisplayPlacement([MONITOR_A], 1)).toEqual({ ...DISPLAY_WINDOW_SIZE, fullscreen: false });
  });

  it('--display opens a second window with the same locked-down renderer, asking for the display view, on the second monitor', async () => {
    const { windows, options } = await start(['--display'], [MONITOR_A, MONITOR_B]);
    expect(windows).toHaveLength(2);
    const [counter, display] = windows;
    expect(counter!.loadURL).toHaveBeenCalledWith(`${APP_ORIGIN}/index.html`);
    expect(DISPLAY_PAGE_URL).toBe(`${APP_ORIGIN}/index.html#view=display`);
    expect(display!.loadURL).toHaveBeenCalledWith(DISPLAY_PAGE_URL);
    expect(options[1]).toMatchObject({ ...MONITOR_B.bounds, fullscreen: true, webPreferences: { ...WEB_PREFERENCES } });
    expect(options[1]!.webPreferences!.preload).toBe(options[0]!.webPreferences!.preload);
    display!.fire('ready-to-show');
    expect(display!.show).toHaveBeenCalled();
    // Closing the counter's window closes the display with it.
    counter!.fire('closed');
    expect(display!.close).toHaveBeenCalled();
  });

  it('with one monitor it is a window; broadcast events reach it though it never signs in, another caller\'s do not; closed, its caller ends', async () => {
    const { core, windows, options } = await start(['--display']);
    expect(options[1]).toMatchObject({ ...DISPLAY_WINDOW_SIZE, fullscreen: false });
    const display = windows[1]!;
    const state = { seq: 3, phase: 'idle', storeName: 'Corner Café' };
    core.say({ type: 'event', event: 'display:state', payload: state });
    core.say({ type: 'event', event: 'auth:session', payload: { user: 'casey' }, to: 'wc-7' });
    expect(display.webContents.send.mock.calls).toEqual([[EVENT_CHANNEL, 'display:state', state]]);
    expect(windows[0]!.webContents.send.mock.calls).toEqual([
      [EVENT_CHANNEL, 'display:state', state],
      [EVENT_CHANNEL, 'auth:session', { user: 'casey' }],
    ]);
    display.fire('wc:destroyed');
    await vi.waitFor(() => expect(core.posted).toContainEqual({ type: 'disconnect', callerId: 'wc-8' }));
    // Gone: it hears nothing more.
    core.say({ type: 'event', event: 'display:state', payload: { ...state, seq: 4 } });
    expect(display.webContents.send).toHaveBeenCalledTimes(1);
  });

  it('without --display there is one window', async () => {
    const { windows } = await start([]);
    expect(windows).toHaveLength(1);
    expect(h.screen.getAllDisplays).not.toHaveBeenCalled();
  });
});
