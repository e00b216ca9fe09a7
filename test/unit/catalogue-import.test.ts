/**
 * Importing a catalogue CSV again, through the core with a real SQLite file: rows whose SKU
 * is already in the catalogue update that item (the columns the file has; the others keep
 * their value), the rest are added, and the answer says how many of each; a SKU twice in one
 * file refuses the whole file; the manager's form refuses a SKU another item has.
 */
import { describe, expect, it } from 'vitest';
import { CATALOGUE_MESSAGES } from '../../electron/core/catalogue/catalogue';
import { CSV_MESSAGES } from '../../electron/core/catalogue/catalogue-csv';
import { useCoreHarness, value } from '../helpers/core-harness';

const h = useCoreHarness('ringup-catalogue-import-');

const FIRST = `name,price,sku,product_code,unit_code,commodity_code,tax_category,quick_key
Coffee,3.50,COF,COF-1,EA,4410,standard,yes
Beans,12.99,BEA,BEA-1,LBR,4410,exempt,yes
Napkin,0.10,,,EA,,standard,no
`;

describe('importing the catalogue again', () => {
  it('the same file twice: one item per SKU, none doubled', async () => {
    await h.signInAs('Morgan', '1234');
    expect(value(await h.call('catalogue:import-csv', { csv: FIRST }))).toEqual({ imported: 3, added: 3, updated: 0, errors: [] });
    // Napkin has no SKU: it cannot be matched, so it is added again.
    expect(value(await h.call('catalogue:import-csv', { csv: FIRST }))).toEqual({ imported: 3, added: 1, updated: 2, errors: [] });
    const list = value(await h.call('catalogue:list', {}));
    expect(list.filter((i) => i.sku === 'COF')).toHaveLength(1);
    expect(list.filter((i) => i.sku === 'BEA')).toHaveLength(1);
    expect(list.filter((i) => i.name === 'Napkin')).toHaveLength(2);
  });

  it('a price list updates prices by SKU and keeps the columns it does not have', async () => {
    const before = value(await h.call('catalogue:list', {})).find((i) => i.sku === 'COF')!;
    const r = value(await h.call('catalogue:import-csv', { csv: 'sku,name,price\ncof,Coffee (large),3.95\nTEA,Tea,2.50\n' }));
    expect(r).toEqual({ imported: 2, added: 1, updated: 1, errors: [] });
    const coffee = value(await h.call('catalogue:list', {})).filter((i) => i.sku.toUpperCase() === 'COF');
    expect(coffee).toHaveLength(1);
    expect(coffee[0]).toMatchObject({ id: before.id, name: 'Coffee (large)', priceCents: 395, productCode: 'COF-1', commodityCode: '4410', unitCode: 'EA', quickKey: true });
  });

  it('an archived item with that SKU is updated, not doubled (it stays archived)', async () => {
    const beans = value(await h.call('catalogue:list', {})).find((i) => i.sku === 'BEA')!;
    value(await h.call('catalogue:archive', { id: beans.id, archived: true }));
    expect(value(await h.call('catalogue:import-csv', { csv: 'name,price,sku\nBeans,13.49,BEA\n' }))).toEqual({ imported: 1, added: 0, updated: 1, errors: [] });
    const all = value(await h.call('catalogue:list', { includeArchived: true })).filter((i) => i.sku === 'BEA');
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ priceCents: 1_349, archived: true });
  });

  it('a SKU twice in one file refuses the file, naming the second line', async () => {
    const r = value(await h.call('catalogue:import-csv', { csv: 'name,price,sku\nScone,2.25,SCO\nScone again,2.35,sco\n' }));
    expect(r).toEqual({ imported: 0, added: 0, updated: 0, errors: [{ line: 3, message: CSV_MESSAGES.skuTwice('sco', 2) }] });
    expect(value(await h.call('catalogue:list', {})).some((i) => i.sku.toUpperCase() === 'SCO')).toBe(false);
  });

  it("the form refuses a SKU another item has; an item keeps its own", async () => {
    const dup = await h.call('catalogue:add', { name: 'Coffee 2', priceCents: 300, sku: 'COF' });
    expect(dup.ok).toBe(false);
    expect(!dup.ok && dup.error.fields).toEqual({ sku: [CATALOGUE_MESSAGES.skuInUse('COF', 'Coffee (large)')] });
    const coffee = value(await h.call('catalogue:list', {})).find((i) => i.sku === 'COF')!;
    expect(value(await h.call('catalogue:update', { id: coffee.id, fields: { name: 'Coffee', priceCents: 400, sku: 'COF' } })).priceCents).toBe(400);
    const tea = value(await h.call('catalogue:list', {})).find((i) => i.sku === 'TEA')!;
    expect((await h.call('catalogue:update', { id: tea.id, fields: { name: 'Tea', priceCents: 250, sku: 'cof' } })).ok).toBe(false);
  });
});
