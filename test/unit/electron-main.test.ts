/**
 * Electron main and preload against a mocked 'electron' module: the window's security
 * settings, the handlers that deny popups/navigation/webviews/permissions, the IPC
 * wiring through the validating dispatcher, the single-instance lock, and what the
 * preload exposes.
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
    utilityChildren: [] as FakeUtility[],
    utilityProcess: { fork: vi.fn() },
  };
});

/** A stand-in for Electron's UtilityProcess: answers `start` with `ready` like the engine child. */
class FakeUtility {
  readonly listeners = new Map<string, ((...a: unknown[]) => void)[]>();
  readonly posted: unknown[] = [];
  static nextPid = 4000;
  readonly pid = FakeUtility.nextPid++;
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
  postMessage(msg: { type: string; port?: number }) {
    this.posted.push(msg);
    if (msg.type === 'start') queueMicrotask(() => this.emit('message', { type: 'ready', credentials: { base_url: `http://127.0.0.1:${msg.port || 41234}/v2` } }));
    if (msg.type === 'stop') queueMicrotask(() => this.emit('exit', 0));
  }
  kill = vi.fn(() => this.emit('exit', null));
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
  BrowserWindow: vi.fn(),
  net: { fetch: vi.fn() },
  session: { defaultSession: {} },
}));

import { channels, methodToChannel } from '../../shared/ipc/contract';
import { ok } from '../../shared/result';
import { createDispatcher } from '../../electron/ipc/dispatcher';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  APP_ORIGIN,
  createReceiptPrinter,
  createReportPrinter,
  denyAllPermissions,
  hardenWebContents,
  registerIpc,
  startApp,
  utilityProcessEngine,
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

describe('the engine in a utilityProcess', () => {
  it('forks the built engine entry as a utility process, hands it the vault key over its message port, and restarts it when it dies', async () => {
    const { EngineSupervisor } = await import('../../electron/core/gateway/engine-supervisor');
    const forked: FakeUtility[] = [];
    h.utilityProcess.fork.mockImplementation(() => {
      const c = new FakeUtility();
      forked.push(c);
      return c;
    });
    const states: string[] = [];
    const key = Buffer.alloc(32, 7);
    const sup = new EngineSupervisor({ spawn: utilityProcessEngine('/app/build/engine/engine-child.mjs'), dataDir: '/data/gateway', port: 0, vaultKey: key, onState: (s) => states.push(s) });
    const creds = await sup.start();
    expect(creds.base_url).toBe('http://127.0.0.1:41234/v2');
    expect(h.utilityProcess.fork).toHaveBeenCalledWith('/app/build/engine/engine-child.mjs', [], expect.objectContaining({ serviceName: expect.any(String) }));
    expect(forked[0]!.posted[0]).toEqual({ type: 'start', dataDir: '/data/gateway', port: 0, vaultKey: key.toString('base64') });
    expect(sup.pid).toBe(forked[0]!.pid);

    // It dies: restarting, then a new utility process on the same port.
    forked[0]!.emit('exit', 9);
    expect(sup.state).toBe('restarting');
    for (let i = 0; i < 50 && forked.length < 2; i++) await new Promise((r) => setTimeout(r, 50));
    expect(forked).toHaveLength(2);
    await new Promise((r) => setTimeout(r, 0));
    expect(forked[1]!.posted[0]).toMatchObject({ type: 'start', port: 41234 });
    expect(sup.state).toBe('ok');
    expect(sup.restarts).toBe(1);

    await sup.stop();
    expect(forked[1]!.posted.at(-1)).toEqual({ type: 'stop' });
    expect(states).toEqual(['ok', 'restarting', 'ok', 'stopped']);
  });
});
