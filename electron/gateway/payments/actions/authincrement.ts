/** `authincrement`: asks the issuer for more on an authorization; a partial approval adds only its approved part. */
import { MAX_AMOUNT_CENTS } from '../../../../shared/payments/money';
import { ApiError, fmt } from '../../framework/errors';
import { brandFromStored } from '../card-source';
import { PAY_MSG } from '../payment-messages';
import { simulate, STATUS, type ProcessorOutcome } from '../processor-simulator';
import type { PutActionStep } from './put-action';

export const authincrementAction: PutActionStep = {
  async process(row, { f, amount }, { ctx, lookups }) {
    if (row.payment_method !== 'cc' || row.status_id !== STATUS.authonly) return undefined; // refused in the write
    // The issuer answers the increment like an authorization of that amount (test amounts apply).
    const brand = brandFromStored(row.first_six, null);
    const pt = row.product_transaction_id ? lookups.productTransaction(row.product_transaction_id) : undefined;
    const allowPartial = (f.allow_partial_authorization_override as boolean | undefined) ?? pt?.allow_partial_authorization ?? true;
    const outcome = simulate({ action: 'authonly', paymentMethod: 'cc', amountCents: amount ?? 0, brand, allowPartial });
    if (outcome.delayMs > 0) await ctx.clock.sleep(outcome.delayMs);
    return outcome;
  },
  apply(s, { amount, processed }) {
    const cur = s.cur;
    if (cur.payment_method !== 'cc' || cur.status_id !== STATUS.authonly) throw new ApiError(422, { id: [PAY_MSG.AUTHINCREMENT_NOT_AUTHONLY] });
    const inc = processed as ProcessorOutcome; // asked of the issuer before this job
    if (!inc.approved) throw new ApiError(422, { transaction_amount: [fmt(PAY_MSG.AUTHINCREMENT_DECLINED, { verbiage: inc.verbiage })] });
    if (cur.amount + (amount ?? 0) > MAX_AMOUNT_CENTS) throw new ApiError(422, { transaction_amount: [PAY_MSG.AMOUNT_TOO_LARGE] });
    s.amt = cur.amount + (amount ?? 0);
    s.authAmt = cur.auth_amount + inc.authAmountCents; // a partial approval adds only the approved part
    s.approvedAmt = cur.approved_amount + inc.authAmountCents;
    s.issuerApproved = cur.issuer_approved + inc.authAmountCents; // a new approval of the issuer's
  },
};
