/**
 * Group commit: every write a request makes is queued; once per event-loop turn the
 * queue runs in ONE SQLite transaction, and only when that transaction is on disk are
 * the requests' promises resolved. So every 2xx is durable before it is sent, at one
 * fsync per batch instead of one per request. A job that throws rejects only its own
 * promise, and only its own writes are undone (below: savepoints only when a job fails).
 *
 * Two durability modes:
 * - `walPath` absent: the connection is synchronous=FULL, so COMMIT itself fsyncs the
 *   WAL (blocking the event loop for the fsync).
 * - `walPath` given (the engine's mode): the payments connection runs synchronous=NORMAL
 *   (COMMIT appends to the WAL without fsync) and the writer fsyncs the WAL file on the
 *   libuv thread pool after each COMMIT; the jobs resolve when that fsync completes. The
 *   event loop keeps parsing and validating the next requests meanwhile, and their jobs
 *   wait for the fsync in flight to end: then they commit together, in one transaction,
 *   covered by the next fsync. This is the same guarantee as synchronous=FULL in WAL mode
 *   (the WAL is synced after every transaction before anyone is told it committed).
 *   Readers may see a committed row a moment before its fsync completes; nobody is told it
 *   succeeded before then.
 *
 * Why one commit per fsync, not one per event-loop turn: a commit's cost is mostly per
 * commit (the last page of each index and of the table is written to the WAL again,
 * whatever number of rows it gained; the locks and the WAL index), and the event loop, not
 * the disk, is what limits the engine. Measured with bench:engine's sales (interleaved runs
 * of each build, quiet machine): 82 µs of event-loop CPU a sale committing every turn,
 * 75 µs committing once per fsync, and more sales a second.
 *
 * Jobs run synchronously inside the transaction, so a job may read and check state
 * (refund balance, idempotency) and write in one atomic step.
 *
 * Savepoints only when a job fails: a batch first runs its jobs without them. Each page a job
 * changed inside a savepoint was copied to SQLite's sub-journal first (the table's last
 * page and each index's, per sale), and the SAVEPOINT and RELEASE were two more statements
 * a job. When every job returns, the batch commits as it ran. When one throws, the whole
 * transaction is rolled back (the rollback listeners are told) and the batch runs again, each
 * job in its own savepoint, which gives each job the outcome it would have had alone. So a
 * job may run twice: a job's effects outside SQLite must be ones that may happen again (a
 * kick, a cache dropped or filled from what it reads), as they already had to be when its
 * own writes were undone.
 */
import { closeSync, fdatasync, fsyncSync, openSync } from 'node:fs';
import type Database from 'better-sqlite3';

interface Job<T> {
  fn: () => T;
  resolve: (v: T) => void;
  reject: (e: unknown) => void;
}

interface Done {
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  value: unknown;
}

export interface GroupCommitOptions {
  /** Path of the database's -wal file: enables the asynchronous fsync mode. */
  walPath?: string;
}

export class GroupCommitWriter {
  private queue: Job<unknown>[] = [];
  private scheduled = false;
  private walFd: number | undefined;
  private awaitingSync: Done[] = [];
  private syncing = false;
  private idleWaiters: (() => void)[] = [];
  /** While set, queued jobs wait (hold()): nothing is committed. */
  private held = false;
  /** Told when writes are undone (a job's savepoint rolled back, a failed COMMIT): caches of what jobs wrote drop it. */
  private readonly rollbackListeners: (() => void)[] = [];
  /**
   * A batch's statements (its transaction, each job's savepoint), prepared once:
   * better-sqlite3's `db.transaction(fn)` builds four wrapper functions per call, which per
   * job was a measured share of the sale path.
   */
  private readonly savepoint: Database.Statement;
  private readonly release: Database.Statement;
  private readonly rollbackTo: Database.Statement;
  private readonly begin: Database.Statement;
  private readonly commit: Database.Statement;
  private readonly rollback: Database.Statement;
  /** Largest batch committed so far, batches and fsyncs (diagnostics for the benchmark). */
  maxBatch = 0;
  batches = 0;
  fsyncs = 0;
  /** Batches run again with a savepoint per job because a job of theirs threw. */
  retried = 0;

  constructor(
    private readonly db: Database.Database,
    opts: GroupCommitOptions = {},
  ) {
    if (opts.walPath) this.walFd = openSync(opts.walPath, 'r+');
    this.savepoint = db.prepare('SAVEPOINT ringup_job');
    this.release = db.prepare('RELEASE ringup_job');
    this.rollbackTo = db.prepare('ROLLBACK TO ringup_job');
    this.begin = db.prepare('BEGIN');
    this.commit = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
  }

  /** One job in its own savepoint: a throw undoes only its writes (then the savepoint goes). */
  private runJob(fn: () => unknown): { ok: boolean; value: unknown } {
    this.savepoint.run();
    try {
      const value = fn();
      this.release.run();
      return { ok: true, value };
    } catch (err) {
      // A failed statement can end the whole transaction (SQLITE_FULL, I/O): the jobs before
      // this one are undone with it, and the next job's SAVEPOINT would open a transaction of
      // its own that its RELEASE commits alone. So the batch stops here and every job of it is
      // rejected (flush): nothing of it is on disk.
      if (!this.db.inTransaction) throw err;
      this.rollbackTo.run();
      this.release.run();
      this.rolledBack();
      return { ok: false, value: err };
    }
  }

  /**
   * Runs the batch in one transaction and commits it: true. Without savepoints, a job that
   * throws rolls the whole transaction back and the answer is false (nothing of the batch is
   * written; flush runs it again with them). With savepoints, a job that throws is undone
   * alone (runJob); an error that ends the whole transaction, or a failed COMMIT, throws after
   * the rollback.
   */
  private runBatch(jobs: Job<unknown>[], results: { ok: boolean; value: unknown }[], savepoints: boolean): boolean {
    this.begin.run();
    try {
      for (let i = 0; i < jobs.length; i++) {
        const fn = (jobs[i] as Job<unknown>).fn;
        results[i] = savepoints ? this.runJob(fn) : { ok: true, value: fn() };
      }
    } catch (err) {
      if (this.db.inTransaction) this.rollback.run();
      if (savepoints) throw err;
      this.rolledBack();
      return false;
    }
    try {
      this.commit.run();
    } catch (err) {
      if (this.db.inTransaction) this.rollback.run();
      throw err;
    }
    return true;
  }

  submit<T>(fn: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve, reject } as Job<unknown>);
      // Commit at the next event-loop turn, or when the fsync in flight ends (flush).
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /**
   * Calls `listener` whenever writes made inside jobs are undone (a job that threw, a batch
   * whose COMMIT failed): what a job cached of its own writes (an open batch it created) must
   * be read again.
   */
  onRollback(listener: () => void): void {
    this.rollbackListeners.push(listener);
  }

  private rolledBack(): void {
    for (const l of this.rollbackListeners) l();
  }

  /**
   * Commits nothing while `fn` runs (jobs submitted meanwhile wait in the queue), then
   * commits what waited. The WAL restart (wal-restart.ts) uses it so that a checkpoint can
   * copy every frame. Holds do not nest: a hold asked for while one runs is skipped.
   */
  async hold(fn: () => Promise<unknown>): Promise<void> {
    if (this.held) return;
    this.held = true;
    try {
      await fn();
    } finally {
      this.held = false;
      if (this.queue.length > 0 && !this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    }
  }

  /** Runs the queued jobs now, unless an fsync is in flight (its end runs them) or the writer is held. */
  flush(): void {
    this.scheduled = false;
    if (this.held || this.syncing) return;
    const jobs = this.queue;
    if (jobs.length === 0) return;
    this.queue = [];
    const results: { ok: boolean; value: unknown }[] = new Array(jobs.length);
    try {
      if (!this.runBatch(jobs, results, false)) {
        this.retried++;
        this.runBatch(jobs, results, true);
      }
    } catch (err) {
      // The COMMIT itself failed (disk full, I/O error): nothing of this batch is durable.
      this.rolledBack();
      for (const job of jobs) job.reject(err);
      return;
    }
    this.batches++;
    if (jobs.length > this.maxBatch) this.maxBatch = jobs.length;
    for (let i = 0; i < jobs.length; i++) {
      const r = results[i] as { ok: boolean; value: unknown };
      const job = jobs[i] as Job<unknown>;
      if (!r.ok) job.reject(r.value);
      else if (this.walFd === undefined) job.resolve(r.value);
      else this.awaitingSync.push({ resolve: job.resolve, reject: job.reject, value: r.value });
    }
    this.startSync();
  }

  private startSync(): void {
    if (this.syncing || this.awaitingSync.length === 0 || this.walFd === undefined) {
      if (!this.syncing && this.awaitingSync.length === 0 && this.queue.length === 0) for (const w of this.idleWaiters.splice(0)) w();
      return;
    }
    const group = this.awaitingSync;
    this.awaitingSync = [];
    this.syncing = true;
    fdatasync(this.walFd, (err) => {
      this.syncing = false;
      this.fsyncs++;
      for (const d of group) {
        if (err) d.reject(err);
        else d.resolve(d.value);
      }
      // The jobs that waited for this fsync commit now, together (a pending turn's flush finds none).
      if (this.queue.length > 0 && !this.held) this.flush();
      else this.startSync();
    });
  }

  /** Commits what is queued, waits for the last fsync and releases the WAL handle. */
  async close(): Promise<void> {
    this.held = false;
    this.flush();
    if (this.syncing || this.awaitingSync.length > 0) await new Promise<void>((r) => this.idleWaiters.push(r));
    if (this.walFd !== undefined) {
      fsyncSync(this.walFd);
      closeSync(this.walFd);
      this.walFd = undefined;
    }
  }
}
