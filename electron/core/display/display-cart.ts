/**
 * The customer's view of a cart: the lines with their variant and modifiers, and the figures the
 * core computed (never recomputed here). Only what the customer may see: no tender's card, no
 * cashier, no approval.
 */
import type { CartView, DisplayCart, DisplayLine, LineChoice } from '../../../shared/ipc/contract';

/**
 * The variant and each modifier as a short text under the line (the variant carries no price of
 * its own: its price is the line's). The counter names a line by its variant ("Latte Large"):
 * then the variant is not said again under it, as on the paper receipt (receipt-document.ts).
 */
export function choiceDetails(choice: LineChoice | null, lineName: string): DisplayLine['details'] {
  if (!choice) return [];
  const variant = choice.variantName && !lineName.toLowerCase().includes(choice.variantName.toLowerCase()) ? [{ name: choice.variantName, priceCents: 0 }] : [];
  return [...variant, ...choice.modifiers.map((m) => ({ name: m.name, priceCents: m.priceCents }))];
}

export function displayCartOf(view: CartView): DisplayCart {
  const t = view.totals;
  return {
    id: view.id,
    lines: view.lines.map((l, i) => ({
      id: l.id,
      name: l.name,
      quantity: l.quantity,
      unitCents: l.unitCents,
      amountCents: t.lines[i]?.grossCents ?? l.unitCents * l.quantity,
      details: choiceDetails(l.choice ?? null, l.name),
    })),
    itemsCents: t.grossCents,
    discountCents: t.lineDiscountCents + t.cartDiscountCents,
    taxCents: t.taxCents,
    totalCents: t.totalCents,
    paidCents: view.tenders.filter((x) => x.status === 'approved').reduce((a, x) => a + x.approvedCents, 0),
    balanceCents: view.balanceCents,
  };
}
