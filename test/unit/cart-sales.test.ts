/**
 * Paid carts after the sale, through the core against the real engine and SQLite: the list
 * of cart sales finds an all-cash cart (it has no gateway transaction to be found by), whose
 * receipt is read again and whose line is returned from the drawer; a cart's receipt data
 * carries the cashier and each card tender's brand, last four, auth code and entry mode.
 */
import { describe, expect, it } from 'vitest';
import type { CatalogueItem } from '../../shared/ipc/catalogue';
import { useCoreHarness, value } from '../helpers/core-harness';

const h = useCoreHarness('ringup-cart-sales-');
const card = { number: '5454545454545454', expiry: '1230', cvv: '999', zip: '32606' };
let coffee: CatalogueItem;
let muffin: CatalogueItem;

describe('cart sales after the sale', () => {
  it('an all-cash cart is listed, its receipt read again, and a line returned from the drawer', async () => {
    await h.signInAs('Morgan', '1234');
    value(await h.call('catalogue:import-csv', { csv: 'name,price,sku\nCoffee,3.50,COF\nMuffin,2.99,MUF\n' }));
    const items = value(await h.call('catalogue:list', {}));
    coffee = items.find((i) => i.sku === 'COF')!;
    muffin = items.find((i) => i.sku === 'MUF')!;

    await h.signInAs('Casey', '0000');
    value(await h.call('cart:add-item', { itemId: coffee.id }));
    value(await h.call('cart:add-item', { itemId: muffin.id }));
    const paid = value(await h.call('cart:pay-cash', { tenderedCents: 1_000 }));
    expect(paid).toMatchObject({ status: 'paid', changeCents: 297 }); // 6.49 + 0.54 tax = 7.03

    const list = value(await h.call('cart:sales', { page: 1 }));
    expect(list).toMatchObject({ page: 1, pageCount: 1 });
    expect(list.rows).toEqual([{ id: paid.id, status: 'paid', dueCents: 0, collector: null, paidTs: expect.any(Number), cashier: 'Casey', totalCents: 703, paidBy: 'Cash', lineCount: 2, returnedLines: 0 }]);

    const receipt = value(await h.call('cart:receipt', { cartId: paid.id }));
    expect(receipt).toMatchObject({ cashier: 'Casey', cards: {} });
    expect(receipt.cart.lines.map((l) => l.name)).toEqual(['Coffee', 'Muffin']);

    await h.signInAs('Morgan', '1234');
    const muffinLine = paid.lines.find((l) => l.name === 'Muffin')!;
    const back = value(await h.call('cart:refund-lines', { cartId: paid.id, lineIds: [muffinLine.id] }));
    expect(back).toMatchObject({ refundedCents: 324, cashBackCents: 324 }); // 2.99 + 0.25 tax share
    expect(value(await h.call('cart:sales', { page: 1 })).rows[0]).toMatchObject({ id: paid.id, returnedLines: 1 });
  });

  it("a split cart's receipt data: the cashier and each card's brand, last four, auth code and entry mode", async () => {
    await h.signInAs('Casey', '0000');
    value(await h.call('cart:add-item', { itemId: coffee.id, quantity: 2 }));
    value(await h.call('cart:pay-cash', { tenderedCents: 500 }));
    const paid = value(await h.call('cart:pay-card', { card, clientRef: `sales-${Date.now().toString(36)}` }));
    expect(paid.status).toBe('paid');
    const cardTender = paid.tenders.find((t) => t.kind === 'card')!;
    const receipt = value(await h.call('cart:receipt', { cartId: paid.id }));
    expect(receipt.cashier).toBe('Casey');
    expect(Object.keys(receipt.cards)).toEqual([cardTender.id]);
    expect(receipt.cards[cardTender.id]).toMatchObject({ id: cardTender.transactionId, cardBrand: 'Mastercard', lastFour: '5454', authCode: expect.stringMatching(/^\w+$/), state: 'approved' });
    expect(value(await h.call('cart:sales', { page: 1 })).rows[0]).toMatchObject({ id: paid.id, paidBy: 'Cash + Card', cashier: 'Casey' });
    // A full card number is never in what the receipt is made from.
    expect(JSON.stringify(receipt)).not.toContain('5454545454545454');
  });
});
