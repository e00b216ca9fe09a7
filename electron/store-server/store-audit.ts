/**
 * The store's audit log: every register's audit rows (pushed as `audit_log` facts) and the
 * server's own (joins, renames, removals, edits made apart, the store's days), in one chain in
 * the order the server stored them. Like the register's (core/audit/audit-chain.ts): each row
 * carries the previous row's hash and its own, SHA-256 over that and its fields; triggers refuse
 * UPDATE, DELETE and TRUNCATE; `verifyStoreAudit` names the first row that no longer checks out.
 *
 * Rows are appended only under the event log's lock (store-database.ts), so the chain's seq is
 * gapless and follows commit order. Same limitation as the register's chain: no anchor outside
 * the database, so someone who rewrites a row and recomputes every later hash is not detected.
 */
import { createHash } from 'node:crypto';
import type { StoreClient, StorePool } from './store-database';

export const STORE_AUDIT_GENESIS = '0'.repeat(64);

/** The columns a row's hash covers, in this order (NULLs left out, so a column added later keeps old rows' hashes). */
export const STORE_AUDIT_HASHED = ['seq', 'ts', 'register_id', 'register_seq', 'kind', 'user_id', 'user_name', 'amount_cents', 'transaction_id', 'detail'] as const;

export type StoreAuditFields = Record<(typeof STORE_AUDIT_HASHED)[number], string | number | null>;

/** A row to append: everything but seq (given here). */
export type NewAuditRow = Omit<StoreAuditFields, 'seq'> & { event_seq: number | null };

export function storeAuditHash(prevHash: string, row: StoreAuditFields): string {
  const fields = STORE_AUDIT_HASHED.filter((c) => row[c] !== null && row[c] !== undefined).map((c) => [c, row[c]]);
  return createHash('sha256').update(prevHash).update('\n').update(JSON.stringify(fields)).digest('hex');
}

/** Appends rows to the chain. The caller holds the event log's lock in this transaction. */
export async function appendAudit(client: StoreClient, rows: readonly NewAuditRow[], serverTs: number): Promise<void> {
  if (rows.length === 0) return;
  const last = (await client.query<{ seq: number; hash: string }>('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1')).rows[0];
  let seq = last?.seq ?? 0;
  let prev = last?.hash ?? STORE_AUDIT_GENESIS;
  const cols: Record<string, unknown[]> = { seq: [], ts: [], register_id: [], register_seq: [], kind: [], user_id: [], user_name: [], amount_cents: [], transaction_id: [], detail: [], event_seq: [], prev_hash: [], hash: [] };
  for (const r of rows) {
    seq++;
    const fields: StoreAuditFields = { ...r, seq };
    const hash = storeAuditHash(prev, fields);
    for (const c of STORE_AUDIT_HASHED) cols[c]!.push(fields[c]);
    cols.event_seq!.push(r.event_seq);
    cols.prev_hash!.push(prev);
    cols.hash!.push(hash);
    prev = hash;
  }
  await client.query(
    `INSERT INTO audit_log (seq, ts, server_ts, register_id, register_seq, kind, user_id, user_name, amount_cents, transaction_id, detail, event_seq, prev_hash, hash)
     SELECT u.seq, u.ts, $14, u.register_id, u.register_seq, u.kind, u.user_id, u.user_name, u.amount_cents, u.transaction_id, u.detail, u.event_seq, u.prev_hash, u.hash
       FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::bigint[], $9::text[], $10::text[], $11::bigint[], $12::text[], $13::text[])
         AS u (seq, ts, register_id, register_seq, kind, user_id, user_name, amount_cents, transaction_id, detail, event_seq, prev_hash, hash)`,
    [cols.seq, cols.ts, cols.register_id, cols.register_seq, cols.kind, cols.user_id, cols.user_name, cols.amount_cents, cols.transaction_id, cols.detail, cols.event_seq, cols.prev_hash, cols.hash, serverTs],
  );
}

export interface StoreAuditVerification {
  ok: boolean;
  rowsChecked: number;
  /** The first row that was changed or removed (or whose predecessor was rewritten). */
  firstBadSeq?: number;
}

const PAGE = 2_000;

/** Walks the chain in seq order (same rules as the register's verifyAuditChain). */
export async function verifyStoreAudit(pool: StorePool): Promise<StoreAuditVerification> {
  let expected = 1;
  let prev = STORE_AUDIT_GENESIS;
  let rowsChecked = 0;
  let after = 0;
  for (;;) {
    const { rows } = await pool.query<StoreAuditFields & { seq: number; prev_hash: string; hash: string }>(
      `SELECT ${STORE_AUDIT_HASHED.join(', ')}, prev_hash, hash FROM audit_log WHERE seq > $1 ORDER BY seq LIMIT ${PAGE}`,
      [after],
    );
    if (rows.length === 0) return { ok: true, rowsChecked };
    for (const row of rows) {
      rowsChecked++;
      if (row.seq !== expected) return { ok: false, rowsChecked, firstBadSeq: expected };
      const intact = row.hash === storeAuditHash(row.prev_hash, row);
      if (row.prev_hash !== prev) return { ok: false, rowsChecked, firstBadSeq: intact && row.seq > 1 ? row.seq - 1 : row.seq };
      if (!intact) return { ok: false, rowsChecked, firstBadSeq: row.seq };
      prev = row.hash;
      expected++;
    }
    after = rows[rows.length - 1]!.seq;
  }
}
