/**
 * Fills a stopped engine's SQLite file with many real-shaped transactions for the
 * busy-day tests: each row is a copy of a transaction the engine itself recorded
 * (every column, so schema changes carry over), with a new id, amount, last four and
 * time. Writing 100,000 rows through HTTP would take minutes; the rows the app then
 * reads come through the engine's own list API like any others.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';

export interface CloneOptions {
  /** The transaction to copy (a real sale made through the API). */
  sampleId: string;
  count: number;
  /** Unix seconds; rows are spread evenly from `since` to `until`. */
  since: number;
  until: number;
}

export function cloneTransactions(engineDataDir: string, opts: CloneOptions): void {
  const db = new Database(join(engineDataDir, 'gateway.sqlite'));
  try {
    db.pragma('journal_mode = WAL');
    const sample = db.prepare('SELECT * FROM transactions WHERE id = ?').get(opts.sampleId) as Record<string, unknown> | undefined;
    if (!sample) throw new Error(`transaction ${opts.sampleId} is not in the engine database`);
    const columns = Object.keys(sample);
    const insert = db.prepare(`INSERT INTO transactions (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
    const doc = JSON.parse(String(sample.doc)) as Record<string, unknown>;
    const span = Math.max(1, opts.until - opts.since);
    db.transaction(() => {
      for (let i = 0; i < opts.count; i++) {
        const cents = 100 + ((i * 7919) % 99_900);
        const amount = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
        const lastFour = String((i * 31) % 10_000).padStart(4, '0');
        const ts = opts.since + Math.floor((i * span) / opts.count);
        const id = randomUUID();
        const row: Record<string, unknown> = {
          ...sample,
          id,
          transaction_api_id: null,
          amount: cents,
          auth_amount: cents,
          approved_amount: cents,
          last_four: lastFour,
          created_ts: ts,
          modified_ts: ts,
          // The engine stores a record's set keys only (doc_keys, copied, names them): a key
          // the sample's doc holds may be overwritten, never added.
          doc: JSON.stringify({
            ...doc,
            id,
            ...('transaction_api_id' in doc ? { transaction_api_id: null } : {}),
            transaction_amount: amount,
            auth_amount: amount,
            last_four: lastFour,
            created_ts: ts,
            modified_ts: ts,
          }),
        };
        insert.run(...columns.map((c) => row[c] ?? null));
      }
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

/**
 * Moves one transaction the engine recorded to another moment (a stopped engine's file, as
 * above): "yesterday's sale" for a test, without waiting a day or depending on the time of day.
 */
export function redateTransaction(engineDataDir: string, id: string, ts: number): void {
  const db = new Database(join(engineDataDir, 'gateway.sqlite'));
  try {
    db.pragma('journal_mode = WAL');
    const row = db.prepare('SELECT doc FROM transactions WHERE id = ?').get(id) as { doc: string } | undefined;
    if (!row) throw new Error(`transaction ${id} is not in the engine database`);
    const doc = { ...(JSON.parse(row.doc) as Record<string, unknown>), created_ts: ts, modified_ts: ts };
    db.prepare('UPDATE transactions SET created_ts = ?, modified_ts = ?, doc = ? WHERE id = ?').run(ts, ts, JSON.stringify(doc), id);
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}
