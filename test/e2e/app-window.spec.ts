/**
 * `npm start -- --window` (issue 23, point 7): where Electron cannot run, the app opens in a
 * real Chromium app-mode window on the current X display. This spec starts its own Xvfb on a
 * free display number (-displayfd) with its screen kept in a file (-fbdir), runs start.mjs
 * the way `npm start -- --host-only --window` does (--no-build: the suite built the app once),
 * with the window's remote-debugging port, drives that very window through Playwright's
 * connectOverCDP (sign in, the sale screen), takes the page's screenshot and the X screen's
 * own (the XWD file as PNG). Closing the window stops the app; Ctrl+C closes both windows
 * (--display) and stops it; either way no process start.mjs started is left. Without a
 * display, a sentence and status 1.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium, type Browser, type Page } from '@playwright/test';
import { expect, ROOT, SCREENSHOT_DIR, test } from './fixtures';
import { signIn, USERS } from './helpers/counter';
import { xwdToPng } from './helpers/xwd-image';

test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

let xvfb: ChildProcess;
let display: string;
let fbdir: string;

/** Xvfb on the first free display number (it picks one and writes it to fd 3). */
test.beforeAll(async () => {
  fbdir = mkdtempSync(join(tmpdir(), 'ringup-xvfb-'));
  xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x800x24', '-fbdir', fbdir, '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  display = await new Promise<string>((resolve, reject) => {
    let text = '';
    xvfb.stdio[3]!.on('data', (d: Buffer) => {
      text += d.toString();
      if (text.includes('\n')) resolve(`:${text.trim()}`);
    });
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited (${code})`)));
  });
});
test.afterAll(async () => {
  if (xvfb.exitCode === null) {
    const gone = new Promise((r) => xvfb.once('exit', r));
    xvfb.kill('SIGTERM');
    await gone;
  }
  rmSync(fbdir, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Every process below `pid` now (from /proc: each one's parent). */
function descendantsOf(pid: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parent.set(Number(name), ppid);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [child, pp] of parent) {
      if (pp !== p) continue;
      out.push(child);
      walk(child);
    }
  };
  walk(pid);
  return out;
}

/** Those of `pids` still running (a zombie waiting for its parent counts as gone). */
function alive(pids: number[]): number[] {
  return pids.filter((p) => {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
    } catch {
      return false;
    }
  });
}

/** A process's command line, argument by argument ([] once it is gone). */
function cmdline(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

interface Started {
  child: ChildProcess;
  out: string[];
  exited: Promise<number | null>;
  dataDir: string;
}

function startApp(args: string[], env: NodeJS.ProcessEnv): Started {
  const dataDir = mkdtempSync(join(tmpdir(), 'ringup-window-data-'));
  const child = spawn(process.execPath, [join(ROOT, 'electron/tools/start.mjs'), '--host-only', '--window', '--no-build', '--data', dataDir, '--skip-first-run', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (l) => out.push(l));
  createInterface({ input: child.stderr! }).on('line', (l) => out.push(l));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, out, exited, dataDir };
}

/** Playwright on the real window's Chromium, once its debugging port answers. */
async function connect(port: number): Promise<Browser> {
  await expect
    .poll(async () => (await fetch(`http://127.0.0.1:${port}/json/version`).catch(() => null))?.ok ?? false, { timeout: 60_000 })
    .toBe(true);
  return chromium.connectOverCDP(`http://127.0.0.1:${port}`);
}

async function pageAt(browser: Browser, test: (url: string) => boolean): Promise<Page> {
  let found: Page | undefined;
  await expect.poll(() => (found = browser.contexts().flatMap((c) => c.pages()).find((p) => test(p.url()))) !== undefined, { timeout: 30_000 }).toBe(true);
  return found!;
}

test('a real window under Xvfb: signed in through it, its screenshot and the X screen; closing it stops the app and leaves no process', async () => {
  const port = await freePort();
  const app = startApp(['--window-debug-port', String(port)], { DISPLAY: display });
  let browser: Browser | undefined;
  try {
    await expect.poll(() => app.out.join('\n'), { timeout: 60_000 }).toContain('Ringup is open in a window.');
    browser = await connect(port);
    const page = await pageAt(browser, (u) => u.startsWith('http://127.0.0.1:'));
    // A window that is just starting on a loaded machine may take a while to draw its first screen.
    await expect(page.getByRole('heading', { name: 'Who is at the counter?' })).toBeVisible({ timeout: 60_000 });
    await signIn(page, USERS.cashier);
    await expect(page.getByRole('heading', { name: 'New sale' })).toBeVisible();
    await page.keyboard.type('1250');
    await expect(page.getByTestId('sale-amount')).toContainText('$12.50');
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'app-window-page.png') });
    // The X screen itself: the app-mode window as it is drawn (Xvfb keeps its screen in the file).
    const screen = xwdToPng(join(fbdir, 'Xvfb_screen0'), join(SCREENSHOT_DIR, 'app-window-xscreen.png'));
    expect(screen).toEqual({ width: 1280, height: 800 });

    const started = descendantsOf(app.child.pid!);
    // The host, its core and engine, and the window's Chromium with its helpers.
    expect(started.length).toBeGreaterThanOrEqual(4);
    // The merchant closes the window: the app stops on its own.
    await page.close();
    expect(await app.exited).toBe(0);
    expect(app.out.join('\n')).toContain('The app window was closed: stopping Ringup.');
    await expect.poll(() => alive(started), { timeout: 15_000 }).toEqual([]);
  } finally {
    await browser?.close().catch(() => undefined);
    if (app.child.exitCode === null) app.child.kill('SIGTERM');
    await app.exited;
    rmSync(app.dataDir, { recursive: true, force: true });
  }
});

test('with --display, a second window on the customer display address; Ctrl+C closes both and stops the app, leaving no process', async () => {
  const [appPort, displayPort] = [await freePort(), await freePort()];
  const app = startApp(['--display', '--window-debug-port', String(appPort), '--display-debug-port', String(displayPort)], { DISPLAY: display });
  const browsers: Browser[] = [];
  try {
    await expect.poll(() => app.out.join('\n'), { timeout: 60_000 }).toContain('The customer display is open in a second window');
    browsers.push(await connect(appPort), await connect(displayPort));
    await pageAt(browsers[0]!, (u) => u.startsWith('http://127.0.0.1:'));
    await pageAt(browsers[1]!, (u) => u.startsWith('http://127.0.0.1:'));
    // Each window opened its own address (the page takes the token out of its address bar once read, so the launch line says it).
    const started = descendantsOf(app.child.pid!);
    const apps = started.map(cmdline).filter((c) => c.some((a) => a.startsWith('--app=')));
    const addresses = apps.map((c) => c.find((a) => a.startsWith('--app='))!.slice('--app='.length)).sort();
    expect(addresses).toHaveLength(2);
    expect(addresses[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[^&]+$/);
    expect(addresses[1]).toBe(`${addresses[0]}&view=display`);

    app.child.kill('SIGINT');
    expect(await app.exited).toBe(0);
    await expect.poll(() => alive(started), { timeout: 15_000 }).toEqual([]);
  } finally {
    for (const b of browsers) await b.close().catch(() => undefined);
    if (app.child.exitCode === null) app.child.kill('SIGTERM');
    await app.exited;
    rmSync(app.dataDir, { recursive: true, force: true });
  }
});

test('without a display: a sentence and status 1, before anything starts', async () => {
  const env = { ...process.env };
  delete env.DISPLAY;
  const child = spawn(process.execPath, [join(ROOT, 'electron/tools/start.mjs'), '--host-only', '--window', '--no-build'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  expect(code).toBe(1);
  expect(err.trim()).toBe('Ringup cannot open a window: there is no graphical display here ($DISPLAY is not set). Start it from a desktop session, or leave out --window and open the address it prints in a browser.');
});
