/**
 * `refund`: money back to a card or bank account, blind or of an earlier transaction
 * (`previous_transaction_id`: an approved sale, force or completed authorization, or an
 * ACH debit); without an amount, what is left of that transaction. The refunded counter
 * of the original moves in the same write, so parallel refunds never sum above it.
 */
import { PAY_MSG } from '../payment-messages';
import { STATUS, TYPE } from '../processor-simulator';
import type { TransactionRow } from '../transaction-row';
import { askIssuer, type PostActionStep } from './post-action';

export function isRefundable(t: TransactionRow): boolean {
  if (t.payment_method === 'cc') return t.type_id === TYPE.sale && t.status_id === STATUS.approved;
  return t.type_id === TYPE.debit && t.status_id >= STATUS.achPendingOrigination && t.status_id <= STATUS.achSettled;
}

export const refundAction: PostActionStep = {
  methods: ['cc', 'ach'],
  defaultAmount: (previous) => (previous ? previous.auth_amount - previous.refunded : undefined),
  refunds: true,
  check(previous, errs) {
    if (previous && !isRefundable(previous)) errs.add('previous_transaction_id', PAY_MSG.REFUND_NOT_REFUNDABLE);
  },
  issuesAuthCode: true,
  keepsAccount: false,
  process(req) {
    const outcome = askIssuer('refund')(req);
    return req.paymentMethod === 'ach' ? { ...outcome, typeId: TYPE.refund } : outcome;
  },
};
