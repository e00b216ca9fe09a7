/**
 * Level 3 from the cart, read back from the real engine: each line's discount (its own plus
 * its share of the whole-sale discount), tax and tax rate; an open amount on a Visa card
 * takes a default commodity code (the store's, else the one the sale's items carry) instead
 * of keeping Level 3 from being sent; when none exists the note says so in plain words; a
 * Mastercard cart (no commodity codes); more lines than the network takes are summed up in
 * the last line item, and the note says so.
 */
import { describe, expect, it } from 'vitest';
import { LEVEL3_NOTES } from '../../electron/core/cart/cart-level3';
import type { CatalogueItem } from '../../shared/ipc/catalogue';
import { clearCart, useCoreHarness, value } from '../helpers/core-harness';
import { embeddedClient } from '../helpers/embedded-credentials';

const h = useCoreHarness('ringup-cart-level3-');
const VISA_CORPORATE = '4005562231212149';
const MC_CORPORATE = '5405222222222226';
const card = (number: string) => ({ number, expiry: '1230', cvv: '999', zip: '32606' });
let n = 0;
const ref = () => `l3-${Date.now().toString(36)}-${n++}`;
let items: Record<string, CatalogueItem>;

const engine = () => embeddedClient(h.dir);

async function lineItemsOf(transactionId: string): Promise<Array<Record<string, unknown>>> {
  const t = await engine().getTransactionExpanded(transactionId, ['transaction_level3']);
  return (t.transaction_level3 as { level3_data: { line_items: Array<Record<string, unknown>> } }).level3_data.line_items;
}

const freshCart = () => clearCart(h);

describe('Level 3 from the cart', () => {
  it('setup', async () => {
    await h.signInAs('Morgan', '1234');
    value(
      await h.call('catalogue:import-csv', {
        csv: 'name,price,sku,product_code,unit_code,commodity_code,tax_category\nCoffee,3.50,COF,COF-1,EA,4410,standard\nBeans,12.99,BEA,BEA-1,LBR,4410,exempt\nMuffin,2.99,MUF,MUF-1,EA,,standard\n',
      }),
    );
    items = Object.fromEntries(value(await h.call('catalogue:list', {})).map((i) => [i.sku, i]));
  });

  it('a Visa cart with a sale discount and an open amount: discount, tax and tax rate per line, read back from the engine', async () => {
    await freshCart();
    value(await h.call('cart:add-item', { itemId: items.COF!.id, quantity: 2 }));
    value(await h.call('cart:add-item', { itemId: items.BEA!.id }));
    value(await h.call('cart:add-open', { name: 'Open amount', amountCents: 400, taxCategory: 'standard' }));
    const cart = value(await h.call('cart:set-cart-discount', { discount: { kind: 'percent', basisPoints: 1_000 } }));
    // 700 + 1299 + 400 = 2399; 10 % = 240 shared 70 / 130 / 40; tax 8.25 % of 630 + 360 = 990 → 82, shared 52 / 30.
    expect(cart.totals.lines.map((l) => [l.lineDiscountCents + l.cartDiscountShareCents, l.taxCents])).toEqual([
      [70, 52],
      [130, 0],
      [40, 30],
    ]);
    const paid = value(await h.call('cart:pay-card', { card: card(VISA_CORPORATE), clientRef: ref() }));
    expect(paid.status).toBe('paid');
    expect(paid.level3[0]).toMatchObject({ sent: true, note: expect.stringContaining('Level 3 sent: 3 line items') });
    const lines = await lineItemsOf(paid.tenders[0]!.transactionId!);
    expect(lines.map((l) => [l.description, l.commodity_code, Number(l.unit_cost), Number(l.quantity), Number(l.discount_amount), Number(l.tax_amount), Number(l.tax_rate)])).toEqual([
      ['Coffee', '4410', 3.5, 2, 0.7, 0.52, 8.25],
      ['Beans', '4410', 12.99, 1, 1.3, 0, 0],
      // The open amount has no commodity code of its own: it takes the one the sale's items carry.
      ['Open amount', '4410', 4, 1, 0.4, 0.3, 8.25],
    ]);
  });

  it("an open amount takes the store's default commodity code when a manager set one", async () => {
    value(await h.call('catalogue:set-rules', { discountApprovalPercent: 20, defaultCommodityCode: '5999' }));
    expect(value(await h.call('catalogue:rules'))).toEqual({ discountApprovalPercent: 20, defaultCommodityCode: '5999' });
    await freshCart();
    value(await h.call('cart:add-item', { itemId: items.COF!.id }));
    value(await h.call('cart:add-open', { name: 'Open amount', amountCents: 300, taxCategory: 'standard' }));
    const paid = value(await h.call('cart:pay-card', { card: card(VISA_CORPORATE), clientRef: ref() }));
    expect(paid.level3[0]!.sent).toBe(true);
    expect((await lineItemsOf(paid.tenders[0]!.transactionId!)).map((l) => l.commodity_code)).toEqual(['4410', '5999']);
  });

  it('with no commodity code anywhere, the note says why in plain words', async () => {
    value(await h.call('catalogue:set-rules', { discountApprovalPercent: 20, defaultCommodityCode: '' }));
    await freshCart();
    value(await h.call('cart:add-item', { itemId: items.MUF!.id }));
    const paid = value(await h.call('cart:pay-card', { card: card(VISA_CORPORATE), clientRef: ref() }));
    expect(paid.level3[0]).toEqual({ transactionId: paid.tenders[0]!.transactionId, sent: false, note: LEVEL3_NOTES.noCommodityCode('Muffin') });
    expect(LEVEL3_NOTES.noCommodityCode('Muffin')).toBe(
      'Level 3 not sent: Visa needs a commodity code for every item, and “Muffin” has none. A manager sets one on the item, or a default commodity code, on the Catalogue screen.',
    );
  });

  it('a Mastercard cart sends its lines without commodity codes, each a debit', async () => {
    await freshCart();
    value(await h.call('cart:add-item', { itemId: items.COF!.id }));
    value(await h.call('cart:add-item', { itemId: items.MUF!.id }));
    const paid = value(await h.call('cart:pay-card', { card: card(MC_CORPORATE), clientRef: ref() }));
    expect(paid.level3[0]).toMatchObject({ sent: true, note: expect.stringMatching(/^Level 3 sent: 2 line items \(Mastercard •••• 2226\)\.$/) });
    const lines = await lineItemsOf(paid.tenders[0]!.transactionId!);
    expect(lines.map((l) => [l.description, l.product_code, Number(l.unit_cost), Number(l.tax_amount), Number(l.tax_rate), l.commodity_code ?? null, l.debit_credit])).toEqual([
      ['Coffee', 'COF-1', 3.5, 0.29, 8.25, null, 'D'],
      ['Muffin', 'MUF-1', 2.99, 0.25, 8.25, null, 'D'],
    ]);
  });

  it('more lines than Mastercard takes: the last line item sums up the rest, and the note says so', async () => {
    await freshCart();
    for (let i = 0; i < 100; i++) value(await h.call('cart:add-open', { name: `Part ${i + 1}`, amountCents: 10, taxCategory: 'exempt' }));
    const paid = value(await h.call('cart:pay-card', { card: card(MC_CORPORATE), clientRef: ref() }));
    expect(paid.status).toBe('paid');
    expect(paid.level3[0]).toMatchObject({ sent: true, note: LEVEL3_NOTES.sent(98, 3, 'Mastercard', 'Mastercard •••• 2226') });
    const lines = await lineItemsOf(paid.tenders[0]!.transactionId!);
    expect(lines).toHaveLength(98);
    expect(lines[96]).toMatchObject({ description: 'Part 97' });
    expect([lines[97]!.description, Number(lines[97]!.unit_cost), Number(lines[97]!.quantity)]).toEqual(['3 more items', 0.3, 1]);
    expect(lines.reduce((a, l) => a + Math.round(Number(l.unit_cost) * 100) * Number(l.quantity ?? 1), 0)).toBe(1_000); // nothing dropped
  });
});
