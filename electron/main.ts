/**
 * Electron main: the window, its security settings, printing, dialogs and safeStorage — and
 * nothing else. The core (electron/core: SQLite, the offline queue, devices, reports, the
 * engine's supervisor) runs in its own utilityProcess (core-process/core-child.ts), so no query
 * or driver of it can freeze a window. ipcMain hands each call to it; its events come back to
 * the window they are for; and main offers it printing, the system browser and the secret
 * store through one narrow port (core-process/shell-port.ts). The security-relevant pieces are
 * exported so unit tests can check them against a mocked 'electron' module.
 */
import { app, BrowserWindow, dialog, ipcMain, net, protocol, screen, session, shell, utilityProcess, type WebContents } from 'electron';
import { writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { channels, DISPLAY_VIEW_FRAGMENT, EVENT_CHANNEL } from '../shared/ipc/contract';
import { dataDirFromArgv, DATA_DIR_ENV } from './core/platform/data-dir';
import { isFor } from './core/platform/events';
import type { FromCore } from './core-process/core-protocol';
import { startCoreProcess, type CoreProcess, type SpawnCore } from './core-process/core-process';
import type { Dispatch } from './ipc/dispatcher';
import { SafeStorageSecretStore } from './secrets/safe-storage-store';

/** The renderer is served from this privileged standard scheme, never from file:// or http://. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'ringup';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

const buildDir = fileURLToPath(new URL('..', import.meta.url)); // build/
const rendererDir = join(buildDir, 'renderer');
const preloadPath = join(buildDir, 'preload', 'preload.cjs');
export const CORE_ENTRY = join(buildDir, 'core', 'core-child.mjs');
/** The engine, forked by the core process (core-process/core-child.ts says why not by main). */
export const ENGINE_ENTRY = join(buildDir, 'engine', 'engine-child.mjs');

/** The core in Electron's utilityProcess: a Node child of the app with a message port to main. */
export function utilityProcessCore(entry: string = CORE_ENTRY): SpawnCore {
  return () => {
    const child = utilityProcess.fork(entry, [], { serviceName: 'Ringup core', stdio: 'inherit' });
    return {
      get pid() {
        return child.pid;
      },
      send: (msg) => child.postMessage(msg),
      onMessage: (fn) => child.on('message', (m: unknown) => fn(m as FromCore)),
      onExit: (fn) => child.once('exit', (code: number) => fn(`exit code ${code}`)),
      kill: () => void child.kill(),
    };
  };
}

export const MAIN_MESSAGES = {
  coreExitedTitle: 'Ringup stopped',
  coreExited: "Ringup's core stopped unexpectedly ({how}). Start Ringup again; nothing it had saved is lost.",
} as const;

export const RENDERER_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; object-src 'none'; frame-ancestors 'none'";

export const WEB_PREFERENCES = Object.freeze({
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webviewTag: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  experimentalFeatures: false,
  spellcheck: false,
});

export function windowOptions(preload: string): Electron.BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 800,
    minWidth: 960,
    minHeight: 640,
    show: false,
    title: 'Ringup',
    backgroundColor: '#f6f7f9',
    webPreferences: { ...WEB_PREFERENCES, preload },
  };
}

/** A monitor as Electron's `screen` reports it (the fields the customer display's placement reads). */
export interface MonitorInfo {
  id: number;
  bounds: { x: number; y: number; width: number; height: number };
}

/** The customer display's window when there is no second monitor: the size of a small customer screen. */
export const DISPLAY_WINDOW_SIZE = { width: 1024, height: 600 } as const;

/**
 * Where the customer display goes (issue 23, point 4): full screen on the first monitor that is not
 * the primary one (the counter's), or a window of a customer screen's size on the only one.
 */
export function customerDisplayPlacement(monitors: readonly MonitorInfo[], primaryId: number): { x?: number; y?: number; width: number; height: number; fullscreen: boolean } {
  const other = monitors.find((m) => m.id !== primaryId);
  return other ? { ...other.bounds, fullscreen: true } : { ...DISPLAY_WINDOW_SIZE, fullscreen: false };
}

/** The customer display's window: the same locked-down renderer as the counter's, placed as `customerDisplayPlacement` says. */
export function customerDisplayWindowOptions(preload: string, placement: ReturnType<typeof customerDisplayPlacement>): Electron.BrowserWindowConstructorOptions {
  return { ...windowOptions(preload), ...placement, minWidth: 480, minHeight: 320, title: 'Ringup — customer display', autoHideMenuBar: true };
}

/** The customer display's page: the renderer's own index, asking for the display view. */
export const DISPLAY_PAGE_URL = `${APP_ORIGIN}/index.html#${DISPLAY_VIEW_FRAGMENT}`;

/** Locks a window's contents down: no popups, no navigation away, no webviews. */
export function hardenWebContents(contents: WebContents): void {
  contents.setWindowOpenHandler(({ url }) => {
    // Open plain web links in the user's browser; never a new Electron window.
    if (/^https:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event, url) => {
    if (!url.startsWith(`${APP_ORIGIN}/`)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!url.startsWith(`${APP_ORIGIN}/`)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** Denies every permission request and check (camera, geolocation, notifications …). */
export function denyAllPermissions(ses: Electron.Session): void {
  ses.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
}

/** Serves build/renderer at app://ringup/, refusing any path that escapes it. */
export function serveRenderer(root: string): void {
  protocol.handle(APP_SCHEME, (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST) return new Response('Not found', { status: 404 });
    const rel = decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname);
    const file = normalize(join(root, rel));
    if (!file.startsWith(root + sep) || !existsSync(file)) return new Response('Not found', { status: 404 });
    return net.fetch(pathToFileURL(file).toString()).then((res) => {
      // The CSP also travels as a header, so it holds even for a document without the meta tag.
      const headers = new Headers(res.headers);
      headers.set('Content-Security-Policy', RENDERER_CSP);
      headers.set('X-Content-Type-Options', 'nosniff');
      return new Response(res.body, { status: res.status, headers });
    });
  });
}

/** The caller id of a window's contents: its session is its own. */
export function callerIdOf(contents: Pick<WebContents, 'id'>): string {
  return `wc-${contents.id}`;
}

/** Registers every contract channel on ipcMain, each call going to the one validating dispatcher (in the core process). */
export function registerIpc(dispatch: Dispatch): void {
  for (const channel of channels) {
    ipcMain.handle(channel, (event, arg: unknown) =>
      dispatch(
        channel,
        {
          url: event.senderFrame?.url,
          isMainFrame: !!event.senderFrame && event.senderFrame.parent === null,
          // Each window signs in on its own (see electron/ipc/caller-context.ts).
          callerId: callerIdOf(event.sender),
        },
        arg,
      ),
    );
  }
}

type PdfPageSize = 'Letter' | 'A4' | { width: number; height: number };

/**
 * What is on screen, in its own @media print layout: the system print dialog, or a PDF
 * saved where the user chooses. Returns the PDF path, or null when printed or cancelled.
 */
async function printOrSavePdf(
  getWindow: () => BrowserWindow | null,
  what: { message: string; defaultButton: 0 | 1; fileName: string; pageSize: PdfPageSize },
): Promise<string | null> {
  const win = getWindow();
  if (!win || win.isDestroyed()) throw new Error('No window to print from');
  const { response } = await dialog.showMessageBox(win, {
    type: 'question',
    buttons: ['Print…', 'Save as PDF…', 'Cancel'],
    defaultId: what.defaultButton,
    cancelId: 2,
    message: what.message,
  });
  if (response === 0) {
    await new Promise<void>((resolve, reject) =>
      win.webContents.print({ silent: false, printBackground: false }, (success, reason) =>
        success || reason === 'cancelled' ? resolve() : reject(new Error(`Printing failed: ${reason}`)),
      ),
    );
    return null;
  }
  if (response !== 1) return null;
  const { canceled, filePath } = await dialog.showSaveDialog(win, { defaultPath: what.fileName, filters: [{ name: 'PDF', extensions: ['pdf'] }] });
  if (canceled || !filePath) return null;
  await writeFile(filePath, await win.webContents.printToPDF({ pageSize: what.pageSize, printBackground: false }));
  return filePath;
}

/** The desktop receipt printer behind `receipt:print` (print dialog first). */
export function createReceiptPrinter(getWindow: () => BrowserWindow | null) {
  return (transactionId: string): Promise<string | null> =>
    printOrSavePdf(getWindow, { message: 'Print the receipt, or save it as a PDF?', defaultButton: 0, fileName: `receipt-${transactionId.slice(0, 8)}.pdf`, pageSize: 'Letter' });
}

/**
 * The desktop printer behind `reports:print` (X and Z reports) on an 80 mm roll or A4
 * (Save as PDF first: reports are usually kept).
 */
export function createReportPrinter(getWindow: () => BrowserWindow | null) {
  return (name: string, paper: '80mm' | 'a4'): Promise<string | null> =>
    // 80 mm is 3.15 in; a long roll page keeps a report on one sheet.
    printOrSavePdf(getWindow, { message: 'Print the report, or save it as a PDF?', defaultButton: 1, fileName: `${name}.pdf`, pageSize: paper === 'a4' ? 'A4' : { width: 3.15, height: 40 } });
}

/**
 * Keys are kept with the OS keychain through safeStorage. On Linux without a keyring
 * (safeStorage's `basic_text`), Ringup refuses to start unless the user passes
 * --allow-plaintext-keys, and says so in a dialog.
 */
function openSecretStore(dataDir: string): SafeStorageSecretStore | null {
  try {
    return new SafeStorageSecretStore(dataDir, { allowBasicText: process.argv.includes('--allow-plaintext-keys') });
  } catch (err) {
    dialog.showErrorBox('Ringup cannot keep its keys safe', err instanceof Error ? err.message : String(err));
    return null;
  }
}

/**
 * Opens the customer display's window (issue 23, point 4): the same renderer, `view=display`, its own
 * caller (it never signs in), fed the core's events like the counter's window.
 */
export function openCustomerDisplay(core: Pick<CoreProcess, 'events' | 'disconnect'>): BrowserWindow {
  const placement = customerDisplayPlacement(screen.getAllDisplays(), screen.getPrimaryDisplay().id);
  const win = new BrowserWindow(customerDisplayWindowOptions(preloadPath, placement));
  const caller = callerIdOf(win.webContents);
  const off = core.events.subscribe((event, payload, to) => {
    if (!win.isDestroyed() && isFor(caller, to)) win.webContents.send(EVENT_CHANNEL, event, payload);
  });
  win.webContents.once('destroyed', () => {
    off();
    core.disconnect(caller);
  });
  win.once('ready-to-show', () => win.show());
  void win.loadURL(DISPLAY_PAGE_URL);
  return win;
}

export async function startApp(): Promise<void> {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
  const chosenData = dataDirFromArgv(process.argv) ?? process.env[DATA_DIR_ENV];
  if (chosenData) app.setPath('userData', chosenData);

  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  app.on('web-contents-created', (_e, contents) => hardenWebContents(contents));

  await app.whenReady();
  denyAllPermissions(session.defaultSession);
  serveRenderer(rendererDir);

  const dataDir = app.getPath('userData');
  const secrets = openSecretStore(dataDir);
  if (!secrets) {
    app.exit(1);
    return;
  }
  let win: BrowserWindow | null = null;
  let core: CoreProcess;
  try {
    core = await startCoreProcess(
      utilityProcessCore(),
      { dataDir, shell: 'electron', allowedOrigins: [APP_ORIGIN], engineEntry: ENGINE_ENTRY, skipFirstRun: process.argv.includes('--skip-first-run') },
      // The shell port: what only main can do. The keys stay behind safeStorage here; the core asks for them.
      {
        secrets,
        // OAuth sign-in: the gateway's login page opens in the system browser.
        openExternal: (url) => shell.openExternal(url),
        printReceipt: createReceiptPrinter(() => win),
        printReport: createReportPrinter(() => win),
      },
    );
  } catch (err) {
    console.error('Ringup could not start its core:', err instanceof Error ? err.message : err);
    app.exit(1);
    return;
  }
  // The core gone means no sale can be taken: say so and stop, rather than leave windows that answer nothing.
  core.onUnexpectedExit((how) => {
    dialog.showErrorBox(MAIN_MESSAGES.coreExitedTitle, MAIN_MESSAGES.coreExited.replace('{how}', how));
    app.exit(1);
  });
  registerIpc(core.dispatch);

  const mainWindow = new BrowserWindow(windowOptions(preloadPath));
  win = mainWindow;
  const mainCaller = callerIdOf(mainWindow.webContents);
  core.events.subscribe((event, payload, to) => {
    if (!mainWindow.isDestroyed() && isFor(mainCaller, to)) mainWindow.webContents.send(EVENT_CHANNEL, event, payload);
  });
  mainWindow.webContents.once('destroyed', () => core.disconnect(mainCaller));
  mainWindow.once('ready-to-show', () => mainWindow.show());
  // `--display`: the customer display in a second window, on the second monitor when there is one.
  if (process.argv.includes('--display')) {
    const display = openCustomerDisplay(core);
    mainWindow.once('closed', () => {
      if (!display.isDestroyed()) display.close();
    });
  }
  app.on('second-instance', () => {
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.on('window-all-closed', () => app.quit());
  // The core closes cleanly (engine stopped, SQLite checkpointed) before the app exits.
  let coreClosed = false;
  app.on('will-quit', (event) => {
    if (coreClosed) return;
    event.preventDefault();
    void core.close().finally(() => {
      coreClosed = true;
      app.quit();
    });
  });
  await mainWindow.loadURL(`${APP_ORIGIN}/index.html`);
}
