/**
 * A pay link's balance, recomputed from the payments made on it (never a running counter):
 * collected = Σ (auth_amount − refunded) of its approved payments (card sale 101, an
 * auth-only link's authorization 102, ACH debit 131–134); remaining_balance =
 * max(0, amount_due − collected), null for a link without amount_due (the payer enters
 * the amount). Only approved money counts: the sandbox's 2.01 approves 1.00, which leaves
 * 1.01 to collect on the same link page.
 *
 * status_id 1 (Paid) is set when the amount due is collected (a link without amount_due:
 * when the payer's amount was approved in full). Like an invoice, a paid link is not
 * reopened by a later refund or void (the merchant's decision, not the payer's): its
 * remaining_balance then shows what is owed again, and status_id stays 1.
 */
import { formatMoney, parseMoney } from '../../../shared/payments/money';
import type { EngineContext } from '../framework/context';
import type { RecordEvent } from '../framework/record-events';
import type { Row } from '../framework/resource';
import { collectedCents, linkedByTransactionEvent, PAYLINK_PAYMENTS } from './billing-shared';
import { COUNTED_STATUSES } from './invoice-balance';

/** An auth-only link is paid by an authorization (102): the money is held for the merchant. */
const PAYLINK_COUNTED = [...COUNTED_STATUSES, 102] as const;

export function paylinkCollectedCents(ctx: EngineContext, paylinkId: string): number {
  return collectedCents(ctx, PAYLINK_PAYMENTS, paylinkId, PAYLINK_COUNTED);
}

/** remaining_balance for `amountDue` (the stored decimal string or null) after `collected` cents. */
export function paylinkRemaining(amountDue: unknown, collected: number): string | null {
  const due = parseMoney(amountDue);
  return due === null ? null : formatMoney(Math.max(0, due - collected));
}

/**
 * Recomputes a link's remaining balance and status from its payments (inside the write that
 * changed them). `paidBy`: the payment being recorded, which
 * becomes the link's paid_transaction_id if it pays the link (`fullyApproved`: its own
 * amount was approved in full, what pays a link without amount_due). A paid link stays paid.
 */
function recomputePaylink(ctx: EngineContext, link: Row, paidBy?: { transactionId: string; fullyApproved: boolean }): void {
  const remaining = paylinkRemaining(link.amount_due, paylinkCollectedCents(ctx, String(link.id)));
  const paid = remaining === null ? (paidBy?.fullyApproved ?? false) : remaining === '0.00';
  const status = paid ? 1 : Number(link.status_id);
  const paidTransactionId = paid && paidBy ? paidBy.transactionId : (link.paid_transaction_id ?? null);
  // A new payment always touches the link (modified_ts); an event that changed nothing does not.
  if (!paidBy && remaining === link.remaining_balance && status === link.status_id) return;
  ctx
    .stmt('UPDATE paylinks SET remaining_balance = ?, status_id = ?, paid_transaction_id = ?, modified_ts = ? WHERE id = ?')
    .run(remaining, status, paidTransactionId, ctx.clock.now(), link.id);
}

/**
 * Records an approved payment of the link and recomputes it (inside the payment's write).
 * The caller has refused an overpayment first (`paylinkCollectedCents`).
 */
export function recordPaylinkPayment(ctx: EngineContext, link: Row, transactionId: string, fullyApproved: boolean): void {
  ctx.stmt('INSERT INTO paylink_payments (transaction_id, paylink_id, created_ts) VALUES (?, ?, ?)').run(transactionId, link.id, ctx.clock.now());
  recomputePaylink(ctx, link, { transactionId, fullyApproved });
}

/**
 * The record-event hook: a write of a link's payment (or of a refund of one: a refund,
 * void, partial reversal or tip edit) recomputes that link's remaining balance in the
 * same write. A link whose amount due becomes collected this way is paid; a paid one is
 * never reopened.
 */
export function followPaylinkEvent(ctx: EngineContext, e: RecordEvent): void {
  for (const id of linkedByTransactionEvent(ctx, e, PAYLINK_PAYMENTS)) {
    const link = ctx.stmt('SELECT id, amount_due, remaining_balance, status_id, paid_transaction_id FROM paylinks WHERE id = ?').get(id) as Row | undefined;
    if (link) recomputePaylink(ctx, link);
  }
}
