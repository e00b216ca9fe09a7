/**
 * What a sale may still have refunded, worded once for the core's refusal and the
 * screen's hint: refundable = approved money (auth_amount) − approved refunds.
 */
import { formatMoney } from './payments/money';

export const REFUND_TOO_MUCH = 'That is more than is left to refund on this sale.';

/** 123456 → "$1,234.56" (textual; no floats). */
export function dollars(cents: number): string {
  const text = formatMoney(cents);
  const neg = text.startsWith('-');
  const [whole = '0', frac = '00'] = (neg ? text.slice(1) : text).split('.');
  return `${neg ? '-' : ''}$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${frac}`;
}

/** "Up to $1.00 can be refunded." */
export function refundLimitSentence(refundableCents: number): string {
  return `Up to ${dollars(refundableCents)} can be refunded.`;
}
