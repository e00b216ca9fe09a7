/**
 * A cart paid by card while the gateway could not be reached (issue 13 with the cart of
 * issue 15): the core against a real engine behind a real TCP gate that refuses
 * connections and listens again. Cancel sale withdraws a card payment that still waits in
 * the offline queue, so the card is never charged; once the queue has sent it, the cart's
 * tender carries the gateway's id, so Cancel sale voids it and Return lines refunds it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HandlerResults } from '../../shared/ipc/contract';
import { DEFAULT_STORE_SETTINGS, type StoreSettings } from '../../shared/ipc/settings';
import { useGatedEngine, type OpenCore } from '../helpers/core-harness';

const card = { number: '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' };
const settings: StoreSettings = { ...DEFAULT_STORE_SETTINGS, offlineAllowKeyed: true };

const g = useGatedEngine('ringup-offline-cart-engine-');
let counter: OpenCore;
let n = 0;
const ref = () => `offline-cart-${process.pid}-${Date.now().toString(36)}-${n++}`;
const call: OpenCore['call'] = (channel, arg) => counter.call(channel, arg);

beforeAll(async () => {
  counter = await g.openCounter(g.tempDir('ringup-offline-cart-counter-'), { settings: () => settings });
  await counter.signInAs('Morgan', '1234');
}, 30_000);

afterAll(async () => {
  await counter?.core.close();
});

interface EngineRow {
  id: string;
  transaction_api_id: string | null;
  previous_transaction_id: string | null;
  type_id: number | string;
  status_id: number | string;
  transaction_amount: string;
}

const engineRows = (filter: string) => g.transactions<EngineRow>(filter);

/** The gateway goes away; the counter's health probe sees it (a kept-alive connection may still answer the first request). */
const outage = () => g.outage(counter);

/** The gateway answers again; waits until the queue has sent everything. */
const recovery = () => g.recovery(counter);

/** Pays a card tender; the first request after the outage may meet a dead kept-alive connection, so it is tried with a new reference once. */
async function payOffline(amountCents?: number): Promise<{ cart: HandlerResults['cart:pay-card']; clientRef: string }> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const clientRef = ref();
    const r = await call('cart:pay-card', { card, clientRef, ...(amountCents !== undefined ? { amountCents } : {}) });
    // The queue and the gateway know the tender by the core's own reference (the tender's id), not the screen's attempt id.
    if (!r.ok) continue;
    // The cart showed "Approved offline" (issue 20, point 3): it acknowledges the tender's sale, so it may be sent.
    expect(await call('queue:acknowledge', { id: r.value.tenders.at(-1)!.transactionId! })).toMatchObject({ ok: true, value: { acknowledged: true } });
    return { cart: r.value, clientRef: r.value.tenders.at(-1)!.id };
  }
  throw new Error('no offline approval');
}

describe('a cart paid by card offline', () => {
  it('Cancel sale withdraws the waiting card payment: the cart is cancelled and the engine never holds a charge', async () => {
    await outage();
    expect((await call('cart:add-open', { name: 'Widget', amountCents: 2_000 })).ok).toBe(true);
    const { cart, clientRef } = await payOffline(1_000);
    expect(cart.message).toMatch(/Approved offline/);
    expect(cart.tenders[0]).toMatchObject({ kind: 'card', status: 'approved', approvedCents: 1_000 });
    // No Level 3 is attempted for a payment the gateway has no record of yet (it said "Level 3 not sent: …").
    expect(cart.level3).toEqual([]);

    const cancelled = await call('cart:cancel', { confirmed: true });
    expect(cancelled.ok && cancelled.value.status).toBe('cancelled');
    const listed = await call('queue:list');
    expect(listed.ok && listed.value.items.find((i) => i.clientRef === clientRef)).toMatchObject({ state: 'withdrawn' });
    expect(listed.ok && listed.value.status.pendingCount).toBe(0);

    // The gateway answers again: nothing is sent, nothing is charged.
    await recovery();
    expect(await engineRows(`transaction_api_id=${clientRef}`)).toEqual([]);
  }, 30_000);

  it('once the queue has sent it, Return lines refunds the real sale (not "Object not found.")', async () => {
    await outage();
    const added = await call('cart:add-open', { name: 'Lamp', amountCents: 2_000 });
    if (!added.ok) throw new Error(added.error.message);
    const { cart, clientRef } = await payOffline();
    expect(cart.status).toBe('paid');
    const cartId = cart.id;
    const lineId = cart.lines[0]!.id;

    // Before it is sent, the return says why it cannot be made yet; nothing is marked returned.
    const early = await call('cart:refund-lines', { cartId, lineIds: [lineId] });
    expect(early).toMatchObject({ ok: false, error: { message: expect.stringMatching(/still waits to be sent/) } });

    await recovery();
    const [sale] = (await engineRows(`transaction_api_id=${clientRef}`)).filter((t) => t.transaction_api_id === clientRef);
    expect(sale).toMatchObject({ status_id: 101 });
    const viewed = await call('cart:view', { cartId });
    expect(viewed.ok && viewed.value.tenders[0]!.transactionId).toBe(sale!.id);

    const returned = await call('cart:refund-lines', { cartId, lineIds: [lineId] });
    if (!returned.ok) throw new Error(returned.error.message);
    expect(returned.value.refundedCents).toBe(cart.totals.totalCents);
    const refunds = (await engineRows(`previous_transaction_id=${sale!.id}`)).filter((t) => t.previous_transaction_id === sale!.id);
    expect(refunds.map((r) => [Number(r.type_id), Number(r.status_id), r.transaction_amount])).toEqual([[30, 111, (cart.totals.totalCents / 100).toFixed(2)]]);
  }, 30_000);

  it('once the queue has sent it, Cancel sale voids the real sale', async () => {
    await outage();
    expect((await call('cart:add-open', { name: 'Chair', amountCents: 3_000 })).ok).toBe(true);
    const { clientRef } = await payOffline(1_500);
    await recovery();
    const cancelled = await call('cart:cancel', { confirmed: true });
    expect(cancelled.ok && cancelled.value.status).toBe('cancelled');
    const rows = (await engineRows(`transaction_api_id=${clientRef}`)).filter((t) => t.transaction_api_id === clientRef);
    expect(rows.map((r) => Number(r.status_id))).toEqual([201]); // voided: one sale, no money taken

    // The day's report counts the sales taken offline: the withdrawn one was never a sale.
    const x = await call('reports:x');
    expect(x.ok && x.value.offlineCount).toBe(2);
  }, 30_000);
});
