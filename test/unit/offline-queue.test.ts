/**
 * The offline store-and-forward queue (issue 13) on real SQLite files, forwarding to a
 * real engine over HTTP on port 0: durability settings, encryption and erasure of card
 * data, the store's rules, expiry, forwarding in order with results, and a repeated
 * forward answered with the original (no second charge).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../electron/client/gateway-client';
import { OfflineForwarder } from '../../electron/core/queue/offline-forwarder';
import { OFFLINE_ERRORS, OfflineQueue, type OfflineRules, type OfflineSaleInput } from '../../electron/core/queue/offline-queue';
import { openPosDatabase, type PosDatabase } from '../../electron/core/platform/pos-database';
import { startEngine, type RunningEngine } from '../../electron/gateway/engine';
import type { QueueStatus } from '../../shared/ipc/contract';
import { DEFAULT_STORE_SETTINGS } from '../../shared/ipc/settings';

const CARD = '4111111111111111';
const rules: OfflineRules = { ...DEFAULT_STORE_SETTINGS, offlineAllowKeyed: true };
const dirs: string[] = [];
const dbs: PosDatabase[] = [];
let n = 0;

function freshDb(): { db: PosDatabase; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ringup-offline-'));
  dirs.push(dir);
  const db = openPosDatabase(dir);
  dbs.push(db);
  return { db, dir };
}

function sale(amountCents: number, extra: Partial<OfflineSaleInput> = {}): OfflineSaleInput {
  return {
    clientRef: `offline-test-${process.pid}-${n++}`,
    amountCents,
    taxCents: 0,
    tipCents: 0,
    card: { number: CARD, expiry: '1230', cvv: '999', zip: '32606' },
    clerk: { id: 'u1', name: 'Casey', number: 'u1', role: 'cashier' },
    locationId: null,
    productTransactionId: null,
    collectsRestOf: null,
    keyed: true,
    ...extra,
  };
}

/** Every byte of the database's files (main file and WAL), to look for card data. */
function rawFiles(dir: string): Buffer {
  return Buffer.concat(readdirSync(dir).filter((f) => f.startsWith('ringup.db')).map((f) => readFileSync(join(dir, f))));
}

afterEach(() => {
  for (const db of dbs.splice(0)) if (db.open) db.close();
});
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('the queue on disk', () => {
  it('commits with synchronous = FULL and keeps a queued sale across a reopen', () => {
    const { db, dir } = freshDb();
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    const q = new OfflineQueue(db, randomBytes(32));
    const r = q.enqueue(sale(2_500), rules);
    expect(r.ok && r.item).toMatchObject({ amountCents: 2_500, state: 'pending', cardBrand: 'Visa', lastFour: '1111', clerkName: 'Casey' });
    db.close();
    const again = openPosDatabase(dir);
    dbs.push(again);
    const list = new OfflineQueue(again, randomBytes(32)).list();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ amountCents: 2_500, state: 'pending' });
  });

  it('stores card data only encrypted, reads it back with the key, and erases it once recorded', () => {
    const { db, dir } = freshDb();
    const key = randomBytes(32);
    const q = new OfflineQueue(db, key);
    const r = q.enqueue(sale(1_000), rules);
    if (!r.ok) throw new Error(r.message);
    expect(rawFiles(dir).includes(Buffer.from(CARD))).toBe(false);
    expect(rawFiles(dir).includes(Buffer.from('"cvv"'))).toBe(false);
    expect(q.cardOf(r.item.seq)).toEqual({ number: CARD, expiry: '1230', cvv: '999', zip: '32606' });
    // Another key cannot read it (GCM authenticates).
    expect(() => new OfflineQueue(db, randomBytes(32)).cardOf(r.item.seq)).toThrow();
    q.recordResults([{ seq: r.item.seq, state: 'approved', message: 'Approved.', transactionId: 't1' }]);
    expect(q.cardOf(r.item.seq)).toBeNull();
    expect((db.prepare('SELECT card_blob FROM offline_queue WHERE seq = ?').get(r.item.seq) as { card_blob: unknown }).card_blob).toBeNull();
    expect(q.item(r.item.clientRef)).toMatchObject({ state: 'approved', transactionId: 't1' });
    // A blob is sealed for its own sale's reference: copied onto another row, it does not open.
    const other = q.enqueue(sale(1_100), rules);
    const third = q.enqueue(sale(1_200), rules);
    if (!other.ok || !third.ok) throw new Error('not queued');
    db.prepare('UPDATE offline_queue SET card_blob = (SELECT card_blob FROM offline_queue WHERE seq = ?) WHERE seq = ?').run(other.item.seq, third.item.seq);
    expect(() => q.cardOf(third.item.seq)).toThrow();
  });

  it('queues the same clientRef once: a repeated request answers the same item', () => {
    const { db } = freshDb();
    const q = new OfflineQueue(db, randomBytes(32));
    const s = sale(700);
    const a = q.enqueue(s, rules);
    const b = q.enqueue(s, rules);
    expect(a.ok && b.ok && a.item.seq === b.item.seq).toBe(true);
    expect(b.ok && b.fresh).toBe(false);
    expect(q.list()).toHaveLength(1);
  });
});

describe("the store's offline rules", () => {
  it('refuses keyed cards unless allowed, above the per-sale cap, above the total cap, and above the approval threshold without a manager', () => {
    const { db } = freshDb();
    const q = new OfflineQueue(db, randomBytes(32));
    expect(q.enqueue(sale(1_000), DEFAULT_STORE_SETTINGS)).toEqual({ ok: false, message: OFFLINE_ERRORS.keyed });
    expect(q.enqueue(sale(10_001), rules)).toEqual({ ok: false, message: OFFLINE_ERRORS.overPayment(10_000) });
    expect(OFFLINE_ERRORS.overPayment(10_000)).toContain('at most $100.00');
    for (let i = 0; i < 10; i++) expect(q.enqueue(sale(9_500), rules).ok).toBe(true);
    expect(q.enqueue(sale(5_001), rules)).toEqual({ ok: false, message: OFFLINE_ERRORS.overTotal(95_000, 100_000) });
    expect(OFFLINE_ERRORS.overTotal(95_000, 100_000)).toContain('$950.00 is waiting, and the limit is $1,000.00');
    expect(q.enqueue(sale(5_000), rules).ok).toBe(true); // exactly at the total cap
    expect(q.status(rules)).toMatchObject({ pendingCount: 11, pendingCents: 100_000 });

    const { db: db2 } = freshDb();
    const q2 = new OfflineQueue(db2, randomBytes(32));
    const approval = { ...rules, offlineApprovalAboveCents: 5_000 };
    expect(q2.enqueue(sale(5_001), approval)).toEqual({ ok: false, message: OFFLINE_ERRORS.needsManager(5_000) });
    expect(q2.enqueue(sale(5_001, { clerk: { id: 'm', name: 'Morgan', number: 'm', role: 'manager' } }), approval).ok).toBe(true);
    expect(q2.enqueue(sale(5_000), approval).ok).toBe(true);
  });

  it('alerts before the expiry window passes, then expires the sale unsent and erases its card data', () => {
    const { db } = freshDb();
    let now = Date.UTC(2026, 10, 24, 9);
    const q = new OfflineQueue(db, randomBytes(32), { now: () => now });
    const r = q.enqueue(sale(1_200), rules);
    if (!r.ok) throw new Error(r.message);
    expect(r.item.expiresTs - r.item.queuedTs).toBe(72 * 3600);
    expect(q.status(rules).expiringSoonCount).toBe(0);
    now += 49 * 3600_000; // 23 h left: inside the 24 h alert window
    expect(q.status(rules)).toMatchObject({ expiringSoonCount: 1, pendingCount: 1, nextExpiryTs: r.item.expiresTs });
    expect(q.expireDue()).toBe(0);
    now += 23 * 3600_000;
    expect(q.expireDue()).toBe(1);
    expect(q.item(r.item.clientRef)).toMatchObject({ state: 'expired' });
    expect(q.cardOf(r.item.seq)).toBeNull();
    expect(q.due(10)).toHaveLength(0);
    expect(q.status(rules)).toMatchObject({ pendingCount: 0, problemCount: 1 });
  });
});

describe('forwarding to a real engine', () => {
  let engine: RunningEngine;
  let client: GatewayClient;
  let engineDir: string;

  beforeAll(async () => {
    engineDir = mkdtempSync(join(tmpdir(), 'ringup-offline-engine-'));
    dirs.push(engineDir);
    engine = await startEngine({ dataDir: engineDir, port: 0 });
    const c = engine.credentials;
    client = new GatewayClient({ baseUrl: c.base_url, auth: { developerId: c.developer_id, userId: c.user_id, userApiKey: c.user_api_key }, timeoutMs: 5_000 });
  });
  afterAll(async () => engine?.close());

  const atEngine = async (apiId: string) => (await client.listTransactions({ transaction_api_id: apiId }, 1, 50)).items.filter((t) => t.transaction_api_id === apiId);

  it('forwards in order, records approved and declined, erases card data, and a repeated forward returns the original', async () => {
    const { db } = freshDb();
    const q = new OfflineQueue(db, randomBytes(32));
    const loc = engine.credentials.location_id;
    const sales = [sale(1_000, { locationId: loc }), sale(601, { locationId: loc }), sale(2_345, { locationId: loc, taxCents: 145, tipCents: 200 })];
    for (const s of sales) expect(q.enqueue(s, rules).ok && q.acknowledge(s.clientRef)?.acknowledged).toBe(true);
    const forwarded: string[] = [];
    const statuses: QueueStatus[] = [];
    const f = new OfflineForwarder({ queue: q, client, settings: () => rules, parallelism: 2, onForwarded: (s) => forwarded.push(s.clientRef), onStatus: (st) => statuses.push(st) });
    await f.kick();
    expect(q.list().map((i) => i.state).reverse()).toEqual(['approved', 'declined', 'approved']);
    expect(forwarded.sort()).toEqual(sales.map((s) => s.clientRef).sort());
    // Pushed while it runs: forwarding with its progress; and once done, nothing pending.
    expect(statuses[0]).toMatchObject({ forwarding: true, pendingCount: 3, progress: { done: 0, total: 3 } });
    expect(statuses.at(-1)).toMatchObject({ forwarding: false, pendingCount: 0, progress: null });
    for (const s of sales) {
      expect(await atEngine(s.clientRef)).toHaveLength(1);
      expect(q.cardOf(q.item(s.clientRef)!.seq)).toBeNull();
    }
    const declined = q.item(sales[1]!.clientRef)!;
    expect(declined.message).toMatch(/declin|fail/i);
    expect(f.status()).toMatchObject({ pendingCount: 0, problemCount: 1 });

    f.stop();
  });

  it('keeps sales pending while the gateway is unreachable and drains them, exactly once, when it answers', async () => {
    const { db } = freshDb();
    const key = randomBytes(32);
    const q = new OfflineQueue(db, key);
    const loc = engine.credentials.location_id;
    const sales = Array.from({ length: 12 }, (_, i) => sale(100 + i, { locationId: loc }));
    for (const s of sales) expect(q.enqueue(s, rules).ok && q.acknowledge(s.clientRef)?.acknowledged).toBe(true);

    // A port nobody listens on: connection refused.
    const closed = await new Promise<number>((resolve) => {
      const srv = createServer().listen(0, '127.0.0.1', () => {
        const port = (srv.address() as { port: number }).port;
        srv.close(() => resolve(port));
      });
    });
    const c = engine.credentials;
    const dead = new GatewayClient({ baseUrl: `http://127.0.0.1:${closed}/v2`, auth: { developerId: c.developer_id, userId: c.user_id, userApiKey: c.user_api_key }, timeoutMs: 2_000 });
    const down = new OfflineForwarder({ queue: q, client: dead, settings: () => rules, parallelism: 1, baseBackoffMs: 60_000 });
    await down.kick();
    down.stop();
    expect(q.status(rules).pendingCount).toBe(12);
    expect(q.item(sales[0]!.clientRef)).toMatchObject({ state: 'pending', attempts: 1 });
    expect(q.item(sales[0]!.clientRef)!.message).toMatch(/did not answer/);
    expect(q.item(sales[1]!.clientRef)!.attempts).toBe(0); // the run stopped at the first failure

    // A sale the gateway already has (its answer was lost): forwarding returns the original, no second charge.
    const lost = sales[3]!;
    await client.createTransaction({ action: 'sale', payment_method: 'cc', location_id: loc, transaction_amount: '1.03', account_number: CARD, exp_date: '1230', transaction_api_id: lost.clientRef });

    const up = new OfflineForwarder({ queue: q, client, settings: () => rules, parallelism: 4 });
    await up.kick();
    up.stop();
    expect(q.status(rules)).toMatchObject({ pendingCount: 0, pendingCents: 0 });
    for (const s of sales) {
      const rows = await atEngine(s.clientRef);
      expect(rows).toHaveLength(1);
      expect(q.item(s.clientRef)).toMatchObject({ state: 'approved', transactionId: rows[0]!.id });
    }
  });
});
