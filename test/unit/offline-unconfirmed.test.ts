/**
 * The power-cut window of the offline queue (issue 20, point 3): a sale queued offline is
 * sent only once the screen that took it acknowledged it. The counter's core against a real
 * engine behind a real TCP gate (refused while down). A sale whose acknowledgement never came
 * — the app restarted before it, or its window went away — is never forwarded by itself; the
 * next person to sign in is shown it, and chooses: Keep (acknowledged, then forwarded once)
 * or Cancel (withdrawn, never charged, card data erased). Either choice is audited with who
 * chose. Only the window and user that took a sale, or a manager, may acknowledge it; a cart
 * tender paid by a sale cancelled this way makes the cart follow.
 */
import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../electron/ipc/dispatcher';
import { UNCONFIRMED_CANCELLED } from '../../electron/core/queue/offline-queue';
import { UNCONFIRMED_COPY } from '../../electron/core/queue/offline-sales';
import type { HandlerResults, QueueItem, QueueStatus } from '../../shared/ipc/contract';
import { DEFAULT_STORE_SETTINGS } from '../../shared/ipc/settings';
import type { Result } from '../../shared/result';
import { HARNESS_ORIGIN, useGatedEngine, value, type OpenCore } from '../helpers/core-harness';

const card = { number: '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' };
const settings = { ...DEFAULT_STORE_SETTINGS, offlineAllowKeyed: true };
const g = useGatedEngine('ringup-unconfirmed-engine-');
let n = 0;
const ref = () => `unconfirmed-${process.pid}-${n++}`;

const atEngine = async (apiId: string) => (await g.transactions<{ transaction_api_id: string | null; status_id: number | string }>(`transaction_api_id=${apiId}`)).filter((t) => t.transaction_api_id === apiId);

/** Sells offline (the first request after the outage may meet a dead kept-alive connection: tried once more). */
async function sellOffline(c: Pick<OpenCore, 'call'>, subtotalCents: number) {
  for (let i = 0; i < 2; i++) {
    const r = await c.call('sale:charge', { subtotalCents, taxCents: 0, tipCents: 0, card, clientRef: ref() });
    if (r.ok) return r.value.transaction;
  }
  throw new Error('no offline approval');
}

/** Waits until the queue is not forwarding (and at most `pending` sales wait). */
async function forwardingDone(c: Pick<OpenCore, 'call'>, pending: number): Promise<QueueStatus> {
  for (let i = 0; i < 200; i++) {
    const s = value(await c.call('queue:status'));
    if (!s.forwarding && s.pendingCount <= pending) return s;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the queue did not settle');
}

/** A second window on the same core (its own caller, its own sign-in). */
function secondWindow(c: OpenCore, callerId: string): Pick<OpenCore, 'call'> {
  const dispatch = createDispatcher(c.core.handlers, { allowedOrigins: [HARNESS_ORIGIN] });
  return {
    call: async <C extends keyof HandlerResults>(channel: C, arg?: unknown) =>
      (await dispatch(channel, { url: `${HARNESS_ORIGIN}/`, isMainFrame: true, callerId }, arg)) as Result<HandlerResults[C]>,
  };
}

const auditRows = async (c: Pick<OpenCore, 'call'>) => value(await c.call('audit:list', { page: 1, kind: 'offline-unconfirmed' })).rows;

describe('a sale queued offline whose screen never said "Approved offline"', () => {
  it('is not sent after a restart; the next sign-in is shown it: Keep forwards it once, Cancel never charges it; both audited', async () => {
    const dir = g.tempDir('ringup-unconfirmed-counter-');
    let c = await g.openCounter(dir, { settings: () => settings });
    await c.signInAs('Casey', '0000');
    await g.outage(c);
    // Two sales queued whose screens never showed them (the power went), one that was shown and acknowledged.
    const kept = await sellOffline(c, 1_250);
    const cancelled = await sellOffline(c, 875);
    const shown = await sellOffline(c, 400);
    expect(value(await c.call('queue:acknowledge', { id: shown.id }))).toMatchObject({ acknowledged: true });
    // Within the grace of this run their screens may still show them: nobody is asked yet.
    expect(value(await c.call('queue:unconfirmed'))).toEqual([]);

    // The app restarts; the gateway answers again. Only the acknowledged sale is sent.
    await c.core.close();
    await g.gate.up();
    c = await g.openCounter(dir, { settings: () => settings });
    await c.signInAs('Morgan', '1234');
    await c.call('gateway:check');
    expect(await forwardingDone(c, 2)).toMatchObject({ pendingCount: 2 });
    expect(await atEngine(shown.apiId!)).toHaveLength(1);
    expect(await atEngine(kept.apiId!)).toEqual([]);
    expect(await atEngine(cancelled.apiId!)).toEqual([]);

    // The next sign-in is shown both, in words: amount, who rang it up, when.
    const listed = value(await c.call('queue:unconfirmed'));
    expect(listed.map((i: QueueItem) => [i.clientRef, i.amountCents, i.clerkName, i.acknowledged])).toEqual([
      [kept.apiId, 1_250, 'Casey', false],
      [cancelled.apiId, 875, 'Casey', false],
    ]);
    expect(value(await c.call('queue:list')).items.find((i) => i.clientRef === kept.apiId)).toMatchObject({ state: 'pending', acknowledged: false });

    // Keep: acknowledged and forwarded, exactly once.
    expect(value(await c.call('queue:resolve-unconfirmed', { clientRef: kept.apiId, choice: 'keep' })).message).toBe(UNCONFIRMED_COPY.kept('$12.50'));
    // Cancel: withdrawn, card data erased, never sent.
    const out = value(await c.call('queue:resolve-unconfirmed', { clientRef: cancelled.apiId, choice: 'cancel' }));
    expect(out).toMatchObject({ message: UNCONFIRMED_COPY.cancelled('$8.75'), item: { state: 'withdrawn', message: UNCONFIRMED_CANCELLED } });
    expect(await forwardingDone(c, 0)).toMatchObject({ pendingCount: 0 });
    expect((await atEngine(kept.apiId!)).map((t) => Number(t.status_id))).toEqual([101]);
    expect(await atEngine(cancelled.apiId!)).toEqual([]);
    expect(value(await c.call('queue:unconfirmed'))).toEqual([]);
    // A choice made twice (another counter, a double click): keep answers the same, cancel of a kept one is refused in words.
    expect(await c.call('queue:resolve-unconfirmed', { clientRef: kept.apiId, choice: 'cancel' })).toMatchObject({ ok: false, error: { code: 'conflict', message: UNCONFIRMED_COPY.confirmedMeanwhile } });
    expect(await c.call('queue:resolve-unconfirmed', { clientRef: cancelled.apiId, choice: 'keep' })).toMatchObject({ ok: false, error: { code: 'conflict', message: UNCONFIRMED_COPY.notListed } });

    // Audited with who chose.
    const audit = await auditRows(c);
    expect(audit.map((r) => [r.userName, r.amountCents, r.detail.split(' — ')[0]])).toEqual([
      ['Morgan', 875, 'cancelled: never charged'],
      ['Morgan', 1_250, 'kept: the customer was told; sent when the gateway answers'],
    ]);
    expect(audit[0]!.detail).toMatch(/queued offline by Casey, the screen never said it was approved/);
    await c.core.close();
  }, 45_000);

  it('only the window and user that took it, or a manager, acknowledges it; a late acknowledgement wins over a cancel', async () => {
    const dir = g.tempDir('ringup-unconfirmed-owner-');
    const c = await g.openCounter(dir, { settings: () => settings, offlineAckGraceSeconds: 0 });
    await c.signInAs('Casey', '0000');
    await g.outage(c);
    const sale = await sellOffline(c, 990);
    const other = secondWindow(c, 'window-2');
    const users = value(await other.call('auth:users')).users;
    value(await other.call('auth:sign-in', { userId: users.find((u) => u.name === 'Casey')!.id, pin: '0000' }));
    // The same cashier in another window did not show it: refused in words.
    expect(await other.call('queue:acknowledge', { id: sale.id })).toEqual({ ok: false, error: { code: 'forbidden', message: UNCONFIRMED_COPY.notYours } });
    // Not an offline sale's id: not found.
    expect(await c.call('queue:acknowledge', { id: sale.apiId! })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    // Past the grace (0 here), any counter user is shown it: the window that took it acknowledges late, and that wins.
    expect(value(await other.call('queue:unconfirmed')).map((i) => i.clientRef)).toEqual([sale.apiId]);
    expect(value(await c.call('queue:acknowledge', { id: sale.id }))).toMatchObject({ acknowledged: true, state: 'pending' });
    expect(await other.call('queue:resolve-unconfirmed', { clientRef: sale.apiId, choice: 'cancel' })).toEqual({ ok: false, error: { code: 'conflict', message: UNCONFIRMED_COPY.confirmedMeanwhile } });
    // A manager may acknowledge any.
    const second = await sellOffline(c, 560);
    value(await other.call('auth:sign-out'));
    value(await other.call('auth:sign-in', { userId: users.find((u) => u.name === 'Morgan')!.id, pin: '1234' }));
    expect(value(await other.call('queue:acknowledge', { id: second.id }))).toMatchObject({ acknowledged: true });
    expect(await auditRows(other)).toEqual([]);
    await g.recovery(c);
    await c.core.close();
  }, 30_000);

  it('a cart card payment cancelled at sign-in: never charged, and the cart takes the amount as owed again', async () => {
    const dir = g.tempDir('ringup-unconfirmed-cart-');
    const c = await g.openCounter(dir, { settings: () => settings, offlineAckGraceSeconds: 0 });
    await c.signInAs('Casey', '0000');
    await g.outage(c);
    value(await c.call('cart:add-open', { name: 'Kettle', amountCents: 3_000 }));
    let paid: HandlerResults['cart:pay-card'] | undefined;
    for (let i = 0; i < 2 && !paid; i++) {
      const r = await c.call('cart:pay-card', { card, clientRef: ref(), amountCents: 1_000 });
      if (r.ok) paid = r.value;
    }
    const tender = paid!.tenders.at(-1)!;
    expect(tender).toMatchObject({ status: 'approved', approvedCents: 1_000 });
    // The cart's screen never showed it: the next person is shown it, and cancels.
    expect(value(await c.call('queue:unconfirmed')).map((i) => i.clientRef)).toEqual([tender.id]);
    value(await c.call('queue:resolve-unconfirmed', { clientRef: tender.id, choice: 'cancel' }));
    const cart = value(await c.call('cart:current'));
    expect(cart.tenders.find((t) => t.id === tender.id)).toMatchObject({ status: 'reversed' });
    expect(cart.balanceCents).toBe(cart.totals.totalCents);
    await g.recovery(c);
    expect(await atEngine(tender.id)).toEqual([]);
    await c.core.close();
  }, 30_000);
});
