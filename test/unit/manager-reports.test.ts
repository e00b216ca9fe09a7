/**
 * X and Z reports against the real engine, reconciled with the engine's own records:
 * the test sums the engine's SQLite rows (approved sales by auth_amount, approved refunds)
 * and compares them with the report, to the cent. A 2.01 sandbox sale counts 1.00; voids
 * and declines count nothing; a Z closes the period and the next report starts after it.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { REPORT_MESSAGES } from '../../electron/core/reports';
import { AUTH_ERRORS } from '../../electron/core/users';
import { useCoreHarness, value } from '../helpers/core-harness';
import type { DayReport } from '../../shared/ipc/contract';

const h = useCoreHarness('ringup-reports-');
const { call, signInAs } = h;
let ref = 0;
async function sell(subtotalCents: number, extra: { tipCents?: number; taxCents?: number; number?: string } = {}) {
  const card = { number: extra.number ?? '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' };
  return value(await call('sale:charge', { subtotalCents, taxCents: extra.taxCents ?? 0, tipCents: extra.tipCents ?? 0, card, clientRef: `report-test-${ref++}` })).transaction;
}

/** The engine's own sums, straight from its SQLite file. */
function engineSums() {
  const db = new Database(join(h.dir, 'gateway', 'gateway.sqlite'), { readonly: true });
  try {
    const sales = db.prepare('SELECT COUNT(*) AS n, COALESCE(SUM(auth_amount), 0) AS c FROM transactions WHERE type_id = 20 AND status_id = 101').get() as { n: number; c: number };
    const refunds = db.prepare('SELECT COUNT(*) AS n, COALESCE(SUM(auth_amount), 0) AS c FROM transactions WHERE type_id = 30 AND status_id IN (101, 111)').get() as { n: number; c: number };
    const voids = db.prepare('SELECT COUNT(*) AS n FROM transactions WHERE status_id = 201').get() as { n: number };
    const declined = db.prepare('SELECT COUNT(*) AS n FROM transactions WHERE status_id = 301').get() as { n: number };
    const docs = db.prepare('SELECT doc FROM transactions WHERE type_id = 20 AND status_id = 101').all() as Array<{ doc: string }>;
    const cents = (v: unknown) => (v == null ? 0 : Math.round(Number(String(v).replace('.', ''))));
    let tips = 0;
    let tax = 0;
    for (const { doc } of docs) {
      const d = JSON.parse(doc) as { tip_amount?: string | null; tax?: string | null };
      tips += cents(d.tip_amount);
      tax += cents(d.tax);
    }
    return { sales, refunds, voids: voids.n, declined: declined.n, tips, tax };
  } finally {
    db.close();
  }
}

function expectReconciled(r: DayReport) {
  const e = engineSums();
  expect(r.totals.sales).toEqual({ count: e.sales.n, cents: e.sales.c });
  expect(r.totals.refunds).toEqual({ count: e.refunds.n, cents: e.refunds.c });
  expect(r.totals.voids.count).toBe(e.voids);
  expect(r.totals.declinedCount).toBe(e.declined);
  expect(r.totals.tipsCents).toBe(e.tips);
  expect(r.totals.taxCents).toBe(e.tax);
  expect(r.totals.netCents).toBe(e.sales.c - e.refunds.c);
  expect(r.byHour.reduce((s, h) => s + h.cents, 0)).toBe(e.sales.c);
  expect(r.totals.byBrand.reduce((s, b) => s + b.sales.cents, 0)).toBe(e.sales.c);
  expect(r.byEmployee.reduce((s, b) => s + b.tipsCents, 0)).toBe(e.tips);
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

    const list = value(await call('reports:z-list'));
    expect(list.map((e) => e.number)).toEqual([3, 2, 1]);
    expect(list[2]).toMatchObject({ netCents: 3933, closedBy: 'Morgan' });
    expect(value(await call('reports:z-view', { number: 1 }))).toEqual(z);
    expect(await call('reports:z-view', { number: 99 })).toEqual({ ok: false, error: { code: 'not_found', message: REPORT_MESSAGES.noSuchZ } });
    expect((await call('reports:print', { paper: '80mm', name: 'z-1' })).ok).toBe(false);
  });
});
