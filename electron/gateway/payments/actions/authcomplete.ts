/** `authcomplete`: captures an authorization, for its amount or less; it joins the open batch. */
import { formatMoney } from '../../../../shared/payments/money';
import { ApiError, ErrorCollector, fmt } from '../../framework/errors';
import { checkAmountParts } from '../amount-parts';
import { PAY_MSG } from '../payment-messages';
import { REASON, STATUS, verbiageFor } from '../processor-simulator';
import type { PutActionStep } from './put-action';

export const authcompleteAction: PutActionStep = {
  apply(s, { amount, partsSent, f }, { batches }) {
    const cur = s.cur;
    if (cur.payment_method !== 'cc' || cur.status_id !== STATUS.authonly) throw new ApiError(422, { id: [PAY_MSG.AUTHCOMPLETE_NOT_AUTHONLY] });
    // Without an amount: the ticket (tip included), but never more than the issuer authorized.
    const done = amount ?? Math.min(cur.amount, cur.auth_amount);
    if (done > cur.auth_amount) throw new ApiError(422, { transaction_amount: [fmt(PAY_MSG.AUTHCOMPLETE_EXCEEDS, { authorized: formatMoney(cur.auth_amount) })] });
    // Sent with its parts: a different final amount needs the parts again (they must add up).
    if (s.d.subtotal_amount != null && done !== cur.amount && !partsSent) throw new ApiError(422, { subtotal_amount: [PAY_MSG.PARTS_REQUIRED] });
    if (partsSent && amount === null) {
      const pe = new ErrorCollector();
      checkAmountParts(f, done, pe);
      pe.throwIfAny();
    }
    s.amt = done;
    s.authAmt = done; // what is captured is what counts from now on
    s.approvedAmt = done;
    s.status = STATUS.approved;
    s.reason = REASON.authCompleted;
    s.d.verbiage = verbiageFor(REASON.approved);
    const b = batches.openBatchFor(cur.product_transaction_id as string, cur.location_id);
    s.batchId = b.id;
    s.d.batch = String(b.batchNum);
    s.d.transaction_batch_id = b.id;
    s.d.transaction_settlement_status = 'unsettled';
    // The sandbox amount whose batch fails its first settle (GATEWAY-FACTS).
    if (done === 630) batches.markFailsFirstSettle(b.id);
  },
};
