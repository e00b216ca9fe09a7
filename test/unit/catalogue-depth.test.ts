/**
 * The catalogue's depth (issue 23, point 6) through the core, with a real SQLite file:
 * categories, an item's variants (own price and SKU, scannable), modifier groups (archived,
 * never deleted) and the rule that one SKU names one item or variant, any case — on the form
 * and in the database itself.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOGUE_MESSAGES } from '../../electron/core/catalogue/catalogue';
import { CATEGORY_MESSAGES } from '../../electron/core/catalogue/categories';
import { MODIFIER_MESSAGES } from '../../electron/core/catalogue/modifier-groups';
import { useCoreHarness, value } from '../helpers/core-harness';

const h = useCoreHarness('ringup-catalogue-depth-');

describe('categories, variants and modifier groups', () => {
  let drinks = '';
  let size = '';
  let extras = '';
  let latteId = '';

  it('a manager adds categories and groups; names are one each, any case', async () => {
    await h.signInAs('Morgan', '1234');
    drinks = value(await h.call('catalogue:save-category', { fields: { name: 'Drinks', colour: 'teal', sortOrder: 1 } })).id;
    value(await h.call('catalogue:save-category', { fields: { name: 'Bakery', colour: 'amber' } }));
    const twice = await h.call('catalogue:save-category', { fields: { name: 'drinks' } });
    expect(!twice.ok && twice.error.fields).toEqual({ name: [CATEGORY_MESSAGES.nameTaken('Drinks')] });
    // Listed by their order, then name.
    expect(value(await h.call('catalogue:categories', {})).map((c) => [c.name, c.colour])).toEqual([
      ['Bakery', 'amber'],
      ['Drinks', 'teal'],
    ]);

    const s = value(await h.call('catalogue:save-modifier-group', { fields: { name: 'Milk', minChoices: 1, maxChoices: 1, options: [{ name: 'Whole' }, { name: 'Oat', priceCents: 50 }] } }));
    size = s.id;
    expect(s.options.map((o) => [o.name, o.priceCents])).toEqual([
      ['Whole', 0],
      ['Oat', 50],
    ]);
    extras = value(await h.call('catalogue:save-modifier-group', { fields: { name: 'Extras', maxChoices: 3, options: [{ name: 'Extra shot', priceCents: 50 }, { name: 'Syrup', priceCents: 40 }] } })).id;
    const bad = await h.call('catalogue:save-modifier-group', { fields: { name: 'Sizes', minChoices: 2, maxChoices: 1, options: [{ name: 'A' }] } });
    expect(bad.ok).toBe(false);
    const dup = await h.call('catalogue:save-modifier-group', { fields: { name: 'Dup', options: [{ name: 'A' }, { name: 'a' }] } });
    expect(!dup.ok && dup.error.message).toBe(MODIFIER_MESSAGES.choiceTwice('a'));
  });

  it('an item with variants, a category and groups comes back whole; a variant SKU scans to it and says which', async () => {
    const latte = value(
      await h.call('catalogue:add', {
        name: 'Latte',
        priceCents: 400,
        categoryId: drinks,
        modifierGroupIds: [extras, size],
        trackStock: true,
        variants: [
          { name: 'Small', priceCents: 350, sku: 'LAT-S' },
          { name: 'Large', priceCents: 450, sku: 'LAT-L' },
        ],
      }),
    );
    latteId = latte.id;
    expect(latte).toMatchObject({ categoryId: drinks, modifierGroupIds: [extras, size], trackStock: true, stock: null });
    expect(latte.variants.map((v) => [v.name, v.priceCents, v.sku, v.stock])).toEqual([
      ['Small', 350, 'LAT-S', 0],
      ['Large', 450, 'LAT-L', 0],
    ]);
    // Scanned: the variant is named, and the required Milk group sends the counter to its picker with Large chosen (cart-lines.ts).
    const scanned = value(await h.call('cart:add-code', { code: 'lat-l' }));
    expect(scanned.pick).toEqual({ itemId: latte.id, variantId: latte.variants[1]!.id });
    expect(scanned.lines).toEqual([]);
    // Found by a variant's SKU in the search too.
    expect(value(await h.call('catalogue:list', { search: 'lat-s' })).map((i) => i.name)).toEqual(['Latte']);
  });

  it('one SKU names one item or variant: the form refuses it on the field, any case', async () => {
    const onItem = await h.call('catalogue:add', { name: 'Water', priceCents: 200, sku: 'lat-s' });
    expect(!onItem.ok && onItem.error.fields).toEqual({ sku: [CATALOGUE_MESSAGES.skuInUse('lat-s', 'Latte Small')] });
    value(await h.call('catalogue:add', { name: 'Water', priceCents: 200, sku: 'WAT' }));
    const onVariant = await h.call('catalogue:add', { name: 'Mocha', priceCents: 450, variants: [{ name: 'Small', priceCents: 400, sku: 'wat' }] });
    expect(!onVariant.ok && onVariant.error.fields).toEqual({ 'variants.0.sku': [CATALOGUE_MESSAGES.skuInUse('wat', 'Water')] });
    const twiceOnItem = await h.call('catalogue:add', { name: 'Mocha', priceCents: 450, sku: 'MOC', variants: [{ name: 'Small', priceCents: 400, sku: 'moc' }] });
    expect(!twiceOnItem.ok && twiceOnItem.error.fields).toEqual({ 'variants.0.sku': [CATALOGUE_MESSAGES.skuTwiceOnItem('moc')] });
    // The database refuses it too, whatever path writes.
    const db = new Database(join(h.dir, 'ringup.db'));
    try {
      expect(() => db.prepare(`UPDATE catalogue_items SET sku = 'Lat-L' WHERE sku = 'WAT'`).run()).toThrow(/one item or variant/);
      expect(() => db.prepare(`UPDATE catalogue_variants SET sku = 'wat' WHERE sku = 'LAT-S'`).run()).toThrow(/one item or variant/);
    } finally {
      db.close();
    }
  });

  it('editing keeps variant ids, swaps SKUs in one save, archives a variant left out and brings it back by name', async () => {
    const before = value(await h.call('catalogue:list', {})).find((i) => i.id === latteId)!;
    const [small, large] = before.variants;
    const fields = { name: 'Latte', priceCents: 400, categoryId: drinks, modifierGroupIds: [size], trackStock: true };
    const swapped = value(
      await h.call('catalogue:update', {
        id: latteId,
        fields: {
          ...fields,
          variants: [
            { id: small!.id, name: 'Small', priceCents: 360, sku: 'LAT-L' },
            { id: large!.id, name: 'Large', priceCents: 460, sku: 'LAT-S' },
          ],
        },
      }),
    );
    expect(swapped.variants.map((v) => [v.id, v.sku, v.priceCents])).toEqual([
      [small!.id, 'LAT-L', 360],
      [large!.id, 'LAT-S', 460],
    ]);
    expect(swapped.modifierGroupIds).toEqual([size]);
    const onlySmall = value(await h.call('catalogue:update', { id: latteId, fields: { ...fields, variants: [{ id: small!.id, name: 'Small', priceCents: 360, sku: 'LAT-L' }] } }));
    expect(onlySmall.variants.map((v) => v.name)).toEqual(['Small']);
    // Its SKU was released with it.
    expect((await h.call('catalogue:add', { name: 'Tea', priceCents: 250, sku: 'LAT-S' })).ok).toBe(true);
    const back = value(await h.call('catalogue:update', { id: latteId, fields: { ...fields, variants: [{ id: small!.id, name: 'Small', priceCents: 360, sku: 'LAT-L' }, { name: 'large', priceCents: 470, sku: 'LAT-XL' }] } }));
    expect(back.variants.map((v) => [v.id, v.name])).toEqual([
      [small!.id, 'Small'],
      [large!.id, 'large'],
    ]);
  });

  it('archived categories and groups are kept, not offered: the item lists without them, the form refuses them', async () => {
    value(await h.call('catalogue:archive-category', { id: drinks, archived: true }));
    value(await h.call('catalogue:archive-modifier-group', { id: size, archived: true }));
    const latte = value(await h.call('catalogue:list', {})).find((i) => i.id === latteId)!;
    expect(latte.categoryId).toBeNull();
    expect(latte.modifierGroupIds).toEqual([]);
    expect(value(await h.call('catalogue:categories', {})).map((c) => c.name)).toEqual(['Bakery']);
    expect(value(await h.call('catalogue:categories', { includeArchived: true })).map((c) => c.name)).toEqual(['Bakery', 'Drinks']);
    const refused = await h.call('catalogue:update', { id: latteId, fields: { name: 'Latte', priceCents: 400, categoryId: drinks, modifierGroupIds: [size] } });
    expect(!refused.ok && refused.error.fields).toEqual({ categoryId: [CATEGORY_MESSAGES.archived('Drinks')], modifierGroupIds: [MODIFIER_MESSAGES.archived('Milk')] });
    // Saved meanwhile as the form shows it (no Milk, no category): the link to the archived group stays.
    const fields = { name: 'Latte', priceCents: 400, modifierGroupIds: [], variants: latte.variants.map((v) => ({ id: v.id, name: v.name, priceCents: v.priceCents, sku: v.sku })) };
    value(await h.call('catalogue:update', { id: latteId, fields: { ...fields, categoryId: null } }));
    const noGroup = await h.call('catalogue:import-csv', { csv: 'name,price,sku,modifier_groups\nMocha,4.50,MOC,Milk\n' });
    expect(noGroup.ok && noGroup.value.errors).toEqual([{ line: 2, message: MODIFIER_MESSAGES.archived('Milk') }]);
    // Restored: offered again, the link was never lost (the category was saved away meanwhile).
    value(await h.call('catalogue:archive-category', { id: drinks, archived: false }));
    value(await h.call('catalogue:archive-modifier-group', { id: size, archived: false }));
    expect(value(await h.call('catalogue:list', {})).find((i) => i.id === latteId)).toMatchObject({ categoryId: null, modifierGroupIds: [size] });
  });

  it('a cashier lists categories and groups but cannot change them', async () => {
    await h.signInAs('Casey', '0000');
    expect(value(await h.call('catalogue:modifier-groups', {})).map((g) => g.name)).toEqual(['Extras', 'Milk']);
    expect((await h.call('catalogue:save-category', { fields: { name: 'Snacks' } })).ok).toBe(false);
  });
});
