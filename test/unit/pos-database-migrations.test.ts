/**
 * The core database's migrations on real SQLite files: a database made before the offline
 * queue's table was rebuilt (the step that adds 'withdrawn', entry modes and customer details)
 * keeps its waiting sales, and the totals the triggers keep are right before and after, and
 * the upgraded file ends with the same schema as a new one; the carts table rebuilt for the
 * `due` status (issue 20) keeps its rows and the references of its lines and tenders; sales
 * queued before acknowledgements (issue 20, point 3) count as acknowledged and are still sent.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { OfflineQueue } from '../../electron/core/queue/offline-queue';
import { openPosDatabase, POS_MIGRATIONS, type PosDatabase } from '../../electron/core/platform/pos-database';
import { DEFAULT_STORE_SETTINGS } from '../../shared/ipc/settings';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ringup-pos-migrations-'));
  dirs.push(dir);
  return dir;
}

/** The index of the step that rebuilds offline_queue (the last one that creates offline_queue_v2). */
const REBUILD = POS_MIGRATIONS.findIndex((m) => m.includes('CREATE TABLE offline_queue_v2'));

const totals = (db: Database.Database) => db.prepare('SELECT pending_count AS count, pending_cents AS cents FROM offline_queue_totals').get();

const schema = (db: Database.Database) =>
  db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").all();

/** An upgraded database ends with exactly the schema a fresh one is made with. */
function expectSchemaOfAFreshDatabase(upgraded: Database.Database): void {
  const fresh = openPosDatabase(tempDir());
  try {
    expect(schema(upgraded)).toEqual(schema(fresh));
  } finally {
    fresh.close();
  }
}

function queueRow(db: Database.Database, ref: string, cents: number, state: string): void {
  db.prepare(
    `INSERT INTO offline_queue (client_ref, amount_cents, card_brand, last_four, clerk_id, clerk_name, queued_ts, expires_ts, state)
     VALUES (?, ?, 'visa', '1111', 'u1', 'Casey', 1, 2, ?)`,
  ).run(ref, cents, state);
}

it('upgrades a database made before the offline queue was rebuilt: waiting sales, totals and triggers kept, same schema as a new one', () => {
  expect(REBUILD).toBeGreaterThan(0);
  const oldDir = tempDir();
  const old = new Database(join(oldDir, 'ringup.db'));
  for (let v = 0; v < REBUILD; v++) old.exec(POS_MIGRATIONS[v]!);
  old.pragma(`user_version = ${REBUILD}`);
  queueRow(old, 'a', 1000, 'pending');
  queueRow(old, 'b', 250, 'pending');
  queueRow(old, 'c', 700, 'approved');
  expect(totals(old)).toEqual({ count: 2, cents: 1250 });
  old.close();

  const upgraded: PosDatabase = openPosDatabase(oldDir);
  try {
    expect(upgraded.pragma('user_version', { simple: true })).toBe(POS_MIGRATIONS.length);
    expect(upgraded.prepare('SELECT client_ref, state, entry_mode FROM offline_queue ORDER BY seq').all()).toEqual([
      { client_ref: 'a', state: 'pending', entry_mode: 'K' },
      { client_ref: 'b', state: 'pending', entry_mode: 'K' },
      { client_ref: 'c', state: 'approved', entry_mode: 'K' },
    ]);
    expect(totals(upgraded)).toEqual({ count: 2, cents: 1250 });
    // The rebuilt table's triggers keep the totals: a sale sent, a new one, one withdrawn, one deleted.
    upgraded.prepare("UPDATE offline_queue SET state = 'approved' WHERE client_ref = 'a'").run();
    queueRow(upgraded, 'd', 400, 'pending');
    upgraded.prepare("UPDATE offline_queue SET state = 'withdrawn' WHERE client_ref = 'b'").run();
    upgraded.prepare("UPDATE offline_queue SET state = 'pending' WHERE client_ref = 'c'").run();
    upgraded.prepare("DELETE FROM offline_queue WHERE client_ref = 'd'").run();
    expect(totals(upgraded)).toEqual({ count: 1, cents: 700 });

    expectSchemaOfAFreshDatabase(upgraded);
  } finally {
    upgraded.close();
  }
});

it("upgrades carts to take the 'due' status (issue 20): carts, their lines and tenders kept, references intact, foreign keys on", () => {
  const CARTS = POS_MIGRATIONS.findIndex((m) => m.includes('CREATE TABLE carts_v2'));
  expect(CARTS).toBeGreaterThan(0);
  const oldDir = tempDir();
  const old = new Database(join(oldDir, 'ringup.db'));
  old.pragma('foreign_keys = ON');
  for (let v = 0; v < CARTS; v++) old.exec(POS_MIGRATIONS[v]!);
  old.pragma(`user_version = ${CARTS}`);
  old.prepare(`INSERT INTO carts (id, user_id, status, total_cents, created_ts, closed_ts, discount_approved_bp) VALUES ('c1', 'u1', 'paid', 1083, 1, 2, 2500)`).run();
  old.prepare(`INSERT INTO cart_lines (id, cart_id, seq, name, unit_cents, quantity, tax_category) VALUES ('l1', 'c1', 1, 'Ten', 1000, 1, 'standard')`).run();
  old.prepare(
    `INSERT INTO cart_tenders (id, cart_id, seq, kind, status, requested_cents, approved_cents, tendered_cents, change_cents, transaction_id, created_ts)
     VALUES ('t1', 'c1', 1, 'card', 'approved', 1083, 1083, 0, 0, 'x1', 1)`,
  ).run();
  expect(() => old.prepare(`UPDATE carts SET status = 'due' WHERE id = 'c1'`).run()).toThrow(/CHECK/);
  old.close();

  const upgraded = openPosDatabase(oldDir);
  try {
    expect(upgraded.pragma('user_version', { simple: true })).toBe(POS_MIGRATIONS.length);
    expect(upgraded.prepare('SELECT id, status, total_cents, discount_approved_bp FROM carts').all()).toEqual([{ id: 'c1', status: 'paid', total_cents: 1083, discount_approved_bp: 2500 }]);
    upgraded.prepare(`UPDATE carts SET status = 'due' WHERE id = 'c1'`).run();
    expect(upgraded.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(upgraded.pragma('foreign_key_check')).toEqual([]);
    expect(() => upgraded.prepare(`INSERT INTO cart_lines (id, cart_id, seq, name, unit_cents, quantity, tax_category) VALUES ('l2', 'nope', 1, 'X', 1, 1, 'standard')`).run()).toThrow(/FOREIGN KEY/);
    expectSchemaOfAFreshDatabase(upgraded);
  } finally {
    upgraded.close();
  }
});

it('upgrades the offline queue to acknowledgements (issue 20, point 3): sales queued before the rule count as acknowledged and are sent; new ones wait for their screen', () => {
  const ACK = POS_MIGRATIONS.findIndex((m) => m.includes('ADD COLUMN acked'));
  expect(ACK).toBeGreaterThan(0);
  const oldDir = tempDir();
  const old = new Database(join(oldDir, 'ringup.db'));
  for (let v = 0; v < ACK; v++) old.exec(POS_MIGRATIONS[v]!);
  old.pragma(`user_version = ${ACK}`);
  queueRow(old, 'waiting', 1000, 'pending');
  queueRow(old, 'sent', 700, 'approved');
  old.close();

  const upgraded = openPosDatabase(oldDir);
  try {
    expect(upgraded.pragma('user_version', { simple: true })).toBe(POS_MIGRATIONS.length);
    const q = new OfflineQueue(upgraded, Buffer.alloc(32, 1), { now: () => 10_000 });
    // Queued by a main-branch app, whose screens showed them: acknowledged, due, never shown at sign-in.
    expect(q.item('waiting')).toMatchObject({ state: 'pending', acknowledged: true });
    expect(q.due(10).map((d) => d.clientRef)).toEqual(['waiting']);
    expect(q.unconfirmed(0)).toEqual([]);
    // A sale queued now waits for its screen.
    const r = q.enqueue(
      { clientRef: 'new', amountCents: 500, taxCents: 0, tipCents: 0, card: { number: '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' }, clerk: { id: 'u1', name: 'Casey', number: null, role: 'cashier' }, locationId: null, productTransactionId: null, collectsRestOf: null, keyed: true },
      { ...DEFAULT_STORE_SETTINGS, offlineAllowKeyed: true },
    );
    expect(r.ok && r.item.acknowledged).toBe(false);
    expect(q.due(10).map((d) => d.clientRef)).toEqual(['waiting']);
    expect(totals(upgraded)).toEqual({ count: 2, cents: 1500 });
    expectSchemaOfAFreshDatabase(upgraded);
  } finally {
    upgraded.close();
  }
});
