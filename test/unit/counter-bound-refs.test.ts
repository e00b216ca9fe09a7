/**
 * References are made and bound by the core (issue 20, point 2). Every reference a cashier
 * can see — the transaction id and the transaction_api_id of earlier sales (on receipts and
 * transaction lists), the cart's tender ids and the attempt ids the screens sent — replayed as
 * the new payment's `clientRef`, on every way to pay: the keyed sale, the saved card, the
 * terminal sale, and the cart's card, saved-card and terminal tenders. The new sale or cart is
 * paid only by a new charge, the gateway holds exactly one charge per tender, and returning a
 * line refunds the charge that paid it, never another customer's. An identical retry of the
 * same tender after a lost answer still charges once. Against the embedded engine (which
 * refuses a reused transaction_api_id with another amount, and answers an identical one with
 * the first sale) and against a stub remote gateway that answers any reused
 * transaction_api_id with the first sale: the core itself holds the line. An answer whose
 * amount, card or record is not the tender's is never counted (and voided when it is a charge
 * made for this request). Real core, real engine and real HTTP on port 0; the terminal
 * simulator on a real TCP port.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TerminalSimulator } from '../../electron/devices/sim/terminal-simulator';
import { createDispatcher } from '../../electron/ipc/dispatcher';
import type { CartView, HandlerResults, TransactionView } from '../../shared/ipc/contract';
import type { Result } from '../../shared/result';
import { defaultTimeouts } from '../../shared/payments/terminal-timeouts';
import { HARNESS_ORIGIN, openCore, useCoreHarness, value, type OpenCore } from '../helpers/core-harness';
import { startStubGateway, type StubGateway } from '../helpers/stub-v2-gateway';

const CARD_A = { number: '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' };
const CARD_B = { number: '5454545454545454', expiry: '1230', cvv: '123', zip: '10001' };

/** Everything a cashier has seen so far: transaction ids, transaction_api_ids, tender ids, attempt ids. */
class Seen {
  readonly refs = new Set<string>();
  readonly transactions = new Set<string>();
  /** The attempt ids this window sent: the same tender sent again under one is refused (it was approved already), never answered with that sale. */
  readonly attempts = new Set<string>();
  sale(t: TransactionView, attempt?: string): void {
    this.transactions.add(t.id);
    this.refs.add(t.id);
    if (t.apiId) this.refs.add(t.apiId);
    if (attempt) this.refs.add(attempt);
    if (attempt) this.attempts.add(attempt);
  }
  cart(c: CartView, attempt?: string): void {
    for (const t of c.tenders) {
      this.refs.add(t.id);
      if (t.transactionId) {
        this.refs.add(t.transactionId);
        this.transactions.add(t.transactionId);
      }
    }
    if (attempt) this.refs.add(attempt);
    if (attempt) this.attempts.add(attempt);
  }
  /** A refusal is right only for this window's own attempt sent again for the same tender: no money, and said in words. */
  refused(r: Result<unknown>, ref: string, what: string): boolean {
    if (r.ok) return false;
    expect(r.error.code, `${what} with ${ref}: ${r.error.message}`).toBe('already_answered');
    expect(this.attempts.has(ref), `${what} with ${ref}`).toBe(true);
    expect(r.error.message).toMatch(/approved already \(Ref [A-Z0-9-]+\), so it is not charged again/);
    return true;
  }
  list(): string[] {
    return [...this.refs];
  }
}

/** The cart's one approved card tender, which must be a charge never seen before. */
function newCharge(c: CartView, seen: Seen, what: string): string {
  expect(c.status, what).toBe('paid');
  const card = c.tenders.filter((t) => t.kind !== 'cash' && t.status === 'approved');
  expect(card, what).toHaveLength(1);
  expect(seen.transactions.has(card[0]!.transactionId!), `${what}: paid by an earlier sale`).toBe(false);
  return card[0]!.transactionId!;
}

async function cartOf(call: OpenCore['call'], cents: number): Promise<void> {
  const cur = value(await call('cart:current'));
  if (cur.lines.length > 0) value(await call('cart:clear'));
  value(await call('cart:add-open', { name: 'Item', amountCents: cents, taxCategory: 'exempt' }));
}

describe('on the embedded engine', () => {
  const h = useCoreHarness('ringup-bound-refs-');
  const { call, signInAs } = h;
  const seen = new Seen();
  let sim: TerminalSimulator;
  let savedCardId = '';
  let n = 0;
  const attempt = () => `attempt-${n++}`;
  const saleRows = () => Number(h.engineRow(`SELECT COUNT(*) AS n FROM transactions WHERE json_extract(doc, '$.type_id') = 20`)?.n);

  /** The cart's ways to pay by card, each with what it takes besides the attempt id. */
  const cartWays = () =>
    [
      ['cart:pay-card', { card: CARD_A }],
      ['cart:pay-saved', { methodId: savedCardId }],
      ['cart:pay-terminal', {}],
    ] as const;

  beforeAll(async () => {
    sim = new TerminalSimulator();
    sim.script.stepMs = 5;
    const port = await sim.listenTcp(0);
    await signInAs('Jordan', '2468');
    const { lastRegistrationTs: _ts, ...demo } = value(await call('devices:installer-data')).terminals[0]!;
    value(await call('devices:terminal-save', { ...demo, address: { kind: 'tcp', host: '127.0.0.1', port }, tipPercents: null, timeouts: defaultTimeouts() }));
    await signInAs('Morgan', '1234');
    const pat = value(await call('vault:add-contact', { firstName: 'Pat', lastName: 'Saved', email: '' }));
    savedCardId = value(await call('vault:add-card', { contactId: pat.id, holderName: 'Pat Saved', number: CARD_A.number, expiry: '1230' })).id;
    await signInAs('Casey', '0000');
    // The first customer's sales, one on every way to pay: what a cashier sees of them is what gets replayed.
    const a = attempt();
    seen.sale(value(await call('sale:charge', { subtotalCents: 6_000, taxCents: 0, tipCents: 0, card: CARD_A, clientRef: a })).transaction, a);
    const b = attempt();
    seen.sale(value(await call('vault:charge', { id: savedCardId, subtotalCents: 6_000, taxCents: 0, tipCents: 0, clientRef: b })).transaction, b);
    const c = attempt();
    seen.sale(value(await call('devices:terminal-sale', { subtotalCents: 6_000, taxCents: 0, tipCents: 0, clientRef: c })).transaction, c);
    for (const [channel, extra] of cartWays()) {
      await cartOf(call, 6_000);
      const d = attempt();
      seen.cart(value(await call(channel, { ...extra, clientRef: d })), d);
    }
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('sale:charge, vault:charge and the terminal sale with any seen reference: a new charge each, the earlier sale never answered for it', async () => {
    const refs = seen.list();
    expect(refs.length).toBeGreaterThanOrEqual(12);
    const before = saleRows();
    const made = new Set<string>();
    let refused = 0;
    for (const ref of refs) {
      for (const [what, ask] of [
        ['keyed $60, same card', () => call('sale:charge', { subtotalCents: 6_000, taxCents: 0, tipCents: 0, card: CARD_A, clientRef: ref })],
        ['keyed $99, another card', () => call('sale:charge', { subtotalCents: 9_900, taxCents: 0, tipCents: 0, card: CARD_B, clientRef: ref })],
        ['saved card $60', () => call('vault:charge', { id: savedCardId, subtotalCents: 6_000, taxCents: 0, tipCents: 0, clientRef: ref })],
        ['terminal $60', () => call('devices:terminal-sale', { subtotalCents: 6_000, taxCents: 0, tipCents: 0, clientRef: ref })],
      ] as const) {
        const r = (await ask()) as Result<HandlerResults['sale:charge']>;
        if (seen.refused(r, ref, what)) {
          refused++;
          continue;
        }
        expect(r.ok && r.value.approved, `${what} with ${ref}: ${r.ok ? r.value.message : r.error.message}`).toBe(true);
        const t = value(r).transaction;
        expect(seen.transactions.has(t.id) || made.has(t.id), `${what} with ${ref} answered with an earlier sale`).toBe(false);
        expect(refs.includes(t.apiId ?? ''), `${what} with ${ref} went to the gateway under a reference the cashier saw`).toBe(false);
        if (what === 'keyed $99, another card') expect(t.lastFour).toBe('5454');
        made.add(t.id);
      }
    }
    // Exactly one charge at the gateway per payment asked.
    expect(refused).toBeLessThanOrEqual(3); // the three first sales' own attempts, each for its own tender
    expect(saleRows() - before).toBe(refs.length * 4 - refused);
  });

  it('a new cart paid with any seen reference (card, saved card, terminal) is paid by a new charge; returning its line refunds that charge', async () => {
    const refs = seen.list();
    const before = saleRows();
    const paid: Array<{ cartId: string; lineId: string; transactionId: string; channel: string }> = [];
    for (const ref of refs) {
      for (const [channel, extra] of cartWays()) {
        await cartOf(call, 6_000);
        const r = await call(channel, { ...extra, clientRef: ref });
        expect(r.ok, `${channel} with ${ref}: ${r.ok ? '' : r.error.message}`).toBe(true);
        const c = value(r);
        const id = newCharge(c, seen, `${channel} with ${ref}`);
        if (paid.length < 3 || paid.every((p) => p.channel !== channel)) paid.push({ cartId: c.id, lineId: c.lines[0]!.id, transactionId: id, channel });
        seen.transactions.add(id);
      }
    }
    expect(saleRows() - before).toBe(refs.length * 3);
    // A manager returns each way's line: the refund goes onto the charge that paid that cart.
    await signInAs('Morgan', '1234');
    for (const p of paid) {
      const back = value(await call('cart:refund-lines', { cartId: p.cartId, lineIds: [p.lineId] }));
      expect(back.refundedCents, p.channel).toBe(6_000);
      expect(value(await call('transactions:view', { id: p.transactionId })).refundedCents, p.channel).toBe(6_000);
    }
    await signInAs('Casey', '0000');
    // The first customer's sales gave back nothing.
    for (const id of [...seen.transactions].slice(0, 6)) expect(value(await call('transactions:view', { id })).refundedCents).toBe(0);
  });

  it('an attempt id from another window, or a cart tender id from another cart, is a new tender', async () => {
    const other = createDispatcher(h.core.handlers, { allowedOrigins: [HARNESS_ORIGIN] });
    const win2 = async <C extends keyof HandlerResults>(channel: C, arg?: unknown) =>
      (await other(channel, { url: `${HARNESS_ORIGIN}/`, isMainFrame: true, callerId: 'second-window' }, arg)) as Result<HandlerResults[C]>;
    const user = value(await win2('auth:users')).users.find((u) => u.name === 'Casey')!;
    value(await win2('auth:sign-in', { userId: user.id, pin: '0000' }));
    const a = attempt();
    const first = value(await call('sale:charge', { subtotalCents: 6_000, taxCents: 0, tipCents: 0, card: CARD_A, clientRef: a })).transaction;
    const second = value(await win2('sale:charge', { subtotalCents: 6_000, taxCents: 0, tipCents: 0, card: CARD_A, clientRef: a })).transaction;
    expect(second.id).not.toBe(first.id);
    // The same window, the same attempt, the same card and amount after its approval: refused in words, never charged twice, never answered with that sale.
    const again = await call('sale:charge', { subtotalCents: 6_000, taxCents: 0, tipCents: 0, card: CARD_A, clientRef: a });
    expect(again).toEqual({ ok: false, error: { code: 'already_answered', message: expect.stringContaining(`(Ref ${first.ref})`) as unknown } });
  });
});

describe('on a remote gateway that answers any reused transaction_api_id with its first sale', () => {
  let gw: StubGateway;
  let counter: OpenCore;
  let dir = '';
  const seen = new Seen();
  let n = 0;
  const attempt = () => `remote-attempt-${n++}`;
  const charges = () => gw.kept.size;

  beforeAll(async () => {
    gw = await startStubGateway();
    gw.onSale = ({ repeat }) => (repeat ? { kind: 'original' } : { kind: 'take' });
    dir = mkdtempSync(join(tmpdir(), 'ringup-bound-refs-remote-'));
    counter = await openCore(dir, { gatewayTimeoutMs: 3_000, remote: { baseUrl: gw.baseUrl, auth: { developerId: 'd', userId: 'u', userApiKey: 'k' }, locationId: 'loc-1' } });
    await counter.signInAs('Casey', '0000');
    const a = attempt();
    seen.sale(value(await counter.call('sale:charge', { subtotalCents: 6_000, taxCents: 0, tipCents: 0, card: CARD_A, clientRef: a })).transaction, a);
    await cartOf(counter.call, 6_000);
    const b = attempt();
    seen.cart(value(await counter.call('cart:pay-card', { card: CARD_A, clientRef: b })), b);
  });
  afterAll(async () => {
    await counter?.core.close();
    await gw?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('sale:charge and cart:pay-card with any seen reference: a new charge each, and a returned line refunds the new charge', async () => {
    const refs = seen.list();
    const before = charges();
    let refused = 0;
    for (const ref of refs) {
      for (const [what, card, cents] of [['same card $60', CARD_A, 6_000], ['another card $99', CARD_B, 9_900]] as const) {
        const r = await counter.call('sale:charge', { subtotalCents: cents, taxCents: 0, tipCents: 0, card, clientRef: ref });
        if (seen.refused(r, ref, `keyed ${what}`)) {
          refused++;
          continue;
        }
        const t = value(r).transaction;
        expect(seen.transactions.has(t.id), `keyed ${what} with ${ref} answered with an earlier sale`).toBe(false);
        expect(t.amountCents).toBe(cents);
        seen.transactions.add(t.id);
      }
      await cartOf(counter.call, 6_000);
      const c = value(await counter.call('cart:pay-card', { card: CARD_A, clientRef: ref }));
      const id = newCharge(c, seen, `cart:pay-card with ${ref}`);
      await counter.signInAs('Morgan', '1234');
      value(await counter.call('cart:refund-lines', { cartId: c.id, lineIds: [c.lines[0]!.id] }));
      await counter.signInAs('Casey', '0000');
      expect(gw.refunds.at(-1)).toMatchObject({ previous_transaction_id: id, transaction_amount: '60.00' });
      seen.transactions.add(id);
    }
    expect(refused).toBeLessThanOrEqual(1);
    expect(charges() - before).toBe(refs.length * 3 - refused);
    expect(new Set(gw.arrivals).size).toBe(gw.arrivals.length); // no reference went to the gateway twice
  });

  it('an identical retry of the same tender after a lost answer charges once (keyed sale and cart)', async () => {
    const before = charges();
    const a = attempt();
    gw.lookupFailure = 503;
    gw.onSale = ({ repeat }) => (repeat ? { kind: 'original' } : { kind: 'take-and-lose' });
    const lost = await counter.call('sale:charge', { subtotalCents: 4_200, taxCents: 0, tipCents: 0, card: CARD_A, clientRef: a });
    expect(!lost.ok && lost.error.code).toBe('outcome_unknown');
    gw.lookupFailure = null;
    const retry = value(await counter.call('sale:charge', { subtotalCents: 4_200, taxCents: 0, tipCents: 0, card: CARD_A, clientRef: a }));
    expect(retry).toMatchObject({ approved: true, transaction: { amountCents: 4_200 } });
    expect(charges() - before).toBe(1);
    expect(gw.arrivals.at(-1)).toBe(gw.arrivals.at(-2)); // the retry went under the same reference

    await cartOf(counter.call, 4_300);
    const b = attempt();
    gw.lookupFailure = 503;
    const lostCart = await counter.call('cart:pay-card', { card: CARD_A, clientRef: b });
    expect(!lostCart.ok && lostCart.error.code).toBe('outcome_unknown');
    gw.lookupFailure = null;
    expect(value(await counter.call('cart:pay-card', { card: CARD_A, clientRef: b })).message).toBe('This card payment is still in progress.');
    expect(value(await counter.call('cart:current')).status).toBe('paid');
    expect(charges() - before).toBe(2);
    gw.onSale = ({ repeat }) => (repeat ? { kind: 'original' } : { kind: 'take' });
  });

  it('an answer whose amount, card or record is not the tender asked is not counted; a charge made for it is voided', async () => {
    const cases = [
      ['another amount', { transaction_amount: '1.00', auth_amount: '1.00' }, true],
      ['another card', { last_four: '9999', first_six: '400000' }, true],
      ['another action', { type_id: 30 }, true],
    ] as const;
    for (const [what, change, voids] of cases) {
      gw.onSale = () => ({ kind: 'take', change });
      const r = await counter.call('sale:charge', { subtotalCents: 6_000, taxCents: 0, tipCents: 0, card: CARD_A, clientRef: attempt() });
      expect(!r.ok && r.error.code, what).toBe('answer_mismatch');
      expect(!r.ok && r.error.message, what).toMatch(/not counted/);
      const made = [...gw.kept.values()].at(-1)!;
      expect(gw.voided.includes(made.id), what).toBe(voids);
    }
    // An answer that is an earlier customer's sale: not counted, and that sale is left alone.
    const earlier = [...seen.transactions][0]!;
    gw.onSale = () => ({ kind: 'take', change: { id: earlier } });
    const voidedBefore = gw.voided.length;
    await cartOf(counter.call, 6_000);
    const r = await counter.call('cart:pay-card', { card: CARD_A, clientRef: attempt() });
    expect(!r.ok && r.error.code).toBe('answer_mismatch');
    expect(value(await counter.call('cart:current')).status).toBe('open');
    expect(gw.voided.slice(voidedBefore)).not.toContain(earlier);
    gw.onSale = ({ repeat }) => (repeat ? { kind: 'original' } : { kind: 'take' });
  });
});
