/**
 * The counter's offline path through the core and its IPC (issue 13): a core whose
 * remote gateway sits behind a real TCP gate that stops listening (connection refused)
 * and listens again on the same port. Sales taken during the outage are approved
 * offline under the store's rules, survive a sign-out, a user switch and a restart, and
 * are forwarded by themselves, exactly once, when the gateway answers again.
 */
import { describe, expect, it } from 'vitest';
import { OFFLINE_ERRORS } from '../../electron/core/queue/offline-queue';
import { OFFLINE_APPROVED, OFFLINE_CUSTOMER_NOT_QUEUED } from '../../electron/core/queue/offline-sales';
import { CUSTOMER_CONTACT_ERROR, type QueueStatus, type SaleOutcome } from '../../shared/ipc/contract';
import type { Result } from '../../shared/result';
import { DEFAULT_STORE_SETTINGS, type StoreSettings } from '../../shared/ipc/settings';
import { useGatedEngine } from '../helpers/core-harness';

const card = { number: '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' };
let settings: StoreSettings = { ...DEFAULT_STORE_SETTINGS };

const g = useGatedEngine('ringup-offline-engine-');
let n = 0;
const ref = () => `offline-core-${Date.now().toString(36)}-${n++}`;

/** A counter on `dir` under this file's `settings`, with the queue's pushed status events. */
async function counter(dir: string) {
  const c = await g.openCounter(dir, { settings: () => settings });
  const events: QueueStatus[] = [];
  c.core.events.subscribe((e, payload) => {
    if (e === 'queue:status') events.push(payload as QueueStatus);
  });
  return { ...c, events };
}

/** What the sale screen does once it has shown "Approved offline" (issue 20, point 3): acknowledges the sale, so it may be sent. */
async function shown(c: Awaited<ReturnType<typeof counter>>, r: Result<SaleOutcome>): Promise<void> {
  if (!r.ok) throw new Error(r.error.message);
  expect(await c.call('queue:acknowledge', { id: r.value.transaction.id })).toMatchObject({ ok: true, value: { acknowledged: true } });
}

async function atEngine(apiId: string): Promise<number> {
  return (await g.transactions(`transaction_api_id=${apiId}`)).length;
}

describe('selling through a gateway outage', () => {
  it('approves offline under the rules, keeps the queue across sign-out and restart, and drains it exactly once', async () => {
    const dir = g.tempDir('ringup-offline-counter-');
    let c = await counter(dir);
    await c.signInAs('Casey', '0000');
    const online = await c.call('sale:charge', { subtotalCents: 500, taxCents: 0, tipCents: 0, card, clientRef: ref() });
    expect(online.ok && online.value.transaction.offline).toBeFalsy();

    await g.gate.down();
    // The store's default: card-present only, so a keyed card is refused offline with its own sentence; nothing queued.
    // (The first request after the outage may meet a dead kept-alive connection: "did not answer".)
    const stale = await c.call('sale:charge', { subtotalCents: 1_000, taxCents: 0, tipCents: 0, card, clientRef: ref() });
    expect(!stale.ok && ['offline_refused', 'outcome_unknown']).toContain(!stale.ok && stale.error.code);
    const keyed = await c.call('sale:charge', { subtotalCents: 1_000, taxCents: 0, tipCents: 0, card, clientRef: ref() });
    expect(keyed).toEqual({ ok: false, error: { code: 'offline_refused', message: OFFLINE_ERRORS.keyed } });
    expect(await c.call('queue:status')).toMatchObject({ ok: true, value: { pendingCount: 0 } });

    settings = { ...DEFAULT_STORE_SETTINGS, offlineAllowKeyed: true, offlineApprovalAboveCents: 8_000 };
    const refs = [ref(), ref(), ref()];
    const first = await c.call('sale:charge', { subtotalCents: 1_000, taxCents: 83, tipCents: 150, card, clientRef: refs[0] });
    expect(first.ok && first.value).toMatchObject({ approved: true, message: OFFLINE_APPROVED, transaction: { offline: true, amountCents: 1_233, lastFour: '1111', clerkName: 'Casey' } });
    // The sale screen showed "Approved offline" (issue 20, point 3).
    await shown(c, first);
    // The same sale sent again (a double Enter) is the same queued sale.
    const twice = await c.call('sale:charge', { subtotalCents: 1_000, taxCents: 83, tipCents: 150, card, clientRef: refs[0] });
    expect(twice.ok && twice.value.transaction.id).toBe(first.ok && first.value.transaction.id);
    const over = await c.call('sale:charge', { subtotalCents: 10_001, taxCents: 0, tipCents: 0, card, clientRef: ref() });
    expect(over).toEqual({ ok: false, error: { code: 'offline_refused', message: OFFLINE_ERRORS.overPayment(10_000) } });
    const needsManager = await c.call('sale:charge', { subtotalCents: 9_000, taxCents: 0, tipCents: 0, card, clientRef: ref() });
    expect(needsManager).toEqual({ ok: false, error: { code: 'offline_refused', message: OFFLINE_ERRORS.needsManager(8_000) } });
    const second = await c.call('sale:charge', { subtotalCents: 601, taxCents: 0, tipCents: 0, card, clientRef: refs[1] });
    expect(second.ok).toBe(true);
    await shown(c, second);
    // Queued under the core's own references (their transaction_api_ids once forwarded): the screen's clientRefs are only attempt ids.
    const apiIds = [first, second].map((r) => (r.ok ? r.value.transaction.apiId! : ''));

    expect(await c.call('queue:status')).toMatchObject({ ok: true, value: { pendingCount: 2, pendingCents: 1_834 } });
    expect(c.events.at(-1)).toMatchObject({ pendingCount: 2 });
    expect((await c.call('queue:list')).ok).toBe(false); // managers only

    // A manager rings up the large one; then signs out. Nothing is dropped.
    await c.call('auth:sign-out');
    await c.signInAs('Morgan', '1234');
    const third = await c.call('sale:charge', { subtotalCents: 9_000, taxCents: 0, tipCents: 0, card, clientRef: refs[2] });
    await shown(c, third);
    apiIds.push(third.ok ? third.value.transaction.apiId! : '');
    expect(apiIds.filter((a) => refs.includes(a) || !a)).toEqual([]);
    await c.call('auth:sign-out');
    expect(await c.call('gateway:check')).toMatchObject({ ok: true, value: { health: 'unreachable' } });

    // Restart while the gateway is still away: the queue is on disk.
    await c.core.close();
    c = await counter(dir);
    await c.signInAs('Morgan', '1234');
    const listed = await c.call('queue:list');
    expect(listed.ok && listed.value.items.map((i) => i.state)).toEqual(['pending', 'pending', 'pending']);
    for (const r of apiIds) expect(await atEngine(r)).toBe(0);

    // The gateway answers again: the health probe starts forwarding by itself.
    await g.gate.up();
    await c.call('gateway:check');
    for (let i = 0; i < 100 && !(c.events.at(-1)?.pendingCount === 0 && !c.events.at(-1)?.forwarding); i++) await new Promise((r) => setTimeout(r, 50));
    const after = await c.call('queue:list');
    expect(after.ok && after.value.status).toMatchObject({ pendingCount: 0, problemCount: 1 });
    expect(after.ok && after.value.items.map((i) => i.state)).toEqual(['approved', 'declined', 'approved']);
    for (const r of apiIds) expect(await atEngine(r)).toBe(1);
    // Forwarded sales carry who rang them up, like any other.
    const today = await c.call('transactions:today', { page: 1 });
    const views = today.ok ? today.value.rows : [];
    expect(views.find((v) => v.apiId === apiIds[2])?.clerkName).toBe('Morgan');
    expect(views.find((v) => v.apiId === apiIds[0])?.clerkName).toBe('Casey');
    // The day's report counts them: three taken offline, one declined once forwarded.
    const x = await c.call('reports:x');
    expect(x.ok && x.value).toMatchObject({ offlineCount: 3, declinedAfterForwardCount: 1 });
    await c.core.close();
    settings = { ...DEFAULT_STORE_SETTINGS };
  }, 45_000);

  it("keeps the customer's name and phone or e-mail given at an offline approval, checks them, and lists them for the manager", async () => {
    const dir = g.tempDir('ringup-offline-customer-');
    const c = await counter(dir);
    await c.signInAs('Casey', '0000');
    settings = { ...DEFAULT_STORE_SETTINGS, offlineAllowKeyed: true };
    await g.outage(c);
    let sale = await c.call('sale:charge', { subtotalCents: 700, taxCents: 0, tipCents: 0, card, clientRef: ref() });
    if (!sale.ok) sale = await c.call('sale:charge', { subtotalCents: 700, taxCents: 0, tipCents: 0, card, clientRef: ref() });
    if (!sale.ok) throw new Error(sale.error.message);
    await shown(c, sale);
    const clientRef = sale.value.transaction.apiId!;

    const bad = await c.call('queue:set-customer', { clientRef, name: 'Pat Doe', contact: 'call me maybe' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'bad_request', fields: { contact: [CUSTOMER_CONTACT_ERROR] } } });
    expect(await c.call('queue:set-customer', { clientRef: 'never-queued', name: 'Pat', contact: '' })).toEqual({ ok: false, error: { code: 'not_found', message: OFFLINE_CUSTOMER_NOT_QUEUED } });
    expect(await c.call('queue:set-customer', { clientRef, name: '  Pat Doe ', contact: '(352) 555-0142' })).toMatchObject({ ok: true, value: { customerName: 'Pat Doe', customerContact: '(352) 555-0142' } });
    expect(await c.call('queue:set-customer', { clientRef, name: 'Pat Doe', contact: 'pat@example.com' })).toMatchObject({ ok: true, value: { customerContact: 'pat@example.com' } });

    await c.call('auth:sign-out');
    await c.signInAs('Morgan', '1234');
    const listed = await c.call('queue:list');
    expect(listed.ok && listed.value.items.find((i) => i.clientRef === clientRef)).toMatchObject({ customerName: 'Pat Doe', customerContact: 'pat@example.com', entryMode: 'K', state: 'pending' });
    await g.recovery(c);
    await c.core.close();
    settings = { ...DEFAULT_STORE_SETTINGS };
  }, 30_000);
});
