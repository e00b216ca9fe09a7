/**
 * The node host as a real process, bundled the way the build bundles it (host.mjs, the
 * core child it forks with its report reader, and the engine child the core forks), with a stub renderer. For tests that must see the
 * process survive (or a child die) rather than an in-process server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = new URL('../..', import.meta.url).pathname;

/** Entry points the node host needs at run time, as build.mjs names them under build/node/. */
export const NODE_ENTRIES: Record<string, string> = {
  'node/host': 'electron/host/host-cli.ts',
  'core/core-child': 'electron/core-process/core-child.ts',
  'core/report-reader': 'electron/core/reports/report-reader-worker.ts',
  'engine/engine-child': 'electron/gateway/engine-child.ts',
};

/** `extra`: more entry points in the same bundle (the store rig adds the store server's). */
export async function buildNodeBundle(extra: Record<string, string> = {}): Promise<string> {
  const outRoot = join(root, 'test/output', `host-bundle-${process.pid}-${Date.now()}`);
  mkdirSync(join(outRoot, 'renderer'), { recursive: true });
  writeFileSync(join(outRoot, 'renderer', 'index.html'), '<!doctype html><title>Ringup</title>');
  await build({
    absWorkingDir: root,
    entryPoints: Object.entries({ ...NODE_ENTRIES, ...extra }).map(([out, inp]) => ({ out, in: inp })),
    outdir: outRoot,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    define: { __RINGUP_VERSION__: '"test"' },
    logLevel: 'warning',
  });
  return outRoot;
}

export interface HostProcess {
  child: ChildProcess;
  port: number;
  token: string;
  origin: string;
  dataDir: string;
  stderr(): string;
  exited(): boolean;
  stop(): Promise<void>;
}

/**
 * `args`: more command-line flags (e.g. --skip-first-run); `env`: more environment; `detached`:
 * the host leads its own process group, so a test can kill -9 it with its core and engine at once
 * (`process.kill(-pid, 'SIGKILL')`), as a power cut would.
 */
export interface HostStartOptions {
  args?: string[];
  env?: NodeJS.ProcessEnv;
  detached?: boolean;
}

export async function startHostProcess(bundle: string, dataDir = mkdtempSync(join(tmpdir(), 'ringup-hostp-')), opts: HostStartOptions = {}): Promise<HostProcess> {
  const child = spawn(process.execPath, [join(bundle, 'node', 'host.mjs'), '--port', '0', '--data', dataDir, '--json', ...(opts.args ?? [])], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...opts.env, RINGUP_DATA_DIR: dataDir },
    detached: opts.detached ?? false,
  });
  let out = '';
  let err = '';
  let exited = false;
  child.on('exit', () => (exited = true));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const info = await new Promise<{ origin: string; token: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`host did not start: ${err}`)), 60_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line) as { origin: string; token: string });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`host exited (${code}): ${err}`));
    });
  });
  const port = Number(new URL(info.origin).port);
  return {
    child,
    port,
    token: info.token,
    origin: info.origin.replace(/\/$/, ''),
    dataDir,
    stderr: () => err,
    exited: () => exited,
    async stop() {
      if (!exited) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await gone;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function removeBundle(bundle: string): void {
  rmSync(bundle, { recursive: true, force: true });
}
