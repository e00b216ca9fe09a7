/**
 * The audit log's hash chain: each row carries `prev_hash`, the hash of the row before it, and
 * `hash`, SHA-256 (hex) over that and the row's own fields. The triggers (pos-database.ts) stop
 * the app from changing or removing a row; the chain is for the file itself: someone who drops
 * the triggers with the sqlite3 tool and edits or deletes a row breaks it, and `verifyAuditChain`
 * names the first record that no longer checks out (the System screen's "Check the audit log").
 *
 * Known limitation: the chain has no anchor outside the file, so someone who rewrites a row and
 * then recomputes every later row's hashes (and the table's sequence) is not detected. Deleting
 * the newest rows is detected through SQLite's AUTOINCREMENT sequence, which remembers the
 * highest number ever given out, unless that is edited too.
 */
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { AuditVerification } from '../../../shared/ipc/contract';

/** The first row's prev_hash. */
export const AUDIT_GENESIS_HASH = '0'.repeat(64);

/**
 * The columns a row's hash covers, in this order. A column added to audit_log later is appended
 * here; the canonical form leaves out NULL columns, so rows written before it keep their hash.
 */
export const AUDIT_HASHED_COLUMNS = ['seq', 'ts', 'kind', 'user_id', 'user_name', 'amount_cents', 'transaction_id', 'detail'] as const;

export type AuditHashedRow = Record<(typeof AUDIT_HASHED_COLUMNS)[number], string | number | null>;

/** SHA-256 (hex) over the previous row's hash, a newline, and the row's non-NULL hashed columns as JSON [name, value] pairs. */
export function auditRowHash(prevHash: string, row: AuditHashedRow): string {
  const fields = AUDIT_HASHED_COLUMNS.filter((c) => row[c] !== null && row[c] !== undefined).map((c) => [c, row[c]]);
  return createHash('sha256').update(prevHash).update('\n').update(JSON.stringify(fields)).digest('hex');
}

/** The SQL name of auditRowHash, for the migration that chains the rows written before the chain existed. */
export const AUDIT_HASH_SQL_FUNCTION = 'audit_row_hash';

/** Registers audit_row_hash(prev_hash, seq, ts, kind, user_id, user_name, amount_cents, transaction_id, detail) on a connection. */
export function installAuditHashFunction(db: Database.Database): void {
  db.function(AUDIT_HASH_SQL_FUNCTION, { deterministic: true, varargs: true }, (prevHash: unknown, ...values: unknown[]) => {
    const row = Object.fromEntries(AUDIT_HASHED_COLUMNS.map((c, i) => [c, values[i] ?? null])) as AuditHashedRow;
    return auditRowHash(String(prevHash), row);
  });
}

interface ChainRow extends AuditHashedRow {
  seq: number;
  prev_hash: string | null;
  hash: string | null;
}

/** Rows read at a time: the check yields between pages, so a long log never holds the core's event loop for long. */
const PAGE = 2_000;

const formatCount = (n: number) => n.toLocaleString('en-US');

export function auditVerificationSentence(v: Omit<AuditVerification, 'sentence'>): string {
  if (v.firstBadSeq !== undefined) return `Audit record ${formatCount(v.firstBadSeq)} was changed or removed after it was written.`;
  if (v.rowsChecked === 0) return 'The audit log has no records yet.';
  if (v.rowsChecked === 1) return 'The one audit record checks out.';
  return `All ${formatCount(v.rowsChecked)} audit records check out.`;
}

/**
 * Walks the chain in seq order. A missing number is the record removed; a row whose own hash is
 * wrong is the record changed; a row that is intact but names another prev_hash means the row
 * before it was rewritten (its hash recomputed), so that one is named.
 */
export async function verifyAuditChain(db: Database.Database, yieldToOthers: () => Promise<void> = () => new Promise((r) => setImmediate(r))): Promise<AuditVerification> {
  const page = db.prepare(`SELECT ${AUDIT_HASHED_COLUMNS.join(', ')}, prev_hash, hash FROM audit_log WHERE seq > ? ORDER BY seq LIMIT ${PAGE}`);
  let expected = 1;
  let prev = AUDIT_GENESIS_HASH;
  let rowsChecked = 0;
  let firstBadSeq: number | undefined;
  let after = 0;
  for (;;) {
    const rows = page.all(after) as ChainRow[];
    if (rows.length === 0) break;
    for (const row of rows) {
      rowsChecked++;
      if (row.seq !== expected) {
        firstBadSeq = expected;
        break;
      }
      const intact = row.hash !== null && row.prev_hash !== null && row.hash === auditRowHash(row.prev_hash, row);
      if (row.prev_hash !== prev) {
        firstBadSeq = intact && row.seq > 1 ? row.seq - 1 : row.seq;
        break;
      }
      if (!intact) {
        firstBadSeq = row.seq;
        break;
      }
      prev = row.hash!;
      expected++;
    }
    if (firstBadSeq !== undefined) break;
    after = rows[rows.length - 1]!.seq;
    await yieldToOthers();
  }
  if (firstBadSeq === undefined) {
    // The newest rows removed leave no gap behind them; AUTOINCREMENT's sequence still remembers them.
    const highest = (db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'audit_log'").get() as { seq: number } | undefined)?.seq ?? 0;
    if (highest >= expected) firstBadSeq = expected;
  }
  const result = firstBadSeq === undefined ? { ok: true, rowsChecked } : { ok: false, rowsChecked, firstBadSeq };
  return { ...result, sentence: auditVerificationSentence(result) };
}
