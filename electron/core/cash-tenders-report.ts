/**
 * Cash in the end-of-day report (issue 14): cash never reaches the gateway, so the report
 * takes it from the app's own records. Cash taken and given back come from the drawer's
 * ledger (`cash_movements`, the same rows as the expected cash in cash-drawer.ts), by the
 * time the cash moved; the tax the cash paid comes from the carts paid in the period.
 *
 * The tax a cart's cash paid is the cart's tax less the tax its card tenders carried at
 * the gateway (each card tender sends its share as `tax`), so card + cash tax is the
 * cart's tax to the cent, whatever the rounding of the shares.
 * Simplifications: the cart's tax is its stored total (as charged) less its lines'
 * amount before tax, so a tax rate changed after the sale does not move it; a cart whose
 * cash was taken before a close and that was paid after it counts its cash tax in the
 * period it was paid; a cancelled cart collected no tax. A cart due again (a card of it voided
 * after it was paid, issue 20) still counts the tax its cash paid: the cart's tax less the tax of
 * every card that was approved in it, the voided one included (that card's tax was never collected,
 * by the card or by the cash).
 */
import type { MoneyLine } from '../../shared/ipc/batches';
import type { CashTenderTotals } from '../../shared/ipc/reports';
import { CartStore } from './cart-store';
import type { PosDatabase } from './pos-database';

export interface CashPeriod {
  totals: CashTenderTotals;
  /** Cash taken per local hour (0–23). */
  byHour: Array<{ count: number; cents: number }>;
  /** Cash given back in the period for a cart whose cash was taken in an earlier period. */
  refundsOfEarlierSales: MoneyLine;
}

/**
 * Cash between two Unix-second bounds (inclusive). `cardTaxOf` answers the tax a card
 * tender's gateway transaction carries (from the period's list, or asked of the gateway).
 */
export async function cashPeriod(db: PosDatabase, fromSec: number, toSec: number, cardTaxOf: (transactionId: string) => Promise<number>): Promise<CashPeriod> {
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

  // The tax the cash paid, per cart paid in the period with a cash tender.
  const carts = db
    .prepare(
      `SELECT id, total_cents FROM carts WHERE status IN ('paid', 'due') AND closed_ts BETWEEN ? AND ?
         AND EXISTS (SELECT 1 FROM cart_tenders t WHERE t.cart_id = carts.id AND t.kind = 'cash' AND t.status = 'approved')`,
    )
    .all(lo, hi) as Array<{ id: string; total_cents: number }>;
  const untaxed = new CartStore(db, () => 0, Date.now);
  const cardTenders = db.prepare(`SELECT transaction_id FROM cart_tenders WHERE cart_id = ? AND kind <> 'cash' AND status IN ('approved', 'reversed') AND transaction_id IS NOT NULL`);
  let taxCents = 0;
  for (const c of carts) {
    const cartTax = c.total_cents - untaxed.view(c.id).totals.totalCents;
    let cardTax = 0;
    for (const { transaction_id } of cardTenders.all(c.id) as Array<{ transaction_id: string }>) cardTax += await cardTaxOf(transaction_id);
    taxCents += Math.max(0, cartTax - cardTax);
  }
  return { totals: { sales, refunds, taxCents }, byHour, refundsOfEarlierSales: earlier };
}
