/**
 * The report reader's worker thread (built to build/core/report-reader.mjs; report-reader.ts
 * says why it exists). It opens ringup.db read-only — it can never write the app's records —
 * and answers each request with the period's figures, one request at a time.
 *
 * It also lowers its own thread's priority where the system lets a thread do so (Linux: a
 * thread's id is a process id for setpriority, read from /proc/thread-self): on a register with
 * two cores, a report that takes one core for seconds must still leave the other to the counter,
 * and the browser or window painting it, whenever they want it. Elsewhere it runs at the normal
 * priority (a simplification: macOS and Windows have no per-thread nice through Node).
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../platform/sqlite';
import { periodFigures } from './period-figures';
import type { FromReportReader, ReportReaderData, ToReportReader } from './report-reader';

/** Niceness of the reader's thread (0 normal … 19 lowest): well below the counter's, without starving the report on a busy machine. */
export const REPORT_READER_NICENESS = 10;

function lowerThisThreadPriority(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, REPORT_READER_NICENESS);
  } catch {
    // Not Linux, or not allowed: the reader runs at the normal priority.
  }
}

const port = parentPort!;
const { file } = workerData as ReportReaderData;
const db = openDatabase(file, { readonly: true, fileMustExist: true });
lowerThisThreadPriority();

port.on('message', (m: ToReportReader) => {
  let answer: FromReportReader;
  try {
    answer = { type: 'figures', id: m.id, figures: periodFigures(db, m.fromSec, m.toSec) };
  } catch (err) {
    answer = { type: 'failed', id: m.id, message: err instanceof Error ? err.message : String(err) };
  }
  port.postMessage(answer);
});
port.postMessage({ type: 'ready' } satisfies FromReportReader);
