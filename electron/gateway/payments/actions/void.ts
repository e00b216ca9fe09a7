/** `void`: reverses all of an unsettled card transaction, or an ACH one still pending origination. */
import { formatMoney } from '../../../../shared/payments/money';
import { ApiError, fmt } from '../../framework/errors';
import { PAY_MSG } from '../payment-messages';
import { REASON, STATUS, TYPE } from '../processor-simulator';
import type { PutActionStep } from './put-action';

export const voidAction: PutActionStep = {
  apply(s, { amount, now }, { ctx }) {
    const cur = s.cur;
    // transaction_amount is optional on a void (the docs' O): a void reverses all of it.
    if (amount !== null && amount !== cur.amount) throw new ApiError(422, { transaction_amount: [fmt(PAY_MSG.VOID_AMOUNT, { amount: formatMoney(cur.amount) })] });
    if (cur.payment_method === 'cc') {
      if (cur.settled === 1) throw new ApiError(422, { id: [PAY_MSG.VOID_SETTLED] });
      if (![STATUS.approved, STATUS.authonly, STATUS.refunded].includes(cur.status_id as 101)) throw new ApiError(422, { id: [PAY_MSG.VOID_NOT_ALLOWED] });
    } else {
      if (cur.status_id === STATUS.voided || cur.status_id === STATUS.declined) throw new ApiError(422, { id: [PAY_MSG.VOID_NOT_ALLOWED] });
      if (cur.status_id !== STATUS.achPendingOrigination) throw new ApiError(422, { id: [PAY_MSG.ACH_VOID_TOO_LATE] });
    }
    if (cur.refunded > 0) throw new ApiError(422, { id: [PAY_MSG.VOID_NOT_ALLOWED] });
    s.status = STATUS.voided;
    s.reason = REASON.voided;
    s.d.void_date = new Date(now * 1000).toISOString().slice(0, 10);
    s.d.transaction_settlement_status = null;
    s.d.verbiage = 'VOIDED';
    s.d.response_message = 'VOIDED';
    // A voided refund gives its amount back to the sale it refunded.
    if (cur.type_id === TYPE.refund && cur.previous_transaction_id) {
      ctx.stmt('UPDATE transactions SET refunded = MAX(0, refunded - ?) WHERE id = ?').run(cur.auth_amount, cur.previous_transaction_id);
    }
  },
};
