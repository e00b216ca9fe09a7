/**
 * The store server as a real process (`store-cli.ts`, bundled like the build bundles it), on
 * 127.0.0.1 port 0 with `--json`: resolves once it printed its line (url, fingerprint, setup
 * code, engine), or rejects with its stderr when it exits first. For tests that run two of them
 * on one database and kill one with SIGKILL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { bundleTestChild } from './child-bundle';

export interface StoreProcessInfo {
  url: string;
  addresses: string[];
  fingerprint: string;
  /** Grouped (XXXXX-…); null once the store has a register. */
  setupCode: string | null;
  engine: { baseUrl: string; developerId: string; userId: string; userApiKey: string; locationId: string | null; productTransactionId: string | null } | null;
}

export interface StoreProcess extends StoreProcessInfo {
  child: ChildProcess;
  /** What it wrote to stderr so far. */
  stderr(): string;
  /** SIGTERM, then its exit code. */
  stop(): Promise<number | null>;
  kill(): void;
}

/** Bundles store-cli.ts once per test process (its own file name: test files bundle at once). */
export function bundleStoreCli(): Promise<string> {
  return bundleTestChild('electron/store-server/store-cli.ts', `store-cli-${process.pid}`);
}

export function startStoreProcess(bundle: string, databaseUrl: string, args: string[] = []): Promise<StoreProcess> {
  const child = spawn(process.execPath, [bundle, '--database', databaseUrl, '--host', '127.0.0.1', '--port', '0', '--json', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n')[0];
      if (!out.includes('\n') || !line) return;
      const info = JSON.parse(line) as StoreProcessInfo;
      resolve({
        ...info,
        child,
        stderr: () => err,
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          return exited;
        },
        kill() {
          child.kill('SIGKILL');
        },
      });
    });
    void exited.then((code) => reject(new Error(`store server exited (${code}) before it was ready: ${err}`)));
  });
}
