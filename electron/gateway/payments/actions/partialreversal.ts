/** `partialreversal`: lowers an unsettled sale or authorization to a final amount (transaction_amount, GATEWAY-FACTS). */
import { formatMoney } from '../../../../shared/payments/money';
import { ApiError, fmt } from '../../framework/errors';
import { PAY_MSG } from '../payment-messages';
import { STATUS, TYPE } from '../processor-simulator';
import type { PutActionStep } from './put-action';

export const partialreversalAction: PutActionStep = {
  apply(s, { amount }) {
    const cur = s.cur;
    const ok = cur.payment_method === 'cc' && cur.settled === 0 && (cur.status_id === STATUS.authonly || (cur.status_id === STATUS.approved && cur.type_id === TYPE.sale));
    if (!ok) throw new ApiError(422, { id: [PAY_MSG.PARTIAL_REVERSAL_NOT_ALLOWED] });
    // transaction_amount is the final amount, not the amount released.
    const final = amount ?? 0;
    if (final >= cur.auth_amount) throw new ApiError(422, { transaction_amount: [fmt(PAY_MSG.PARTIAL_REVERSAL_EXCEEDS, { current: formatMoney(cur.auth_amount) })] });
    if (final < cur.refunded) throw new ApiError(422, { transaction_amount: [fmt(PAY_MSG.PARTIAL_REVERSAL_BELOW_REFUNDED, { refunded: formatMoney(cur.refunded) })] });
    s.amt = final;
    s.authAmt = final;
    s.approvedAmt = final;
  },
};
