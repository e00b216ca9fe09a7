/**
 * Selling in a store, for real (issue 24): two in-process registers of a store server on a real
 * PostgreSQL, the second reaching it only through a TCP gate the test takes down.
 *
 * Proves: two registers selling the last one while apart both count (stock −1 on both once
 * they meet, nothing lost); the store's report lists each register's sales to the cent; the
 * store's Z closes every register's day with the count given for its drawer — the register that
 * pressed it at once, one that was off when it was closed as soon as it is back — and only once
 * per store day, even when the register stopped after making its Z and before it noted so.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { CoreOptions } from '../../electron/core/app-core';
import type { CatalogueItem } from '../../shared/ipc/catalogue';
import { openCore, value, type OpenCore } from '../helpers/core-harness';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server';
import { settledWith, storeStatusOf, until } from '../helpers/store-core-waits';
import { startStoreHarness, type StoreHarness } from '../helpers/store-server-harness';
import { Gate } from '../helpers/tcp-gate';

const FAST: Partial<CoreOptions> = { storeTickMs: 20, storeBackoffMaxMs: 200, storeTimeoutMs: 3_000 };

let pg: PostgresServer;
let store: StoreHarness;
let gate: Gate;
const dirs: string[] = [];
let a: OpenCore;
let b: OpenCore;
let bDir = '';

async function open(dir: string, options: Partial<CoreOptions> = {}): Promise<OpenCore> {
  return openCore(dir, { ...FAST, ...options });
}


const status = storeStatusOf;
const settled = (c: OpenCore) => settledWith(store.pool, c);
const item = async (c: OpenCore, name: string): Promise<CatalogueItem> => value(await c.call('catalogue:list', { includeArchived: false, search: '' })).find((i) => i.name === name)!;
const zRowsOf = (dir: string) => {
  const db = new Database(join(dir, 'ringup.db'), { readonly: true });
  try {
    return db.prepare("SELECT number, json_extract(report, '$.storeDay') AS storeDay, json_extract(report, '$.cashCount.countedCents') AS counted FROM z_reports ORDER BY number").all() as Array<{ number: number; storeDay: number | null; counted: number | null }>;
  } finally {
    db.close();
  }
};

/** One cash sale of one `name`, paid exactly; answers what it came to. */
async function sellOne(c: OpenCore, name: string): Promise<number> {
  const cart = value(await c.call('cart:add-item', { itemId: (await item(c, name)).id, quantity: 1 }));
  value(await c.call('cart:pay-cash', { tenderedCents: cart.totals.totalCents }));
  return cart.totals.totalCents;
}

beforeAll(async () => {
  pg = await startPostgres();
  store = await startStoreHarness(pg, 'sync_store_day');
  gate = new Gate(Number(new URL(store.url).port));
  await gate.up();
  const aDir = mkdtempSync(join(tmpdir(), 'ringup-day-a-'));
  bDir = mkdtempSync(join(tmpdir(), 'ringup-day-b-'));
  dirs.push(aDir, bDir);
  [a, b] = await Promise.all([open(aDir), open(bDir, { storeTypedAddressOnly: true })]);
  // Each register's day starts at a Z of its own (not at local midnight): what follows is in the next day whatever the time.
  await Promise.all([a.signInAs('Morgan', '1234'), b.signInAs('Morgan', '1234')]);
  await Promise.all([a.call('reports:z'), b.call('reports:z')]);
  const cake = value(await a.call('catalogue:add', { name: 'Cake', priceCents: 500, trackStock: true }));
  value(await a.call('catalogue:adjust-stock', { itemId: cake.id, change: { kind: 'count', count: 1 }, reason: 'delivery' }));
  value(await a.call('store:join', { address: store.url, code: store.setupCode, registerName: 'Front' }));
  const invitation = value(await a.call('store:invite'));
  value(await b.call('store:join', { address: `https://127.0.0.1:${gate.port}`, code: invitation.code, registerName: 'Patio' }));
  await b.signInAs('Morgan', '1234');
  await until('both settled', async () => (await settled(a)) && (await settled(b)));
});

afterAll(async () => {
  await Promise.all([a?.core.close(), b?.core.close()]);
  await gate?.down();
  await store?.close();
  pg?.stop();
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

const sold: Record<string, number> = {};
let soldSecond = 0;

test('two registers selling the last one while apart both count: −1 on both once they meet, no sale lost', async () => {
  expect((await item(b, 'Cake')).stock).toBe(1);
  await gate.down();
  await until('B to see the store away', async () => (await status(b)).connection === 'away');
  sold.Patio = await sellOne(b, 'Cake');
  sold.Front = await sellOne(a, 'Cake');
  soldSecond = Math.floor(Date.now() / 1000);
  expect((await item(a, 'Cake')).stock).toBe(0);
  expect((await item(b, 'Cake')).stock).toBe(0);
  await until("B's sale to wait for the store", async () => (await status(b)).waiting > 0);
  await gate.up();
  await until('both settled', async () => (await settled(b)) && (await settled(a)));
  expect((await item(a, 'Cake')).stock).toBe(-1);
  expect((await item(b, 'Cake')).stock).toBe(-1);
});

test("the store's report lists every register's sales, to the cent, this register marked", async () => {
  const report = value(await a.call('store:report'));
  const byName = Object.fromEntries(report.registers.map((r) => [r.name, r]));
  expect(byName.Front).toMatchObject({ sales: 1, cashCents: sold.Front, cardCents: 0, netCents: sold.Front, thisRegister: true });
  expect(byName.Patio).toMatchObject({ sales: 1, cashCents: sold.Patio, cardCents: 0, netCents: sold.Patio, thisRegister: false });
  expect(report.totals).toMatchObject({ sales: 2, cashCents: sold.Front! + sold.Patio!, netCents: sold.Front! + sold.Patio! });
  expect(report.behind).toEqual([]);
  // Each register has its own gateway here (no --engine): the card check is not made.
  expect(report.cardCheck).toEqual({ tendersCents: 0, gatewayCents: null, matches: null });
});

test("the store's Z closes each register's day with its drawer's count — one that was off as soon as it is back — once per store day", async () => {
  const ids = Object.fromEntries(value(await a.call('store:registers')).map((r) => [r.name, r.id]));
  await b.core.close();
  // A Z ends the second before it is made (reports.ts): the sales' second has to be over first.
  await until('the second of the sales to be over', () => Math.floor(Date.now() / 1000) > soldSecond);
  const counts = [
    { registerId: ids.Front!, countedCents: sold.Front! },
    { registerId: ids.Patio!, countedCents: sold.Patio! - 25 },
  ];
  const day = value(await a.call('store:close-day', { counts }));
  expect(day.thisRegisterZ).toMatchObject({ kind: 'z', storeDay: day.number, cashCount: { countedCents: sold.Front, expectedCents: sold.Front, overShortCents: 0 } });
  expect(day.closed).toEqual(['Front']);
  expect(day.waitingFor).toEqual(['Patio']);

  // The register that was off closes its day when it is back, with the count given for it.
  b = await open(bDir, { storeTypedAddressOnly: true });
  await until("Patio's Z at the store", async () => (await store.pool.query('SELECT 1 FROM z_reports WHERE store_day = $1 AND register_id = $2', [day.number, ids.Patio])).rowCount === 1);
  const patioZ = zRowsOf(bDir).filter((z) => z.storeDay === day.number);
  expect(patioZ).toEqual([{ number: patioZ[0]!.number, storeDay: day.number, counted: sold.Patio! - 25 }]);
  const listed = value(await a.call('store:days'));
  expect(listed[0]).toMatchObject({ number: day.number, waitingFor: [] });
  expect([...listed[0]!.closed].sort()).toEqual(['Front', 'Patio']);

  // Stopped after its Z was made and before the day was noted as done: started again, it makes no second Z.
  await b.core.close();
  const db = new Database(join(bDir, 'ringup.db'));
  db.prepare('UPDATE sync_state SET store_day_pending = ? WHERE id = 1').run(JSON.stringify({ number: day.number, closedTs: day.closedTs, closedBy: day.closedBy, counts }));
  db.close();
  b = await open(bDir, { storeTypedAddressOnly: true });
  await until('the pending day cleared', () => {
    const d = new Database(join(bDir, 'ringup.db'), { readonly: true });
    try {
      return d.prepare('SELECT store_day_pending FROM sync_state').pluck().get() === null;
    } finally {
      d.close();
    }
  });
  expect(zRowsOf(bDir).filter((z) => z.storeDay === day.number)).toHaveLength(1);
});
