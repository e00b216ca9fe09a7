/**
 * Cash in the end-of-day report (issue 14): cash never reaches the gateway, so the report
 * takes it from the app's own records. Cash taken and given back come from the drawer's
 * ledger (`cash_movements`, the same rows as the expected cash in cash-drawer.ts), by the
 * time the cash moved; the tax the cash paid comes from the carts paid in the period.
 *
 * The tax the cash paid is the share of its cart's tax each cash tender carries
 * (shared/cart/tender-tax.ts, stored with the tender when it was taken): the same running
 * shares the card tenders sent to the gateway as their `tax`, so card + cash tax is the
 * cart's tax to the cent (issue 21, point 3). A card voided after its cart was paid (a cart
 * due again, issue 20) takes its share out of the card totals, and the tender that collects
 * it again carries it.
 * Simplifications: a cash tender's tax counts once its cart is paid (or due), in the period
 * of the later of the two — the cash taken and the cart paid — so a cart whose cash was taken
 * before a close and that was paid after it counts its cash tax in the period it was paid; a
 * cancelled cart collected no tax; cash taken before tenders carried their share (before
 * this rule) counts no tax.
 */
import type { MoneyLine } from '../../../shared/ipc/batches';
import type { CashTenderTotals } from '../../../shared/ipc/reports';
import type { PosDatabase } from '../platform/pos-database';

export interface CashPeriod {
  totals: CashTenderTotals;
  /** Cash taken per local hour (0–23). */
  byHour: Array<{ count: number; cents: number }>;
  /** Cash given back in the period for a cart whose cash was taken in an earlier period. */
  refundsOfEarlierSales: MoneyLine;
}

/** Cash between two Unix-second bounds (inclusive). */
export function cashPeriod(db: PosDatabase, fromSec: number, toSec: number): CashPeriod {
  const lo = fromSec * 1000;
  const hi = toSec * 1000 + 999;
  const moves = db.prepare('SELECT cart_id, kind, cents, ts FROM cash_movements WHERE ts BETWEEN ? AND ? ORDER BY seq').all(lo, hi) as Array<{ cart_id: string; kind: string; cents: number; ts: number }>;
  const firstCashOf = db.prepare(`SELECT MIN(ts) AS ts FROM cash_movements WHERE cart_id = ? AND kind = 'sale'`);
  const sales: MoneyLine = { count: 0, cents: 0 };
  const refunds: MoneyLine = { count: 0, cents: 0 };
  const earlier: MoneyLine = { count: 0, cents: 0 };
  const byHour = Array.from({ length: 24 }, () => ({ count: 0, cents: 0 }));
  for (const m of moves) {
    if (m.cents > 0) {
      sales.count++;
      sales.cents += m.cents;
      const h = byHour[new Date(m.ts).getHours()]!;
      h.count++;
      h.cents += m.cents;
    } else {
      refunds.count++;
      refunds.cents += -m.cents;
      const first = (firstCashOf.get(m.cart_id) as { ts: number | null }).ts;
      if (first !== null && first < lo) {
        earlier.count++;
        earlier.cents += -m.cents;
      }
    }
  }

  // The tax the cash paid: the shares its tenders carry, in carts paid (or due again).
  const { taxCents } = db
    .prepare(
      `SELECT COALESCE(SUM(t.tax_cents), 0) AS taxCents FROM cart_tenders t JOIN carts c ON c.id = t.cart_id
        WHERE t.kind = 'cash' AND t.status = 'approved' AND c.status IN ('paid', 'due') AND MAX(t.created_ts, c.closed_ts) BETWEEN ? AND ?`,
    )
    .get(lo, hi) as { taxCents: number };
  return { totals: { sales, refunds, taxCents }, byHour, refundsOfEarlierSales: earlier };
}
