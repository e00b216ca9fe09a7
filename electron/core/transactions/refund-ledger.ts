/**
 * This app's own record of the refunds it made, by the sale they refund. What a sale has had
 * refunded is the larger of the gateway's refund records (filtered by previous_transaction_id)
 * and this ledger, so a gateway that cannot filter so still never lets a sale be refunded twice.
 */
import type { PosDatabase } from '../platform/pos-database';

export class RefundLedger {
  private readonly sumStmt;
  private readonly allStmt;
  private readonly insertStmt;

  constructor(db: PosDatabase) {
    this.sumStmt = db.prepare('SELECT COALESCE(SUM(cents), 0) AS cents FROM refund_ledger WHERE original_id = ?');
    this.allStmt = db.prepare('SELECT original_id, SUM(cents) AS cents FROM refund_ledger GROUP BY original_id');
    this.insertStmt = db.prepare('INSERT OR IGNORE INTO refund_ledger (refund_id, original_id, cents, created_ts) VALUES (?, ?, ?, ?)');
  }

  /** Cents this app refunded of one sale. */
  refundedOf(originalId: string): number {
    return (this.sumStmt.get(originalId) as { cents: number }).cents;
  }

  /** Cents this app refunded, by sale. */
  all(): Map<string, number> {
    const refunded = new Map<string, number>();
    for (const row of this.allStmt.all() as Array<{ original_id: string; cents: number }>) refunded.set(row.original_id, row.cents);
    return refunded;
  }

  /** An approved refund (once per refund id). */
  record(refundId: string, originalId: string, cents: number, createdTs: number): void {
    this.insertStmt.run(refundId, originalId, cents, createdTs);
  }
}
