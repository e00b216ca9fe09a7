/**
 * The print queue (`print_jobs`, pos-database.ts): every receipt for the printer is written here
 * before it is sent, so a print that cannot happen now (the printer offline, out of paper, its
 * cover open) is not lost: it waits, and the printer service (receipt-printer.ts) prints what
 * waits, oldest first, once the printer is ready again. A job holds the receipt's document (the
 * receiptline text), encoded for the printer it goes to when it prints.
 */
import type { PosDatabase } from '../platform/pos-database';

export type JobCopy = 'customer' | 'merchant';

export interface NewPrintJob {
  /** What it is, in one word (receipt, cart, report, test …). */
  what: string;
  /** The transaction, cart or report it prints, when any. */
  ref: string | null;
  copy: JobCopy | null;
  /** In words, for the log and the screen ("receipt 1A2B3C4D, customer copy"). */
  title: string;
  /** The receipt as receiptline text. */
  document: string;
}

export interface PrintJob extends NewPrintJob {
  seq: number;
  state: 'waiting' | 'printed';
  tries: number;
  lastError: string | null;
}

interface JobRow {
  seq: number;
  what: string;
  ref: string | null;
  copy: JobCopy | null;
  title: string;
  document: string;
  state: 'waiting' | 'printed';
  tries: number;
  last_error: string | null;
}

const jobOf = (r: JobRow): PrintJob => ({ seq: r.seq, what: r.what, ref: r.ref, copy: r.copy, title: r.title, document: r.document, state: r.state, tries: r.tries, lastError: r.last_error });

export class PrintQueue {
  constructor(
    private readonly db: PosDatabase,
    private readonly now: () => number = Date.now,
  ) {}

  /** Writes the jobs in one transaction (both copies of a receipt, or neither); answers their numbers in order. */
  add(jobs: readonly NewPrintJob[]): number[] {
    const insert = this.db.prepare(`INSERT INTO print_jobs (what, ref, copy, title, document, created_ts) VALUES (@what, @ref, @copy, @title, @document, @created_ts)`);
    return this.db.transaction(() => jobs.map((j) => Number(insert.run({ ...j, created_ts: this.now() }).lastInsertRowid)))();
  }

  /** The oldest job still waiting, or null. */
  next(): PrintJob | null {
    const r = this.db.prepare("SELECT * FROM print_jobs WHERE state = 'waiting' ORDER BY seq LIMIT 1").get() as JobRow | undefined;
    return r ? jobOf(r) : null;
  }

  get(seq: number): PrintJob | null {
    const r = this.db.prepare('SELECT * FROM print_jobs WHERE seq = ?').get(seq) as JobRow | undefined;
    return r ? jobOf(r) : null;
  }

  waitingCount(): number {
    return (this.db.prepare("SELECT COUNT(*) AS n FROM print_jobs WHERE state = 'waiting'").get() as { n: number }).n;
  }

  /** Only a waiting job becomes printed: a job is printed once. */
  printed(seq: number): void {
    this.db.prepare("UPDATE print_jobs SET state = 'printed', tries = tries + 1, last_error = NULL, printed_ts = ? WHERE seq = ? AND state = 'waiting'").run(this.now(), seq);
  }

  failed(seq: number, why: string): void {
    this.db.prepare("UPDATE print_jobs SET tries = tries + 1, last_error = ? WHERE seq = ? AND state = 'waiting'").run(why, seq);
  }
}
