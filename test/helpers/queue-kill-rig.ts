/**
 * The rig of the offline queue's kill tests (offline-queue-kill.test.ts, offline-ack-kill.test.ts):
 * the queue child (test/offline/queue-kill-child.ts) bundled with esbuild, a real standalone
 * engine in its own process, a runner that kills the child with SIGKILL a while after its first
 * queued sale, and the engine's records read back.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleTestChild } from './child-bundle';
import { buildEngineBundle, startStandaloneEngine, type StandaloneCreds } from './standalone-engine';

/** What one run of the child printed: `Q` queued (committed), `A` acknowledged (committed), `U` listed for the next sign-in. */
export interface ChildRun {
  queued: string[];
  acked: string[];
  unconfirmed: string[];
  signal: string | null;
  code: number | null;
  stderr: string;
}

export interface QueueKillRig {
  dir: string;
  creds: StandaloneCreds;
  /** Runs the child; kills it with SIGKILL `killAfterMs` after its first queued sale, or (null) lets it end. */
  runChild(queueDir: string, prefix: string, killAfterMs: number | null, env?: NodeJS.ProcessEnv): Promise<ChildRun>;
  /** The transaction_api_ids at the engine that start with `prefix`, one per sale (duplicates kept). */
  atEngine(prefix: string): Promise<string[]>;
  close(): void;
}

export async function startQueueKillRig(name: string): Promise<QueueKillRig> {
  buildEngineBundle();
  const dir = mkdtempSync(join(tmpdir(), `ringup-${name}-`));
  const childEntry = await bundleTestChild('test/offline/queue-kill-child.ts', `${name}-child`);
  const e = await startStandaloneEngine(join(dir, 'engine'));
  const engine: ChildProcess = e.child;
  const creds = e.creds;
  const key = randomBytes(32).toString('hex');

  return {
    dir,
    creds,
    runChild(queueDir, prefix, killAfterMs, env = {}) {
      return new Promise((resolve) => {
        const c = creds;
        const child = spawn(process.execPath, [childEntry, queueDir, c.base_url, c.developer_id, c.user_id, c.user_api_key, c.location_id, prefix], {
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { ...process.env, ...env, RINGUP_QUEUE_KEY: key },
        });
        const run: ChildRun = { queued: [], acked: [], unconfirmed: [], signal: null, code: null, stderr: '' };
        let buf = '';
        let armed = false;
        child.stdout!.on('data', (d: Buffer) => {
          buf += d.toString();
          const lines = buf.split('\n');
          buf = lines.pop()!;
          for (const l of lines) {
            if (l.startsWith('Q ')) run.queued.push(l.slice(2));
            else if (l.startsWith('A ')) run.acked.push(l.slice(2));
            else if (l.startsWith('U ')) run.unconfirmed.push(l.slice(2));
          }
          if (!armed && killAfterMs !== null && run.queued.length > 0) {
            armed = true;
            setTimeout(() => child.kill('SIGKILL'), killAfterMs);
          }
        });
        child.stderr!.on('data', (d: Buffer) => (run.stderr += d.toString()));
        child.on('exit', (code, signal) => resolve({ ...run, code, signal }));
      });
    },
    async atEngine(prefix) {
      const headers = { 'developer-id': creds.developer_id, 'user-id': creds.user_id, 'user-api-key': creds.user_api_key };
      const ids: string[] = [];
      for (let page = 1; ; page++) {
        const res = await fetch(`${creds.base_url}/transactions?page_size=5000&page=${page}&sort=created_ts`, { headers });
        if (res.status !== 200) throw new Error(`the engine's list answered ${res.status}`);
        const body = (await res.json()) as { transactions: Array<{ transaction_api_id: string | null }>; meta: { pagination: { pageCount: number } } };
        ids.push(...body.transactions.map((t) => t.transaction_api_id ?? '').filter((id) => id.startsWith(prefix)));
        if (page >= body.meta.pagination.pageCount) break;
      }
      return ids;
    },
    close() {
      if (engine.exitCode === null) engine.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
