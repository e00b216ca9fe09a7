/**
 * The report reader's worker thread (built to build/core/report-reader.mjs; report-reader.ts
 * says why it exists). It opens ringup.db read-only — it can never write the app's records —
 * and answers each request with the period's figures, one request at a time.
 *
 * It gives way to the counter: on a register the window (or browser), the core and the engine
 * may share two cores with it. On Linux it puts its own thread in the SCHED_IDLE class (util-linux
 * `chrt`; a thread's id is a process id there, read from /proc/thread-self), so it runs only on
 * CPU time nothing else wants: measured with bench:responsiveness on a busy two-core machine, a
 * process keeping a core busy at nice 19 still added 38 ms to the p95 of a quick-key tap's input
 * to paint, one in SCHED_IDLE 0.1 ms. Where chrt is missing it takes nice 19 instead.
 * Simplifications: on macOS and Windows it runs at the normal priority (Node sets no per-thread
 * priority there); on a machine that is never idle a report waits for the counter's pauses.
 */
import { execFileSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../common/sqlite';
import { periodFigures } from './period-figures';
import type { FromReportReader, ReportReaderData, ToReportReader } from './report-reader';

/** Sets this thread aside for the counter; says how (idle, nice 19, or not at all). */
function giveWayToTheCounter(): 'idle' | 'nice' | 'normal' {
  let tid: number;
  try {
    tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return 'normal';
  } catch {
    return 'normal'; // not Linux
  }
  try {
    // Without --all-tasks chrt changes this one thread, not the core's others.
    execFileSync('chrt', ['--idle', '--pid', '0', String(tid)], { stdio: 'ignore', timeout: 5_000 });
    return 'idle';
  } catch {
    try {
      setPriority(tid, 19);
      return 'nice';
    } catch {
      return 'normal';
    }
  }
}

const port = parentPort!;
const { file } = workerData as ReportReaderData;
const db = openDatabase(file, { readonly: true, fileMustExist: true });
giveWayToTheCounter();

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
