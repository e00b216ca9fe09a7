/**
 * The store's report from what three registers pushed: per register and in total, to the cent —
 * only paid (or due) carts' approved tenders (a cart's later snapshot replaces the earlier), each
 * card refund once on the register that made it (a cart return on its own register, a refund of
 * another register's sale through the store's shared gateway), cash from the drawer's ledger in
 * and out, nothing outside the period, nothing counted twice when a push is repeated. Then the store's day: closed with the drawers' counts, a
 * `store_day` event for the registers, and the list of who has closed their own Z for it.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { codeProof, makeJoinCode } from '../../electron/common/store-code';
import type { StoreDayView } from '../../shared/ipc/store';
import type { PullAnswer, PushedEvent, StoreFigures } from '../../shared/store/store-wire';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server';
import { startStoreHarness, type StoreHarness } from '../helpers/store-server-harness';
import { asRegister, cartEvent, cashEvent, refundEvent, zEvent, type TestRegister } from '../helpers/store-fixtures';

let pg: PostgresServer;
let store: StoreHarness;
let a: TestRegister;
let b: TestRegister;
let c: TestRegister;

/** A fixed period (unix seconds), nowhere near today: the figures never depend on the clock. */
const FROM = Date.UTC(2031, 4, 6, 6, 0, 0) / 1000;
const TO = FROM + 12 * 3600 - 1;
const at = (minutes: number) => (FROM + minutes * 60) * 1000;

beforeAll(async () => {
  pg = await startPostgres();
  store = await startStoreHarness(pg, 'store_figures_test');
  a = asRegister(await store.join(store.setupCode!, 'Till 1'));
  const add = async (name: string) => {
    const code = makeJoinCode(store.identity.fingerprint);
    await store.http('/v1/invitations', { token: a.token, body: { codeProof: codeProof(code), sealedPepper: null } });
    return asRegister(await store.join(code, name));
  };
  b = await add('Till 2');
  c = await add('Tablet');
});
afterAll(async () => {
  await store?.close();
  pg?.stop();
});

async function push(r: TestRegister, events: PushedEvent[]): Promise<void> {
  const res = await store.http('/v1/events', { token: r.token, body: { events } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const figures = async (query = `?from=${FROM}&to=${TO}`) => {
  const r = await store.http<StoreFigures>(`/v1/figures${query}`, { token: a.token });
  expect(r.status).toBe(200);
  return r.body;
};

test("the store's figures add up to the cent across registers", async () => {
  const aEvents = [
    // Card 10.00 with a 2.00 tip, tax 0.80.
    cartEvent(a, 'a-1', 'paid', at(10), [{ kind: 'card', approved: 1000, tip: 200, tax: 80 }]),
    // Cash 5.50 (tax 0.40), and its drawer movement.
    cartEvent(a, 'a-2', 'paid', at(20), [{ kind: 'cash', approved: 550, tax: 40 }]),
    cashEvent(a, 'a-2', 'sale', 550, at(20)),
    // Card 30.00 (tax 1.20), first as paid...
    cartEvent(a, 'a-3', 'paid', at(30), [{ kind: 'terminal', approved: 3000, tax: 120 }]),
    // A cancelled cart: its card was reversed, nothing counts.
    cartEvent(a, 'a-4', 'cancelled', at(40), [{ kind: 'card', status: 'reversed', approved: 700 }]),
    // A line returned in cash: 2.50 out of the drawer.
    cashEvent(a, 'a-2', 'return', -250, at(50)),
    // Outside the period: neither counts.
    cartEvent(a, 'a-0', 'paid', (FROM - 60) * 1000, [{ kind: 'card', approved: 9999 }]),
    cashEvent(a, 'a-0', 'sale', 4321, (FROM - 60) * 1000),
  ];
  await push(a, aEvents);
  // ... then a line of it returned on Till 1 (10.00 back to the card): the cart's later snapshot
  // (refunded_cents) replaces the earlier and the refund is its own fact; counted once, not twice.
  const aReturn = [cartEvent(a, 'a-3', 'paid', at(30), [{ kind: 'terminal', approved: 3000, refunded: 1000, tax: 120 }]), refundEvent(a, 'rf-a-3', 'tx-a-3-0', 1000, at(35))];
  await push(a, aReturn);
  // A push repeated after a lost answer counts nothing twice; nor does the same refund sent again under a later event id.
  await push(a, [...aEvents.slice(0, 3), ...aReturn]);
  await push(a, [refundEvent(a, 'rf-a-3', 'tx-a-3-0', 1000, at(35))]);
  await push(a, [
    // A cancelled cart whose card had settled is refunded on cancel: the gateway nets sale and refund, and so do the figures (neither counts).
    cartEvent(a, 'a-5', 'cancelled', at(45), [{ kind: 'card', status: 'reversed', approved: 600 }]),
    refundEvent(a, 'rf-a-5', 'tx-a-5-0', 600, at(46)),
  ]);

  await push(b, [
    // Due: one card approved (5.00, tax 0.35), one voided afterwards.
    cartEvent(b, 'b-1', 'due', at(60), [
      { kind: 'saved-card', approved: 500, tax: 35 },
      { kind: 'card', status: 'reversed', approved: 400, tax: 28 },
    ]),
    // Split: card 4.00 (tip 0.50) and cash 8.00.
    cartEvent(b, 'b-2', 'paid', at(70), [
      { kind: 'card', approved: 400, tip: 50, tax: 30 },
      { kind: 'cash', approved: 800, tax: 60 },
    ]),
    cashEvent(b, 'b-2', 'sale', 1200, at(70)),
    cashEvent(b, 'b-2', 'refund', -400, at(71)),
    // Till 2 refunds 3.00 of Till 1's card sale a-1 (one gateway for the store): no cart changes
    // anywhere; the refund is Till 2's, in the period it was made. One made after the period is not in it.
    refundEvent(b, 'rf-b-1', 'tx-a-1-0', 300, at(80)),
    refundEvent(b, 'rf-b-2', 'tx-a-1-0', 100, (TO + 60) * 1000),
  ]);
  // The tablet refunds a sale keyed outside any cart (the Sale screen): its sale is not in the figures, nor is its refund.
  await push(c, [refundEvent(c, 'rf-c-1', 'tx-keyed-elsewhere', 500, at(90))]);

  const f = await figures();
  expect(f.from).toBe(FROM);
  expect(f.to).toBe(TO);
  const by = Object.fromEntries(f.registers.map((r) => [r.name, r]));
  // Till 1 keeps its sales whole (a-1's 12.00 with its tip; a-3's 30.00 less its own 10.00 return).
  expect(by['Till 1']).toMatchObject({ sales: 3, cardCents: 1200 + 3000 - 1000, cashCents: 300, taxCents: 240, tipCents: 200, netCents: 3500, lastZ: null });
  // Till 2 carries the refund it made of Till 1's sale.
  expect(by['Till 2']).toMatchObject({ sales: 2, cardCents: 500 + 450 - 300, cashCents: 800, taxCents: 125, tipCents: 50, netCents: 1450 });
  expect(by['Tablet']).toMatchObject({ sales: 0, cardCents: 0, cashCents: 0, taxCents: 0, tipCents: 0, netCents: 0 });
  expect(f.totals).toEqual({ sales: 5, cardCents: 3850, cashCents: 1100, taxCents: 365, tipCents: 250, netCents: 4950 });
  // The store's card total is what a shared gateway holds for these carts: card sales with their tips, less the refunds of them made in the period.
  const gatewaySales = 1200 + 3000 + 500 + 450;
  const gatewayRefunds = 1000 + 300;
  expect(f.totals.cardCents).toBe(gatewaySales - gatewayRefunds);
  // Each refund is held once, by the register that made it.
  expect((await store.pool.query('SELECT register_id, refund_id, cents FROM refunds ORDER BY refund_id')).rows).toEqual([
    { register_id: a.registerId, refund_id: 'rf-a-3', cents: 1000 },
    { register_id: a.registerId, refund_id: 'rf-a-5', cents: 600 },
    { register_id: b.registerId, refund_id: 'rf-b-1', cents: 300 },
    { register_id: b.registerId, refund_id: 'rf-b-2', cents: 100 },
    { register_id: c.registerId, refund_id: 'rf-c-1', cents: 500 },
  ]);
  // Every total is the sum of the registers' figures.
  for (const k of Object.keys(f.totals) as Array<keyof StoreFigures['totals']>) expect(f.totals[k]).toBe(f.registers.reduce((s, r) => s + r[k], 0));
  expect(f.throughSeq).toBe((await store.pool.query('SELECT MAX(seq)::bigint AS s FROM store_events')).rows[0].s);
});

test("the store's day: every register is told, each closes its own Z for it, and the list says who has not yet", async () => {
  const since = (await store.http<PullAnswer>('/v1/events?after=0', { token: c.token })).body.lastSeq;
  const closed = await store.http<StoreDayView>('/v1/store-days', {
    token: a.token,
    body: {
      counts: [
        { registerId: a.registerId, countedCents: 300 },
        { registerId: b.registerId, countedCents: 790 },
      ],
      closedBy: 'Ann (manager)',
    },
  });
  expect(closed.status).toBe(201);
  expect(closed.body).toMatchObject({ number: 1, closedBy: 'Ann (manager)', closed: [] });
  expect(new Set(closed.body.waitingFor)).toEqual(new Set([a.registerId, b.registerId, c.registerId]));

  // The tablet (uncounted) hears of it as a server event.
  const heard = (await store.http<PullAnswer>(`/v1/events?after=${since}`, { token: c.token })).body.events.filter((e) => e.kind === 'store_day');
  expect(heard).toHaveLength(1);
  expect(heard[0]).toMatchObject({ type: 'server', registerId: null, key: '1', body: { number: 1, closedBy: 'Ann (manager)', counts: closed.body.counts } });

  // Till 1 closes its Z for store day 1 with its count; Till 2 not yet.
  await push(a, [zEvent(a, 7, TO, 300, 300, 1)]);
  const days = await store.http<StoreDayView[]>('/v1/store-days', { token: b.token });
  expect(days.status).toBe(200);
  expect(days.body).toHaveLength(1);
  expect(days.body[0]!.closed).toEqual([a.registerId]);
  expect(new Set(days.body[0]!.waitingFor)).toEqual(new Set([b.registerId, c.registerId]));
  expect((await figures()).registers.find((r) => r.registerId === a.registerId)?.lastZ).toEqual({ number: 7, countedCents: 300, expectedCents: 300, toTs: TO });

  // The store's audit log has the close, with what was counted.
  const audit = await store.pool.query("SELECT amount_cents, detail FROM audit_log WHERE kind = 'store-z'");
  expect(audit.rows).toHaveLength(1);
  expect(audit.rows[0]).toMatchObject({ amount_cents: 1090 });
  expect(audit.rows[0].detail).toContain('“Till 2” 7.90');

  // The next day is number 2, newest first; the figures' default period starts after the last close.
  const second = await store.http<StoreDayView>('/v1/store-days', { token: b.token, body: { counts: [], closedBy: 'Bo' } });
  expect(second.body.number).toBe(2);
  const list = (await store.http<StoreDayView[]>('/v1/store-days', { token: a.token })).body;
  expect(list.map((d) => d.number)).toEqual([2, 1]);
  const sinceClose = await figures('');
  expect(sinceClose.from).toBe(Math.floor((second.body.closedTs + 1) / 1000));
  expect(sinceClose.totals.sales).toBe(0);
});
