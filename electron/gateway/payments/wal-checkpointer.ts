/**
 * Checkpoints the engine's WAL on a worker thread, so the copy of WAL pages into the
 * database file and its fsyncs never stall the event loop that answers payments (an
 * automatic checkpoint inside a COMMIT would block every request in flight for the
 * length of an fsync of the database file). The payments connection turns its own
 * auto-checkpoint off; the worker runs `wal_checkpoint(PASSIVE)` every `intervalMs`
 * (PASSIVE never blocks writers or readers). If the worker cannot start, the caller
 * keeps SQLite's automatic checkpoints.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { SQLITE_BINDING_ENV } from '../framework/sqlite';

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, workerData.binding ? { nativeBinding: workerData.binding } : {});
db.pragma('busy_timeout = 0');
db.pragma('synchronous = NORMAL');
let timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* busy: try again next tick */ }
}, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m === 'stop') {
    clearInterval(timer);
    try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* ignore */ }
    db.close();
    parentPort.postMessage('stopped');
  }
});
parentPort.postMessage('ready');
`;

export class WalCheckpointer {
  private constructor(private readonly worker: Worker) {}

  /** Starts the worker; resolves undefined when worker threads or the driver are unavailable. */
  static async start(file: string, intervalMs = 1000): Promise<WalCheckpointer | undefined> {
    let worker: Worker;
    try {
      const driver = createRequire(import.meta.url).resolve('better-sqlite3');
      // Under Electron the driver must load the Electron-ABI build the core uses (see core/sqlite.ts).
      const binding = process.env[SQLITE_BINDING_ENV];
      worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver, intervalMs, binding } });
    } catch {
      return undefined;
    }
    const ok = await new Promise<boolean>((resolve) => {
      worker.once('message', (m) => resolve(m === 'ready'));
      worker.once('error', () => resolve(false));
    });
    if (!ok) {
      await worker.terminate().catch(() => 0);
      return undefined;
    }
    worker.unref();
    return new WalCheckpointer(worker);
  }

  async stop(): Promise<void> {
    const done = new Promise<void>((resolve) => {
      const t = setTimeout(resolve, 2000);
      this.worker.once('message', () => {
        clearTimeout(t);
        resolve();
      });
      this.worker.once('exit', () => {
        clearTimeout(t);
        resolve();
      });
    });
    this.worker.postMessage('stop');
    await done;
    await this.worker.terminate();
  }
}
