/** Totals of a list of transactions as a cashier reads them at close; one definition for the core and the screens. */
import type { TransactionTotals, TransactionView } from './ipc/contract';

export function emptyTotals(): TransactionTotals {
  return { salesCount: 0, salesCents: 0, refundsCount: 0, refundsCents: 0, voidsCount: 0, voidsCents: 0, declinedCount: 0, netCents: 0 };
}

/** Approved sales, approved refunds, voids (not charged) and declines; net = sales − refunds. */
export function totalsOf(rows: readonly TransactionView[]): TransactionTotals {
  const t = emptyTotals();
  for (const r of rows) {
    if (r.state === 'declined') t.declinedCount++;
    else if (r.state === 'voided') {
      t.voidsCount++;
      t.voidsCents += r.amountCents;
    } else if (r.kind === 'sale') {
      t.salesCount++;
      t.salesCents += r.amountCents;
    } else if (r.kind === 'refund') {
      t.refundsCount++;
      t.refundsCents += r.amountCents;
    }
  }
  t.netCents = t.salesCents - t.refundsCents;
  return t;
}
