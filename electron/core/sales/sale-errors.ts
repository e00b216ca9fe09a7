/**
 * What the sale path answers when it refuses or cannot finish a step: plain sentences, one
 * place, so the screens and the tests read the same words.
 */
import { formatMoney as centsToDecimal } from '../../../shared/payments/money';
import { REFUND_TOO_MUCH } from '../../../shared/refund-limit';

const dollars = (cents: number) => `$${centsToDecimal(cents)}`;

export const SALE_ERRORS = {
  luhn: 'This card number is not valid. Check the digits and try again.',
  expired: 'This card has expired. Ask for another card.',
  tooMuch: 'The total is above the largest amount one sale may carry.',
  refundTooMuch: REFUND_TOO_MUCH,
  notRefundable: 'This sale cannot be refunded: it was declined, voided or already fully refunded.',
  notVoidable: 'This sale cannot be voided any more. Refund it instead.',
  alreadySettled: 'This sale has already settled, so it cannot be voided. Refund it instead.',
  notASale: 'Only a sale can be refunded or voided.',
  notPartial: 'Only a partly approved sale can be voided from the sale screen. Ask a manager to void other sales.',
  /** The gateway's answer was lost and it could not be asked what happened: the screen keeps asking. */
  outcomeUnknown: 'The payment gateway did not answer. Checking whether the card was charged — do not charge again.',
  /** The answer was lost, and the gateway still has no record of the sale well past its processing time: nothing was charged. */
  notCharged: 'The payment gateway did not answer and has no record of this sale, so the card was not charged. Charge again when ready.',
  printInBrowser: 'Printing goes through the browser here.',
  /** A sale collecting the rest of a partial approval is that rest exactly: its tax is in it already, and a tip was asked on the first. */
  restNotExact: (restCents: number) => `The rest of this sale is ${dollars(restCents)}: charge exactly that, with no tip or tax added.`,
  restCollected: 'The rest of this sale has already been collected.',
  restOfPartialOnly: 'Only the rest of a partly approved sale can be collected this way.',
  /** Issue 20: a card payment of a paid cart given back is a cart return. */
  cartReturnNeedsManager: 'This card paid part of a sale that is already paid, so voiding it is a return: a manager enters their PIN (or signs in). Nothing was voided.',
  cartReturnRefused: 'That is not a manager PIN. The card payment was not voided.',
  /** The PIN lockout's own words (how long to wait: pin-throttle.ts), then what did not happen. */
  approverLocked: (wait: string) => `${wait} The card payment was not voided.`,
  /** Issue 21, point 12: a cashier asks, a manager approves with their PIN at the cashier's counter. */
  refundNeedsManager: 'A refund is approved by a manager: they enter their PIN here (or sign in). Nothing was refunded.',
  refundRefused: 'That is not a manager PIN. Nothing was refunded.',
  voidNeedsManager: 'A void is approved by a manager: they enter their PIN here (or sign in). Nothing was voided.',
  voidRefused: 'That is not a manager PIN. The sale was not voided.',
} as const;
