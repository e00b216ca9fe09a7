/**
 * The catalogue and the cart through the core, against the real engine and real SQLite:
 * CSV import all-or-nothing, a three-item sale with a discount paid $20 cash + card, a
 * partial approval then cash, Level 3 from a corporate card's cart (read back from the
 * engine), a line refund split across tenders, double submit, cancel, discount approval,
 * and the cart surviving a restart.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayClient } from '../../electron/client/gateway-client';
import { CART_MESSAGES } from '../../electron/core/cart/cart-store';
import { TENDER_COPY } from '../../electron/core/cart/tenders';
import { TENDER_MESSAGES } from '../../shared/cart/tender-machine';
import type { CatalogueItem } from '../../shared/ipc/catalogue';
import { openCore, value, type OpenCore } from '../helpers/core-harness';
import { embeddedClient } from '../helpers/embedded-credentials';

const card = (number = '4111111111111111') => ({ number, expiry: '1230', cvv: '999', zip: '32606' });
let n = 0;
const ref = () => `cart-test-${Date.now().toString(36)}-${n++}`;

let dir: string;
let h: OpenCore;
let engine: GatewayClient;
let items: Record<string, CatalogueItem>;

const CSV_GOOD = `name,price,sku,product_code,unit_code,commodity_code,tax_category,quick_key
Coffee,3.50,COF,COF-1,EA,4410,standard,yes
Muffin,2.99,MUF,MUF-1,EA,4410,standard,yes
"Beans, 1 lb",12.99,BEA,BEA-1,LBR,4410,exempt,yes
Small thing,1.86,SMA,SMA-1,EA,4410,standard,no
`;

/** The engine's admin, to check what the gateway itself recorded (its port changes on restart). */
const engineClient = () => embeddedClient(dir);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ringup-cart-'));
  h = await openCore(dir);
  engine = engineClient();
});
afterAll(async () => {
  await h?.core.close();
  rmSync(dir, { recursive: true, force: true });
});

async function newCart(...names: string[]) {
  const cur = value(await h.call('cart:current'));
  if (cur.lines.length > 0 && cur.status === 'open') value(await h.call('cart:clear'));
  for (const nm of names) value(await h.call('cart:add-item', { itemId: items[nm]!.id }));
  return value(await h.call('cart:current'));
}

describe('catalogue', () => {
  it('a CSV with two bad rows imports nothing and names both lines; a good one imports whole', async () => {
    await h.signInAs('Morgan', '1234');
    const bad = `name,price,unit_code,tax_category\nTea,2.50,EA,standard\nScone,two dollars,EA,standard\nJam,4.00,XX!,standard\nHoney,5.25,EA,exempt\n`;
    const r = value(await h.call('catalogue:import-csv', { csv: bad }));
    expect(r.imported).toBe(0);
    expect(r.errors.map((e) => e.line)).toEqual([3, 4]);
    expect(r.errors[0]!.message).toMatch(/price is a dollar amount/);
    expect(r.errors[1]!.message).toMatch(/unit of measure/);
    expect(value(await h.call('catalogue:list', {}))).toHaveLength(0);

    expect(value(await h.call('catalogue:import-csv', { csv: CSV_GOOD }))).toEqual({ imported: 4, added: 4, updated: 0, errors: [] });
    const list = value(await h.call('catalogue:list', {}));
    items = Object.fromEntries(list.map((i) => [i.sku, i]));
    expect(items.BEA).toMatchObject({ name: 'Beans, 1 lb', priceCents: 1_299, unitCode: 'LBR', taxCategory: 'exempt', quickKey: true });
    expect(value(await h.call('catalogue:list', { search: 'muf' })).map((i) => i.sku)).toEqual(['MUF']);
  });

  it('managers add, edit and archive; cashiers only list', async () => {
    const added = value(await h.call('catalogue:add', { name: 'Gift wrap', priceCents: 150 }));
    expect(added).toMatchObject({ unitCode: 'EA', taxCategory: 'standard', archived: false });
    expect(value(await h.call('catalogue:update', { id: added.id, fields: { name: 'Gift wrap', priceCents: 175 } })).priceCents).toBe(175);
    value(await h.call('catalogue:archive', { id: added.id, archived: true }));
    expect(value(await h.call('catalogue:list', {})).some((i) => i.id === added.id)).toBe(false);
    expect((await h.call('catalogue:add', { name: '', priceCents: 0 })).ok).toBe(false);
    await h.signInAs('Casey', '0000');
    expect((await h.call('catalogue:add', { name: 'X', priceCents: 100 })).ok).toBe(false);
    expect(value(await h.call('catalogue:list', {})).length).toBe(4);
    expect((await h.call('cart:add-item', { itemId: added.id })).ok).toBe(false); // archived
    await h.signInAs('Morgan', '1234');
  });
});

describe('cart and tenders', () => {
  it('three items with a 10 % discount: $20 cash, the rest on a card, then a line refund', async () => {
    const cart = await newCart('COF', 'MUF', 'BEA');
    value(await h.call('cart:set-quantity', { lineId: cart.lines[0]!.id, quantity: 2 }));
    const withDiscount = value(await h.call('cart:set-cart-discount', { discount: { kind: 'percent', basisPoints: 1_000 } }));
    // 700 + 299 + 1299 = 2298; −230 (229.8) = 2068; tax 8.25 % of standard 630 + 269 = 899 → 74.17 → 74
    expect(withDiscount.totals).toMatchObject({ grossCents: 2_298, cartDiscountCents: 230, subtotalCents: 2_068, taxCents: 74, totalCents: 2_142 });
    expect(withDiscount.totals.lines.map((l) => l.cartDiscountShareCents)).toEqual([70, 30, 130]);
    const afterCash = value(await h.call('cart:pay-cash', { tenderedCents: 2_000 }));
    expect(afterCash).toMatchObject({ balanceCents: 142, status: 'open', changeCents: 0 });
    expect((await h.call('cart:add-item', { itemId: items.COF!.id })).ok).toBe(false); // locked once money is taken
    const paid = value(await h.call('cart:pay-card', { card: card(), clientRef: ref() }));
    expect(paid).toMatchObject({ status: 'paid', balanceCents: 0 });
    const cardTender = paid.tenders.find((t) => t.kind === 'card')!;
    expect(cardTender).toMatchObject({ approvedCents: 142, status: 'approved' });
    const atEngine = await engine.getTransaction(cardTender.transactionId!);
    expect(atEngine.transaction_amount).toBe('1.42');

    // Return the beans (1299 − 130 of the discount = 1169, exempt): 1169 over 2000 cash / 142 card → 1092 cash, 77 card
    const beans = paid.lines.find((l) => l.name === 'Beans, 1 lb')!;
    const back = value(await h.call('cart:refund-lines', { cartId: paid.id, lineIds: [beans.id] }));
    expect(back).toMatchObject({ refundedCents: 1_169, cashBackCents: 1_092 });
    expect(back.cart.lines.find((l) => l.id === beans.id)!.refunded).toBe(true);
    expect(back.cart.tenders.find((t) => t.kind === 'card')!.refundedCents).toBe(77);
    const refunds = await engine.listTransactions({ previous_transaction_id: cardTender.transactionId! }, 1, 10);
    expect(refunds.items.map((t) => t.transaction_amount)).toEqual(['0.77']);
    expect((await h.call('cart:refund-lines', { cartId: paid.id, lineIds: [beans.id] })).ok).toBe(false); // not twice
  });

  it('two returns of the same line at once give it back once', async () => {
    await newCart('COF', 'MUF');
    const paid = value(await h.call('cart:pay-card', { card: card(), clientRef: ref() }));
    expect(paid.status).toBe('paid');
    const coffee = paid.lines.find((l) => l.name === 'Coffee')!;
    const [a, b] = await Promise.all([h.call('cart:refund-lines', { cartId: paid.id, lineIds: [coffee.id] }), h.call('cart:refund-lines', { cartId: paid.id, lineIds: [coffee.id] })]);
    expect([a.ok, b.ok].sort()).toEqual([false, true]);
    const refused = a.ok ? b : a;
    expect(!refused.ok && refused.error.message).toBe(TENDER_COPY.nothingToRefund);
    const refunds = await engine.listTransactions({ previous_transaction_id: paid.tenders[0]!.transactionId! }, 1, 10);
    expect(refunds.items.map((t) => t.transaction_amount)).toEqual(['3.79']); // 3.50 + 0.29 tax share
  });

  it('a saved card pays part of a cart and cash the rest', async () => {
    const pat = value(await h.call('vault:add-contact', { firstName: 'Pat', lastName: 'Doe', email: 'pat@example.com' }));
    const saved = value(await h.call('vault:add-card', { contactId: pat.id, holderName: 'Pat Doe', number: '4111111111111111', expiry: '1230' }));
    await newCart('BEA'); // 12.99, exempt
    const part = value(await h.call('cart:pay-saved', { methodId: saved.id, amountCents: 999, clientRef: ref() }));
    expect(part).toMatchObject({ status: 'open', balanceCents: 300 });
    expect(part.tenders[0]).toMatchObject({ kind: 'saved-card', approvedCents: 999 });
    expect((await engine.getTransaction(part.tenders[0]!.transactionId!)).transaction_amount).toBe('9.99');
    expect(value(await h.call('cart:pay-cash', { tenderedCents: 300 }))).toMatchObject({ status: 'paid', changeCents: 0 });
  });

  it('$20 cash on a smaller total gives the change and opens the drawer', async () => {
    await newCart('COF', 'MUF');
    const drawer: unknown[] = [];
    const off = h.core.events.subscribe((event, payload) => event === 'drawer:open' && drawer.push(payload));
    const v = value(await h.call('cart:pay-cash', { tenderedCents: 2_000 }));
    off();
    expect(drawer).toEqual([{ cartId: v.id, reason: 'cash-sale' }]);
    // 649 + tax 53.5 → 54 = 703; change 1297
    expect(v).toMatchObject({ status: 'paid', changeCents: 1_297 });
    expect(v.tenders[0]).toMatchObject({ approvedCents: 703, tenderedCents: 2_000 });
  });

  it('a partial approval leaves the rest as balance, collected in cash', async () => {
    await newCart('SMA'); // 1.86 + 0.15 tax = 2.01: the sandbox approves 1.00
    const v = value(await h.call('cart:pay-card', { card: card(), clientRef: ref() }));
    expect(v.message).toMatch(/Only \$1\.00 of \$2\.01 was approved\. \$1\.01 remains/);
    expect(v).toMatchObject({ status: 'open', balanceCents: 101 });
    const done = value(await h.call('cart:pay-cash', { tenderedCents: 500 }));
    expect(done).toMatchObject({ status: 'paid', changeCents: 399 });
  });

  it("a keyed sale's partial approval becomes a cart whose rest is paid in cash", async () => {
    const sale = value(await h.call('sale:charge', { subtotalCents: 201, taxCents: 0, tipCents: 0, card: card(), clientRef: ref() }));
    expect(sale.transaction).toMatchObject({ partial: true, amountCents: 100 });
    const cart = value(await h.call('cart:adopt-partial', { transactionId: sale.transaction.id }));
    expect(cart).toMatchObject({ status: 'open', balanceCents: 101 });
    expect(cart.totals.totalCents).toBe(201);
    expect((await h.call('cart:adopt-partial', { transactionId: sale.transaction.id })).ok).toBe(false); // only once
    expect(value(await h.call('cart:pay-cash', { tenderedCents: 200 }))).toMatchObject({ status: 'paid', changeCents: 99 });
  });

  it('refuses over-tender by card and a second submit while one is pending', async () => {
    await newCart('COF');
    const over = await h.call('cart:pay-card', { card: card(), amountCents: 10_000, clientRef: ref() });
    expect(over.ok).toBe(false);
    const [a, b] = await Promise.all([h.call('cart:pay-card', { card: card(), clientRef: ref() }), h.call('cart:pay-card', { card: card(), clientRef: ref() })]);
    expect([a.ok, b.ok].sort()).toEqual([false, true]);
    const refused = a.ok ? b : a;
    expect(!refused.ok && refused.error.message).toBe(TENDER_MESSAGES.pending);
    expect(value(await h.call('cart:current')).status).toBe('open'); // the paid cart closed; a new one is open
  });

  it('Level 3 from a corporate card cart: the engine returns the cart lines', async () => {
    await newCart('COF', 'MUF');
    value(await h.call('cart:set-quantity', { lineId: value(await h.call('cart:current')).lines[0]!.id, quantity: 3 }));
    const v = value(await h.call('cart:pay-card', { card: card('4005562231212149'), clientRef: ref() }));
    expect(v.status).toBe('paid');
    expect(v.level3[0]).toMatchObject({ sent: true });
    const t = await engine.getTransactionExpanded(v.tenders[0]!.transactionId!, ['transaction_level3']);
    const l3 = (t.transaction_level3 as { level3_data: { line_items: Array<Record<string, unknown>> } }).level3_data;
    expect(l3.line_items.map((l) => [l.description, l.product_code, l.unit_code, Number(l.unit_cost), Number(l.quantity)])).toEqual([
      ['Coffee', 'COF-1', 'EA', 3.5, 3],
      ['Muffin', 'MUF-1', 'EA', 2.99, 1],
    ]);
    // A personal card sends nothing and says nothing
    await newCart('COF');
    expect(value(await h.call('cart:pay-card', { card: card(), clientRef: ref() })).level3).toEqual([]);
  });

  it('a discount above the limit needs a manager PIN when a cashier gives it', async () => {
    expect(value(await h.call('catalogue:set-rules', { discountApprovalPercent: 25 }))).toEqual({ discountApprovalPercent: 25, defaultCommodityCode: '' });
    value(await h.call('catalogue:set-rules', { discountApprovalPercent: 20 }));
    await h.signInAs('Casey', '0000');
    expect((await h.call('catalogue:set-rules', { discountApprovalPercent: 90 })).ok).toBe(false);
    const cart = await newCart('COF');
    const big = { kind: 'percent' as const, basisPoints: 3_000 };
    const r = await h.call('cart:set-line-discount', { lineId: cart.lines[0]!.id, discount: big });
    expect(!r.ok && r.error.message).toBe(TENDER_COPY.approvalNeeded(20));
    expect(value(await h.call('cart:current')).lines[0]!.discount).toBeNull(); // not half-applied
    const morgan = value(await h.call('auth:users')).users.find((u) => u.name === 'Morgan')!;
    const wrong = await h.call('cart:set-line-discount', { lineId: cart.lines[0]!.id, discount: big, approval: { managerId: morgan.id, pin: '9999' } });
    expect(!wrong.ok && wrong.error.message).toBe(TENDER_COPY.approvalRefused);
    const okd = value(await h.call('cart:set-line-discount', { lineId: cart.lines[0]!.id, discount: big, approval: { managerId: morgan.id, pin: '1234' } }));
    expect(okd).toMatchObject({ discountApprovedBy: 'Morgan' });
    expect(okd.totals.lineDiscountCents).toBe(105);
    value(await h.call('cart:set-line-discount', { lineId: cart.lines[0]!.id, discount: { kind: 'percent', basisPoints: 1_000 } }));
  });

  it('the cart survives a restart; cancelling a split sale voids its card tender', async () => {
    await h.signInAs('Morgan', '1234');
    const before = await newCart('COF', 'BEA');
    await h.core.close();
    h = await openCore(dir);
    engine = engineClient();
    await h.signInAs('Morgan', '1234');
    const after = value(await h.call('cart:current'));
    expect(after.id).toBe(before.id);
    expect(after.lines.map((l) => l.name)).toEqual(['Coffee', 'Beans, 1 lb']);

    value(await h.call('cart:pay-cash', { tenderedCents: 500 }));
    const part = value(await h.call('cart:pay-card', { card: card(), amountCents: 700, clientRef: ref() }));
    const txn = part.tenders.find((t) => t.kind === 'card')!.transactionId!;
    const clear = await h.call('cart:clear');
    expect(!clear.ok && clear.error.message).toBe(CART_MESSAGES.locked);
    const cancelled = value(await h.call('cart:cancel', { confirmed: true }));
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.tenders.every((t) => t.status === 'reversed')).toBe(true);
    expect(Number((await engine.getTransaction(txn)).status_id)).toBe(201);
    const fresh = value(await h.call('cart:current'));
    expect(fresh.id).not.toBe(before.id);
    expect(fresh.lines).toEqual([]);
  });

  it('the end-of-day report shows the expected cash: cash taken less cash given back', async () => {
    // In: 20.00 (split sale) + 3.00 (after the saved card) + 7.03 + 1.01 + 1.01 (after the two partials) + 5.00 (the cancelled sale);
    // out: 10.92 (returned beans) + 5.00 (cancelled)
    const x = value(await h.call('reports:x'));
    expect(x.cash).toEqual({ salesCents: 3_705, refundsCents: 1_592, expectedCents: 2_113 });
  });
  it('the X and Z reports list items sold and discounts given, summed from the paid carts', async () => {
    // A Z ends the second before it is taken: let the last sale's second pass so X and Z cover the same carts.
    await new Promise((r) => setTimeout(r, 1_100));
    const x = value(await h.call('reports:x'));
    const db = new Database(join(dir, 'ringup.db'), { readonly: true });
    const paid = (db.prepare(`SELECT id FROM carts WHERE status = 'paid'`).all() as Array<{ id: string }>).map((r) => r.id);
    const cancelled = (db.prepare(`SELECT COUNT(*) AS n FROM carts WHERE status = 'cancelled'`).get() as { n: number }).n;
    db.close();
    expect(cancelled).toBeGreaterThan(0); // the cancelled sale's lines are not sold
    const want = new Map<string, { quantity: number; cents: number }>();
    let discounts = 0;
    for (const id of paid) {
      const v = value(await h.call('cart:view', { cartId: id }));
      discounts += v.totals.lineDiscountCents + v.totals.cartDiscountCents;
      v.lines.forEach((l, i) => {
        const w = want.get(l.name) ?? { quantity: 0, cents: 0 };
        want.set(l.name, { quantity: w.quantity + l.quantity, cents: w.cents + v.totals.lines[i]!.netCents });
      });
    }
    expect(x.cartSales!.carts).toBe(paid.length);
    expect(new Map(x.cartSales!.items.map((r) => [r.name, { quantity: r.quantity, cents: r.cents }]))).toEqual(want);
    expect(x.cartSales!.discountsCents).toBe(discounts);
    // The three-item sale gave 10 % off (2.30): the day's discounts include it, and Coffee sold in several sales is one row.
    expect(discounts).toBeGreaterThanOrEqual(230);
    expect(x.cartSales!.items.filter((r) => r.name === 'Coffee')).toHaveLength(1);
    // A Z closes the period with the same figures (stored with it); the next period starts empty.
    const z = value(await h.call('reports:z'));
    expect(z.cartSales).toEqual(x.cartSales);
    expect(value(await h.call('reports:z-view', { number: z.number! })).cartSales).toEqual(x.cartSales);
    expect(value(await h.call('reports:x')).cartSales).toEqual({ carts: 0, items: [], modifiers: [], discountsCents: 0 });
  });
});
