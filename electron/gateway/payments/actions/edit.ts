/**
 * `edit`: a tip adjust (card, unsettled), the contact (and with move_account_vault its
 * vault), and the record fields the table lets edit change. A tip that lowers the amount
 * is a partial reversal and needs its role: the route's check decided on the record it
 * read; this judges it again on the committed record.
 */
import { formatMoney, MAX_AMOUNT_CENTS, parseMoney } from '../../../../shared/payments/money';
import { ApiError, fmt } from '../../framework/errors';
import { forbidden, mayPerform } from '../../framework/permissions';
import { PAY_MSG } from '../payment-messages';
import { STATUS, tipAdjustCeiling } from '../processor-simulator';
import { ACTION_ALLOW, TIP_LOWERING_NEEDS } from '../transaction-fields';
import type { TransactionRow } from '../transaction-row';
import type { PutActionStep } from './put-action';

export const TIP_LOWERING_WHAT = `lower a tip (an edit that lowers the amount is a ${TIP_LOWERING_NEEDS})`;

/**
 * How high a tip adjust may take a fully approved sale: the tolerance over what the last
 * issuer-facing step left (a reversal or completion lowers it), and never above the
 * tolerance over the issuer's approved total (original approval + approved increments),
 * so reversing a cent between tip edits cannot ratchet the bound up. `approved` is the
 * approval whose tolerance binds (named in the 422).
 */
function tipCeiling(t: TransactionRow): { ceiling: number; approved: number } {
  const held = tipAdjustCeiling(t.approved_amount);
  const issuer = tipAdjustCeiling(t.issuer_approved);
  return held <= issuer ? { ceiling: held, approved: t.approved_amount } : { ceiling: issuer, approved: t.issuer_approved };
}

export const editAction: PutActionStep = {
  apply(s, { auth, tip, contactChange, moveVault, moveVaultTransactions, now }, { moveVaultToContact }) {
    const cur = s.cur;
    if (cur.status_id === STATUS.voided || cur.status_id === STATUS.declined) throw new ApiError(422, { id: [PAY_MSG.EDIT_NOT_ALLOWED] });
    if (tip !== null) {
      if (cur.payment_method !== 'cc') throw new ApiError(422, { tip_amount: [PAY_MSG.TIP_NOT_CARD] });
      if (cur.settled !== 0 || (cur.status_id !== STATUS.approved && cur.status_id !== STATUS.authonly)) throw new ApiError(422, { id: [PAY_MSG.EDIT_NOT_ALLOWED] });
      const oldTip = parseMoney(s.d.tip_amount) ?? 0;
      s.amt = cur.amount - oldTip + tip;
      // The permission check read the record before this job; a tip lowered meanwhile by
      // another write is judged again on the committed record (the same declared rule).
      if (tip < oldTip && !mayPerform(auth, ACTION_ALLOW[TIP_LOWERING_NEEDS])) throw forbidden(auth, TIP_LOWERING_WHAT, ACTION_ALLOW[TIP_LOWERING_NEEDS]);
      if (s.amt > MAX_AMOUNT_CENTS) throw new ApiError(422, { tip_amount: [PAY_MSG.AMOUNT_TOO_LARGE] });
      // An authorization keeps what the issuer approved (authcomplete is bounded by it).
      // A fully approved sale's tip adjust is the captured amount, at most the networks'
      // tip tolerance over what the issuer approved (measured from the approval, so
      // edits never compound); a partial approval's approved part never grows.
      if (cur.status_id === STATUS.approved) {
        const full = cur.auth_amount >= cur.amount;
        const { ceiling, approved } = tipCeiling(cur);
        if (full && s.amt > ceiling) {
          throw new ApiError(422, { tip_amount: [fmt(PAY_MSG.TIP_OVER_TOLERANCE, { max: formatMoney(ceiling), approved: formatMoney(approved) })] });
        }
        s.authAmt = full ? s.amt : Math.min(cur.auth_amount, s.amt);
      }
      if (s.authAmt < cur.refunded) throw new ApiError(422, { tip_amount: [fmt(PAY_MSG.TIP_BELOW_REFUNDED, { refunded: formatMoney(cur.refunded) })] });
      s.d.tip_amount = formatMoney(tip);
    }
    if (contactChange !== undefined) {
      s.contactId = contactChange;
      s.d.contact_id = contactChange;
      if (moveVault && cur.account_vault_id && contactChange !== null) moveVaultToContact(cur, contactChange, moveVaultTransactions, auth.userId, now);
    }
  },
};
