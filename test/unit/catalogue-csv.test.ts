/**
 * The whole catalogue as one CSV file (issue 23, point 5), through the core with real SQLite
 * files: items with categories, variants, modifier groups and stock counts in three tables one
 * under the other; export → import into an empty catalogue → export gives the same text; the
 * same file imported again changes nothing; bad rows are refused by line number and nothing
 * goes in; today's simple files keep importing (catalogue-import.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOGUE_MESSAGES } from '../../electron/core/catalogue/catalogue';
import { CSV_MESSAGES } from '../../electron/core/catalogue/catalogue-csv';
import { openCore, useCoreHarness, value } from '../helpers/core-harness';

const h = useCoreHarness('ringup-catalogue-csv-');

const CAFE = `name,price,sku,category,variant,modifier_groups,track_stock,stock,reorder_level,tax_category,quick_key
Latte,4.00,,Coffee,,Milk|Extras,yes,,3,standard,yes
Latte,3.50,LAT-S,,Small,,,12,,,
Latte,4.50,LAT-L,,Large,,,8,,,
"Water, 500 ml",2.00,WAT-500,Drinks,,,yes,24,6,exempt,yes
Croissant,3.25,CRO,Bakery,,,no,,0,standard,no

category,colour,sort_order
Coffee,amber,1
Drinks,teal,2
Bakery,brown,3
Specials,pink,9

modifier_group,min_choices,max_choices,choice,choice_price
Milk,1,1,Whole,0.00
Milk,1,1,Oat,0.50
Extras,0,3,Extra shot,0.50
Extras,0,3,Vanilla syrup,0.40
`;

describe('the catalogue as one CSV file', () => {
  let exported = '';

  it('imports items, variants, categories, modifier groups and stock counts from one file', async () => {
    await h.signInAs('Morgan', '1234');
    expect(value(await h.call('catalogue:import-csv', { csv: CAFE }))).toEqual({ imported: 3, added: 3, updated: 0, errors: [] });
    const cats = value(await h.call('catalogue:categories', {}));
    expect(cats.map((c) => [c.name, c.colour, c.sortOrder])).toEqual([
      ['Coffee', 'amber', 1],
      ['Drinks', 'teal', 2],
      ['Bakery', 'brown', 3],
      ['Specials', 'pink', 9],
    ]);
    const groups = value(await h.call('catalogue:modifier-groups', {}));
    expect(groups.map((g) => [g.name, g.minChoices, g.maxChoices, g.options.map((o) => `${o.name} ${o.priceCents}`)])).toEqual([
      ['Extras', 0, 3, ['Extra shot 50', 'Vanilla syrup 40']],
      ['Milk', 1, 1, ['Whole 0', 'Oat 50']],
    ]);
    const items = value(await h.call('catalogue:list', {}));
    const latte = items.find((i) => i.name === 'Latte')!;
    expect(latte).toMatchObject({ categoryId: cats[0]!.id, trackStock: true, reorderLevel: 3, stock: null, quickKey: true });
    expect(latte.modifierGroupIds).toEqual([groups[1]!.id, groups[0]!.id]);
    expect(latte.variants.map((v) => [v.name, v.priceCents, v.sku, v.stock])).toEqual([
      ['Small', 350, 'LAT-S', 12],
      ['Large', 450, 'LAT-L', 8],
    ]);
    expect(items.find((i) => i.sku === 'WAT-500')).toMatchObject({ name: 'Water, 500 ml', stock: 24, taxCategory: 'exempt', categoryId: cats[1]!.id });
    expect(items.find((i) => i.sku === 'CRO')).toMatchObject({ trackStock: false, stock: null });
    // Counted as a manager would: rows of the ledger, "CSV import".
    expect(value(await h.call('catalogue:low-stock'))).toEqual([]);
  });

  it('export → import into an empty catalogue → export: the same text, byte for byte', async () => {
    // An archived item and a count that moved since travel too.
    const cro = value(await h.call('catalogue:list', {})).find((i) => i.sku === 'CRO')!;
    value(await h.call('catalogue:archive', { id: cro.id, archived: true }));
    const water = value(await h.call('catalogue:list', {})).find((i) => i.sku === 'WAT-500')!;
    value(await h.call('catalogue:adjust-stock', { itemId: water.id, change: { kind: 'delta', delta: -25 }, reason: 'spilt' }));
    exported = value(await h.call('catalogue:export-csv'));
    expect(exported.split('\r\n').slice(0, 6)).toEqual([
      'name,price,sku,product_code,unit_code,commodity_code,tax_category,quick_key,category,variant,modifier_groups,track_stock,stock,reorder_level,archived',
      'Croissant,3.25,CRO,,EA,,standard,no,Bakery,,,no,,0,yes',
      'Latte,4.00,,,EA,,standard,yes,Coffee,,Milk|Extras,yes,,3,no',
      'Latte,3.50,LAT-S,,,,,,,Small,,,12,,',
      'Latte,4.50,LAT-L,,,,,,,Large,,,8,,',
      '"Water, 500 ml",2.00,WAT-500,,EA,,exempt,yes,Drinks,,,yes,-1,6,no',
    ]);

    const dir = mkdtempSync(join(tmpdir(), 'ringup-catalogue-csv-2-'));
    const other = await openCore(dir);
    try {
      await other.signInAs('Morgan', '1234');
      expect(value(await other.call('catalogue:import-csv', { csv: exported }))).toEqual({ imported: 3, added: 3, updated: 0, errors: [] });
      expect(value(await other.call('catalogue:export-csv'))).toBe(exported);
    } finally {
      await other.core.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the same file imported again changes nothing: every item matched, the export unchanged', async () => {
    const before = value(await h.call('catalogue:list', { includeArchived: true }));
    expect(value(await h.call('catalogue:import-csv', { csv: exported }))).toEqual({ imported: 3, added: 0, updated: 3, errors: [] });
    expect(value(await h.call('catalogue:export-csv'))).toBe(exported);
    const after = value(await h.call('catalogue:list', { includeArchived: true }));
    expect(after.map((i) => [i.id, i.variants.map((v) => v.id)])).toEqual(before.map((i) => [i.id, i.variants.map((v) => v.id)]));
  });

  it('a price list of sku,name,price keeps the variants, groups, category and counts', async () => {
    const r = value(await h.call('catalogue:import-csv', { csv: 'sku,name,price\nWAT-500,"Water, 500 ml",2.25\n' }));
    expect(r).toEqual({ imported: 1, added: 0, updated: 1, errors: [] });
    const latteBefore = exported.split('\r\n').filter((l) => l.startsWith('Latte'));
    const now = value(await h.call('catalogue:export-csv'));
    expect(now.split('\r\n').filter((l) => l.startsWith('Latte'))).toEqual(latteBefore);
    expect(now).toContain('"Water, 500 ml",2.25,WAT-500,,EA,,exempt,yes,Drinks,,,yes,-1,6,no');
  });

  it('bad rows are refused with their line numbers, and nothing goes in', async () => {
    const before = value(await h.call('catalogue:export-csv'));
    const bad = `name,price,sku,category,variant,modifier_groups,track_stock,stock
Mocha,4.00,,Coffee,,Sizes,yes,
Mocha,3.50,MOC-S,,Small,,,2
Tea,2.50,LAT-S,,,,no,
Scone,2.00,SCO,,,,no,4
Cake,3.00,CAK,,,,yes,
Pie,3.00,PIE,,,,,
Cookie,1.00,COO,,,,maybe,
Muffin,2.00,,,Large,,,
Bun,1.50,BUN,Bakery,,,yes,3
Bun,1.75,BUN-L,,Large,,yes,

modifier_group,min_choices,max_choices,choice,choice_price
Sizes,1,1,Small,0.00
Sizes,1,2,Big,0.50
Toppings,0,1,Sprinkles,free
`;
    const r = value(await h.call('catalogue:import-csv', { csv: bad }));
    expect(r.imported).toBe(0);
    expect(r.errors).toEqual([
      { line: 4, message: CATALOGUE_MESSAGES.skuInUse('LAT-S', 'Latte Small') },
      { line: 5, message: CSV_MESSAGES.stockNotCounted },
      { line: 8, message: CSV_MESSAGES.yesNo('track_stock') },
      { line: 9, message: CSV_MESSAGES.variantOrphan('Muffin') },
      { line: 11, message: CSV_MESSAGES.variantColumn('track_stock') },
      { line: 15, message: CSV_MESSAGES.groupRule('Sizes', 14) },
      { line: 16, message: CSV_MESSAGES.choicePrice },
    ]);
    expect(value(await h.call('catalogue:export-csv'))).toBe(before);
    // A group named that is neither in the file nor the catalogue.
    const noGroup = value(await h.call('catalogue:import-csv', { csv: 'name,price,modifier_groups\nTea,2.50,Milk|Sugar\n' }));
    expect(noGroup.errors).toEqual([{ line: 2, message: CSV_MESSAGES.noGroup('Sugar') }]);
    // Stock on the item row of an item counted per variant.
    const perVariant = value(await h.call('catalogue:import-csv', { csv: 'name,price,sku,variant,track_stock,stock\nMocha,4.00,MOC,,yes,5\nMocha,4.00,MOC-L,Large,,\n' }));
    expect(perVariant.errors).toEqual([{ line: 2, message: CSV_MESSAGES.stockPerVariant }]);
    // A SKU twice, item or variant.
    const twice = value(await h.call('catalogue:import-csv', { csv: 'name,price,sku,variant\nMocha,4.00,MOC,\nMocha,4.00,moc,Large\n' }));
    expect(twice.errors).toEqual([{ line: 3, message: CSV_MESSAGES.skuTwice('moc', 2) }]);
    // A second items table.
    const again = value(await h.call('catalogue:import-csv', { csv: 'category,colour\nTea,green\ncategory,colour\nCake,pink\n' }));
    expect(again.errors).toEqual([{ line: 3, message: CSV_MESSAGES.sectionTwice(1) }]);
    expect(value(await h.call('catalogue:export-csv'))).toBe(before);
  });

  it('a category named only on an item is made; a spreadsheet’s padded lines read as blank', async () => {
    const padded = 'name,price,sku,category\r\nBagel,2.75,BAG,Breakfast\r\n,,,\r\ncategory,colour,sort_order,\r\nLunch,green,4,\r\n';
    expect(value(await h.call('catalogue:import-csv', { csv: padded }))).toEqual({ imported: 1, added: 1, updated: 0, errors: [] });
    const cats = value(await h.call('catalogue:categories', {}));
    expect(cats.find((c) => c.name === 'Breakfast')).toMatchObject({ colour: 'slate', sortOrder: 0 });
    expect(cats.find((c) => c.name === 'Lunch')).toMatchObject({ colour: 'green', sortOrder: 4 });
  });
});
