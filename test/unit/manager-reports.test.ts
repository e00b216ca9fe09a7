/**
 * X and Z reports against the real engine, reconciled with the engine's own records:
 * the test sums the engine's SQLite rows (approved sales by auth_amount, approved refunds)
 * and compares them with the report, to the cent. A 2.01 sandbox sale counts 1.00; voids
 * and declines count nothing; a Z closes the period and the next report starts after it.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { REPORT_MESSAGES } from '../../electron/core/reports/reports';
import { AUTH_ERRORS } from '../../electron/core/auth/users';
import { readEngineDatabase, useCoreHarness, value } from '../helpers/core-harness';
import { embeddedClient } from '../helpers/embedded-credentials';
import type { DayReport } from '../../shared/ipc/contract';

const h = useCoreHarness('ringup-reports-');
const { call, signInAs } = h;
let ref = 0;
async function sell(subtotalCents: number, extra: { tipCents?: number; taxCents?: number; number?: string } = {}) {
  const card = { number: extra.number ?? '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' };
  return value(await call('sale:charge', { subtotalCents, taxCents: extra.taxCents ?? 0, tipCents: extra.tipCents ?? 0, card, clientRef: `report-test-${ref++}` })).transaction;
}

/** The engine's admin, as another till or the gateway's own screens would act. */
const engineClient = () => embeddedClient(h.dir);

type Period = { from: number; to: number };
const cents = (v: unknown) => (v == null ? 0 : Math.round(Number(String(v).replace('.', ''))));

/**
 * The engine's own sums for a period, straight from its SQLite file: what was created in
 * it (sales, refunds, voids, declines, pending ACH debits) and the voids it holds of
 * transactions created before it (modified_ts is the void's time: nothing changes a voided row after).
 */
function engineSums(p: Period) {
  return readEngineDatabase(h.dir, (db) => {
    const inPeriod = 'created_ts BETWEEN @from AND @to';
    const sales = db.prepare(`SELECT COUNT(*) AS n, COALESCE(SUM(auth_amount), 0) AS c FROM transactions WHERE type_id = 20 AND status_id = 101 AND ${inPeriod}`).get(p) as { n: number; c: number };
    const refunds = db.prepare(`SELECT COUNT(*) AS n, COALESCE(SUM(auth_amount), 0) AS c FROM transactions WHERE type_id = 30 AND status_id IN (101, 111) AND ${inPeriod}`).get(p) as { n: number; c: number };
    const voids = db.prepare(`SELECT COUNT(*) AS n FROM transactions WHERE status_id = 201 AND ${inPeriod}`).get(p) as { n: number };
    const declined = db.prepare(`SELECT COUNT(*) AS n FROM transactions WHERE status_id = 301 AND ${inPeriod}`).get(p) as { n: number };
    const ach = db.prepare(`SELECT COUNT(*) AS n, COALESCE(SUM(amount), 0) AS c FROM transactions WHERE type_id = 50 AND status_id IN (131, 132, 133) AND ${inPeriod}`).get(p) as { n: number; c: number };
    const earlierVoid = (type: number) =>
      db.prepare('SELECT COUNT(*) AS n, COALESCE(SUM(auth_amount), 0) AS c FROM transactions WHERE status_id = 201 AND type_id = ? AND modified_ts BETWEEN @from AND @to AND created_ts < @from').get(type, p) as { n: number; c: number };
    const docs = db.prepare(`SELECT doc FROM transactions WHERE type_id = 20 AND status_id = 101 AND ${inPeriod}`).all(p) as Array<{ doc: string }>;
    let tips = 0;
    let tax = 0;
    for (const { doc } of docs) {
      const d = JSON.parse(doc) as { tip_amount?: string | null; tax?: string | null };
      tips += cents(d.tip_amount);
      tax += cents(d.tax);
    }
    const voidedDocs = db.prepare('SELECT doc FROM transactions WHERE status_id = 201 AND type_id = 20 AND modified_ts BETWEEN @from AND @to AND created_ts < @from').all(p) as Array<{ doc: string }>;
    const voidedTax = voidedDocs.reduce((a, { doc }) => a + cents((JSON.parse(doc) as { tax?: string | null }).tax), 0);
    return { sales, refunds, voids: voids.n, declined: declined.n, tips, tax, ach, voidedSales: earlierVoid(20), voidedRefunds: earlierVoid(30), voidedTax };
  });
}

/** The app's cash drawer for a period (ringup.db): cash taken and given back, with counts. */
function drawerSums(p: Period) {
  const db = new Database(join(h.dir, 'ringup.db'), { readonly: true });
  try {
    const q = (kinds: string) =>
      db.prepare(`SELECT COUNT(*) AS n, COALESCE(SUM(ABS(cents)), 0) AS c FROM cash_movements WHERE kind IN (${kinds}) AND ts BETWEEN ? AND ?`).get(p.from * 1000, p.to * 1000 + 999) as { n: number; c: number };
    return { sales: q("'sale'"), refunds: q("'refund', 'return'") };
  } finally {
    db.close();
  }
}

/** Card money reconciles with the engine's rows, cash with the drawer's, and the all-tenders lines are their sum. */
function expectReconciled(r: DayReport) {
  const e = engineSums(r);
  const d = drawerSums(r);
  expect(r.totals.sales).toEqual({ count: e.sales.n, cents: e.sales.c });
  expect(r.totals.refunds).toEqual({ count: e.refunds.n, cents: e.refunds.c });
  expect(r.totals.voids.count).toBe(e.voids);
  expect(r.totals.declinedCount).toBe(e.declined);
  expect(r.totals.tipsCents).toBe(e.tips);
  expect(r.totals.taxCents).toBe(e.tax);
  expect(r.totals.netCents).toBe(e.sales.c - e.refunds.c);
  expect(r.totals.byBrand.reduce((s, b) => s + b.sales.cents, 0)).toBe(e.sales.c);
  expect(r.byEmployee.reduce((s, b) => s + b.tipsCents, 0)).toBe(e.tips);
  expect(r.earlier).toMatchObject({ voidedSales: { count: e.voidedSales.n, cents: e.voidedSales.c }, voidedRefunds: { count: e.voidedRefunds.n, cents: e.voidedRefunds.c }, voidedSalesTaxCents: e.voidedTax });
  expect(r.achPending).toEqual({ count: e.ach.n, cents: e.ach.c });
  expect(r.cashTenders).toMatchObject({ sales: { count: d.sales.n, cents: d.sales.c }, refunds: { count: d.refunds.n, cents: d.refunds.c } });
  const all = r.allTenders!;
  expect(all.sales).toEqual({ count: e.sales.n + d.sales.n, cents: e.sales.c + d.sales.c });
  expect(all.refunds).toEqual({ count: e.refunds.n + d.refunds.n, cents: e.refunds.c + d.refunds.c });
  expect(all.netCents).toBe(e.sales.c + d.sales.c - e.refunds.c - d.refunds.c - e.voidedSales.c + e.voidedRefunds.c);
  expect(all.taxCents).toBe(e.tax + r.cashTenders!.taxCents - e.voidedTax);
  expect(r.byHour.reduce((s, h) => s + h.cents, 0)).toBe(e.sales.c + d.sales.c);
}

/** Every closed day plus the day so far add up to what the engine holds now (card) plus the drawer (cash). */
async function expectPeriodsAddUp(x: DayReport) {
  const zs = await Promise.all(value(await call('reports:z-list')).map(async (e) => value(await call('reports:z-view', { number: e.number }))));
  const everything = { from: 0, to: x.to };
  const e = engineSums(everything);
  const d = drawerSums(everything);
  const netOf = (r: DayReport) => r.allTenders?.netCents ?? r.totals.netCents;
  expect(zs.reduce((a, z) => a + netOf(z), netOf(x))).toBe(e.sales.c - e.refunds.c + d.sales.c - d.refunds.c);
}

describe('end-of-day reports', () => {
  it('are for managers only', async () => {
    expect(await call('reports:x')).toEqual({ ok: false, error: { code: 'unauthenticated', message: AUTH_ERRORS.signedOut } });
    await signInAs('Casey', '0000');
    expect(await call('reports:z')).toEqual({ ok: false, error: { code: 'forbidden', message: AUTH_ERRORS.managerOnly } });
  });

  it('X reconciles with the engine to the cent; Z closes the period; two Z at once do not overlap', async () => {
    await signInAs('Morgan', '1234');
    const a = await sell(1000, { tipCents: 150, taxCents: 83 });
    await sell(201); // approves 1.00
    await sell(2500, { number: '5454545454545454', tipCents: 400 });
    await sell(500); // declined
    const v = await sell(700);
    value(await call('transactions:void', { id: v.id }));
    value(await call('transactions:refund', { id: a.id, amountCents: 300 }));

    const x = value(await call('reports:x'));
    expect(x.kind).toBe('x');
    expect(x.number).toBeNull();
    expect(x.totals.sales).toEqual({ count: 3, cents: 1233 + 100 + 2900 });
    expect(x.totals.refunds).toEqual({ count: 1, cents: 300 });
    expect(x.totals.voids).toEqual({ count: 1, cents: 700 });
    expect(x.totals.declinedCount).toBe(1);
    expect(x.totals.tipsCents).toBe(550);
    expect(x.totals.taxCents).toBe(83);
    // Each sale carries its clerk (clerk_number): the report names the user.
    expect(x.byEmployee.map((e) => e.label)).toEqual(['Morgan']);
    expect(x.byHour).toHaveLength(24);
    expectReconciled(x);
    // An X changes nothing: a second one shows the same.
    expect(value(await call('reports:x')).totals).toEqual(x.totals);

    await new Promise((r) => setTimeout(r, 1100)); // the Z ends the second before now: step past the sales' second
    const z = value(await call('reports:z'));
    expect(z).toMatchObject({ kind: 'z', number: 1 });
    expect(z.totals).toEqual(x.totals);
    expectReconciled(z);

    const after = value(await call('reports:x'));
    expect(after.from).toBe(z.to + 1);
    expect(after.totals.sales.count).toBe(0);

    const [z2, z3] = await Promise.all([call('reports:z'), call('reports:z')]);
    const both = [value(z2), value(z3)].sort((p, q) => p.number! - q.number!);
    expect(both.map((r) => r.number)).toEqual([2, 3]);
    expect(both[1]!.from).toBeGreaterThan(both[0]!.to);
    // Each ends before the present: a sale made right after them is in the next period, not in a closed day.
    expect(both[1]!.to).toBeLessThan(Math.floor(Date.now() / 1000));

    const list = value(await call('reports:z-list'));
    expect(list.map((e) => e.number)).toEqual([3, 2, 1]);
    expect(list[2]).toMatchObject({ netCents: 3933, closedBy: 'Morgan' });
    expect(value(await call('reports:z-view', { number: 1 }))).toEqual(z);
    expect(await call('reports:z-view', { number: 99 })).toEqual({ ok: false, error: { code: 'not_found', message: REPORT_MESSAGES.noSuchZ } });
    expect((await call('reports:print', { paper: '80mm', name: 'z-1' })).ok).toBe(false);
  });

  it('a void after the Z counts in the period it happens, says it concerns an earlier sale, and the periods still add up to the engine', async () => {
    await signInAs('Morgan', '1234');
    const closed = await sell(3900, { taxCents: 300 }); // $42.00 with $3.00 tax
    const kept = await sell(1000);
    const refunded = await sell(2000);
    const r1 = value(await call('transactions:refund', { id: refunded.id, amountCents: 500 }));
    await new Promise((r) => setTimeout(r, 1100));
    const z = value(await call('reports:z'));
    expect(z.totals.sales).toEqual({ count: 3, cents: 7200 });
    expectReconciled(z);

    // After the close: the $42.00 sale is voided, $4.00 of the $10.00 sale refunded, and the $5.00 refund voided.
    value(await call('transactions:void', { id: closed.id }));
    value(await call('transactions:refund', { id: kept.id, amountCents: 400 }));
    // The app voids sales only; the gateway also voids a refund (from its own screens, or another till).
    await engineClient().voidTransaction(r1.refund.id);
    const x = value(await call('reports:x'));
    expect(x.totals.sales.count).toBe(0);
    expect(x.totals.refunds).toEqual({ count: 1, cents: 400 });
    expect(x.earlier).toEqual({
      voidedSales: { count: 1, cents: 4200 },
      voidedSalesTaxCents: 300,
      voidedRefunds: { count: 1, cents: 500 },
      refunds: { count: 1, cents: 400 },
    });
    expect(x.allTenders).toMatchObject({ netCents: -4200 + 500 - 400, taxCents: -300 });
    expectReconciled(x);
    await expectPeriodsAddUp(x);
    // The closed day stays as it was printed.
    expect(value(await call('reports:z-view', { number: z.number! })).totals).toEqual(z.totals);
  });

  it('cash is in the sales, net, taxes and hours; ACH debits show as pending; the Z keeps the counted cash and says over or short', async () => {
    await signInAs('Morgan', '1234');
    await new Promise((r) => setTimeout(r, 1100));
    value(await call('reports:z'));
    await new Promise((r) => setTimeout(r, 1100));
    value(await call('catalogue:import-csv', { csv: 'name,price,sku\nCoffee,3.50,COF\nMuffin,2.99,MUF\n' }));
    const items = value(await call('catalogue:list', {}));
    const coffee = items.find((i) => i.sku === 'COF')!;
    const muffin = items.find((i) => i.sku === 'MUF')!;
    // $35.00 + $2.99 = $37.99 before tax; 8.25 % → $3.13 tax: $41.12. $20 cash, the rest by card.
    value(await call('cart:add-item', { itemId: coffee.id, quantity: 10 }));
    const cart = value(await call('cart:add-item', { itemId: muffin.id }));
    const taxCents = cart.totals.taxCents;
    expect(taxCents).toBeGreaterThan(0);
    value(await call('cart:pay-cash', { tenderedCents: 2000 }));
    const paid = value(await call('cart:pay-card', { card: { number: '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' }, clientRef: `report-cart-${ref++}` }));
    expect(paid.status).toBe('paid');
    // An all-cash cart: all of its tax is cash tax.
    const cash2 = value(await call('cart:add-item', { itemId: muffin.id }));
    value(await call('cart:pay-cash', { tenderedCents: 500 }));
    // An ACH debit from a saved bank account: pending at the bank, so in no total, but on the report.
    const pat = value(await call('vault:add-contact', { firstName: 'Pat', lastName: 'Bank', email: '' }));
    const bank = value(await call('vault:add-bank', { contactId: pat.id, holderName: 'Pat Bank', routing: '072000326', account: '123456789', accountType: 'checking', isCompany: false }));
    value(await call('vault:charge', { id: bank.id, subtotalCents: 1500, taxCents: 0, tipCents: 0, clientRef: `report-ach-${ref++}` }));

    const x = value(await call('reports:x'));
    const cardPart = x.totals.sales.cents;
    expect(cardPart).toBe(cart.totals.totalCents - 2000);
    expect(x.cashTenders!.sales).toEqual({ count: 2, cents: 2000 + cash2.totals.totalCents });
    expect(x.allTenders!.sales.cents).toBe(cart.totals.totalCents + cash2.totals.totalCents);
    // The tax collected is the carts' tax, whatever tender paid it.
    expect(x.allTenders!.taxCents).toBe(taxCents + cash2.totals.taxCents);
    expect(x.totals.taxCents + x.cashTenders!.taxCents).toBe(taxCents + cash2.totals.taxCents);
    expect(x.achPending).toEqual({ count: 1, cents: 1500 });
    expectReconciled(x);

    await new Promise((r) => setTimeout(r, 1100));
    const z = value(await call('reports:z', { countedCashCents: 2700, floatCents: 100 }));
    const expected = 100 + z.cash!.expectedCents;
    expect(z.cashCount).toEqual({ floatCents: 100, countedCents: 2700, expectedCents: expected, overShortCents: 2700 - expected });
    expect(value(await call('reports:z-view', { number: z.number! })).cashCount).toEqual(z.cashCount);
    expect(value(await call('reports:z-list'))[0]!.netCents).toBe(z.allTenders!.netCents);
    expect((await call('reports:z', { countedCashCents: -1 })).ok).toBe(false);
    await expectPeriodsAddUp(value(await call('reports:x')));
  });
});
