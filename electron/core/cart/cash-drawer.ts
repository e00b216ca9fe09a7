/**
 * The cash drawer's ledger (`cash_movements`): cash tenders in, line returns and cancelled
 * sales out. Cash is recorded only here, never at the gateway; the end-of-day report's
 * expected cash is the sum over its period. Simplification: the opening float is not
 * recorded, so expected cash is what the drawer should hold above its float.
 */
import type { CashSummary } from '../../../shared/ipc/reports';
import type { PosDatabase } from '../platform/pos-database';

export type CashMovementKind = 'sale' | 'refund' | 'return';

/** `cents` is positive for cash in (a sale), and the amount given back for a refund or return. */
export function recordCash(db: PosDatabase, m: { cartId: string; kind: CashMovementKind; cents: number; ts: number }): void {
  if (m.cents <= 0) return;
  db.prepare('INSERT INTO cash_movements (cart_id, kind, cents, ts) VALUES (?, ?, ?, ?)').run(m.cartId, m.kind, m.kind === 'sale' ? m.cents : -m.cents, m.ts);
}

/** Cash in and out between two Unix-second bounds (inclusive). */
export function cashSummary(db: PosDatabase, fromSec: number, toSec: number): CashSummary {
  const r = db
    .prepare(
      `SELECT COALESCE(SUM(CASE WHEN cents > 0 THEN cents ELSE 0 END), 0) AS inc, COALESCE(SUM(CASE WHEN cents < 0 THEN -cents ELSE 0 END), 0) AS out
         FROM cash_movements WHERE ts BETWEEN ? AND ?`,
    )
    .get(fromSec * 1000, toSec * 1000 + 999) as { inc: number; out: number };
  return { salesCents: r.inc, refundsCents: r.out, expectedCents: r.inc - r.out };
}
