/**
 * The store's schema migrations on a real PostgreSQL: from an empty database, from the previous
 * version with data in it (the data survives), a second run that changes nothing, and two
 * servers starting at once on an empty database (each its own connection pool, as two processes
 * are): the schema is made once and both get the same certificate.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { STORE_MIGRATIONS, STORE_SCHEMA_VERSION, migrateStore, openStorePool, type StorePool } from '../../electron/store-server/store-database';
import { loadStoreIdentity } from '../../electron/store-server/store-identity';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server';

let pg: PostgresServer;
const pools: StorePool[] = [];
const pool = (url: string) => {
  const p = openStorePool(url, 3);
  pools.push(p);
  return p;
};

beforeAll(async () => {
  pg = await startPostgres();
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  pg?.stop();
});

/** Every table's columns and every index and trigger, as text: what a second run must not change. */
async function schemaOf(p: StorePool): Promise<string> {
  const cols = await p.query("SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 2");
  const idx = await p.query("SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1");
  const trg = await p.query("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1");
  return JSON.stringify([cols.rows, idx.rows, trg.rows]);
}

test('the schema is made from an empty database, and a second run changes nothing', async () => {
  const p = pool(pg.createDatabase('migrate_empty'));
  expect(await migrateStore(p)).toEqual({ from: 0, to: STORE_SCHEMA_VERSION });
  expect(STORE_SCHEMA_VERSION).toBeGreaterThanOrEqual(2);
  const tables = (await p.query<{ t: string }>("SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1")).rows.map((r) => r.t);
  expect(tables).toEqual(
    expect.arrayContaining(['store_schema', 'store_identity', 'invitations', 'registers', 'store_events', 'shared_rows', 'audit_log', 'sales', 'cash_movements', 'stock_movements', 'z_reports', 'store_days', 'store_servers', 'refunds']),
  );
  const before = await schemaOf(p);
  expect(await migrateStore(p)).toEqual({ from: STORE_SCHEMA_VERSION, to: STORE_SCHEMA_VERSION });
  expect(await schemaOf(p)).toBe(before);
});

test('from the previous version with data in it: the data survives and the new step is there', async () => {
  const url = pg.createDatabase('migrate_previous');
  const p = pool(url);
  const previous = STORE_MIGRATIONS.slice(0, STORE_SCHEMA_VERSION - 1);
  expect(await migrateStore(p, previous)).toEqual({ from: 0, to: STORE_SCHEMA_VERSION - 1 });
  const identity = await loadStoreIdentity(p, 'Old shop');
  await p.query("INSERT INTO registers (id, name, token_hash, joined_ts) VALUES ('r1', 'Till 1', 'h1', 1)");
  await p.query(`INSERT INTO store_events (seq, id, register_id, type, kind, key, op, body, server_ts) VALUES (1, 'r1:1', 'r1', 'fact', 'cart', '"c1"', NULL, '{"id":"c1"}', 2)`);
  await p.query(`INSERT INTO sales (register_id, cart_id, status, closed_ts, card_cents, cash_cents, tax_cents, tip_cents, body, seq) VALUES ('r1', 'c1', 'paid', 5, 1000, 0, 80, 0, '{}', 1)`);
  expect(await migrateStore(p)).toEqual({ from: STORE_SCHEMA_VERSION - 1, to: STORE_SCHEMA_VERSION });
  expect((await p.query('SELECT id, name FROM registers')).rows).toEqual([{ id: 'r1', name: 'Till 1' }]);
  expect((await p.query('SELECT seq, id, body FROM store_events')).rows).toEqual([{ seq: 1, id: 'r1:1', body: { id: 'c1' } }]);
  expect((await p.query('SELECT card_cents, tax_cents FROM sales')).rows).toEqual([{ card_cents: 1000, tax_cents: 80 }]);
  expect((await loadStoreIdentity(p)).fingerprint).toBe(identity.fingerprint);
  // The step added: the server list, the refunds each register made and the figures' indexes.
  await p.query("INSERT INTO store_servers (address, instance, started_ts, seen_ts) VALUES ('https://127.0.0.1:7443', 'i1', 1, 1)");
  await p.query("INSERT INTO refunds (register_id, refund_id, original_id, cents, ts, seq) VALUES ('r1', 'rf1', 'tx1', 300, 5000, 2)");
  await expect(p.query("INSERT INTO refunds (register_id, refund_id, original_id, cents, ts, seq) VALUES ('r1', 'rf1', 'tx1', 300, 5000, 3)")).rejects.toThrow(/duplicate key/);
  const indexes = (await p.query<{ i: string }>("SELECT indexname AS i FROM pg_indexes WHERE indexname IN ('sales_closed', 'refunds_ts', 'sales_tenders') ORDER BY 1")).rows.map((r) => r.i);
  expect(indexes).toEqual(['refunds_ts', 'sales_closed', 'sales_tenders']);
});

test('two servers starting at once on an empty database migrate once and make one certificate', async () => {
  const url = pg.createDatabase('migrate_race');
  const [one, two] = [pool(url), pool(url)];
  const results = await Promise.all([migrateStore(one), migrateStore(two)]);
  // One did the work; the other waited for the lock and found it done.
  expect(results.map((r) => r.from).sort()).toEqual([0, STORE_SCHEMA_VERSION]);
  expect((await one.query('SELECT version FROM store_schema')).rows).toEqual([{ version: STORE_SCHEMA_VERSION }]);
  const [i1, i2] = await Promise.all([loadStoreIdentity(one), loadStoreIdentity(two)]);
  expect(i1.fingerprint).toBe(i2.fingerprint);
  expect([i1.created, i2.created].sort()).toEqual([false, true]);
  expect((await one.query('SELECT COUNT(*)::int AS n FROM store_identity')).rows[0].n).toBe(1);
});

test('a database newer than this server is refused with a sentence, not touched', async () => {
  const p = pool(pg.createDatabase('migrate_newer'));
  await migrateStore(p);
  await p.query('UPDATE store_schema SET version = version + 1');
  await expect(migrateStore(p)).rejects.toThrow(/newer than this store server knows/);
});
