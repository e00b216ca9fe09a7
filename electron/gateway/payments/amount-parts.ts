/**
 * The parts of a transaction's amount (subtotal, tax, tip, surcharge, additional amounts)
 * against its total: read by the POST actions and by authcomplete (actions/).
 */
import { formatMoney } from '../../../shared/payments/money';
import type { ErrorCollector } from '../framework/errors';
import { PAY_MSG } from './payment-messages';
import type { FieldValues } from '../framework/validate';

const cents = (v: unknown): number => (typeof v === 'number' ? v : 0);

/**
 * Amount parts: with subtotal_amount or surcharge_amount, subtotal + tax + tip + surcharge
 * must equal transaction_amount; otherwise tax + tip (+ surcharge) cannot exceed it.
 * Each additional amount is at most transaction_amount.
 */
export function checkAmountParts(f: FieldValues, amount: number, errs: ErrorCollector): void {
  const parts = cents(f.tax) + cents(f.tip_amount) + cents(f.surcharge_amount);
  if (f.subtotal_amount !== undefined && f.subtotal_amount !== null) {
    const sum = cents(f.subtotal_amount) + parts;
    if (sum !== amount) {
      errs.add('subtotal_amount', PAY_MSG.PARTS_MISMATCH, {
        subtotal: formatMoney(cents(f.subtotal_amount)), tax: formatMoney(cents(f.tax)), tip: formatMoney(cents(f.tip_amount)),
        surcharge: formatMoney(cents(f.surcharge_amount)), sum: formatMoney(sum), amount: formatMoney(amount),
      });
    }
  } else if (parts > amount) {
    errs.add('transaction_amount', PAY_MSG.PARTS_EXCEED, { sum: formatMoney(parts), amount: formatMoney(amount) });
  }
  const extra = f.additional_amounts as { cents: number }[] | undefined;
  if (extra?.some((a) => a.cents > amount)) errs.add('additional_amounts', PAY_MSG.ADDITIONAL_AMOUNT_EXCEEDS);
}
