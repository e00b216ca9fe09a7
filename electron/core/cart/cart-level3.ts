/**
 * Level 3 from the cart: a paid cart's lines as the line items of a commercial card's
 * Level 3 data (decimal strings, as the interface takes them), checked afterwards with the
 * engine's own schemas (shared/payments/level3-schema.ts).
 *
 * - Discount per line: its own discount plus its share of the whole-sale discount; tax per
 *   line: its share of its category's tax, with the category's rate.
 * - Visa needs a commodity code on every line. A line without one (an open amount, an item
 *   saved without one) takes the store's default commodity code (Catalogue screen), else the
 *   code most of the sale's items carry. Simplification: that borrowed code describes the
 *   store's usual goods, not necessarily that line; with no code anywhere Level 3 is not
 *   sent and the note says why.
 * - Mastercard has no commodity code; each line is marked a debit (`debit_credit` D): a sale.
 * - A line sold with a variant and modifiers (issue 23) says them in its 26-character description
 *   ("Latte Large +Extra shot"; the cutting rule is level3Description's, line-choice.ts), and its
 *   product code is the variant's SKU when it has one (taken when the line was added).
 * - More lines than the network takes (Visa 998, Mastercard 98): the last line item sums up
 *   the rest (their amounts, discounts and tax), so nothing is dropped; the note says so.
 */
import { formatMoney as centsToDecimal } from '../../../shared/payments/money';
import { LEVEL3_MAX_LINE_ITEMS, type Level3Network } from '../../../shared/payments/level3-schema';
import type { CartView } from '../../../shared/ipc/contract';
import { level3Description } from '../../../shared/cart/line-choice';

export const NETWORK_NAMES: Record<Level3Network, string> = { visa: 'Visa', mastercard: 'Mastercard' };

export const LEVEL3_NOTES = {
  noCommodityCode: (name: string) =>
    `Level 3 not sent: Visa needs a commodity code for every item, and “${name}” has none. A manager sets one on the item, or a default commodity code, on the Catalogue screen.`,
  sent: (count: number, folded: number, networkName: string, cardLabel: string) =>
    `Level 3 sent: ${count} line item${count === 1 ? '' : 's'} (${cardLabel})${folded > 0 ? `; ${networkName} takes at most ${count}, so the last one sums up ${folded} items` : ''}.`,
  invalid: (what: string) => `Level 3 not sent: ${what}`,
  failed: (why: string) => `Level 3 not sent: ${why}`,
} as const;

/** The line item fields in the words of a note. */
const FIELD_WORDS: Record<string, string> = {
  description: 'description',
  product_code: 'product code',
  unit_code: 'unit of measure',
  unit_cost: 'price',
  quantity: 'quantity',
  discount_amount: 'discount',
  tax_amount: 'tax',
  tax_rate: 'tax rate',
  commodity_code: 'commodity code',
};

export type CartLevel3 =
  | { ok: true; data: { line_items: Array<Record<string, string>>; tax_amount: string; sales_tax: string }; folded: number }
  | { ok: false; note: string };

/** The code most lines carry (the first of equals), or ''. */
function usualCode(codes: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const c of codes) if (c) counts.set(c, (counts.get(c) ?? 0) + 1);
  let best = '';
  for (const [c, k] of counts) if (k > (counts.get(best) ?? 0)) best = c;
  return best;
}

export function level3FromCart(view: CartView, network: Level3Network, defaultCommodityCode: string): CartLevel3 {
  const fallbackCode = defaultCommodityCode || usualCode(view.lines.map((l) => l.commodityCode));
  const rateOf = (category: string) => view.totals.taxByCategory.find((c) => c.category === category)?.rateBasisPoints ?? 0;
  const rows = view.lines.map((l, i) => {
    const t = view.totals.lines[i]!;
    return {
      name: l.name,
      grossCents: t.grossCents,
      discountCents: t.lineDiscountCents + t.cartDiscountShareCents,
      taxCents: t.taxCents,
      rateBp: rateOf(l.taxCategory),
      commodityCode: l.commodityCode || fallbackCode,
      item: {
        description: level3Description(l.name, l.choice?.modifiers ?? []),
        product_code: (l.productCode || l.itemId?.replace(/-/g, '').slice(0, 12) || 'OPEN').slice(0, 12),
        unit_code: l.unitCode || 'EA',
        unit_cost: centsToDecimal(l.unitCents),
        quantity: String(l.quantity),
      },
    };
  });
  if (network === 'visa') {
    const missing = rows.find((r) => !r.commodityCode);
    if (missing) return { ok: false, note: LEVEL3_NOTES.noCommodityCode(missing.name) };
  }
  const max = LEVEL3_MAX_LINE_ITEMS[network];
  const kept = rows.length > max ? rows.slice(0, max - 1) : rows;
  const rest = rows.length > max ? rows.slice(max - 1) : [];
  const items = kept.map((r) => ({ ...r.item, ...money(r.discountCents, r.taxCents, r.rateBp), ...networkFields(network, r.commodityCode) }));
  if (rest.length > 0) {
    const sum = (f: (r: (typeof rows)[number]) => number) => rest.reduce((a, r) => a + f(r), 0);
    const rates = new Set(rest.map((r) => r.rateBp));
    items.push({
      description: `${rest.length} more items`,
      product_code: 'MORE',
      unit_code: 'EA',
      unit_cost: centsToDecimal(sum((r) => r.grossCents)),
      quantity: '1',
      ...money(sum((r) => r.discountCents), sum((r) => r.taxCents), rates.size === 1 ? [...rates][0]! : null),
      ...networkFields(network, fallbackCode || rest[0]!.commodityCode),
    });
  }
  const tax = centsToDecimal(view.totals.taxCents);
  return { ok: true, data: { line_items: items, tax_amount: tax, sales_tax: tax }, folded: rest.length };
}

function money(discountCents: number, taxCents: number, rateBp: number | null): Record<string, string> {
  return {
    discount_amount: centsToDecimal(discountCents),
    tax_amount: centsToDecimal(taxCents),
    ...(rateBp !== null ? { tax_rate: (rateBp / 100).toFixed(2) } : {}),
  };
}

function networkFields(network: Level3Network, commodityCode: string): Record<string, string> {
  return network === 'visa' ? { commodity_code: commodityCode } : { debit_credit: 'D' };
}

/** The engine's schema errors (`level3_data.line_items.3.product_code`: [..]) as one plain sentence naming the item. */
export function plainLevel3Error(errors: Record<string, string[]>, view: CartView): string {
  const [key, messages] = Object.entries(errors)[0] ?? ['', []];
  const msg = (messages[0] ?? 'the items do not fit the card network’s rules.').replace(/^./, (c) => c.toLowerCase());
  const m = /^level3_data\.line_items\.(\d+)\.(\w+)$/.exec(key);
  if (m) {
    const name = view.lines[Number(m[1])]?.name ?? `line ${Number(m[1]) + 1}`;
    return LEVEL3_NOTES.invalid(`the ${FIELD_WORDS[m[2]!] ?? m[2]!.replace(/_/g, ' ')} of “${name}” ${msg}`);
  }
  return LEVEL3_NOTES.invalid(msg);
}
