/**
 * End-to-end fixtures: each worker starts its own node host (real core, real engine,
 * real SQLite in a fresh temporary data folder) and hands tests its URL with the
 * per-launch token. `shot()` saves a PNG under test/output/screenshots/ for a person
 * to look at.
 */
import { test as base, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SCREENSHOT_DIR = join(ROOT, 'test', 'output', 'screenshots');

export interface HostInfo {
  /** Open this: origin + #token=… */
  url: string;
  origin: string;
  token: string;
  dataDir: string;
  gateway: { mode: string; baseUrl: string; health: string };
  process: ChildProcess;
}

/**
 * What device specs allow when starting the host, as a shop's owner could (README, Devices): the
 * terminal simulator listens on any free port (port 0) and the simulators sit on socat
 * pseudo-terminals (electron/devices/device-places.ts).
 */
export const DEVICE_SIMULATOR_ENV = { RINGUP_TERMINAL_PORTS: '1024-65535', RINGUP_SERIAL_PTYS: '1' } as const;

/**
 * Starts `node build/node/host.mjs --json` on a free port with its own data folder (a new one unless given).
 * It skips the first-run choice (`--skip-first-run`) unless `extraArgs` holds `--ask-first-run`.
 */
export async function startHostProcess(extraArgs: string[] = [], env: NodeJS.ProcessEnv = {}, existingDataDir?: string): Promise<HostInfo> {
  const dataDir = existingDataDir ?? mkdtempSync(join(tmpdir(), 'ringup-e2e-'));
  const args = extraArgs.includes('--ask-first-run') ? extraArgs.filter((a) => a !== '--ask-first-run') : ['--skip-first-run', ...extraArgs];
  const child = spawn(process.execPath, [join(ROOT, 'build/node/host.mjs'), '--port', '0', '--data', dataDir, '--json', ...args], {
    cwd: ROOT,
    // The host keeps its "today" where the run cannot cross midnight (midday-zone.ts).
    env: { ...process.env, ...(process.env.RINGUP_E2E_TZ ? { TZ: process.env.RINGUP_E2E_TZ } : {}), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`host did not start in 30 s: ${stderr}`)), 30_000);
    lines.once('line', (l) => {
      clearTimeout(timer);
      resolve(l);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`host exited with ${code}: ${stderr}`));
    });
  });
  const info = JSON.parse(first) as Omit<HostInfo, 'process'>;
  return { ...info, process: child };
}

/** Stops the host (SIGTERM, a clean shutdown) and removes its data folder unless asked to keep it. */
export async function stopHostProcess(host: HostInfo, opts: { keepData?: boolean } = {}): Promise<void> {
  if (host.process.exitCode === null) {
    const exited = new Promise((r) => host.process.once('exit', r));
    host.process.kill('SIGTERM');
    await exited;
  }
  if (!opts.keepData) rmSync(host.dataDir, { recursive: true, force: true });
}

/** Saves a full-page screenshot as test/output/screenshots/<name>.png and returns its path. */
export async function shot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

export const test = base.extend<{ app: HostInfo }, { workerHost: HostInfo }>({
  workerHost: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const host = await startHostProcess();
      await use(host);
      await stopHostProcess(host);
    },
    { scope: 'worker' },
  ],
  app: async ({ workerHost }, use) => {
    await use(workerHost);
  },
});

/**
 * A host for one spec file alone, started before its first test and stopped after its last:
 * for specs whose catalogue, carts or settings must not reach the specs that share a worker's
 * host (several sell without a catalogue, or count the day from an empty one).
 */
export function hostOfThisFile(): { readonly host: HostInfo } {
  const own = {} as { host: HostInfo };
  test.beforeAll(async () => {
    own.host = await startHostProcess();
  });
  test.afterAll(async () => {
    await stopHostProcess(own.host);
  });
  return own;
}

export { expect } from '@playwright/test';
