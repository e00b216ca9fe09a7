/**
 * Transaction batches: one open batch per product transaction collects its approved card
 * transactions; settling closes it. A batch holding a 6.30 sale fails its first settle
 * (processing_status_id 3, reason 1630) and settles on the next one, as the sandbox does.
 * Settled transactions get settle_date and transaction_settlement_status and can no
 * longer be voided. Besides the manual settle, every open batch closes by itself once a
 * day at its product transaction's batch_close_time (location time; see batch-auto-close.ts).
 * Creating a batch and every settle attempt are announced for postbacks; each settle
 * attempt is also a changelog entry (who, when, what changed), which the batch's postback
 * data carries as the interface describes.
 */
import type { EngineContext } from '../framework/context';
import type { RecordEventType } from '../framework/record-events';
import { ApiError } from '../framework/errors';
import { openMomentOf } from './batch-auto-close';
import { PAY_MSG } from './payment-messages';

export const BATCH_STATUS = { toSettle: 1, settled: 2, error: 3, reprocess: 4, processing: 5 } as const;

/** A batch as every answer gives it: the declaration's serialisation (transaction-batch-resource.ts). */
export function batchRecord(ctx: EngineContext, b: Record<string, unknown>): Record<string, unknown> {
  return ctx.serialize(ctx.resource('transactionbatch'), b, undefined);
}

/** A batch's changelogs with changelog_details and user (postback data of a transaction batch). */
export function batchChangelogs(ctx: EngineContext, batchId: string): Record<string, unknown>[] {
  const rows = ctx
    .stmt(`SELECT c.*, u.username, u.first_name, u.last_name, u.email FROM transaction_batch_changelogs c
      LEFT JOIN users u ON u.id = c.user_id WHERE c.batch_id = ? ORDER BY c.created_ts, c.rowid`)
    .all(batchId) as Record<string, unknown>[];
  return rows.map((r) => ({
    id: r.id,
    action: r.action,
    user_id: r.user_id ?? null,
    created_ts: r.created_ts,
    changelog_details: Object.entries(JSON.parse(String(r.changes)) as Record<string, [unknown, unknown]>).map(([field, [old, now]]) => ({ field, old_value: old, new_value: now })),
    user: r.user_id && r.username ? { id: r.user_id, username: r.username, first_name: r.first_name ?? null, last_name: r.last_name ?? null, email: r.email ?? null } : null,
  }));
}

export interface OpenBatch {
  id: string;
  batchNum: number;
}

export class BatchService {
  private readonly open = new Map<string, OpenBatch>();

  constructor(private readonly ctx: EngineContext) {}

  /**
   * Must run inside a write transaction (a group-commit job). The open batch of each product
   * transaction is remembered, not read again for every sale: the only way a batch closes is
   * settle() below (the manual settle and the daily close both call it), which forgets it, and
   * a write that is undone (a job that threw, a failed COMMIT) makes the payments module call
   * forget() (GroupCommitWriter.onRollback), so a batch created by an undone write is never
   * used. reset() forgets them all (seed()).
   */
  openBatchFor(productTransactionId: string, locationId: string): OpenBatch {
    const cached = this.open.get(productTransactionId);
    if (cached) return cached;
    const row = this.ctx
      .stmt('SELECT id, batch_num FROM transaction_batches WHERE product_transaction_id = ? AND is_open = 1 ORDER BY batch_num DESC LIMIT 1')
      .get(productTransactionId) as { id: string; batch_num: number } | undefined;
    let batch: OpenBatch;
    if (row) {
      batch = { id: row.id, batchNum: row.batch_num };
    } else {
      const max = this.ctx.stmt('SELECT MAX(batch_num) AS m FROM transaction_batches WHERE product_transaction_id = ?').get(productTransactionId) as { m: number | null };
      const now = this.ctx.clock.now();
      batch = { id: this.ctx.newId(), batchNum: (max.m ?? 0) + 1 };
      this.ctx
        .stmt('INSERT INTO transaction_batches (id, location_id, product_transaction_id, batch_num, created_ts, modified_ts, auto_close_ts) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(batch.id, locationId, productTransactionId, batch.batchNum, now, now, openMomentOf(this.ctx, locationId));
      this.announce('CREATE', batch.id);
    }
    this.open.set(productTransactionId, batch);
    return batch;
  }

  markFailsFirstSettle(batchId: string): void {
    this.ctx.stmt('UPDATE transaction_batches SET fails_first_settle = 1 WHERE id = ?').run(batchId);
  }

  /**
   * Settles (or fails the first settle of) a batch; runs inside a write transaction.
   * `userId`: who settled (null for the daily automatic close).
   */
  settle(batchId: string, userId: string | null = null, action = 'settle'): void {
    const b = this.ctx.stmt('SELECT * FROM transaction_batches WHERE id = ?').get(batchId) as
      | { is_open: number; settle_attempts: number; fails_first_settle: number; product_transaction_id: string; batch_num: number; processing_status_id: number }
      | undefined;
    if (!b) throw new ApiError(404, { general: ['Object not found.'] });
    if (b.is_open !== 1) throw new ApiError(422, { id: [PAY_MSG.BATCH_CLOSED] });
    const now = this.ctx.clock.now();
    const attempts = b.settle_attempts + 1;
    if (b.fails_first_settle === 1 && attempts === 1) {
      this.ctx
        .stmt('UPDATE transaction_batches SET processing_status_id = ?, settle_attempts = ?, modified_ts = ? WHERE id = ?')
        .run(BATCH_STATUS.error, attempts, now, batchId);
      this.logChange(batchId, userId, action, { processing_status_id: [b.processing_status_id, BATCH_STATUS.error] }, now);
      this.announce('UPDATE', batchId);
      return;
    }
    const date = new Date(now * 1000).toISOString().slice(0, 10);
    const file = `settlement_${b.product_transaction_id.slice(0, 8)}_${String(b.batch_num).padStart(6, '0')}_${date.replace(/-/g, '')}.csv`;
    this.ctx
      .stmt('UPDATE transaction_batches SET is_open = 0, processing_status_id = ?, batch_close_ts = ?, settlement_file_name = ?, settle_attempts = ?, modified_ts = ? WHERE id = ?')
      .run(BATCH_STATUS.settled, now, file, attempts, now, batchId);
    // CAST: a bound JS number reaches SQLite as REAL, which json_set would write as 1795707778.0.
    this.ctx
      .stmt(`UPDATE transactions SET settled = 1, modified_ts = ?,
          doc = json_set(doc, '$.settle_date', ?, '$.transaction_settlement_status', 'settled', '$.modified_ts', CAST(? AS INTEGER))
        WHERE batch_id = ? AND status_id IN (101, 111)`)
      .run(now, date, now, batchId);
    this.open.delete(b.product_transaction_id);
    this.logChange(batchId, userId, action, { is_open: [1, 0], processing_status_id: [b.processing_status_id, BATCH_STATUS.settled], batch_close_ts: [null, now], settlement_file_name: [null, file] }, now);
    this.announce('UPDATE', batchId);
  }

  private logChange(batchId: string, userId: string | null, action: string, changes: Record<string, [unknown, unknown]>, now: number): void {
    this.ctx
      .stmt('INSERT INTO transaction_batch_changelogs (id, batch_id, user_id, action, changes, created_ts) VALUES (?, ?, ?, ?, ?, ?)')
      .run(this.ctx.newId(), batchId, userId, action, JSON.stringify(changes), now);
  }

  /** Announces a batch write for postbacks (inside the write; see record-events.ts). */
  private announce(type: RecordEventType, batchId: string): void {
    const b = this.ctx.stmt('SELECT * FROM transaction_batches WHERE id = ?').get(batchId) as Record<string, unknown>;
    this.ctx.recordEvent({
      resource: 'transactionbatch',
      type,
      locationId: String(b.location_id),
      productTransactionId: String(b.product_transaction_id),
      recordId: batchId,
      snapshot: () => ({ ...batchRecord(this.ctx, b), changelogs: batchChangelogs(this.ctx, batchId) }),
    });
  }

  forget(): void {
    this.open.clear();
  }
}
