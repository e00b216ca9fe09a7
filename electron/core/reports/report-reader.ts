/**
 * Where the core reads a report's ringup.db figures (period-figures.ts) without blocking its
 * own event loop. better-sqlite3 is synchronous: the items sold over a day of 200,000 cart
 * sales are seconds of queries, and while they ran on the core's thread every other window's
 * call waited (a cashier's quick-key tap → `cart:add` → the line painted). So they run on a
 * worker thread with its own read-only connection to the same file: WAL lets a reader work
 * beside the writer (the counter keeps selling; the report reads the snapshot it began with).
 *
 * The worker (report-reader-worker.ts, built to build/core/report-reader.mjs) starts at the
 * first report and stays, unref'd; if it dies, the report in flight fails with the reason and
 * the next one starts a new worker. Without a built entry (unit tests run the TypeScript
 * sources) the figures are read on the core's thread, as before.
 */
import { Worker } from 'node:worker_threads';
import type { PosDatabase } from '../platform/pos-database';
import { periodFigures, type PeriodFigures } from './period-figures';

export interface PeriodFiguresSource {
  figures(fromSec: number, toSec: number): Promise<PeriodFigures>;
  close(): Promise<void>;
}

export type ToReportReader = { id: number; fromSec: number; toSec: number };
export type FromReportReader = { type: 'ready' } | { type: 'figures'; id: number; figures: PeriodFigures } | { type: 'failed'; id: number; message: string };

/** What the worker is given at start: the database file (opened read-only there). */
export interface ReportReaderData {
  file: string;
}

export const REPORT_READER_MESSAGES = {
  stopped: 'The report reader stopped before it answered.',
} as const;

/** The figures on the core's own thread (no built worker entry: unit tests and tools). */
export function inThreadFigures(db: PosDatabase): PeriodFiguresSource {
  return { figures: async (fromSec, toSec) => periodFigures(db, fromSec, toSec), close: async () => {} };
}

/** The figures on a worker thread running `entry` (build/core/report-reader.mjs) over `file` (ringup.db). */
export function workerFigures(entry: string, file: string): PeriodFiguresSource {
  let worker: Worker | undefined;
  let nextId = 1;
  const waiting = new Map<number, { resolve: (f: PeriodFigures) => void; reject: (e: Error) => void }>();

  const start = (): Worker => {
    const w = new Worker(entry, { workerData: { file } satisfies ReportReaderData });
    w.unref();
    w.on('message', (m: FromReportReader) => {
      if (m.type === 'ready') return;
      const p = waiting.get(m.id);
      waiting.delete(m.id);
      if (m.type === 'figures') p?.resolve(m.figures);
      else p?.reject(new Error(m.message));
    });
    const gone = (err?: Error) => {
      if (worker !== w) return;
      worker = undefined;
      for (const p of waiting.values()) p.reject(err ?? new Error(REPORT_READER_MESSAGES.stopped));
      waiting.clear();
    };
    w.on('error', gone);
    w.on('exit', () => gone());
    return w;
  };

  return {
    figures(fromSec, toSec) {
      worker ??= start();
      const id = nextId++;
      const w = worker;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        w.postMessage({ id, fromSec, toSec } satisfies ToReportReader);
      });
    },
    async close() {
      const w = worker;
      worker = undefined;
      for (const p of waiting.values()) p.reject(new Error(REPORT_READER_MESSAGES.stopped));
      waiting.clear();
      await w?.terminate();
    },
  };
}
