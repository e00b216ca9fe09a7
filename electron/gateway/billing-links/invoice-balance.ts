/**
 * An invoice's balance, always recomputed from the transactions that pay it (never a
 * running counter, so add/remove/refund can never drift): paid = Σ (auth_amount −
 * refunded) of its approved transactions (card 101, ACH debit 131–134). Then
 * remaining_balance = max(0, amount_due − paid); payment_status_id 1 unpaid, 3 partially
 * paid, 2 paid; reaching paid closes the invoice (status_id 0) and removing a payment
 * from a paid invoice opens it again.
 *
 * Refunds and voids made later through /v2/transactions recompute the balance in their own
 * write (`followTransactionEvent`, the module's record-event hook), so the money shown is
 * the money held. They do not reopen a closed invoice (the seed only lists reopen as the
 * merchant's action, allowed for payment_status_id 1 or 3; a refund is the merchant's
 * decision too, so the customer is not asked again by page or reminder until it is
 * reopened), and they send no thank-you (that follows a payment).
 */
import { formatMoney, parseMoney } from '../../../shared/payments/money';
import type { EngineContext } from '../framework/context';
import type { RecordEvent } from '../framework/record-events';
import type { Row } from '../framework/resource';
import { collectedCents, INVOICE_PAYMENTS, linkedByTransactionEvent } from './billing-shared';

export const PAYMENT_STATUS = { unpaid: 1, paid: 2, partial: 3 } as const;

/** Statuses whose money counts as collected. */
export const COUNTED_STATUSES = [101, 131, 132, 133, 134] as const;

export function paidCents(ctx: EngineContext, invoiceId: string): number {
  return collectedCents(ctx, INVOICE_PAYMENTS, invoiceId, COUNTED_STATUSES);
}

/** The balance fields for `amountDueCents` given `paid` (both in cents). */
export function balanceOf(amountDueCents: number, paid: number): { remaining_balance: string; payment_status_id: number } {
  const remaining = Math.max(0, amountDueCents - paid);
  const payment_status_id = paid <= 0 ? PAYMENT_STATUS.unpaid : remaining === 0 ? PAYMENT_STATUS.paid : PAYMENT_STATUS.partial;
  return { remaining_balance: formatMoney(remaining), payment_status_id };
}

/**
 * Writes the recomputed balance (inside the caller's transaction). Returns true when this
 * recalculation made the invoice paid (the caller sends the thank-you).
 */
export function recalcInvoice(ctx: EngineContext, invoice: Row, opts: { reopen: boolean } = { reopen: true }): { row: Row; becamePaid: boolean } {
  const due = parseMoney(invoice.amount_due) ?? 0;
  const b = balanceOf(due, paidCents(ctx, String(invoice.id)));
  const becamePaid = b.payment_status_id === PAYMENT_STATUS.paid && invoice.payment_status_id !== PAYMENT_STATUS.paid;
  let status = Number(invoice.status_id);
  if (becamePaid) status = 0;
  else if (opts.reopen && invoice.payment_status_id === PAYMENT_STATUS.paid && b.payment_status_id !== PAYMENT_STATUS.paid) status = 1;
  if (b.remaining_balance === invoice.remaining_balance && b.payment_status_id === invoice.payment_status_id && status === invoice.status_id) return { row: invoice, becamePaid: false };
  ctx
    .stmt('UPDATE quick_invoices SET remaining_balance = ?, payment_status_id = ?, status_id = ?, modified_ts = ? WHERE id = ?')
    .run(b.remaining_balance, b.payment_status_id, status, ctx.clock.now(), invoice.id);
  const row = ctx.stmt('SELECT * FROM quick_invoices WHERE id = ?').get(invoice.id) as Row;
  return { row, becamePaid };
}

/**
 * The record-event hook: a transaction written (a refund, whose previous transaction may pay
 * an invoice; a void, partial reversal, tip edit or ACH move of a payment) recomputes the
 * invoices it touches, on the writing connection inside its write. One primary-key lookup
 * when no invoice is concerned.
 */
export function followTransactionEvent(ctx: EngineContext, e: RecordEvent): void {
  for (const id of linkedByTransactionEvent(ctx, e, INVOICE_PAYMENTS)) {
    const invoice = ctx.stmt('SELECT * FROM quick_invoices WHERE id = ?').get(id) as Row | undefined;
    if (invoice) recalcInvoice(ctx, invoice, { reopen: false });
  }
}
