/**
 * Group commit: every write a request makes is queued; once per event-loop turn the
 * queue runs in ONE SQLite transaction (the connection is synchronous=FULL in WAL mode,
 * so the COMMIT fsyncs the WAL), and only then are the requests' promises resolved.
 * So every 2xx is on disk before it is sent, at one fsync per batch instead of one per
 * request. Each job runs in its own savepoint: a job that throws rolls back only its
 * own writes and rejects only its own promise.
 *
 * Jobs run synchronously inside the transaction, so a job may read and check state
 * (refund balance, idempotency) and write in one atomic step.
 */
import type Database from 'better-sqlite3';

interface Job<T> {
  fn: () => T;
  resolve: (v: T) => void;
  reject: (e: unknown) => void;
}

export class GroupCommitWriter {
  private queue: Job<unknown>[] = [];
  private scheduled = false;
  /** Largest batch committed so far (diagnostics for the benchmark). */
  maxBatch = 0;
  batches = 0;

  constructor(private readonly db: Database.Database) {}

  submit<T>(fn: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve, reject } as Job<unknown>);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Runs the queued jobs now (also used by close()). */
  flush(): void {
    this.scheduled = false;
    const jobs = this.queue;
    if (jobs.length === 0) return;
    this.queue = [];
    const results: { ok: boolean; value: unknown }[] = new Array(jobs.length);
    try {
      this.db.transaction(() => {
        for (let i = 0; i < jobs.length; i++) {
          const job = jobs[i] as Job<unknown>;
          try {
            results[i] = { ok: true, value: this.db.transaction(job.fn)() };
          } catch (err) {
            results[i] = { ok: false, value: err };
          }
        }
      })();
    } catch (err) {
      // The COMMIT itself failed (disk full, I/O error): nothing of this batch is durable.
      for (const job of jobs) job.reject(err);
      return;
    }
    this.batches++;
    if (jobs.length > this.maxBatch) this.maxBatch = jobs.length;
    for (let i = 0; i < jobs.length; i++) {
      const r = results[i] as { ok: boolean; value: unknown };
      const job = jobs[i] as Job<unknown>;
      if (r.ok) job.resolve(r.value);
      else job.reject(r.value);
    }
  }
}
