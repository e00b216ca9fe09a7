/**
 * The report reader (issue 22, point 4): a report's ringup.db figures read on a worker thread
 * with a read-only connection of its own, built the way build.mjs builds it. The figures are the
 * ones the core's own thread reads; the core's event loop keeps turning while the worker reads
 * (on its own thread it does not turn once); the worker sees what the writer committed after
 * it started (WAL), and never writes; on Linux its thread, and only it, runs in SCHED_IDLE.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPosDatabase, type PosDatabase } from '../../electron/core/platform/pos-database';
import { inThreadFigures, workerFigures, type PeriodFiguresSource } from '../../electron/core/reports/report-reader';
import { seedCartSales } from '../e2e/helpers/seed-cart-sales';

const root = new URL('../..', import.meta.url).pathname;
const CARTS = 5_000;
let out: string;
let dataDir: string;
let db: PosDatabase;
let entry: string;

beforeAll(async () => {
  out = join(root, 'test/output', `report-reader-${process.pid}-${Date.now()}`);
  mkdirSync(out, { recursive: true });
  entry = join(out, 'report-reader.mjs');
  await build({ absWorkingDir: root, entryPoints: ['electron/core/reports/report-reader-worker.ts'], outfile: entry, bundle: true, platform: 'node', target: 'node20', format: 'esm', packages: 'external', logLevel: 'warning' });
  dataDir = mkdtempSync(join(tmpdir(), 'ringup-reader-'));
  db = openPosDatabase(dataDir);
  seedCartSales(dataDir, CARTS, Date.now() - 60_000);
}, 120_000);

afterAll(() => {
  db?.close();
  rmSync(out, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

/** Each thread of this process and its scheduling policy (/proc/self/task/<tid>/stat, field 41: 0 normal, 5 SCHED_IDLE). */
function policies(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      out.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[38]));
    } catch {
      // The thread ended meanwhile.
    }
  }
  return out;
}

const hasChrt = (() => {
  try {
    execFileSync('chrt', ['--version'], { stdio: 'ignore' });
    return process.platform === 'linux';
  } catch {
    return false;
  }
})();

/** The figures, and how many times the event loop turned while they were read. */
async function readCountingTurns(source: PeriodFiguresSource, fromSec: number, toSec: number) {
  let turns = 0;
  let reading = true;
  const turn = () => {
    if (!reading) return;
    turns++;
    setImmediate(turn);
  };
  setImmediate(turn);
  const figures = await source.figures(fromSec, toSec);
  reading = false;
  return { figures, turns };
}

describe('report reader', () => {
  const now = () => Math.floor(Date.now() / 1000);

  it('reads the same figures as the core thread, while the event loop keeps turning', { timeout: 120_000 }, async () => {
    const from = now() - 3600;
    const to = now();
    const here = await readCountingTurns(inThreadFigures(db), from, to);
    const reader = workerFigures(entry, join(dataDir, 'ringup.db'));
    try {
      const there = await readCountingTurns(reader, from, to);
      expect(there.figures).toEqual(here.figures);
      expect(there.figures.cash.totals.sales.count).toBe(CARTS);
      expect(there.figures.cartSales.carts).toBe(CARTS);
      // On the core's thread nothing else ran until the figures were read; with the worker, the loop went on.
      expect(here.turns).toBe(0);
      expect(there.turns).toBeGreaterThan(0);
    } finally {
      await reader.close();
    }
  });

  it('sees a sale committed after it started, and writes nothing itself', { timeout: 120_000 }, async () => {
    const reader = workerFigures(entry, join(dataDir, 'ringup.db'));
    try {
      const from = now() - 3600;
      const first = await reader.figures(from, now() + 60);
      db.prepare(`INSERT INTO cash_movements (cart_id, kind, cents, ts) VALUES ('late-cart', 'sale', 1234, ?)`).run(Date.now());
      const size = statSync(join(dataDir, 'ringup.db-wal')).size;
      const second = await reader.figures(from, now() + 60);
      expect(second.cash.totals.sales.count).toBe(first.cash.totals.sales.count + 1);
      expect(second.cash.totals.sales.cents).toBe(first.cash.totals.sales.cents + 1234);
      // Its connection is read-only: reading appended nothing to the WAL.
      expect(statSync(join(dataDir, 'ringup.db-wal')).size).toBe(size);
    } finally {
      await reader.close();
    }
  });

  it('a closed reader fails the report waiting on it, and a new one answers again', { timeout: 120_000 }, async () => {
    const reader = workerFigures(entry, join(dataDir, 'ringup.db'));
    const failed = expect(reader.figures(0, now())).rejects.toThrow(/report reader stopped/);
    await reader.close();
    await failed;
    const again = workerFigures(entry, join(dataDir, 'ringup.db'));
    try {
      expect((await again.figures(0, now())).cartSales.carts).toBe(CARTS);
    } finally {
      await again.close();
    }
  });

  it.skipIf(!hasChrt)('gives way to the counter: its thread alone runs in SCHED_IDLE, the core thread stays normal', { timeout: 120_000 }, async () => {
    const SCHED_IDLE = 5;
    expect([...policies().values()].filter((p) => p === SCHED_IDLE)).toEqual([]);
    const reader = workerFigures(entry, join(dataDir, 'ringup.db'));
    try {
      await reader.figures(0, now());
      const threads = policies();
      expect([...threads.values()].filter((p) => p === SCHED_IDLE)).toHaveLength(1);
      expect(threads.get(process.pid)).toBe(0);
    } finally {
      await reader.close();
    }
  });
});
