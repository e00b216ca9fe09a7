/**
 * Crash safety of the offline queue (issue 13, point 3): a real process running the
 * core's queue and forwarder (test/offline/queue-kill-child.ts) is killed with SIGKILL at
 * random moments, 20 times, while it takes sales offline and forwards them to a real
 * standalone engine (build/node/gateway-cli.mjs, its own process, port 0). Then one more
 * run drains the queue, and the engine's records are checked against the queue:
 * - every sale the child reported as queued (after its fsynced commit) is in the queue;
 * - every queued sale is at the engine exactly once (no loss, no double charge);
 * - the engine has no sale the queue does not know.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEngineBundle, startStandaloneEngine, type StandaloneCreds } from '../helpers/standalone-engine';
import { openPosDatabase } from '../../electron/core/pos-database';

const root = new URL('../../', import.meta.url).pathname;
const ITERATIONS = 20;
type Creds = StandaloneCreds;

let dir: string;
let childEntry: string;
let engine: ChildProcess | undefined;
let creds: Creds;
const key = randomBytes(32).toString('hex');


/** Runs the queue child; kills it with SIGKILL after `killAfterMs` (counted from its first queued sale), or lets it end. */
function runChild(queueDir: string, prefix: string, killAfterMs: number | null): Promise<{ queued: string[]; signal: string | null; code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const c = creds;
    const child = spawn(process.execPath, [childEntry, queueDir, c.base_url, c.developer_id, c.user_id, c.user_api_key, c.location_id, prefix], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, RINGUP_QUEUE_KEY: key },
    });
    const queued: string[] = [];
    let buf = '';
    let stderr = '';
    let armed = false;
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const lines = buf.split('\n');
      buf = lines.pop()!;
      for (const l of lines) if (l.startsWith('Q ')) queued.push(l.slice(2));
      if (!armed && killAfterMs !== null && queued.length > 0) {
        armed = true;
        setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      }
    });
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code, signal) => resolve({ queued, signal, code, stderr }));
  });
}

beforeAll(async () => {
  buildEngineBundle();
  dir = mkdtempSync(join(tmpdir(), 'ringup-queue-kill-'));
  // Under build/ so the bundle's external packages resolve from the repo's node_modules.
  childEntry = join(root, 'build/test/queue-kill-child.mjs');
  await build({
    absWorkingDir: root,
    entryPoints: ['test/offline/queue-kill-child.ts'],
    outfile: childEntry,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  const e = await startStandaloneEngine(join(dir, 'engine'));
  engine = e.child;
  creds = e.creds;
}, 120_000);

afterAll(() => {
  if (engine && engine.exitCode === null) engine.kill('SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the offline queue under kill -9', () => {
  it(`loses no queued sale and charges none twice over ${ITERATIONS} random kills`, async () => {
    const queueDir = join(dir, 'counter');
    const reported = new Set<string>();
    for (let i = 0; i < ITERATIONS; i++) {
      // Between 5 and 400 ms after the first queued sale: early kills hit enqueue, later ones forwarding.
      const r = await runChild(queueDir, `kill-${i}`, 5 + Math.floor(Math.random() * 395));
      expect(r.signal, r.stderr).toBe('SIGKILL');
      for (const ref of r.queued) reported.add(ref);
    }
    expect(reported.size).toBeGreaterThan(ITERATIONS);

    const drain = await runChild(queueDir, '-', null);
    expect(drain.code, drain.stderr).toBe(0);

    const db = openPosDatabase(queueDir);
    const rows = db.prepare('SELECT client_ref, state, card_blob FROM offline_queue').all() as Array<{ client_ref: string; state: string; card_blob: Buffer | null }>;
    db.close();
    const inQueue = new Set(rows.map((r) => r.client_ref));
    // Nothing the cashier saw as "approved offline" was lost.
    expect([...reported].filter((ref) => !inQueue.has(ref))).toEqual([]);
    // Everything was forwarded and its card data erased.
    expect(rows.filter((r) => r.state !== 'approved')).toEqual([]);
    expect(rows.filter((r) => r.card_blob !== null)).toEqual([]);

    const headers = { 'developer-id': creds.developer_id, 'user-id': creds.user_id, 'user-api-key': creds.user_api_key };
    const atEngine: string[] = [];
    for (let page = 1; ; page++) {
      const res = await fetch(`${creds.base_url}/transactions?page_size=5000&page=${page}&sort=created_ts`, { headers });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { transactions: Array<{ transaction_api_id: string | null }>; meta: { pagination: { pageCount: number } } };
      atEngine.push(...body.transactions.map((t) => t.transaction_api_id ?? '').filter((id) => id.startsWith('kill-')));
      if (page >= body.meta.pagination.pageCount) break;
    }
    // Exactly once per sale: no duplicates, none missing, none the queue does not know.
    expect(atEngine.length).toBe(new Set(atEngine).size);
    const engineSet = new Set(atEngine);
    expect([...inQueue].filter((ref) => !engineSet.has(ref))).toEqual([]);
    expect(atEngine.filter((ref) => !inQueue.has(ref))).toEqual([]);
    expect(atEngine.length).toBe(rows.length);
  }, 110_000);
});
