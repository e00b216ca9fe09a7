/**
 * Stock follows the money (issue 23, point 6), through the core with a real SQLite file and
 * the embedded engine: counted items come off when a sale is paid in full (the variant a line
 * was sold as, or the item), go back when lines are returned, never move on a declined card or
 * a cancelled sale that took nothing; two counters selling the last one both sell, the count
 * goes to −1 and the second is told; a line that takes the count below zero is warned once per
 * item per cart. A manager's count or delta is audited; the low-stock list; stock is the sum of
 * a ledger. A paid sale cancelled (which the tender machine refuses today: a return is the
 * way) is checked on the cart store directly.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CartStore } from '../../electron/core/cart/cart-store';
import { Catalogue } from '../../electron/core/catalogue/catalogue';
import { stockWarningText } from '../../electron/core/catalogue/stock-follows-sales';
import { STOCK_MESSAGES } from '../../electron/core/catalogue/stock-ledger';
import { openPosDatabase } from '../../electron/core/platform/pos-database';
import type { CatalogueItem } from '../../shared/ipc/catalogue';
import { clearCart, useCoreHarness, value } from '../helpers/core-harness';

const h = useCoreHarness('ringup-catalogue-stock-');
let n = 0;
const ref = () => `stock-test-${n++}`;
const card = { number: '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' };

let water: CatalogueItem;
let latte: CatalogueItem;
let sandwich: CatalogueItem;

const stockOf = async (id: string, variant?: string) => {
  const it = value(await h.call('catalogue:list', {})).find((i) => i.id === id)!;
  return variant ? it.variants.find((v) => v.name === variant)!.stock : it.stock;
};

async function count(item: CatalogueItem, n: number, variant?: string) {
  const variantId = variant ? item.variants.find((v) => v.name === variant)!.id : null;
  return value(await h.call('catalogue:adjust-stock', { itemId: item.id, variantId, change: { kind: 'count', count: n }, reason: 'stocktake' }));
}

describe('stock follows the money', () => {
  it('a manager counts and adjusts: refused in plain words where it cannot apply, audited where it does', async () => {
    await h.signInAs('Morgan', '1234');
    water = value(await h.call('catalogue:add', { name: 'Water 500 ml', priceCents: 200, sku: 'WAT', taxCategory: 'exempt', trackStock: true, reorderLevel: 2 }));
    latte = value(
      await h.call('catalogue:add', {
        name: 'Latte',
        priceCents: 400,
        taxCategory: 'exempt',
        trackStock: true,
        reorderLevel: 3,
        variants: [
          { name: 'Small', priceCents: 350, sku: 'LAT-S' },
          { name: 'Large', priceCents: 450, sku: 'LAT-L' },
        ],
      }),
    );
    sandwich = value(await h.call('catalogue:add', { name: 'Sandwich', priceCents: 500, taxCategory: 'exempt', trackStock: true }));
    const muffin = value(await h.call('catalogue:add', { name: 'Muffin', priceCents: 300 }));

    expect(await count(water, 5)).toMatchObject({ name: 'Water 500 ml', before: 0, after: 5 });
    expect(value(await h.call('catalogue:adjust-stock', { itemId: water.id, change: { kind: 'delta', delta: -1 }, reason: 'breakage' }))).toMatchObject({ before: 5, after: 4 });
    expect(await count(latte, 10, 'Large')).toMatchObject({ name: 'Latte Large', after: 10 });
    await count(latte, 6, 'Small');
    await count(sandwich, 3);

    const notCounted = await h.call('catalogue:adjust-stock', { itemId: muffin.id, change: { kind: 'count', count: 4 }, reason: 'stocktake' });
    expect(!notCounted.ok && notCounted.error.message).toBe(STOCK_MESSAGES.notCounted('Muffin'));
    const noVariant = await h.call('catalogue:adjust-stock', { itemId: latte.id, change: { kind: 'count', count: 4 }, reason: 'stocktake' });
    expect(!noVariant.ok && noVariant.error.message).toBe(STOCK_MESSAGES.chooseVariant('Latte', 'Small, Large'));
    const noReason = await h.call('catalogue:adjust-stock', { itemId: water.id, change: { kind: 'delta', delta: 2 }, reason: ' ' });
    expect(noReason.ok).toBe(false);

    const audit = value(await h.call('audit:list', { kind: 'stock-count', page: 1 }));
    expect(audit.rows.map((r) => r.detail)).toEqual(
      expect.arrayContaining(['Water 500 ml: counted 0 → 5 (stocktake)', 'Water 500 ml: changed 5 → 4 (breakage)', 'Latte Large: counted 0 → 10 (stocktake)']),
    );
    expect(audit.rows).toHaveLength(5);
    expect(await stockOf(water.id)).toBe(4);
    expect(await stockOf(muffin.id)).toBeNull();
  });

  it('a sale paid in full takes the item and the variant sold; a return gives them back, once', async () => {
    await clearCart(h);
    value(await h.call('cart:add-item', { itemId: water.id, quantity: 2 }));
    // A Latte Large, as the counter's picker adds it (cart-lines.ts checks the choice).
    value(await h.call('cart:add-item', { itemId: latte.id, choice: { variantId: latte.variants.find((v) => v.name === 'Large')!.id, optionIds: [] } }));
    // Part paid: nothing moves yet.
    const part = value(await h.call('cart:pay-cash', { tenderedCents: 100, amountCents: 100 }));
    expect(part.status).toBe('open');
    expect(await stockOf(water.id)).toBe(4);
    const paid = value(await h.call('cart:pay-cash', { tenderedCents: 10_000 }));
    expect(paid.status).toBe('paid');
    expect(paid.stockWarning).toBeNull();
    expect(await stockOf(water.id)).toBe(2);
    expect(await stockOf(latte.id, 'Large')).toBe(9);
    expect(await stockOf(latte.id, 'Small')).toBe(6);

    const latteLine = paid.lines.find((l) => l.itemId === latte.id)!;
    expect(latteLine.choice).toMatchObject({ variantName: 'Large' });
    value(await h.call('cart:refund-lines', { cartId: paid.id, lineIds: [latteLine.id] }));
    expect(await stockOf(latte.id, 'Large')).toBe(10);
    expect((await h.call('cart:refund-lines', { cartId: paid.id, lineIds: [latteLine.id] })).ok).toBe(false);
    expect(await stockOf(latte.id, 'Large')).toBe(10);
    expect(await stockOf(water.id)).toBe(2);
  });

  it('a declined card moves nothing; the cash that then pays it does', async () => {
    await clearCart(h);
    value(await h.call('cart:add-item', { itemId: sandwich.id }));
    // $5.00 is the sandbox's deny.
    const declined = value(await h.call('cart:pay-card', { card, clientRef: ref() }));
    expect(declined.status).toBe('open');
    expect(declined.tenders.map((t) => t.status)).toEqual(['declined']);
    expect(await stockOf(sandwich.id)).toBe(3);
    value(await h.call('cart:pay-cash', { tenderedCents: 500 }));
    expect(await stockOf(sandwich.id)).toBe(2);
  });

  it('a cancelled sale that took nothing gives nothing back', async () => {
    await clearCart(h);
    value(await h.call('cart:add-item', { itemId: sandwich.id }));
    value(await h.call('cart:pay-cash', { tenderedCents: 200, amountCents: 200 }));
    const cancelled = value(await h.call('cart:cancel', { confirmed: true }));
    expect(cancelled.status).toBe('cancelled');
    expect(await stockOf(sandwich.id)).toBe(2);
  });

  it('a line past zero is warned once per item per cart; selling goes on', async () => {
    await clearCart(h);
    await count(water, 1);
    const one = value(await h.call('cart:add-item', { itemId: water.id }));
    expect(one.stockWarning).toBeNull();
    const two = value(await h.call('cart:add-item', { itemId: water.id }));
    expect(two.stockWarning).toBe(stockWarningText('Water 500 ml', 1, -1));
    expect(two.stockWarning).toBe('Only 1 Water 500 ml left in stock: the count goes to \u22121.');
    // Once: a third is not warned again, nor is paying.
    expect(value(await h.call('cart:add-item', { itemId: water.id })).stockWarning).toBeNull();
    const paid = value(await h.call('cart:pay-cash', { tenderedCents: 1_000 }));
    expect(paid.stockWarning).toBeNull();
    expect(await stockOf(water.id)).toBe(-2);
  });

  it('two counters race for the last one: both sell, the count goes to −1, the second is told', async () => {
    await count(water, 1);
    await h.signInAs('Morgan', '1234');
    await clearCart(h);
    expect(value(await h.call('cart:add-item', { itemId: water.id })).stockWarning).toBeNull();
    await h.signInAs('Casey', '0000');
    await clearCart(h);
    expect(value(await h.call('cart:add-item', { itemId: water.id })).stockWarning).toBeNull();
    await h.signInAs('Morgan', '1234');
    expect(value(await h.call('cart:pay-cash', { tenderedCents: 200 })).stockWarning).toBeNull();
    await h.signInAs('Casey', '0000');
    const second = value(await h.call('cart:pay-cash', { tenderedCents: 200 }));
    expect(second.status).toBe('paid');
    expect(second.stockWarning).toBe('Only 0 Water 500 ml left in stock: the count goes to \u22121.');
    await h.signInAs('Morgan', '1234');
    expect(await stockOf(water.id)).toBe(-1);
  });

  it('the low-stock list: counted items and variants at or under their reorder level, the emptiest first', async () => {
    const low = value(await h.call('catalogue:low-stock'));
    expect(low.map((l) => [l.name, l.stock, l.reorderLevel])).toEqual([['Water 500 ml', -1, 2]]);
    await count(latte, 3, 'Small');
    expect(value(await h.call('catalogue:low-stock')).map((l) => [l.name, l.stock])).toEqual([
      ['Water 500 ml', -1],
      ['Latte Small', 3],
    ]);
  });

  it('stock is the sum of the ledger: every change is a row, none is overwritten', async () => {
    const db = new Database(join(h.dir, 'ringup.db'), { readonly: true });
    try {
      const rows = db.prepare('SELECT reason, delta, cart_id FROM stock_movements WHERE item_id = ? ORDER BY seq').all(water.id) as Array<{ reason: string; delta: number; cart_id: string | null }>;
      expect(rows.reduce((a, r) => a + r.delta, 0)).toBe(-1);
      expect(rows.map((r) => r.reason)).toEqual(['count', 'adjust', 'sale', 'count', 'sale', 'count', 'sale', 'sale']);
    } finally {
      db.close();
    }
  });
});

describe('a paid sale cancelled', () => {
  it('gives back what it took, net of what was returned (the cart store on its own)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ringup-stock-cancel-'));
    const db = openPosDatabase(dir);
    try {
      db.prepare(`INSERT INTO pos_users (id, name, role, pin_hash, created_ts) VALUES ('u1', 'Morgan', 'manager', 'x', 0)`).run();
      const catalogue = new Catalogue(db, () => 1);
      const item = catalogue.add({ ...baseFields, name: 'Scone', priceCents: 300, trackStock: true });
      catalogue.stock.record({ itemId: item.id, variantId: null, delta: 5, reason: 'count' });
      const store = new CartStore(db, () => 0, () => 1);
      const cartId = store.openCartOf('u1');
      store.addItem(cartId, item, 2);
      const state = store.tenderState(cartId);
      store.saveTenderState(cartId, { ...state, status: 'paid' });
      expect(catalogue.stock.onHand(item.id, null)).toBe(3);
      // Paid twice (a due cart collected): taken once.
      store.saveTenderState(cartId, { ...state, status: 'due' });
      store.saveTenderState(cartId, { ...state, status: 'paid' });
      expect(catalogue.stock.onHand(item.id, null)).toBe(3);
      store.saveTenderState(cartId, { ...state, status: 'cancelled' });
      expect(catalogue.stock.onHand(item.id, null)).toBe(5);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const baseFields = {
  name: '',
  priceCents: 1,
  sku: '',
  productCode: '',
  unitCode: 'EA',
  commodityCode: '',
  taxCategory: 'standard' as const,
  quickKey: false,
  categoryId: null,
  variants: [],
  modifierGroupIds: [],
  trackStock: false,
  reorderLevel: 0,
};
