/**
 * Electron main: the window, its security settings, and the IPC wiring. Everything
 * else is the core (electron/core), which runs in plain Node and is shared with the
 * node host. The security-relevant pieces are exported so unit tests can check them
 * against a mocked 'electron' module.
 */
import { app, BrowserWindow, ipcMain, net, protocol, session, shell, type WebContents } from 'electron';
import { existsSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { channels, EVENT_CHANNEL } from '../shared/ipc/contract';
import { remoteGatewayFromEnv, startCore, type Core } from './core/app-core';
import { dataDirFromArgv, DATA_DIR_ENV } from './core/data-dir';
import { createDispatcher, type Dispatch } from './ipc/dispatcher';

/** The renderer is served from this privileged standard scheme, never from file:// or http://. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'ringup';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

const buildDir = fileURLToPath(new URL('..', import.meta.url)); // build/
const rendererDir = join(buildDir, 'renderer');
const preloadPath = join(buildDir, 'preload', 'preload.cjs');

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

/** Registers every contract channel on ipcMain through the one validating dispatcher. */
export function registerIpc(dispatch: Dispatch): void {
  for (const channel of channels) {
    ipcMain.handle(channel, (event, arg: unknown) =>
      dispatch(channel, { url: event.senderFrame?.url, isMainFrame: !!event.senderFrame && event.senderFrame.parent === null }, arg),
    );
  }
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

  let core: Core;
  try {
    core = await startCore({ dataDir: app.getPath('userData'), shell: 'electron', remote: remoteGatewayFromEnv() });
  } catch (err) {
    console.error('Ringup could not start its core:', err instanceof Error ? err.message : err);
    app.exit(1);
    return;
  }
  registerIpc(
    createDispatcher(core.handlers, {
      allowedOrigins: [APP_ORIGIN],
      logError: (channel, err) => console.error(`[ipc] ${channel} failed:`, err instanceof Error ? err.message : err),
    }),
  );

  const win = new BrowserWindow(windowOptions(preloadPath));
  core.events.subscribe((event, payload) => {
    if (!win.isDestroyed()) win.webContents.send(EVENT_CHANNEL, event, payload);
  });
  win.once('ready-to-show', () => win.show());
  app.on('second-instance', () => {
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on('window-all-closed', () => app.quit());
  app.on('will-quit', () => void core.close());
  await win.loadURL(`${APP_ORIGIN}/index.html`);
}
