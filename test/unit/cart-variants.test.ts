/**
 * The counter sells from the deeper catalogue (issue 23, point 6), through the core against
 * the real engine and SQLite: a latte's size and modifiers priced by the core and kept on the
 * line as sold (a later price change leaves it alone); the same choice adds up, another choice
 * is a line of its own; every wrong choice refused in words with the cart unchanged; a
 * variant's SKU scanned adds that variant, or asks the screen to pick when a group is
 * required; Level 3 line items carry the variant and modifiers in the description and the
 * variant's SKU as product code; the X report counts items sold by item and variant, and the
 * modifiers sold.
 */
import { describe, expect, it } from 'vitest';
import { CHOICE_COPY } from '../../shared/cart/line-choice';
import type { CatalogueItem, ModifierGroup } from '../../shared/ipc/catalogue';
import { clearCart, useCoreHarness, value } from '../helpers/core-harness';
import { embeddedClient } from '../helpers/embedded-credentials';

const h = useCoreHarness('ringup-cart-variants-');
const VISA_CORPORATE = '4005562231212149';
let latte: CatalogueItem;
let tea: CatalogueItem;
let water: CatalogueItem;
let milk: ModifierGroup;
let extras: ModifierGroup;
const opt = (g: ModifierGroup, name: string) => g.options.find((o) => o.name === name)!.id;
const variant = (i: CatalogueItem, name: string) => i.variants.find((v) => v.name === name)!.id;
let n = 0;
const ref = () => `var-${Date.now().toString(36)}-${n++}`;
const linesOf = (c: { lines: Array<{ name: string; quantity: number; unitCents: number }> }) => c.lines.map((l) => [l.name, l.quantity, l.unitCents]);

const base = { productCode: '', unitCode: 'EA', taxCategory: 'standard', quickKey: true, trackStock: false, reorderLevel: 0 } as const;

describe('the cart with variants and modifiers', () => {
  it('setup: a manager makes the groups, a category and the items', async () => {
    await h.signInAs('Morgan', '1234');
    milk = value(
      await h.call('catalogue:save-modifier-group', {
        fields: { name: 'Milk', minChoices: 1, maxChoices: 1, options: [{ name: 'Whole', priceCents: 0 }, { name: 'Oat milk', priceCents: 60 }] },
      }),
    );
    extras = value(
      await h.call('catalogue:save-modifier-group', {
        fields: { name: 'Extras', minChoices: 0, maxChoices: 2, options: [{ name: 'Extra shot', priceCents: 50 }, { name: 'Vanilla', priceCents: 40 }, { name: 'Cream', priceCents: 30 }] },
      }),
    );
    const coffee = value(await h.call('catalogue:save-category', { fields: { name: 'Coffee', colour: 'brown', sortOrder: 1 } }));
    latte = value(
      await h.call('catalogue:add', {
        ...base,
        name: 'Latte',
        priceCents: 380,
        sku: 'LATTE',
        commodityCode: '4410',
        categoryId: coffee.id,
        variants: [
          { name: 'Small', priceCents: 380, sku: 'LATTE-S' },
          { name: 'Large', priceCents: 450, sku: 'LATTE-L' },
        ],
        modifierGroupIds: [milk.id, extras.id],
      }),
    );
    tea = value(
      await h.call('catalogue:add', {
        ...base,
        name: 'Tea',
        priceCents: 250,
        sku: 'TEA',
        commodityCode: '4410',
        categoryId: coffee.id,
        variants: [
          { name: 'Small', priceCents: 250, sku: 'TEA-S' },
          { name: 'Large', priceCents: 300, sku: 'TEA-L' },
        ],
        modifierGroupIds: [extras.id],
      }),
    );
    water = value(await h.call('catalogue:add', { ...base, name: 'Water', priceCents: 150, sku: 'WATER', commodityCode: '4410', categoryId: null, variants: [], modifierGroupIds: [] }));
    expect(latte.variants.map((v) => v.name)).toEqual(['Small', 'Large']);
  });

  it('prices the variant plus its modifiers; the same choice adds up (in any order), another is its own line', async () => {
    await h.signInAs('Casey', '0000');
    await clearCart(h);
    const large = variant(latte, 'Large');
    let cart = value(await h.call('cart:add-item', { itemId: latte.id, choice: { variantId: large, optionIds: [opt(extras, 'Extra shot'), opt(milk, 'Whole')] } }));
    expect(linesOf(cart)).toEqual([['Latte Large', 1, 500]]);
    expect(cart.lines[0]!.productCode).toBe('LATTE-L');
    expect(cart.lines[0]!.choice).toEqual({
      variantId: large,
      variantName: 'Large',
      modifiers: [
        { optionId: opt(milk, 'Whole'), groupName: 'Milk', name: 'Whole', priceCents: 0 },
        { optionId: opt(extras, 'Extra shot'), groupName: 'Extras', name: 'Extra shot', priceCents: 50 },
      ],
    });
    cart = value(await h.call('cart:add-item', { itemId: latte.id, choice: { variantId: large, optionIds: [opt(milk, 'Whole'), opt(extras, 'Extra shot')] } }));
    expect(linesOf(cart)).toEqual([['Latte Large', 2, 500]]);
    value(await h.call('cart:add-item', { itemId: latte.id, choice: { variantId: large, optionIds: [opt(milk, 'Oat milk'), opt(extras, 'Extra shot')] } }));
    value(await h.call('cart:add-item', { itemId: latte.id, choice: { variantId: variant(latte, 'Small'), optionIds: [opt(milk, 'Whole')] } }));
    value(await h.call('cart:add-item', { itemId: water.id }));
    cart = value(await h.call('cart:add-item', { itemId: water.id, choice: { variantId: null, optionIds: [] } }));
    expect(linesOf(cart)).toEqual([
      ['Latte Large', 2, 500],
      ['Latte Large', 1, 560],
      ['Latte Small', 1, 380],
      ['Water', 2, 150],
    ]);
    expect(cart.lines[3]!.choice).toBeNull();
    expect(cart.totals.grossCents).toBe(1000 + 560 + 380 + 300);
  });

  it('refuses a wrong choice in words and leaves the cart as it was', async () => {
    const before = value(await h.call('cart:current'));
    const large = variant(latte, 'Large');
    const cases: Array<[unknown, string]> = [
      [{ itemId: latte.id }, CHOICE_COPY.chooseVariant('Latte', ['Small', 'Large'])],
      [{ itemId: latte.id, choice: { variantId: variant(tea, 'Large'), optionIds: [opt(milk, 'Whole')] } }, CHOICE_COPY.notVariant('Latte')],
      [{ itemId: tea.id, choice: { variantId: variant(tea, 'Large'), optionIds: [opt(milk, 'Whole')] } }, CHOICE_COPY.notOffered('Tea')],
      [{ itemId: latte.id, choice: { variantId: large, optionIds: [] } }, CHOICE_COPY.tooFew('Milk', 1)],
      [{ itemId: latte.id, choice: { variantId: large, optionIds: [opt(milk, 'Whole'), opt(milk, 'Oat milk')] } }, CHOICE_COPY.tooMany('Milk', 1)],
      [{ itemId: latte.id, choice: { variantId: large, optionIds: [opt(milk, 'Whole'), opt(extras, 'Extra shot'), opt(extras, 'Vanilla'), opt(extras, 'Cream')] } }, CHOICE_COPY.tooMany('Extras', 2)],
      [{ itemId: water.id, choice: { variantId: large, optionIds: [] } }, CHOICE_COPY.noVariants('Water')],
    ];
    for (const [arg, message] of cases) {
      expect(await h.call('cart:add-item', arg)).toEqual({ ok: false, error: { code: 'bad_request', message, fields: { choice: [message] } } });
    }
    // Not a choice at all: the schema's own refusal, never a crash.
    expect(await h.call('cart:add-item', { itemId: latte.id, choice: { variantId: large, optionIds: 'all' } })).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(value(await h.call('cart:current')).lines).toEqual(before.lines);
  });

  it("keeps the line's names and prices as sold when a manager changes the catalogue later", async () => {
    await h.signInAs('Morgan', '1234');
    const fields = { name: 'Extras', minChoices: 0, maxChoices: 2, options: extras.options.map((o) => ({ id: o.id, name: o.name === 'Extra shot' ? 'Espresso shot' : o.name, priceCents: o.name === 'Extra shot' ? 75 : o.priceCents })) };
    extras = value(await h.call('catalogue:save-modifier-group', { id: extras.id, fields }));
    await h.signInAs('Casey', '0000');
    const cart = value(await h.call('cart:add-item', { itemId: latte.id, choice: { variantId: variant(latte, 'Large'), optionIds: [opt(milk, 'Whole'), opt(extras, 'Espresso shot')] } }));
    // The first line keeps "Extra shot" at $0.50; the same choice at today's price is a line of its own.
    expect(cart.lines[0]!.choice!.modifiers[1]).toMatchObject({ name: 'Extra shot', priceCents: 50 });
    expect(linesOf(cart).at(-1)).toEqual(['Latte Large', 1, 525]);
    expect(cart.lines.at(-1)!.choice!.modifiers[1]).toMatchObject({ name: 'Espresso shot', priceCents: 75 });
    value(await h.call('cart:remove-line', { lineId: cart.lines.at(-1)!.id }));
  });

  it("a scanned variant SKU adds that variant; when a group needs a choice, nothing is added and the answer says what to pick", async () => {
    const before = value(await h.call('cart:current'));
    let r = value(await h.call('cart:add-code', { code: 'tea-l' }));
    expect(r.pick).toBeUndefined();
    expect(linesOf(r).at(-1)).toEqual(['Tea Large', 1, 300]);
    expect(r.lines.at(-1)!.productCode).toBe('TEA-L');
    r = value(await h.call('cart:add-code', { code: 'LATTE-L' }));
    expect(r.pick).toEqual({ itemId: latte.id, variantId: variant(latte, 'Large') });
    expect(r.lines).toHaveLength(before.lines.length + 1);
    // The item's own code, with sizes to choose from: the picker opens with none chosen.
    r = value(await h.call('cart:add-code', { code: 'LATTE' }));
    expect(r.pick).toEqual({ itemId: latte.id, variantId: null });
    expect(r.lines).toHaveLength(before.lines.length + 1);
  });

  it('Level 3 carries the variant and modifiers in the description and the variant SKU as product code; the X report counts by item and variant, and the modifiers', async () => {
    const paid = value(await h.call('cart:pay-card', { card: { number: VISA_CORPORATE, expiry: '1230', cvv: '999', zip: '32606' }, clientRef: ref() }));
    expect(paid.status).toBe('paid');
    expect(paid.level3[0]).toMatchObject({ sent: true });
    const t = await embeddedClient(h.dir).getTransactionExpanded(paid.tenders[0]!.transactionId!, ['transaction_level3']);
    const items = (t.transaction_level3 as { level3_data: { line_items: Array<Record<string, string>> } }).level3_data.line_items;
    expect(items.map((l) => [l.description, l.product_code, Number(l.unit_cost), Number(l.quantity)])).toEqual([
      // "Latte Large +Whole +Extra shot" is 30 characters: the modifiers are cut to the same length (line-choice.ts).
      ['Latte Large +Whole +Extra', 'LATTE-L', 5, 2],
      ['Latte Large +Oatmi +Extra', 'LATTE-L', 5.6, 1],
      ['Latte Small +Whole', 'LATTE-S', 3.8, 1],
      ['Water', 'WATER', 1.5, 2],
      ['Tea Large', 'TEA-L', 3, 1],
    ]);
    expect(items.every((l) => l.description!.length <= 26)).toBe(true);

    await h.signInAs('Morgan', '1234');
    const x = value(await h.call('reports:x'));
    expect(x.cartSales!.items.map((i) => [i.name, i.quantity])).toEqual(
      expect.arrayContaining([
        ['Latte Large', 3],
        ['Latte Small', 1],
        ['Water', 2],
        ['Tea Large', 1],
      ]),
    );
    expect(x.cartSales!.items).toHaveLength(4);
    expect(x.cartSales!.modifiers).toEqual([
      { name: 'Extra shot', quantity: 3, cents: 150 },
      { name: 'Whole', quantity: 3, cents: 0 },
      { name: 'Oat milk', quantity: 1, cents: 60 },
    ]);
  });
});
