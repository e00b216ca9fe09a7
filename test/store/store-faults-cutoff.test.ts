/**
 * A register cut off from the store server for a whole day (issue 24, point 6): its traffic to the
 * store is black-holed at a TCP proxy (tcp-proxy.ts `stall`: a dead link, no answer, no refusal),
 * and it goes on selling — 150 steps of trade (cash and card sales, counted items, returns, a stock
 * count) — while the other two registers trade too and a manager changes a price. Its status says
 * away with its changes waiting. Released, it syncs: everything it rang up is at the store exactly
 * once (by id and to the cent), it has the others' stock movements and the new price, and they
 * have its movements: every register holds the same stock ledger as the store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueItem } from '../../shared/ipc/catalogue';
import { storeStatusWords, type StoreStatus } from '../../shared/ipc/store';
import { postgresAvailable } from '../helpers/postgres-server';
import { seededRandom } from '../helpers/seeded-random';
import { compareStockLedgers, compareWithStore, markLedger } from '../helpers/store-ledger';
import { startStoreRig, waitUntil, type RigRegister, type StoreRig } from '../helpers/store-rig';
import { stockedItems, trade } from '../helpers/store-trade';

const SEED = 24_001;
const CUT_OFF_STEPS = 150;

let rig: StoreRig;
let a: RigRegister;
let b: RigRegister;
let c: RigRegister;
let items: CatalogueItem[];

beforeAll(async () => {
  rig = await startStoreRig('faults_cutoff');
  a = await rig.addRegister('Till 1');
  b = await rig.addRegister('Till 2');
  c = await rig.addRegister('Till 3', { proxied: true });
  items = await stockedItems(a, ['Water', 'Crisps', 'Apple', 'Bread'], 500);
  await rig.waitSynced();
}, 180_000);

afterAll(async () => {
  await rig?.close();
});

describe.skipIf(!postgresAvailable)('a register cut off from the store server for a day', () => {
  it('sells alone, says it is away with its changes waiting, and once back everything is at the store once', { timeout: 240_000 }, async () => {
    const rng = seededRandom(SEED);
    const marks = new Map([a, b, c].map((r) => [r, markLedger(r)]));

    c.proxy!.mode = 'stall';
    // The first trade step makes a change to send; the status turns away once a request to the store gets no answer.
    const tallyC = await trade(c, rng, items, 1);
    await waitUntil('the cut-off register says it is away', async () => (await c.status()).connection === 'away', 90_000, 200);

    // A day's trade on the cut-off register; the others trade meanwhile, and a manager changes a price on the first.
    const others = Promise.all([trade(a, seededRandom(SEED + 1), items, 20), trade(b, seededRandom(SEED + 2), items, 20)]);
    await trade(c, rng, items, 74, tallyC);
    // A stocktake on the cut-off register: the count it sets is a movement like any other.
    await c.asManager('catalogue:adjust-stock', { itemId: items[1]!.id, change: { kind: 'count', count: 40 }, reason: 'Stocktake' });
    tallyC.counts++;
    await trade(c, rng, items, CUT_OFF_STEPS - 75, tallyC);
    const [tallyA, tallyB] = await others;
    const repriced = await a.asManager<CatalogueItem>('catalogue:update', { id: items[0]!.id, fields: { ...fieldsOf(items[0]!), priceCents: 199 } });
    expect(repriced.priceCents).toBe(199);

    const away: StoreStatus = await c.status();
    expect(away.connection).toBe('away');
    expect(away.waiting).toBeGreaterThan(CUT_OFF_STEPS);
    expect(storeStatusWords(away)).toBe(`Store: away, ${away.waiting} changes waiting`);
    // Nothing of the cut-off register's day reached the store.
    const atStoreWhileAway = await rig.db.query<{ n: string }>("SELECT count(*) AS n FROM sales WHERE register_id = $1", [c.registerId]);
    expect(Number(atStoreWhileAway.rows[0]!.n)).toBe(0);
    expect(tallyC.sales).toBeGreaterThan(120);
    expect(tallyC.cash).toBeGreaterThan(0);
    expect(tallyC.card).toBeGreaterThan(0);
    expect(tallyC.returns).toBeGreaterThan(0);
    expect(tallyC.counts).toBeGreaterThan(0);

    c.proxy!.mode = 'pass';
    await rig.waitSynced(90_000);
    expect((await c.status()).connection).toBe('connected');

    for (const r of [a, b, c]) {
      const { diffs, trade: t } = await compareWithStore(rig.db, r, marks.get(r)!);
      expect(diffs, r.name).toEqual([]);
      const tally = r === a ? tallyA : r === b ? tallyB : tallyC;
      // Every sale rang up is a cart at the store (returns change a cart, they add none).
      expect(t.carts.size, r.name).toBe(tally.sales);
    }
    expect(await compareStockLedgers(rig.db, [a, b, c])).toEqual([]);
    // The price changed while it was away reached it.
    const onC = await c.asCashier<CatalogueItem[]>('catalogue:list', { search: '' });
    expect(onC.find((i) => i.id === items[0]!.id)?.priceCents).toBe(199);
    // On hand agrees everywhere: the same ledger, summed.
    const stockOf = async (r: RigRegister) => (await r.asCashier<CatalogueItem[]>('catalogue:list', { search: '' })).map((i) => [i.id, i.stock]);
    expect(await stockOf(a)).toEqual(await stockOf(c));
    expect(await stockOf(b)).toEqual(await stockOf(c));
  });
});

function fieldsOf(item: CatalogueItem) {
  return {
    name: item.name,
    priceCents: item.priceCents,
    sku: item.sku,
    productCode: item.productCode,
    unitCode: item.unitCode,
    commodityCode: item.commodityCode,
    taxCategory: item.taxCategory,
    quickKey: item.quickKey,
    categoryId: item.categoryId,
    variants: [],
    modifierGroupIds: item.modifierGroupIds,
    trackStock: item.trackStock,
    reorderLevel: item.reorderLevel,
  };
}
