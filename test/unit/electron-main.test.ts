/**
 * Electron main and preload against a mocked 'electron' module: the window's security
 * settings, the handlers that deny popups/navigation/webviews/permissions, the IPC
 * wiring through the validating dispatcher, the single-instance lock, what the
 * preload exposes, and (issue 22, point 4) the core in its utilityProcess: forked with the
 * right entry, a window's call reaching it and its answer coming back, its events going to
 * the right window, and printing and safeStorage reached only through the shell port.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

const h = vi.hoisted(() => {
  const ipcHandlers = new Map<string, (event: unknown, arg: unknown) => unknown>();
  const exposed: Record<string, unknown> = {};
  return {
    ipcHandlers,
    exposed,
    app: {
      requestSingleInstanceLock: vi.fn(() => false),
      quit: vi.fn(),
      on: vi.fn(),
      setPath: vi.fn(),
      whenReady: vi.fn(async () => undefined),
      getPath: vi.fn(() => '/tmp/ringup-test'),
      exit: vi.fn(),
    },
    protocol: { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() },
    ipcMain: { handle: vi.fn((ch: string, fn: (event: unknown, arg: unknown) => unknown) => ipcHandlers.set(ch, fn)) },
    shell: { openExternal: vi.fn(async () => undefined) },
    contextBridge: { exposeInMainWorld: vi.fn((key: string, api: unknown) => (exposed[key] = api)) },
    ipcRenderer: { invoke: vi.fn(async () => ({ ok: true, value: 1 })), on: vi.fn(), removeListener: vi.fn() },
    dialog: { showMessageBox: vi.fn(), showSaveDialog: vi.fn(), showErrorBox: vi.fn() },
    utilityProcess: { fork: vi.fn() },
    // A keychain that marks its ciphertext, so a test can tell it from the plaintext.
    safeStorage: {
      isEncryptionAvailable: vi.fn(() => true),
      getSelectedStorageBackend: vi.fn(() => 'gnome_libsecret'),
      encryptString: vi.fn((text: string) => Buffer.from(`sealed:${Buffer.from(text).toString('hex')}`)),
      decryptString: vi.fn((b: Buffer) => Buffer.from(b.toString().replace(/^sealed:/, ''), 'hex').toString()),
    },
    BrowserWindow: vi.fn(),
    defaultSession: { setPermissionRequestHandler: vi.fn(), setPermissionCheckHandler: vi.fn() },
    fork: vi.fn(),
  };
});

/** A stand-in for Electron's UtilityProcess running the core: answers `start` with `ready`; the test plays the rest. */
class FakeCore {
  readonly listeners = new Map<string, ((...a: unknown[]) => void)[]>();
  readonly posted: Array<{ type: string; [k: string]: unknown }> = [];
  static nextPid = 4000;
  readonly pid = FakeCore.nextPid++;
  on(name: string, fn: (...a: unknown[]) => void) {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), fn]);
    return this;
  }
  once(name: string, fn: (...a: unknown[]) => void) {
    return this.on(name, fn);
  }
  emit(name: string, ...args: unknown[]) {
    for (const fn of this.listeners.get(name) ?? []) fn(...args);
  }
  /** What the core sends main. */
  say(msg: unknown) {
    this.emit('message', msg);
  }
  postMessage(msg: { type: string }) {
    this.posted.push(msg);
    if (msg.type === 'start') queueMicrotask(() => this.say({ type: 'ready', status: { appName: 'Ringup', gateway: { health: 'ok' } } }));
  }
  kill = vi.fn(() => this.emit('exit', null));
  /** The first message of this type main has posted (waits a little for it), taken off the list. */
  async next(type: string): Promise<{ type: string; [k: string]: unknown }> {
    for (let i = 0; i < 100; i++) {
      const m = this.posted.find((p) => p.type === type);
      if (m) {
        this.posted.splice(this.posted.indexOf(m), 1);
        return m;
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error(`main posted no ${type}`);
  }
}

/** The window main opens, as far as main uses it. */
function fakeMainWindow() {
  return {
    webContents: { id: 7, send: vi.fn(), once: vi.fn(), print: vi.fn(), printToPDF: vi.fn() },
    once: vi.fn(),
    isDestroyed: () => false,
    isMinimized: () => false,
    show: vi.fn(),
    loadURL: vi.fn(async () => undefined),
  };
}

vi.mock('electron', () => ({
  app: h.app,
  protocol: h.protocol,
  ipcMain: h.ipcMain,
  shell: h.shell,
  contextBridge: h.contextBridge,
  ipcRenderer: h.ipcRenderer,
  dialog: h.dialog,
  utilityProcess: h.utilityProcess,
  safeStorage: h.safeStorage,
  BrowserWindow: h.BrowserWindow,
  net: { fetch: vi.fn() },
  session: { defaultSession: h.defaultSession },
}));

// Only forkEngine's own fork is watched; everything else keeps the real module.
vi.mock('node:child_process', async (importOriginal) => ({ ...(await importOriginal<Record<string, unknown>>()), fork: h.fork }));

import { channels, EVENT_CHANNEL, methodToChannel } from '../../shared/ipc/contract';
import { ok } from '../../shared/result';
import { createDispatcher } from '../../electron/ipc/dispatcher';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  APP_ORIGIN,
  CORE_ENTRY,
  ENGINE_ENTRY,
  MAIN_MESSAGES,
  createReceiptPrinter,
  createReportPrinter,
  denyAllPermissions,
  hardenWebContents,
  registerIpc,
  startApp,
  utilityProcessCore,
  WEB_PREFERENCES,
  windowOptions,
} from '../../electron/main';

type Listener = (...args: unknown[]) => void;

function fakeContents() {
  const listeners = new Map<string, Listener>();
  let openHandler: ((d: { url: string }) => { action: string }) | undefined;
  return {
    listeners,
    open: (url: string) => openHandler!({ url }),
    setWindowOpenHandler: vi.fn((fn: typeof openHandler) => (openHandler = fn)),
    on: vi.fn((name: string, fn: Listener) => listeners.set(name, fn)),
  };
}

beforeEach(() => vi.clearAllMocks());

describe('window security settings', () => {
  it('isolates, sandboxes and disables Node in every frame', () => {
    expect(WEB_PREFERENCES).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
    });
    const opts = windowOptions('/x/preload.cjs');
    expect(opts.webPreferences).toMatchObject({ ...WEB_PREFERENCES, preload: '/x/preload.cjs' });
  });

  it('denies window.open, opening only https links outside the app', () => {
    const c = fakeContents();
    hardenWebContents(c as never);
    expect(c.open('https://example.com/help')).toEqual({ action: 'deny' });
    expect(h.shell.openExternal).toHaveBeenCalledWith('https://example.com/help');
    expect(c.open('file:///etc/passwd')).toEqual({ action: 'deny' });
    expect(c.open(`${APP_ORIGIN}/index.html`)).toEqual({ action: 'deny' });
    expect(h.shell.openExternal).toHaveBeenCalledTimes(1);
  });

  it('blocks navigation and redirects away from the app, and webview attachment', () => {
    const c = fakeContents();
    hardenWebContents(c as never);
    for (const name of ['will-navigate', 'will-redirect']) {
      const away = { preventDefault: vi.fn() };
      c.listeners.get(name)!(away, 'https://evil.example/');
      expect(away.preventDefault).toHaveBeenCalled();
      const inside = { preventDefault: vi.fn() };
      c.listeners.get(name)!(inside, `${APP_ORIGIN}/index.html`);
      expect(inside.preventDefault).not.toHaveBeenCalled();
    }
    const attach = { preventDefault: vi.fn() };
    c.listeners.get('will-attach-webview')!(attach);
    expect(attach.preventDefault).toHaveBeenCalled();
  });

  it('denies every permission request and check', () => {
    let request: ((wc: unknown, p: string, cb: (v: boolean) => void) => void) | undefined;
    let check: (() => boolean) | undefined;
    denyAllPermissions({
      setPermissionRequestHandler: (fn: typeof request) => (request = fn),
      setPermissionCheckHandler: (fn: typeof check) => (check = fn),
    } as never);
    for (const p of ['media', 'geolocation', 'notifications', 'clipboard-read']) {
      const cb = vi.fn();
      request!(null, p, cb);
      expect(cb).toHaveBeenCalledWith(false);
    }
    expect(check!()).toBe(false);
  });

  it('quits when another instance already holds the single-instance lock', async () => {
    h.app.requestSingleInstanceLock.mockReturnValueOnce(false);
    await startApp();
    expect(h.app.quit).toHaveBeenCalled();
    expect(h.app.whenReady).not.toHaveBeenCalled();
  });
});

describe('IPC wiring', () => {
  const handlers = {
    'core:status': vi.fn(async () => ok('status')),
    'gateway:check': vi.fn(async () => ok('gw')),
  };

  it('registers every contract channel through the dispatcher, which checks the sender frame', async () => {
    registerIpc(createDispatcher(handlers as never, { allowedOrigins: [APP_ORIGIN] }));
    expect([...h.ipcHandlers.keys()].sort()).toEqual([...channels].sort());
    const handle = h.ipcHandlers.get('core:status')!;

    const top = { url: `${APP_ORIGIN}/index.html`, parent: null };
    const sender = { id: 7 };
    expect(await handle({ senderFrame: top, sender }, undefined)).toEqual({ ok: true, value: 'status' });

    const child = { url: `${APP_ORIGIN}/index.html`, parent: top };
    expect(await handle({ senderFrame: child, sender }, undefined)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await handle({ senderFrame: { url: 'https://evil.example/', parent: null }, sender }, undefined)).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    expect(await handle({ senderFrame: null, sender }, undefined)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(handlers['core:status']).toHaveBeenCalledTimes(1);
  });

  it('runs each window as its own caller (wc-<webContents id>), so each window has its own sign-in', async () => {
    const { currentCallerId } = await import('../../electron/ipc/caller-context');
    h.ipcHandlers.clear();
    registerIpc(createDispatcher({ 'auth:session': async () => ok(currentCallerId()) } as never, { allowedOrigins: [APP_ORIGIN] }));
    const handle = h.ipcHandlers.get('auth:session')!;
    const top = { url: `${APP_ORIGIN}/index.html`, parent: null };
    expect(await handle({ senderFrame: top, sender: { id: 7 } }, undefined)).toEqual({ ok: true, value: 'wc-7' });
    expect(await handle({ senderFrame: top, sender: { id: 8 } }, undefined)).toEqual({ ok: true, value: 'wc-8' });
  });
});

describe('preload', () => {
  it('exposes exactly the contract methods plus on(), never ipcRenderer', async () => {
    await import('../../electron/preload');
    expect(h.contextBridge.exposeInMainWorld).toHaveBeenCalledTimes(1);
    expect(h.contextBridge.exposeInMainWorld.mock.calls[0]![0]).toBe('ringup');
    const api = h.exposed.ringup as Record<string, unknown>;
    expect(Object.keys(api).sort()).toEqual([...Object.keys(methodToChannel), 'on'].sort());
    expect(Object.values(api)).not.toContain(h.ipcRenderer);
    expect(Object.values(api).every((v) => typeof v === 'function')).toBe(true);

    await (api.coreStatus as () => Promise<unknown>)();
    expect(h.ipcRenderer.invoke).toHaveBeenCalledWith('core:status', undefined);
    expect(() => (api.on as (e: string, l: () => void) => void)('fs:changed', () => undefined)).toThrow(/Unknown event/);
  });
});

/** A window whose print succeeds and whose PDF is `pdfText`, for the printers' tests. */
function fakeWindow(pdfText: string) {
  return {
    isDestroyed: () => false,
    webContents: {
      print: vi.fn((_opts: unknown, cb: (ok: boolean, reason: string) => void) => cb(true, '')),
      printToPDF: vi.fn(async (_opts?: { pageSize: unknown }) => Buffer.from(pdfText)),
    },
  };
}

describe('desktop receipt printer', () => {
  const fakeReceiptWindow = () => fakeWindow('%PDF-1.7 receipt');

  it('prints through the system dialog and returns no file', async () => {
    const win = fakeReceiptWindow();
    h.dialog.showMessageBox.mockResolvedValueOnce({ response: 0 });
    expect(await createReceiptPrinter(() => win as never)('abcdef12-x')).toBeNull();
    expect(win.webContents.print).toHaveBeenCalledOnce();
  });

  it('saves a PDF where the user chose and returns its path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ringup-pdf-'));
    const target = join(dir, 'r.pdf');
    const win = fakeReceiptWindow();
    h.dialog.showMessageBox.mockResolvedValueOnce({ response: 1 });
    h.dialog.showSaveDialog.mockResolvedValueOnce({ canceled: false, filePath: target });
    expect(await createReceiptPrinter(() => win as never)('abcdef12-x')).toBe(target);
    expect(readFileSync(target, 'utf8')).toBe('%PDF-1.7 receipt');
    rmSync(dir, { recursive: true, force: true });
  });

  it('does nothing when the user cancels, and reports a failed print', async () => {
    const win = fakeReceiptWindow();
    h.dialog.showMessageBox.mockResolvedValueOnce({ response: 2 });
    expect(await createReceiptPrinter(() => win as never)('x')).toBeNull();
    expect(win.webContents.print).not.toHaveBeenCalled();
    win.webContents.print.mockImplementationOnce((_o: unknown, cb: (ok: boolean, reason: string) => void) => cb(false, 'no printer'));
    h.dialog.showMessageBox.mockResolvedValueOnce({ response: 0 });
    await expect(createReceiptPrinter(() => win as never)('x')).rejects.toThrow(/no printer/);
  });
});

describe('desktop report printer', () => {
  const fakeReportWindow = () => fakeWindow('%PDF-1.7 report');

  it('offers Save as PDF first, on A4 or an 80 mm roll, under the report\'s name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ringup-report-pdf-'));
    try {
      for (const [paper, pageSize] of [
        ['a4', 'A4'],
        ['80mm', { width: 3.15, height: 40 }],
      ] as const) {
        const target = join(dir, `z-report-3-${paper}.pdf`);
        const win = fakeReportWindow();
        h.dialog.showMessageBox.mockResolvedValueOnce({ response: 1 });
        h.dialog.showSaveDialog.mockResolvedValueOnce({ canceled: false, filePath: target });
        expect(await createReportPrinter(() => win as never)('z-report-3', paper)).toBe(target);
        // Reports are usually kept: the question's default is "Save as PDF…".
        expect(h.dialog.showMessageBox).toHaveBeenLastCalledWith(win, expect.objectContaining({ defaultId: 1, buttons: ['Print…', 'Save as PDF…', 'Cancel'], message: 'Print the report, or save it as a PDF?' }));
        expect(h.dialog.showSaveDialog).toHaveBeenLastCalledWith(win, expect.objectContaining({ defaultPath: 'z-report-3.pdf' }));
        expect(win.webContents.printToPDF).toHaveBeenCalledWith({ pageSize, printBackground: false });
        expect(readFileSync(target, 'utf8')).toBe('%PDF-1.7 report');
        expect(win.webContents.print).not.toHaveBeenCalled();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('prints through the system dialog (no file), and writes nothing when the save is cancelled', async () => {
    const win = fakeReportWindow();
    h.dialog.showMessageBox.mockResolvedValueOnce({ response: 0 });
    expect(await createReportPrinter(() => win as never)('x-report', '80mm')).toBeNull();
    expect(win.webContents.print).toHaveBeenCalledOnce();
    h.dialog.showMessageBox.mockResolvedValueOnce({ response: 1 });
    h.dialog.showSaveDialog.mockResolvedValueOnce({ canceled: true, filePath: undefined });
    expect(await createReportPrinter(() => win as never)('x-report', 'a4')).toBeNull();
    expect(win.webContents.printToPDF).not.toHaveBeenCalled();
    await expect(createReportPrinter(() => null)('x-report', 'a4')).rejects.toThrow(/No window/);
  });
});

describe('the core in a utilityProcess', () => {
  /** Starts the app against the mocks: its data folder, the fake core process, the window and what main registered on `app`. */
  async function startWithFakeCore() {
    const dir = mkdtempSync(join(tmpdir(), 'ringup-main-'));
    const forked: FakeCore[] = [];
    h.utilityProcess.fork.mockImplementation(() => {
      const c = new FakeCore();
      forked.push(c);
      return c;
    });
    const win = fakeMainWindow();
    h.BrowserWindow.mockImplementation(function () {
      return win;
    });
    h.app.requestSingleInstanceLock.mockReturnValueOnce(true);
    h.app.getPath.mockReturnValue(dir);
    h.ipcHandlers.clear();
    await startApp();
    const appOn = new Map(h.app.on.mock.calls.map(([name, fn]) => [name as string, fn as (...a: unknown[]) => void]));
    expect(forked).toHaveLength(1);
    return { dir, core: forked[0]!, win, appOn, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
  }

  it('forks the built core entry as a utility process and starts it with the data folder, the app origin, the engine entry and what main offers', async () => {
    const { dir, core, cleanup } = await startWithFakeCore();
    try {
      expect(CORE_ENTRY).toMatch(/[/\\]core[/\\]core-child\.mjs$/);
      expect(h.utilityProcess.fork).toHaveBeenCalledWith(CORE_ENTRY, [], expect.objectContaining({ serviceName: expect.any(String) }));
      expect(core.posted[0]).toEqual({
        type: 'start',
        options: {
          dataDir: dir,
          shell: 'electron',
          allowedOrigins: [APP_ORIGIN],
          engineEntry: ENGINE_ENTRY,
          skipFirstRun: false,
          offer: { printReceipt: true, printReport: true, openExternal: true, secretsBackend: 'safeStorage:gnome_libsecret' },
        },
      });
      // Main runs no core of its own: no app database, and nothing asked of the keychain yet.
      expect(existsSync(join(dir, 'ringup.db'))).toBe(false);
      expect(h.safeStorage.encryptString).not.toHaveBeenCalled();
      expect(h.safeStorage.decryptString).not.toHaveBeenCalled();
    } finally {
      cleanup();
    }
  });

  it("a window's call goes to the core process with its sender, and the core's answer comes back to it by id", async () => {
    const { core, cleanup } = await startWithFakeCore();
    try {
      expect([...h.ipcHandlers.keys()].sort()).toEqual([...channels].sort());
      const top = { url: `${APP_ORIGIN}/index.html`, parent: null };
      const answer = h.ipcHandlers.get('cart:add-item')!({ senderFrame: top, sender: { id: 7 } }, { itemId: 'coffee' });
      const call = await core.next('call');
      // The dispatcher (origin, frame, schema, roles) runs beside the handlers in the core process: main hands it the sender as seen.
      expect(call).toEqual({ type: 'call', id: expect.any(Number), channel: 'cart:add-item', sender: { url: `${APP_ORIGIN}/index.html`, isMainFrame: true, callerId: 'wc-7' }, arg: { itemId: 'coffee' } });
      const second = h.ipcHandlers.get('core:status')!({ senderFrame: { url: 'https://evil.example/', parent: top }, sender: { id: 8 } }, undefined);
      const call2 = await core.next('call');
      expect(call2).toMatchObject({ channel: 'core:status', sender: { url: 'https://evil.example/', isMainFrame: false, callerId: 'wc-8' } });
      // Answers by id, in whatever order the core finishes them.
      core.say({ type: 'result', id: call2.id, result: { ok: false, error: { code: 'forbidden', message: 'no' } } });
      core.say({ type: 'result', id: call.id, result: { ok: true, value: { lines: 1 } } });
      expect(await answer).toEqual({ ok: true, value: { lines: 1 } });
      expect(await second).toEqual({ ok: false, error: { code: 'forbidden', message: 'no' } });
    } finally {
      cleanup();
    }
  });

  it("the core's events reach the window they are for, and a closed window's session ends in the core", async () => {
    const { core, win, cleanup } = await startWithFakeCore();
    try {
      core.say({ type: 'event', event: 'auth:session', payload: { user: 'casey' }, to: 'wc-7' });
      core.say({ type: 'event', event: 'auth:session', payload: { user: 'other' }, to: 'wc-99' });
      core.say({ type: 'event', event: 'queue:status', payload: { pendingCount: 0 } });
      expect(win.webContents.send.mock.calls).toEqual([
        [EVENT_CHANNEL, 'auth:session', { user: 'casey' }],
        [EVENT_CHANNEL, 'queue:status', { pendingCount: 0 }],
      ]);
      const destroyed = win.webContents.once.mock.calls.find(([name]) => name === 'destroyed')![1] as () => void;
      destroyed();
      expect(await core.next('disconnect')).toEqual({ type: 'disconnect', callerId: 'wc-7' });
    } finally {
      cleanup();
    }
  });

  it('safeStorage is reached only through the shell port: the core sets and gets a key, main keeps it sealed on disk', async () => {
    const { dir, core, cleanup } = await startWithFakeCore();
    try {
      const key = new Uint8Array(32).fill(9);
      core.say({ type: 'shell', id: 1, op: 'secretSet', args: ['vault-key', key] });
      expect(await core.next('shell-answer')).toEqual({ type: 'shell-answer', id: 1, ok: true, value: undefined });
      expect(h.safeStorage.encryptString).toHaveBeenCalledTimes(1);
      const onDisk = readFileSync(join(dir, 'secrets', 'vault-key.enc'));
      expect(onDisk.toString()).toMatch(/^sealed:/);
      expect(onDisk.includes(Buffer.from(key))).toBe(false);

      core.say({ type: 'shell', id: 2, op: 'secretGet', args: ['vault-key'] });
      const got = await core.next('shell-answer');
      expect(got).toMatchObject({ id: 2, ok: true });
      expect(Buffer.from(got.value as Uint8Array)).toEqual(Buffer.from(key));
      // Nothing outside the port's calls: a name that is not a secret's, or an operation main does not have.
      core.say({ type: 'shell', id: 3, op: 'secretGet', args: ['../../etc/passwd'] });
      expect(await core.next('shell-answer')).toMatchObject({ id: 3, ok: false });
      core.say({ type: 'shell', id: 4, op: 'runProgram', args: ['/bin/sh'] });
      expect(await core.next('shell-answer')).toMatchObject({ id: 4, ok: false });
      expect(readdirSync(join(dir, 'secrets'))).toEqual(['vault-key.enc']);
    } finally {
      cleanup();
    }
  });

  it('printing and the system browser go through the port too, with the window main holds', async () => {
    const { core, win, cleanup } = await startWithFakeCore();
    try {
      h.dialog.showMessageBox.mockResolvedValueOnce({ response: 2 });
      core.say({ type: 'shell', id: 5, op: 'printReceipt', args: ['abcdef12-x'] });
      expect(await core.next('shell-answer')).toEqual({ type: 'shell-answer', id: 5, ok: true, value: null });
      expect(h.dialog.showMessageBox).toHaveBeenCalledWith(win, expect.objectContaining({ message: 'Print the receipt, or save it as a PDF?' }));

      core.say({ type: 'shell', id: 6, op: 'openExternal', args: ['https://gateway.example/oauth/authorize?x=1'] });
      expect(await core.next('shell-answer')).toMatchObject({ id: 6, ok: true });
      expect(h.shell.openExternal).toHaveBeenCalledWith('https://gateway.example/oauth/authorize?x=1');
      core.say({ type: 'shell', id: 7, op: 'openExternal', args: ['file:///etc/passwd'] });
      expect(await core.next('shell-answer')).toMatchObject({ id: 7, ok: false });
      expect(h.shell.openExternal).toHaveBeenCalledTimes(1);
    } finally {
      cleanup();
    }
  });

  it("quitting closes the core first; the core ending on its own is said, and the app exits 1", async () => {
    const { core, appOn, cleanup } = await startWithFakeCore();
    try {
      const event = { preventDefault: vi.fn() };
      appOn.get('will-quit')!(event);
      expect(event.preventDefault).toHaveBeenCalled();
      expect(await core.next('stop')).toEqual({ type: 'stop' });
      expect(h.app.quit).not.toHaveBeenCalled();
      core.emit('exit', 0);
      await vi.waitFor(() => expect(h.app.quit).toHaveBeenCalled());
      expect(h.dialog.showErrorBox).not.toHaveBeenCalled();
    } finally {
      cleanup();
    }
    const second = await startWithFakeCore();
    try {
      second.core.emit('exit', 3);
      await vi.waitFor(() => expect(h.app.exit).toHaveBeenCalled());
      expect(h.dialog.showErrorBox).toHaveBeenCalledWith(MAIN_MESSAGES.coreExitedTitle, expect.stringContaining('exit code 3'));
      expect(h.app.exit).toHaveBeenCalledWith(1);
    } finally {
      second.cleanup();
    }
  });

  it('utilityProcessCore forks the given entry and relays its messages and exit', () => {
    const c = new FakeCore();
    h.utilityProcess.fork.mockReturnValueOnce(c);
    const channel = utilityProcessCore('/app/build/core/core-child.mjs')();
    expect(h.utilityProcess.fork).toHaveBeenCalledWith('/app/build/core/core-child.mjs', [], expect.objectContaining({ serviceName: 'Ringup core' }));
    expect(channel.pid).toBe(c.pid);
    const seen: unknown[] = [];
    channel.onMessage((m) => seen.push(m));
    channel.onExit((how) => seen.push(how));
    c.say({ type: 'result', id: 1, result: { ok: true, value: 1 } });
    c.emit('exit', 0);
    expect(seen).toEqual([{ type: 'result', id: 1, result: { ok: true, value: 1 } }, 'exit code 0']);
  });

  it('the core process forks the engine with child_process, as plain Node under Electron (ELECTRON_RUN_AS_NODE)', async () => {
    const { forkEngine } = await import('../../electron/core/gateway/engine-supervisor');
    h.fork.mockReturnValue({ pid: 1, connected: true, send: vi.fn(), on: vi.fn(), once: vi.fn(), kill: vi.fn() });
    Object.defineProperty(process.versions, 'electron', { value: '40.10.2', configurable: true });
    try {
      forkEngine(ENGINE_ENTRY)();
    } finally {
      delete (process.versions as Record<string, string | undefined>).electron;
    }
    forkEngine(ENGINE_ENTRY)();
    expect(h.fork).toHaveBeenCalledTimes(2);
    expect(h.fork.mock.calls[0]![0]).toBe(ENGINE_ENTRY);
    expect(h.fork.mock.calls[0]![2]).toMatchObject({ env: expect.objectContaining({ ELECTRON_RUN_AS_NODE: '1' }) });
    // In the node host's core process (plain Node) the environment is passed as it is.
    expect((h.fork.mock.calls[1]![2] as { env: NodeJS.ProcessEnv }).env.ELECTRON_RUN_AS_NODE).toBeUndefined();
  });
});
