/**
 * The catalogue-depth migration step (issue 23) on a real SQLite file made by the step before
 * it: items keep their rows and come back with no category, no variants, no groups and stock
 * not counted; a past cart line reads with no choice; two items an older app let share a SKU
 * (any case) survive the step (the new triggers guard new writes, not rows already there); and
 * the upgraded file has the schema of a new one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { installAuditHashFunction } from '../../electron/core/audit/audit-chain';
import { CartStore } from '../../electron/core/cart/cart-store';
import { Catalogue } from '../../electron/core/catalogue/catalogue';
import { openPosDatabase, POS_MIGRATIONS } from '../../electron/core/platform/pos-database';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'ringup-catalogue-migration-'));
  dirs.push(d);
  return d;
};
const schema = (db: Database.Database) => db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").all();

it('upgrades a catalogue and its carts made before categories, variants and stock', () => {
  const STEP = POS_MIGRATIONS.findIndex((m) => m.includes('CREATE TABLE catalogue_variants'));
  expect(STEP).toBeGreaterThan(0);
  const dir = tempDir();
  const before = new Database(join(dir, 'ringup.db'));
  // The audit chain's step calls its hash function, as openPosDatabase registers it.
  installAuditHashFunction(before);
  for (let v = 0; v < STEP; v++) before.exec(POS_MIGRATIONS[v]!);
  before.pragma(`user_version = ${STEP}`);
  before.prepare(`INSERT INTO catalogue_items (id, name, price_cents, sku, created_ts) VALUES ('i1', 'Coffee', 350, 'COF', 1), ('i2', 'Coffee again', 360, 'cof', 2)`).run();
  before.prepare(`INSERT INTO pos_users (id, name, role, pin_hash, created_ts) VALUES ('u1', 'Casey', 'cashier', 'x', 0)`).run();
  before.prepare(`INSERT INTO carts (id, user_id, status, total_cents, created_ts, closed_ts) VALUES ('c1', 'u1', 'paid', 350, 1, 2)`).run();
  before.prepare(`INSERT INTO cart_lines (id, cart_id, seq, item_id, name, unit_cents, quantity, tax_category) VALUES ('l1', 'c1', 1, 'i1', 'Coffee', 350, 1, 'standard')`).run();
  before.close();

  const db = openPosDatabase(dir);
  try {
    expect(db.pragma('user_version', { simple: true })).toBe(POS_MIGRATIONS.length);
    const catalogue = new Catalogue(db);
    expect(catalogue.list().map((i) => [i.name, i.sku, i.categoryId, i.variants, i.modifierGroupIds, i.trackStock, i.stock])).toEqual([
      ['Coffee', 'COF', null, [], [], false, null],
      ['Coffee again', 'cof', null, [], [], false, null],
    ]);
    const cart = new CartStore(db, () => 0).view('c1');
    expect(cart.lines.map((l) => [l.name, l.choice])).toEqual([['Coffee', null]]);
    expect(cart.stockWarning).toBeNull();
    // New writes are guarded: a third item with that SKU is refused by the database itself.
    expect(() => db.prepare(`INSERT INTO catalogue_items (id, name, price_cents, sku, created_ts) VALUES ('i3', 'Tea', 250, 'Cof', 3)`).run()).toThrow(/one item or variant/);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    const fresh = openPosDatabase(tempDir());
    try {
      expect(schema(db)).toEqual(schema(fresh));
    } finally {
      fresh.close();
    }
  } finally {
    db.close();
  }
});
