/**
 * The words and facts every receipt shares, on screen (renderer/src/receipts, cart-receipt.tsx)
 * and on paper (receipt-document.ts): said once so the printed receipt never reads differently
 * from the one the cashier saw.
 */
import type { CartReceiptData } from '../ipc/cart';
import type { TransactionView } from '../ipc/transactions';

/** A transaction's result as a receipt prints it. */
export const RESULT_WORDS: Record<TransactionView['state'], string> = {
  approved: 'APPROVED',
  declined: 'DECLINED',
  voided: 'VOIDED',
  refunded: 'REFUNDED',
  partially_refunded: 'PARTLY REFUNDED',
  pending: 'PENDING',
  other: 'SEE GATEWAY',
};

/** How the card was presented; a check was scanned or keyed from it (the record does not say which). */
export const ENTRY_WORDS = { keyed: 'Keyed', swiped: 'Swiped', chip: 'Chip', contactless: 'Contactless', check: 'Paper check' } as const;

/** The cardholder's agreement under the signature line of a merchant copy. */
export const CARD_AGREEMENT = 'I agree to pay the above total according to my card issuer agreement.';

/** What a paid cart's receipt is made of beyond its lines: who paid, whether a signature and a comp note are due, whether each payment states its tax share. */
export function cartReceiptFacts(data: CartReceiptData) {
  const { cart } = data;
  const paidBy = cart.tenders.filter((x) => x.status === 'approved' || x.status === 'reversed');
  return {
    paidBy,
    signature: paidBy.some((x) => data.cards[x.id]?.signatureLine),
    comped: cart.cartDiscount?.kind === 'comp' || cart.lines.some((l) => l.discount?.kind === 'comp'),
    // Paid in parts: each payment says its share of the tax (the shares add up to the sales tax).
    split: paidBy.filter((x) => x.status === 'approved').length > 1 && cart.totals.taxCents > 0,
  };
}
