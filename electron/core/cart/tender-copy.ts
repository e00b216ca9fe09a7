/**
 * What the cart answers when it refuses a step or needs a manager: plain sentences, one
 * place, so the screens and the tests read the same words.
 */
import { formatMoney as centsToDecimal } from '../../../shared/payments/money';

export const TENDER_COPY = {
  approvalNeeded: (pct: number) => `Discounts above ${pct} % need a manager's approval: a manager enters their PIN.`,
  /** Issue 20: a line's own discount and its share of the whole-sale one count together. */
  combinedNeedsApproval: (pct: number, sharePct: number) =>
    `Together, the line discount and the whole-sale discount come to ${sharePct} % off, above the ${pct} % a cashier may give: a manager enters their PIN (or lower a discount).`,
  /** Issue 20: the hard cap holds for all the card payments of one sale together, not for each. */
  cartAboveCap: (capCents: number, onCardsCents: number) =>
    `A sale can be at most $${centsToDecimal(capCents)} on cards, all its card payments together, and $${centsToDecimal(onCardsCents)} of it is on cards already. Take the rest in cash, or ask a manager to raise the limit in the store settings.`,
  shareGrew: (pct: number, sharePct: number) =>
    `That leaves a discount of ${sharePct} %, above the ${pct} % a cashier may give: a manager enters their PIN (or lower the discount first).`,
  tenderNeedsApproval: (pct: number, sharePct: number) =>
    `This sale has a discount of ${sharePct} %, above the ${pct} % a cashier may give: a manager enters their PIN before it is paid.`,
  approvalRefused: 'That is not a manager PIN. Nothing was changed.',
  cancelNeedsManager: 'Cancelling a sale that took a card payment needs a manager: a manager enters their PIN (card payments are voided or refunded).',
  cancelRefused: 'That is not a manager PIN. The sale was not cancelled.',
  nothingToRefund: 'Those lines were already returned.',
  notPaid: 'Only a paid sale can have lines returned.',
  notPartial: 'Only a partly approved card sale can be collected this way.',
  cartBusy: 'Finish or clear the sale in the cart first.',
  alreadyInCart: 'This card sale is already part of a cart.',
  noItem: 'That item is not in the catalogue (or it was archived).',
  /** A scanned code no active item has (issue 21, point 9). */
  noCode: (code: string) => `No item has the code ${code}. Check the item in the catalogue, or find it by name.`,
  /** Not echoed: digits that pass the card check could be a card number keyed into the wrong place. */
  noCodeUnsaid: 'No item has the code you scanned (it is not shown here: it could be a card number). Check the item in the catalogue, or find it by name.',
  /** Collecting a due cart (issue 20, point 4). */
  notDue: 'Only a sale with money due can be collected: this one owes nothing.',
  collectBusy: 'Finish or clear the sale in your cart first, then collect the rest of this one.',
  collectTaken: (who: string) => `${who} is collecting this sale at their counter. A manager can take it over.`,
  dueNoCancel: 'This sale was paid before and its items are gone: it cannot be cancelled here. Collect what is due, or put it back for later.',
  notCollecting: 'You are not collecting a sale that has money due.',
} as const;
