/**
 * The offline forwarder (issue 13) against a gateway that is not the embedded engine: a
 * stub v2 gateway over real HTTP on port 0 (test/helpers/stub-v2-gateway.ts), with the
 * queue on a real SQLite file. What a remote gateway may do differently: refuse a repeated
 * transaction_api_id with a 422 instead of answering the original; refuse a sale outright;
 * stay away for a while (the backoff); and the order sales reach it in. Also the safe
 * withdrawal of a waiting sale while the forwarder runs (a cart cancelled at the counter).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../electron/client/gateway-client';
import { OfflineForwarder, type ForwarderOptions } from '../../electron/core/queue/offline-forwarder';
import { OfflineQueue, type OfflineRules, type OfflineSaleInput } from '../../electron/core/queue/offline-queue';
import { openPosDatabase, type PosDatabase } from '../../electron/core/platform/pos-database';
import { cardInstrument, REF_COPY, TenderRefs } from '../../electron/core/cart/tender-refs';
import { DEFAULT_STORE_SETTINGS } from '../../shared/ipc/settings';
import { startStubGateway, type StubGateway } from '../helpers/stub-v2-gateway';

const rules: OfflineRules = { ...DEFAULT_STORE_SETTINGS, offlineAllowKeyed: true, offlineTotalCapCents: 10_000_000 };
const dirs: string[] = [];
let db: PosDatabase;
let queue: OfflineQueue;
let gw: StubGateway;
let client: GatewayClient;
const forwarders: OfflineForwarder[] = [];
let n = 0;

function sale(amountCents: number): OfflineSaleInput {
  return {
    clientRef: `fwd-${process.pid}-${n++}`,
    amountCents,
    taxCents: 0,
    tipCents: 0,
    card: { number: '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' },
    clerk: { id: 'u1', name: 'Casey', number: 'u1', role: 'cashier' },
    locationId: null,
    productTransactionId: null,
    collectsRestOf: null,
    keyed: true,
  };
}

function queued(count: number, amountCents = 1_000): string[] {
  return Array.from({ length: count }, (_, i) => {
    const s = sale(amountCents + i);
    const r = queue.enqueue(s, rules);
    if (!r.ok) throw new Error(r.message);
    // Its screen showed "Approved offline" (issue 20, point 3): only then may it be sent.
    queue.acknowledge(s.clientRef);
    return s.clientRef;
  });
}

function forwarder(extra: Partial<ForwarderOptions> = {}): OfflineForwarder {
  const f = new OfflineForwarder({ queue, client, settings: () => rules, ...extra });
  forwarders.push(f);
  return f;
}

async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

beforeEach(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ringup-forwarder-'));
  dirs.push(dir);
  db = openPosDatabase(dir);
  queue = new OfflineQueue(db, randomBytes(32));
  gw = await startStubGateway();
  // The forwarder's client as the app makes it (app-core.ts).
  client = new GatewayClient({ baseUrl: gw.baseUrl, auth: { developerId: 'd', userId: 'u', userApiKey: 'k' }, timeoutMs: 5_000, transport: 'node-http' });
});

afterEach(async () => {
  for (const f of forwarders.splice(0)) {
    f.stop();
    await f.idle();
  }
  await gw.close();
  db.close();
});
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('a gateway that refuses a repeated transaction_api_id with a 4xx', () => {
  it('looks the sale up by its transaction_api_id before calling it refused: the charge it already made is recorded, never collected twice', async () => {
    const [lost, other] = queued(2);
    // The first attempt of `lost` is taken but its answer never arrives; a repeat is answered 422, as a gateway may.
    gw.onSale = ({ apiId, repeat }) =>
      repeat ? { kind: 'error', http: 422, errors: { transaction_api_id: ['Transaction Api Id has already been used.'] } } : apiId === lost ? { kind: 'take-and-lose' } : { kind: 'take' };
    const f = forwarder({ parallelism: 1, baseBackoffMs: 60_000 });
    await f.kick();
    expect(queue.item(lost!)).toMatchObject({ state: 'pending', attempts: 1 });

    await f.kick();
    expect(gw.arrivals.filter((a) => a === lost)).toHaveLength(2);
    expect(queue.item(lost!)).toMatchObject({ state: 'approved', transactionId: gw.kept.get(lost!)!.id, message: 'Approved.' });
    expect(queue.item(other!)).toMatchObject({ state: 'approved' });
    expect(gw.kept.size).toBe(2); // one charge each
  });

  it('keeps the sale waiting when the lookup itself gets no usable answer', async () => {
    const [s] = queued(1);
    gw.onSale = () => ({ kind: 'error', http: 422, errors: { transaction_api_id: ['Transaction Api Id has already been used.'] } });
    gw.lookupFailure = 503;
    await forwarder({ baseBackoffMs: 60_000 }).kick();
    expect(queue.item(s!)).toMatchObject({ state: 'pending', attempts: 1, message: 'The gateway answered HTTP 503. Will try again.' });
  });
});

describe('a gateway that refuses a sale outright (4xx, not found by its transaction_api_id)', () => {
  it('records it as refused with the gateway’s reason, erases its card data, and goes on with the next sales', async () => {
    const [a, refused, c] = queued(3);
    gw.onSale = ({ apiId }) => (apiId === refused ? { kind: 'error', http: 422, errors: { product_transaction_id: ['Product Transaction Id is not active.'] } } : { kind: 'take' });
    const f = forwarder({ parallelism: 1 });
    await f.kick();
    const item = queue.item(refused!)!;
    expect(item).toMatchObject({ state: 'error', transactionId: null, attempts: 1 });
    expect(item.message).toBe('The gateway refused this sale: Product Transaction Id is not active. Collect the money another way.');
    expect(queue.cardOf(item.seq)).toBeNull();
    expect(queue.item(a!)!.state).toBe('approved');
    expect(queue.item(c!)!.state).toBe('approved');
    expect(f.status()).toMatchObject({ pendingCount: 0, problemCount: 1 });
  });
});

describe('an answer that is not the tender its reference was made for (issue 20, point 2)', () => {
  it('is not counted: the sale is an error in words, our charge is voided, and a matching answer still counts', async () => {
    // Each queued sale carries a reference the core made and bound to it (tender-refs.ts), as sale:charge makes them.
    const voided: string[] = [];
    const refs = new TenderRefs({ db, voidCharge: async (id) => voided.push(id) });
    const casey = { user: { id: 'u1', name: 'Casey', role: 'cashier' as const }, signedInAt: 0 };
    const bound = (attempt: string) => {
      const s = sale(1_000);
      const r = refs.refFor(casey, { scope: 'sale', attempt, amountCents: 1_000, tipCents: 0, method: 'cc', action: 'sale', instrument: cardInstrument('4111111111111111', '1230') });
      if (!r.ok) throw new Error(r.error.message);
      const q = queue.enqueue({ ...s, clientRef: r.value }, rules);
      if (!q.ok) throw new Error(q.message);
      queue.acknowledge(r.value);
      return r.value;
    };
    const [wrong, right] = [bound('a'), bound('b')];
    // The gateway (or anything between) answers the first with $1.00 for the $10.00 asked.
    gw.onSale = ({ apiId }) => (apiId === wrong ? { kind: 'take', change: { transaction_amount: '1.00' } } : { kind: 'take' });
    await forwarder({ parallelism: 1, checkAnswer: (s, t) => refs.problemWith(s.clientRef, t) }).kick();

    const item = queue.item(wrong)!;
    expect(item.state).toBe('error');
    expect(item.message).toBe(REF_COPY.mismatch('an amount of $1.00', '$10.00 on the card ending 1111', true));
    expect(voided).toEqual([item.transactionId]);
    expect(queue.item(right)!.state).toBe('approved');
    expect(voided).toHaveLength(1);
  });
});

describe('a decline found after the customer left', () => {
  it('is worded for the manager: why, that nothing was charged, and what to collect', async () => {
    const [s] = queued(1, 601);
    gw.onSale = () => ({ kind: 'take', status: 301 });
    await forwarder().kick();
    expect(queue.item(s!)).toMatchObject({
      state: 'declined',
      message: 'Declined once sent (the issuer said do not honor): the card was not charged. Reach the customer and collect $6.01 another way.',
    });
  });
});

describe('backoff while the gateway stays away', () => {
  it('doubles the wait after each failed run up to the ceiling, and starts again from the base once a run gets through', async () => {
    const [s] = queued(1);
    let refusals = 6;
    gw.onSale = () => (refusals-- > 0 ? { kind: 'error', http: 503, errors: { general: ['Service unavailable.'] } } : { kind: 'take' });
    const waits: number[] = [];
    const f = forwarder({ baseBackoffMs: 5, maxBackoffMs: 40, onBackoff: (w) => waits.push(w) });
    await f.kick();
    // The retries start by themselves (each after its wait) until the seventh attempt gets through.
    await until(() => queue.item(s!)!.state === 'approved', 'the sale to get through');
    expect(waits).toEqual([5, 10, 20, 40, 40, 40]);
    expect(queue.item(s!)!.attempts).toBe(7);

    // Away again: the first wait is the base again.
    queued(1);
    gw.onSale = () => ({ kind: 'error', http: 502, errors: { general: ['Bad gateway.'] } });
    const g = forwarder({ baseBackoffMs: 5, maxBackoffMs: 40, onBackoff: (w) => waits.push(w) });
    await g.kick();
    g.stop();
    expect(waits.at(-1)).toBe(5);
  });
});

describe('the order sales reach the gateway', () => {
  it('one at a time: exactly the order they were queued in', async () => {
    const refs = queued(25);
    await forwarder({ parallelism: 1 }).kick();
    expect(gw.arrivals).toEqual(refs);
  });

  it('four in flight: oldest first, each within the window of sales in flight of its place', async () => {
    const refs = queued(60);
    await forwarder({ parallelism: 4 }).kick();
    expect(new Set(gw.arrivals)).toEqual(new Set(refs));
    expect(gw.arrivals).toHaveLength(60);
    gw.arrivals.forEach((apiId, arrived) => expect(Math.abs(arrived - refs.indexOf(apiId))).toBeLessThan(8));
  });

  it('a sale left waiting by a failed run goes first in the next run, before sales queued after it', async () => {
    const first = queued(2);
    let down = true;
    gw.onSale = () => (down ? { kind: 'error', http: 503, errors: { general: ['Service unavailable.'] } } : { kind: 'take' });
    const f = forwarder({ parallelism: 1, baseBackoffMs: 60_000 });
    await f.kick();
    const later = queued(2, 2_000);
    down = false;
    gw.arrivals.length = 0;
    await f.kick();
    expect(gw.arrivals).toEqual([...first, ...later]);
  });
});

describe('how many sales are in flight', () => {
  /** Holds each answer until `width` are in flight (or a moment passed); answers the most seen at once. */
  function widthProbe(width: number): () => number {
    let inFlight = 0;
    let most = 0;
    let waiting: Array<() => void> = [];
    gw.onSale = async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      if (inFlight >= width) {
        waiting.forEach((w) => w());
        waiting = [];
      } else await new Promise<void>((r) => (waiting.push(r), setTimeout(r, 300)));
      inFlight--;
      return { kind: 'take' };
    };
    return () => most;
  }

  it('a few sales: four at a time; a large backlog (a long outage) drains with up to thirty-two, never more', async () => {
    let most = widthProbe(4);
    queued(20);
    await forwarder().kick();
    expect(most()).toBe(4);

    most = widthProbe(32);
    queued(250);
    await forwarder().kick();
    expect(most()).toBe(32);
    expect(gw.arrivals).toHaveLength(270);
  });
});

describe('withdrawing a waiting sale while the forwarder runs', () => {
  it('a sale not sent yet is withdrawn: its card data is erased and it never reaches the gateway', async () => {
    const [keep, gone] = queued(2);
    const f = forwarder({ parallelism: 1 });
    const w = await f.withdraw(gone!);
    expect(w).toMatchObject({ state: 'withdrawn', clientRef: gone });
    expect(queue.cardOf(w!.seq)).toBeNull();
    expect(f.status()).toMatchObject({ pendingCount: 1 });
    await f.kick();
    expect(gw.arrivals).toEqual([keep]);
    // A second withdrawal answers what it became; an unknown reference answers null.
    expect(await f.withdraw(gone!)).toMatchObject({ state: 'withdrawn' });
    expect(await f.withdraw('never-queued')).toBeNull();
  });

  it('a sale in flight is not withdrawn: the withdrawal waits for the gateway’s answer and returns it (approved, to be voided)', async () => {
    const [flying] = queued(1);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    gw.onSale = async () => {
      await held;
      return { kind: 'take' };
    };
    const f = forwarder();
    const run = f.kick();
    await until(() => gw.arrivals.length === 1, 'the forward to reach the gateway');
    let answered = false;
    const w = f.withdraw(flying!).then((x) => {
      answered = true;
      return x;
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(answered).toBe(false);
    release();
    expect(await w).toMatchObject({ state: 'approved', transactionId: gw.kept.get(flying!)!.id });
    await run;
    expect(queue.item(flying!)).toMatchObject({ state: 'approved' });
  });

  it('a sale answered but not yet committed (group commit) is recorded first, then reported as approved', async () => {
    const [done, held] = queued(2);
    let release!: () => void;
    const wait = new Promise<void>((r) => (release = r));
    gw.onSale = async ({ apiId }) => {
      if (apiId === held) await wait;
      return { kind: 'take' };
    };
    const f = forwarder({ parallelism: 1, commitEvery: 64 });
    const run = f.kick();
    await until(() => gw.arrivals.length === 2, 'the second forward to reach the gateway');
    expect(await f.withdraw(done!)).toMatchObject({ state: 'approved', transactionId: gw.kept.get(done!)!.id });
    release();
    await run;
  });
});
