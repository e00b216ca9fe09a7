/**
 * Registers of one store, for real (issue 24): three in-process cores (each with its own SQLite
 * and embedded engine, called through the IPC dispatcher as a window would), a store server on a
 * real PostgreSQL, HTTPS pinned to its certificate. Register B reaches the store only through a
 * TCP gate the test can take down (it keeps to the address it typed).
 *
 * Proves: the first register joins with the setup code and its users, settings and catalogue
 * become the store's; a second joins with a code made on the first, takes the store's users and
 * catalogue (its own are gone) and a PIN set on the first signs in on it; a price changed on one
 * register is on another's catalogue within 1 s (measured); edits made while apart resolve to
 * the later by the store server's clock on every register, and both are in the store's audit
 * log; a code works once; a removed register says so, and joins again with a new code (a new id,
 * what waited under its old one dropped).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CoreOptions } from '../../electron/core/app-core';
import { STORE_MSG } from '../../shared/ipc/store';
import type { CatalogueItem } from '../../shared/ipc/catalogue';
import { openCore, value, type OpenCore } from '../helpers/core-harness';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server';
import { settledWith, storeStatusOf, until } from '../helpers/store-core-waits';
import { startStoreHarness, type StoreHarness } from '../helpers/store-server-harness';
import { Gate } from '../helpers/tcp-gate';

/** Fast loops for a test: the outbox looked at every 20 ms, tries again within 200 ms when the store is away. */
const FAST: Partial<CoreOptions> = { storeTickMs: 20, storeBackoffMaxMs: 200, storeTimeoutMs: 3_000 };

let pg: PostgresServer;
let store: StoreHarness;
let gate: Gate;
const dirs: string[] = [];
const cores: OpenCore[] = [];
let a: OpenCore;
let b: OpenCore;

async function register(name: string, options: Partial<CoreOptions> = {}): Promise<OpenCore> {
  const dir = mkdtempSync(join(tmpdir(), `ringup-sync-${name}-`));
  dirs.push(dir);
  const c = await openCore(dir, { ...FAST, ...options });
  cores.push(c);
  return c;
}


const status = storeStatusOf;
const settled = (c: OpenCore) => settledWith(store.pool, c);
const item = async (c: OpenCore, name: string): Promise<CatalogueItem | undefined> => value(await c.call('catalogue:list', { includeArchived: false, search: '' })).find((i) => i.name === name);
const dbRow = (c: OpenCore, sql: string, ...params: unknown[]) => {
  const db = new Database(join(c.core.dataDir, 'ringup.db'), { readonly: true });
  try {
    return db.prepare(sql).get(...params) as Record<string, unknown> | undefined;
  } finally {
    db.close();
  }
};

beforeAll(async () => {
  pg = await startPostgres();
  store = await startStoreHarness(pg, 'sync_registers');
  gate = new Gate(Number(new URL(store.url).port));
  await gate.up();
  [a, b] = await Promise.all([register('a'), register('b', { storeTypedAddressOnly: true })]);
});

afterAll(async () => {
  await Promise.all(cores.map((c) => c.core.close()));
  await gate?.down();
  await store?.close();
  pg?.stop();
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

describe('a store of registers', () => {
  test("the first register joins with the setup code: its users, settings and catalogue become the store's", async () => {
    await a.signInAs('Morgan', '1234');
    value(await a.call('catalogue:add', { name: 'Flat white', priceCents: 400, sku: 'FW', quickKey: true }));
    const joined = value(await a.call('store:join', { address: store.url, code: store.setupCode, registerName: 'Front' }));
    expect(joined).toMatchObject({ joined: true, registerName: 'Front' });
    await until('the first register to send its copy', () => settled(a));
    const users = await store.pool.query("SELECT row->>'name' AS name FROM shared_rows WHERE tbl = 'pos_users' ORDER BY 1");
    expect(users.rows.map((r: { name: string }) => r.name)).toEqual(['Casey', 'Jordan', 'Morgan']);
    const items = await store.pool.query("SELECT row->>'name' AS name, (row->>'price_cents')::int AS cents FROM shared_rows WHERE tbl = 'catalogue_items'");
    expect(items.rows).toEqual([{ name: 'Flat white', cents: 400 }]);
    // A second join of the same register is refused with a sentence.
    const again = await a.call('store:join', { address: store.url, code: store.setupCode, registerName: 'Front' });
    expect(again.ok ? null : again.error.message).toBe(STORE_MSG.alreadyJoined);
  });

  test("a second register joins with a code made on the first: the store's users and catalogue replace its own, and a PIN set on the first signs in on it", async () => {
    const invitation = value(await a.call('store:invite'));
    expect(invitation.code).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}-[0-9A-Z]{5}-[0-9A-Z]{5}$/);
    await b.signInAs('Morgan', '1234');
    value(await b.call('catalogue:add', { name: 'Own scone', priceCents: 300 }));
    const joined = value(await b.call('store:join', { address: `https://127.0.0.1:${gate.port}`, code: invitation.code, registerName: 'Patio' }));
    expect(joined).toMatchObject({ joined: true, registerName: 'Patio', address: `https://127.0.0.1:${gate.port}` });
    // B's own Morgan is gone, and the session with him: the store's Morgan signs in (the store's pepper is in B's ring).
    expect(value(await b.call('auth:session'))).toBeNull();
    await b.signInAs('Morgan', '1234');
    // The store's users are B's users now (same ids); B's own catalogue is gone, the store's is there.
    const idsOf = async (c: OpenCore) => value(await c.call('auth:users')).users.map((u) => `${u.id} ${u.name}`).sort();
    expect(await idsOf(b)).toEqual(await idsOf(a));
    expect(await item(b, 'Own scone')).toBeUndefined();
    expect((await item(b, 'Flat white'))?.priceCents).toBe(400);

    // A PIN changed on A checks on B: B holds the store's pepper first in its ring.
    await a.signInAs('Morgan', '1234');
    value(await a.call('auth:change-pin', { currentPin: '1234', newPin: '2580' }));
    const hashOnA = dbRow(a, "SELECT pin_hash FROM pos_users WHERE name = 'Morgan'")!.pin_hash;
    await until('the new PIN on B', () => dbRow(b, "SELECT pin_hash FROM pos_users WHERE name = 'Morgan'")?.pin_hash === hashOnA);
    await b.signInAs('Morgan', '2580');
    // And a PIN set on B (with the store's pepper) checks on A.
    const casey = value(await b.call('auth:users')).users.find((u) => u.name === 'Casey')!;
    value(await b.call('users:reset-pin', { id: casey.id, pin: '4321' }));
    const hashOnB = dbRow(b, "SELECT pin_hash FROM pos_users WHERE name = 'Casey'")!.pin_hash;
    await until('the new PIN on A', () => dbRow(a, "SELECT pin_hash FROM pos_users WHERE name = 'Casey'")?.pin_hash === hashOnB);
    await a.signInAs('Casey', '4321');
    await a.signInAs('Morgan', '2580');
  });

  test("a price changed on one register is on another's catalogue within 1 s, and its screens are told", async () => {
    await until('B settled', () => settled(b));
    const id = (await item(a, 'Flat white'))!.id;
    const told: unknown[] = [];
    const off = b.core.events.subscribe((event, payload) => {
      if (event === 'catalogue:changed') told.push(payload);
    });
    const started = performance.now();
    value(await a.call('catalogue:update', { id, fields: { name: 'Flat white', priceCents: 425, sku: 'FW', quickKey: true } }));
    await until('the new price on B', async () => (await item(b, 'Flat white'))?.priceCents === 425);
    const delay = performance.now() - started;
    off();
    expect(delay).toBeLessThan(1_000);
    expect(told).toContainEqual({ tables: ['catalogue_items'] });
  });

  test('edits made apart: the later by the store server’s clock wins on every register, and both are in the store’s audit log', async () => {
    const id = (await item(a, 'Flat white'))!.id;
    await b.signInAs('Morgan', '2580');
    await gate.down();
    await until('B to see the store away', async () => (await status(b)).connection === 'away');
    // B, cut off, changes the price first (by its own clock); A changes it after, and A's reaches the store first.
    value(await b.call('catalogue:update', { id, fields: { name: 'Flat white', priceCents: 500, sku: 'FW', quickKey: true } }));
    expect((await status(b)).waiting).toBeGreaterThan(0);
    value(await a.call('catalogue:update', { id, fields: { name: 'Flat white', priceCents: 475, sku: 'FW', quickKey: true } }));
    await until('A settled', () => settled(a));
    await gate.up();
    // B's change arrives later, so it is the later by the store server's clock: it wins everywhere.
    await until('B settled', () => settled(b));
    await until('A settled again', () => settled(a));
    expect((await item(a, 'Flat white'))?.priceCents).toBe(500);
    expect((await item(b, 'Flat white'))?.priceCents).toBe(500);
    const conflicts = await store.pool.query("SELECT detail FROM audit_log WHERE kind = 'sync-conflict'");
    expect(conflicts.rows).toHaveLength(1);
    const detail = (conflicts.rows[0] as { detail: string }).detail;
    expect(detail).toContain('Front');
    expect(detail).toContain('Patio');
  });

  test('a code works once; a register removed from the store says so and stops', async () => {
    const c = await register('c');
    await c.signInAs('Morgan', '1234');
    const invitation = value(await a.call('store:invite'));
    value(await c.call('store:join', { address: store.url, code: invitation.code, registerName: 'Tablet' }));
    await c.signInAs('Morgan', '2580');
    const d = await register('d');
    await d.signInAs('Morgan', '1234');
    const reused = await d.call('store:join', { address: store.url, code: invitation.code, registerName: 'Spare' });
    expect(reused.ok ? null : reused.error.message).toBe(STORE_MSG.wrongCode);
    // A code for another server is refused before anything is sent to it.
    const elsewhere = await d.call('store:join', { address: `https://127.0.0.1:${gate.port}`, code: 'ABCDE-FGHJK-MNPQR-STVWX', registerName: 'Spare' });
    expect(elsewhere.ok ? null : elsewhere.error.message).toBe(STORE_MSG.wrongServer);

    const listed = value(await a.call('store:registers'));
    expect(listed.map((r) => `${r.name}${r.thisRegister ? ' (this)' : ''}`).sort()).toEqual(['Front (this)', 'Patio', 'Tablet']);
    const tablet = listed.find((r) => r.name === 'Tablet')!;
    const self = await a.call('store:remove-register', { id: listed.find((r) => r.thisRegister)!.id });
    expect(self.ok ? null : self.error.message).toBe(STORE_MSG.notThisOne);
    const after = value(await a.call('store:remove-register', { id: tablet.id }));
    expect(after.map((r) => r.name).sort()).toEqual(['Front', 'Patio']);
    await until('C to know it was removed', async () => (await status(c)).connection === 'removed');
    const asked = await c.call('store:registers');
    expect(asked.ok ? null : asked.error.message).toBe(STORE_MSG.removed);
  });

  test('a removed register joins again with a new code: a new id, and what waited under its old one is dropped, not sent', async () => {
    // E reaches the store through a gate of its own, so it can be cut off with changes waiting.
    const eGate = new Gate(Number(new URL(store.url).port));
    await eGate.up();
    const e = await register('e', { storeTypedAddressOnly: true });
    try {
      await e.signInAs('Morgan', '1234');
      const via = `https://127.0.0.1:${eGate.port}`;
      const first = value(await e.call('store:join', { address: via, code: value(await a.call('store:invite')).code, registerName: 'Kiosk' }));
      await e.signInAs('Morgan', '2580');
      await until('E settled', () => settled(e));
      // Cut off, E adds an item: it waits in E's outbox. A manager removes E meanwhile.
      await eGate.down();
      await until('E to see the store away', async () => (await status(e)).connection === 'away');
      value(await e.call('catalogue:add', { name: 'Left behind', priceCents: 100, sku: 'LB1' }));
      const waiting = () => Number(dbRow(e, 'SELECT COUNT(*) AS n FROM sync_outbox')!.n);
      expect(waiting()).toBeGreaterThan(0);
      value(await a.call('store:remove-register', { id: first.registerId! }));
      await eGate.up();
      await until('E to know it was removed', async () => (await status(e)).connection === 'removed');
      expect(waiting()).toBeGreaterThan(0);

      // A new code from Add: E joins again, as a new register of the store.
      const again = value(await e.call('store:join', { address: via, code: value(await a.call('store:invite')).code, registerName: 'Kiosk' }));
      expect(again.registerId).not.toBe(first.registerId);
      await until('E settled again', () => settled(e));
      // Its change from before the removal was dropped: not at the store, and (its rows replaced by the store's) not on E either.
      expect((await store.pool.query("SELECT 1 FROM shared_rows WHERE row ->> 'name' = 'Left behind'")).rowCount).toBe(0);
      expect(await item(e, 'Left behind')).toBeUndefined();
      expect((await store.pool.query('SELECT 1 FROM store_events WHERE register_id = $1 AND seq > (SELECT MIN(seq) FROM store_events WHERE register_id = $2)', [first.registerId, again.registerId])).rowCount).toBe(0);
      // It syncs under its new id: a change made on it reaches the others.
      await e.signInAs('Morgan', '2580');
      value(await e.call('catalogue:add', { name: 'Back again', priceCents: 200, sku: 'BA1' }));
      await until('A has the item E added', async () => (await item(a, 'Back again')) !== undefined);
      expect(value(await a.call('store:registers')).find((r) => r.name === 'Kiosk')?.id).toBe(again.registerId);
    } finally {
      await eGate.down();
    }
  });
});
