/**
 * A scanned code goes in the cart (issue 21, point 9), through the core against the real
 * engine and SQLite: the item is found by its exact SKU or product code (any case, spaces
 * around ignored), never by a part of one; an archived item or an unknown code is refused
 * with a sentence that names the code, and the cart is unchanged.
 */
import { describe, expect, it } from 'vitest';
import { useCoreHarness, value } from '../helpers/core-harness';

const h = useCoreHarness('ringup-cart-scan-');

describe('cart:add-code', () => {
  it('adds the item whose SKU or product code is the code, one more each scan; refuses a part of a code, an archived item and an unknown code', async () => {
    await h.signInAs('Morgan', '1234');
    expect(value(await h.call('catalogue:import-csv', { csv: 'name,price,sku,product_code\nLatte,4.20,0123456789012,LATTE-12\nLatte large,4.90,LATTE-124,\nOld cake,3.00,CAKE-9,\n' }))).toMatchObject({ imported: 3, errors: [] });
    const cake = value(await h.call('catalogue:list', {})).find((i) => i.sku === 'CAKE-9')!;
    value(await h.call('catalogue:archive', { id: cake.id, archived: true }));

    await h.signInAs('Casey', '0000');
    let cart = value(await h.call('cart:add-code', { code: 'latte-12' }));
    expect(cart.lines.map((l) => [l.name, l.quantity])).toEqual([['Latte', 1]]);
    cart = value(await h.call('cart:add-code', { code: ' 0123456789012 ' }));
    expect(cart.lines.map((l) => [l.name, l.quantity])).toEqual([['Latte', 2]]);
    expect(cart.totals.grossCents).toBe(840);

    // A code is matched whole: "LATTE-1" is the start of two SKUs and the SKU of none.
    for (const [code, sentence] of [
      ['LATTE-1', 'No item has the code LATTE-1. Check the item in the catalogue, or find it by name.'],
      ['CAKE-9', 'No item has the code CAKE-9. Check the item in the catalogue, or find it by name.'],
    ] as const) {
      const r = await h.call('cart:add-code', { code });
      expect(r).toEqual({ ok: false, error: { code: 'not_found', message: sentence } });
    }
    expect(value(await h.call('cart:current', undefined)).lines.map((l) => [l.name, l.quantity])).toEqual([['Latte', 2]]);

    // A card number read where an item's code goes is not said back; a card swipe's track is refused unread.
    const unsaid = await h.call('cart:add-code', { code: '4111111111111111' });
    expect(unsaid).toEqual({ ok: false, error: { code: 'not_found', message: 'No item has the code you scanned (it is not shown here: it could be a card number). Check the item in the catalogue, or find it by name.' } });
    // Bad input is a sentence, not a crash: empty, too long, or not a code at all.
    for (const code of ['', ' ', 'x'.repeat(33), '%B4111111111111111^CARD/TEST^3012?', ';4111111111111111=3012?']) {
      const r = await h.call('cart:add-code', { code });
      expect(r).toMatchObject({ ok: false, error: { code: 'bad_request' } });
      expect(JSON.stringify(r)).not.toContain('4111111111111111');
    }
    expect(value(await h.call('cart:current', undefined)).lines).toHaveLength(1);
  });
});
