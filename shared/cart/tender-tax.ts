/**
 * A cart's tax shared over its tenders (issue 21, point 3), in integer cents.
 *
 * Each card tender sends its share as the gateway transaction's `tax` when it is charged,
 * before the next tender exists, so the rule must never change a share already sent: a
 * largest-remainder split over the final tenders would move a cent between tenders the
 * gateway has already recorded. The rule is a running share instead: after a tender, the
 * tenders counted so far carry the cart's tax on what they have paid so far, rounded
 * half-up — T × paid ÷ total — so each tender's share is the step that takes the running
 * figure from before it to after it. When the last tender brings the paid amount to the
 * total, the running figure is the cart's tax itself: the shares add up to it exactly.
 *
 * The step is then held inside two bounds, so that whatever happened before (a tender
 * declined, a card voided after the cart was paid and its amount tendered again, a partial
 * approval that kept the tax it was sent with) the parts still add up:
 * - at most the tender's amount and the tax not yet carried, and a card leaves at least a cent
 *   of subtotal (the gateway's subtotal is at least $0.01);
 * - at least what the tenders after it could not carry: the tax left over after this one
 *   must fit in the balance left after this one.
 * The lower bound wins a tie, so the last tender always takes exactly what is left.
 * Simplification: a partial approval keeps the share it was sent with for the amount asked
 * (the gateway's record says so); should that share exceed what was approved, the rest of the
 * cart still sums exactly, but that tender carries more tax than it collected.
 */

/** A tender that counts (approved, not reversed): what it collected and the tax it carries. */
export interface CountedTender {
  approvedCents: number;
  taxCents: number;
}

/** T × paid ÷ total, rounded half-up; the whole tax once everything is paid. */
function runningTax(taxCents: number, totalCents: number, paidCents: number): number {
  if (paidCents >= totalCents) return taxCents;
  return Math.floor((2 * taxCents * paidCents + totalCents) / (2 * totalCents));
}

/**
 * The tax share of the next tender of `amountCents` on a cart of `totalCents` carrying
 * `taxCents`, given the tenders already counted (in order). `card`: the tender goes to the
 * gateway, whose subtotal must stay at least a cent.
 */
export function nextTenderTax(cart: { taxCents: number; totalCents: number }, counted: readonly CountedTender[], amountCents: number, card: boolean): number {
  if (cart.totalCents <= 0 || amountCents <= 0) return 0;
  const paid = counted.reduce((a, t) => a + t.approvedCents, 0);
  const carried = counted.reduce((a, t) => a + t.taxCents, 0);
  const taxLeft = Math.max(0, cart.taxCents - carried);
  const balanceAfter = Math.max(0, cart.totalCents - paid - amountCents);
  const step = runningTax(cart.taxCents, cart.totalCents, paid + amountCents) - carried;
  const most = Math.min(taxLeft, card ? amountCents - 1 : amountCents);
  const least = Math.max(0, taxLeft - balanceAfter);
  return Math.max(least, Math.min(most, step));
}
