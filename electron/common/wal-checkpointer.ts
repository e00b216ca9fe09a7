/**
 * Checkpoints the engine's WAL on a worker thread, so the copy of WAL pages into the
 * database file and its fsyncs never stall the event loop that answers payments (an
 * automatic checkpoint inside a COMMIT would block every request in flight for the
 * length of an fsync of the database file). The payments connection turns its own
 * auto-checkpoint off; the worker runs `wal_checkpoint(PASSIVE)` (which never blocks
 * writers or readers): every `intervalMs` when idle, every `busyIntervalMs` while the WAL
 * keeps growing. If the worker cannot start, the caller keeps SQLite's automatic
 * checkpoints.
 *
 * Why the writer also has to help (`catchUp`, used by wal-restart.ts): SQLite starts the
 * WAL over from its first frame only when a write begins after a checkpoint has copied
 * every frame. Under steady load a PASSIVE checkpoint from another thread never catches
 * the writer, so the WAL grew without end (measured: 815 MB after 10 s of sales), and
 * every frame was appended to new blocks of the file, which ext4 allocates and zeroes
 * inside the writer's COMMIT (a seventh of the event loop's time) and journals at each
 * fsync. A brief pause of the writer while the worker copies the last frames lets the
 * next write restart the WAL, whose blocks are then overwritten in place.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { SQLITE_BINDING_ENV } from './sqlite';

/** What one PASSIVE checkpoint saw: frames in the WAL, and how many of them are in the database file. */
export interface CheckpointProgress {
  log: number;
  checkpointed: number;
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, workerData.binding ? { nativeBinding: workerData.binding } : {});
db.pragma('busy_timeout = 0');
db.pragma('synchronous = NORMAL');
let timer;
let stopped = false;
function checkpoint() {
  try {
    const r = db.pragma('wal_checkpoint(PASSIVE)')[0];
    return { log: r.log, checkpointed: r.checkpointed };
  } catch {
    return null; // busy: try again next time
  }
}
let lastLog = -1;
function tick() {
  const r = checkpoint();
  // Still growing, or not all copied: come back soon; quiet: at the idle interval.
  const busy = r !== null && r.log > 0 && (r.log !== lastLog || r.checkpointed < r.log);
  if (r) {
    lastLog = r.log;
    parentPort.postMessage({ type: 'progress', log: r.log, checkpointed: r.checkpointed });
  }
  if (!stopped) timer = setTimeout(tick, busy ? workerData.busyIntervalMs : workerData.intervalMs);
}
timer = setTimeout(tick, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m.type === 'catch-up') {
    const r = checkpoint();
    parentPort.postMessage({ type: 'caught-up', id: m.id, log: r ? r.log : -1, checkpointed: r ? r.checkpointed : -1 });
  } else if (m.type === 'stop') {
    stopped = true;
    clearTimeout(timer);
    checkpoint();
    db.close();
    parentPort.postMessage({ type: 'stopped' });
  }
});
parentPort.postMessage({ type: 'ready' });
`;

interface WorkerMessage {
  type: 'ready' | 'progress' | 'caught-up' | 'stopped';
  id?: number;
  log?: number;
  checkpointed?: number;
}

export interface CheckpointerOptions {
  /** Between checkpoints while the WAL is quiet (default 1000 ms). */
  intervalMs?: number;
  /**
   * Between checkpoints while the WAL grows (default 100 ms). Not much more often: a page the
   * writer changes in every commit (the right edge of each index) is copied once per
   * checkpoint, and each checkpoint syncs the database file; measured with bench:engine's
   * sales (best of 4 interleaved runs), 20 ms cost the event loop 67 µs a sale, 100 ms to
   * 1000 ms 63–65 µs.
   */
  busyIntervalMs?: number;
}

export class WalCheckpointer {
  private progressListeners: ((p: CheckpointProgress) => void)[] = [];
  private waiting = new Map<number, (p: CheckpointProgress) => void>();
  private nextId = 1;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'progress') {
        const p = { log: m.log ?? -1, checkpointed: m.checkpointed ?? -1 };
        for (const l of this.progressListeners) l(p);
      } else if (m.type === 'caught-up' && m.id !== undefined) {
        const resolve = this.waiting.get(m.id);
        this.waiting.delete(m.id);
        resolve?.({ log: m.log ?? -1, checkpointed: m.checkpointed ?? -1 });
      }
    });
  }

  /** Starts the worker; resolves undefined when worker threads or the driver are unavailable. */
  static async start(file: string, opts: CheckpointerOptions | number = {}): Promise<WalCheckpointer | undefined> {
    const o = typeof opts === 'number' ? { intervalMs: opts } : opts;
    const intervalMs = o.intervalMs ?? 1000;
    const busyIntervalMs = Math.min(o.busyIntervalMs ?? 100, intervalMs);
    let worker: Worker;
    try {
      const driver = createRequire(import.meta.url).resolve('better-sqlite3');
      // Under Electron the driver must load the Electron-ABI build the core uses (see sqlite.ts).
      const binding = process.env[SQLITE_BINDING_ENV];
      worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver, intervalMs, busyIntervalMs, binding } });
    } catch {
      return undefined;
    }
    const ok = await new Promise<boolean>((resolve) => {
      worker.once('message', (m: WorkerMessage) => resolve(m.type === 'ready'));
      worker.once('error', () => resolve(false));
    });
    if (!ok) {
      await worker.terminate().catch(() => 0);
      return undefined;
    }
    worker.unref();
    return new WalCheckpointer(worker);
  }

  /** Called after each periodic checkpoint with what it saw. */
  onProgress(listener: (p: CheckpointProgress) => void): void {
    this.progressListeners.push(listener);
  }

  /**
   * One checkpoint now, answered when it is done. Called while the writer holds its
   * commits, it copies every frame, so the next write restarts the WAL. Answers log -1 when
   * the checkpoint was busy (or the worker is gone).
   */
  catchUp(): Promise<CheckpointProgress> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      try {
        this.worker.postMessage({ type: 'catch-up', id });
      } catch {
        this.waiting.delete(id);
        resolve({ log: -1, checkpointed: -1 });
      }
    });
  }

  async stop(): Promise<void> {
    const done = new Promise<void>((resolve) => {
      const t = setTimeout(resolve, 2000);
      const finish = (): void => {
        clearTimeout(t);
        resolve();
      };
      this.worker.on('message', (m: WorkerMessage) => {
        if (m.type === 'stopped') finish();
      });
      this.worker.once('exit', finish);
    });
    this.worker.postMessage({ type: 'stop' });
    await done;
    // Nobody waits for a catch-up the worker will never answer.
    for (const resolve of this.waiting.values()) resolve({ log: -1, checkpointed: -1 });
    this.waiting.clear();
    await this.worker.terminate();
  }
}
