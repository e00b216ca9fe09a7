/**
 * Applying what a register pulled (apply-events.ts), on a real migrated ringup.db joined to a
 * store: rows upserted and deleted by key with no echo into the outbox; a row with a change of
 * this register's still waiting skipped (the local change wins when it is pushed); a SKU two
 * registers took while apart skipped and audited (and that audit row is on its way to the store);
 * stock as the sum of every register's movements (two registers selling the last one: −1); the
 * store's own events (this register renamed, removed, a store day); and a register joining an
 * existing store dropping its own users, settings and catalogue for the store's.
 */
import { randomUUID } from 'node:crypto';
import { expect, test } from 'vitest';
import { openPosDatabase, type PosDatabase } from '../../electron/core/platform/pos-database';
import { Catalogue } from '../../electron/core/catalogue/catalogue';
import { AuditLog } from '../../electron/core/audit/audit-log';
import { StockLedger } from '../../electron/core/catalogue/stock-ledger';
import { EventApplier } from '../../electron/core/store/apply-events';
import { readSyncState, writeJoined } from '../../electron/core/store/sync-state';
import { itemFieldsSchema } from '../../shared/ipc/catalogue';
import type { StoreEvent } from '../../shared/store/store-wire';
import { tempDirs } from '../helpers/temp-dirs';

const { newDir } = tempDirs();

function joined(resetPending = false): { db: PosDatabase; applier: EventApplier; audit: AuditLog; cat: Catalogue } {
  const db = openPosDatabase(newDir('ringup-apply-'));
  const audit = new AuditLog(db);
  const cat = new Catalogue(db);
  writeJoined(db, { storeId: 's1', registerId: 'me', registerName: 'Front', addresses: ['https://127.0.0.1:1'], certPem: 'pem', lastSeq: 0, resetPending, gateway: null });
  return { db, applier: new EventApplier(db, audit), audit, cat };
}

let seq = 0;
const row = (table: string, key: Array<string | number>, body: Record<string, unknown> | null, from = 'other'): StoreEvent => ({
  seq: ++seq,
  id: `${from}:${seq}`,
  registerId: from,
  type: 'row',
  kind: table,
  key,
  op: body ? 'upsert' : 'delete',
  body,
  serverTs: 1_000 + seq,
});
const itemRow = (id: string, name: string, priceCents: number, sku = '') => ({
  id,
  name,
  price_cents: priceCents,
  sku,
  product_code: '',
  unit_code: 'EA',
  commodity_code: '',
  tax_category: 'standard',
  quick_key: 1,
  archived: 0,
  created_ts: 1,
  category_id: null,
  track_stock: 1,
  reorder_level: 0,
});
const outbox = (db: PosDatabase) => db.prepare('SELECT type, kind, key FROM sync_outbox ORDER BY seq').all() as Array<{ type: string; kind: string; key: string }>;

test('rows are upserted and deleted by key in one transaction, last_seq with them, and nothing echoes into the outbox', () => {
  const { db, applier, cat } = joined();
  const a = row('catalogue_items', ['i1'], itemRow('i1', 'Scone', 275, 'SC-1'));
  // The item changed again, keeping its SKU: the catalogue's SKU triggers do not take it for a second item.
  const b = row('catalogue_items', ['i1'], itemRow('i1', 'Scone', 300, 'SC-1'));
  const c = row('catalogue_items', ['i2'], itemRow('i2', 'Bun', 150));
  const d = row('catalogue_items', ['i2'], null);
  const out = applier.apply([a, b, c, d], d.seq, 'me');
  expect(cat.get('i1')?.priceCents).toBe(300);
  expect(cat.get('i2')).toBeUndefined();
  expect([...out.tables]).toEqual(['catalogue_items']);
  expect(readSyncState(db).lastSeq).toBe(d.seq);
  expect(outbox(db)).toEqual([]);
  // A row a newer version of the app sent with a column this register does not have: the columns it has are applied.
  const e = row('catalogue_items', ['i1'], { ...itemRow('i1', 'Scone', 310, 'SC-1'), colour_of_the_day: 'red' });
  applier.apply([e], e.seq, 'me');
  expect(cat.get('i1')?.priceCents).toBe(310);
  // Only the store's settings row is the store's to set.
  const s = row('settings', ['gateway_connection'], { key: 'gateway_connection', value: '{"kind":"remote"}' });
  applier.apply([s], s.seq, 'me');
  expect(db.prepare("SELECT 1 FROM settings WHERE key = 'gateway_connection'").get()).toBeUndefined();
  db.close();
});

test("a row with this register's own change still waiting is skipped: the local change is pushed later and wins", () => {
  const { db, applier, cat } = joined();
  const mine = cat.add(itemFieldsSchema.parse({ name: 'Latte', priceCents: 450 }));
  expect(outbox(db)).toHaveLength(1);
  const theirs = row('catalogue_items', [mine.id], itemRow(mine.id, 'Latte', 999));
  const out = applier.apply([theirs], theirs.seq, 'me');
  expect(out.skippedPending).toBe(1);
  expect(cat.get(mine.id)?.priceCents).toBe(450);
  db.close();
});

test('a SKU two registers took while apart is skipped and audited; the audit row is on its way to the store', () => {
  const { db, applier, cat, audit } = joined();
  const local = cat.add(itemFieldsSchema.parse({ name: 'Water', priceCents: 200, sku: 'W-1' }));
  db.prepare('DELETE FROM sync_outbox').run();
  const clash = row('catalogue_items', ['other-water'], itemRow('other-water', 'Still water', 210, 'w-1'));
  const fine = row('catalogue_items', ['i9'], itemRow('i9', 'Juice', 350));
  const out = applier.apply([clash, fine], fine.seq, 'me');
  expect(out.refused).toBe(1);
  expect(cat.get('other-water')).toBeUndefined();
  expect(cat.get('i9')?.name).toBe('Juice');
  expect(cat.get(local.id)?.sku).toBe('W-1');
  const entry = audit.list({ page: 1, kind: 'sync-conflict' }).rows[0]!;
  expect(entry.detail).toContain('register other');
  expect(entry.detail).toContain('a SKU names one item or variant');
  expect(outbox(db)).toEqual([{ type: 'fact', kind: 'audit_log', key: String(entry.seq) }]);
  expect(readSyncState(db).lastSeq).toBe(fine.seq);
  db.close();
});

test('two registers selling the last one while apart both count: stock shows −1; a movement applied twice counts once', () => {
  const { db, applier } = joined();
  const item = row('catalogue_items', ['cake'], itemRow('cake', 'Cake', 500));
  applier.apply([item], item.seq, 'me');
  const ledger = new StockLedger(db);
  ledger.record({ itemId: 'cake', variantId: null, delta: 1, reason: 'count' });
  ledger.record({ itemId: 'cake', variantId: null, delta: -1, reason: 'sale', cartId: 'here' });
  const movement = { id: randomUUID(), item_id: 'cake', variant_id: null, delta: -1, reason: 'sale', note: '', cart_id: 'there', user_id: 'u', user_name: 'Casey', ts: 5, seq: 99 };
  const fact = (n: number): StoreEvent => ({ seq: ++seq, id: `other:${n}`, registerId: 'other', type: 'fact', kind: 'stock_movements', key: movement.id, body: movement, serverTs: 1 });
  const first = fact(1);
  const again = fact(2);
  const out = applier.apply([first, again], again.seq, 'me');
  expect(out.tables.has('stock_movements')).toBe(true);
  expect(ledger.onHand('cake', null)).toBe(-1);
  // Its own seq, not the other register's: the local ledger numbers its rows.
  expect(db.prepare('SELECT seq FROM stock_movements WHERE id = ?').pluck().get(movement.id)).not.toBe(99);
  db.close();
});

test("the store's own events: this register renamed, a store day kept to close, this register removed", () => {
  const { db, applier } = joined();
  const server = (kind: string, body: Record<string, unknown>): StoreEvent => ({ seq: ++seq, id: `server:${seq}`, registerId: null, type: 'server', kind, key: String(seq), body, serverTs: 1 });
  const renamedOther = server('register', { registerId: 'other', name: 'Patio', removed: false });
  const renamed = server('register', { registerId: 'me', name: 'Bar', removed: false });
  const day = server('store_day', { number: 3, closedTs: 10, closedBy: 'Morgan', counts: [{ registerId: 'me', countedCents: 1250 }] });
  const out = applier.apply([renamedOther, renamed, day], day.seq, 'me');
  expect(out.renamed).toBe('Bar');
  expect(out.removed).toBe(false);
  expect(out.storeDay?.number).toBe(3);
  expect(readSyncState(db)).toMatchObject({ registerName: 'Bar', storeDayPending: { number: 3 } });
  const removed = server('register', { registerId: 'me', name: 'Bar', removed: true });
  expect(applier.apply([removed], removed.seq, 'me').removed).toBe(true);
  db.close();
});

test("a register joining an existing store drops its own users, settings and catalogue when the store's first arrive", () => {
  const { db, applier, cat } = joined(true);
  db.prepare("INSERT INTO pos_users (id, name, role, pin_hash, created_ts) VALUES ('mine', 'Local', 'manager', 'x', 0)").run();
  db.prepare("INSERT INTO settings (key, value) VALUES ('store-settings', '{\"storeName\":\"Mine\"}'), ('gateway_connection', '{}')").run();
  const own = cat.add(itemFieldsSchema.parse({ name: 'Own', priceCents: 100, trackStock: true }));
  new StockLedger(db).record({ itemId: own.id, variantId: null, delta: 4, reason: 'count' });
  const user = row('pos_users', ['store-user'], { id: 'store-user', name: 'Sam', role: 'manager', pin_hash: 'h', sort: 0, failed_attempts: 0, locked_until: 0, created_ts: 1 });
  const settings = row('settings', ['store-settings'], { key: 'store-settings', value: '{"storeName":"The store"}' });
  const item = row('catalogue_items', ['store-item'], itemRow('store-item', 'Store item', 100));
  applier.apply([user, settings, item], item.seq, 'me');
  expect(db.prepare('SELECT id FROM pos_users').pluck().all()).toEqual(['store-user']);
  expect(db.prepare("SELECT value FROM settings WHERE key = 'store-settings'").pluck().get()).toBe('{"storeName":"The store"}');
  // This register's own setting (its gateway) is not the store's: it stays.
  expect(db.prepare("SELECT 1 FROM settings WHERE key = 'gateway_connection'").get()).toBeDefined();
  expect(cat.list({ includeArchived: true }).map((i) => i.name)).toEqual(['Store item']);
  expect(db.prepare('SELECT COUNT(*) FROM stock_movements').pluck().get()).toBe(0);
  expect(readSyncState(db).resetPending).toBe(false);
  expect(outbox(db)).toEqual([]);
  db.close();
});
