/**
 * The register's capture for its store (sync-capture.ts), on a real migrated ringup.db: a
 * register in no store writes nothing to the outbox; a joined one writes one outbox row per
 * shared change, in the change's own transaction (a change rolled back leaves none); applying
 * pulled changes writes none; and the outbox reader turns the rows into the events pushed, with
 * each row as it is now.
 */
import { expect, test } from 'vitest';
import { openPosDatabase, setSetting, type PosDatabase } from '../../electron/core/platform/pos-database';
import { Catalogue } from '../../electron/core/catalogue/catalogue';
import { AuditLog } from '../../electron/core/audit/audit-log';
import { StockLedger } from '../../electron/core/catalogue/stock-ledger';
import { setApplying, writeJoined } from '../../electron/core/store/sync-state';
import { OutboxReader } from '../../electron/core/store/outbox-reader';
import { RefundLedger } from '../../electron/core/transactions/refund-ledger';
import { FACT_BODY_SCHEMAS } from '../../shared/store/store-fact-bodies';
import { REGISTER_OWN_COLUMNS, SHARED_UPDATE_COLUMNS } from '../../electron/core/store/sync-capture';
import { itemFieldsSchema } from '../../shared/ipc/catalogue';
import { FACT_KINDS, SHARED_ROW_TABLES } from '../../shared/store/store-wire';
import { tempDirs } from '../helpers/temp-dirs';

const { newDir } = tempDirs();

const outbox = (db: PosDatabase) => db.prepare('SELECT type, kind, op, key, seen_seq FROM sync_outbox ORDER BY seq').all() as Array<{ type: string; kind: string; op: string | null; key: string; seen_seq: number | null }>;
const join = (db: PosDatabase, lastSeq = 0) => writeJoined(db, { storeId: 's1', registerId: 'r1', registerName: 'Front', addresses: ['https://127.0.0.1:1'], certPem: 'pem', lastSeq, resetPending: false, gateway: null });
const item = (name: string, priceCents: number, sku = '') => itemFieldsSchema.parse({ name, priceCents, sku, trackStock: true });

test('a register in no store writes nothing to the outbox', () => {
  const db = openPosDatabase(newDir('ringup-cap-'));
  const cat = new Catalogue(db);
  const a = cat.add(item('Tea', 300));
  cat.update(a.id, item('Tea', 350));
  new AuditLog(db).record({ kind: 'sign-in', user: null });
  setSetting(db, 'store-settings', '{}');
  expect(outbox(db)).toEqual([]);
  db.close();
});

test('a joined register writes one outbox row per change, in the same transaction; the store settings only, not its own', () => {
  const db = openPosDatabase(newDir('ringup-cap-'));
  join(db, 7);
  const cat = new Catalogue(db);
  const tea = cat.add(item('Tea', 300, 'TEA1'));
  expect(outbox(db)).toEqual([{ type: 'row', kind: 'catalogue_items', op: 'upsert', key: JSON.stringify([tea.id]), seen_seq: 7 }]);
  db.prepare('DELETE FROM sync_outbox').run();
  // A change that rolls back leaves no outbox row either.
  expect(() =>
    db.transaction(() => {
      cat.update(tea.id, item('Tea', 999, 'TEA1'));
      throw new Error('the sale failed');
    })(),
  ).toThrow('the sale failed');
  expect(outbox(db)).toEqual([]);
  setSetting(db, 'store-settings', '{"storeName":"Corner"}');
  setSetting(db, 'gateway_connection', '{"kind":"embedded"}');
  new AuditLog(db).record({ kind: 'sign-in', user: null });
  new StockLedger(db).record({ itemId: tea.id, variantId: null, delta: 5, reason: 'adjust' });
  expect(outbox(db).map((o) => `${o.type} ${o.kind} ${o.op ?? ''}`)).toEqual(['row settings upsert', 'fact audit_log ', 'fact stock_movements ']);
  db.close();
});

test('applying pulled changes does not echo them; the reader sends each row as it is now, and a row deleted since sends only its delete', () => {
  const db = openPosDatabase(newDir('ringup-cap-'));
  join(db);
  const cat = new Catalogue(db);
  setApplying(db, true);
  const pulled = cat.add(item('Pulled', 100));
  setApplying(db, false);
  expect(outbox(db)).toEqual([]);
  const tea = cat.add(item('Tea', 300));
  cat.update(tea.id, item('Tea', 325));
  db.prepare('INSERT INTO catalogue_item_groups (item_id, group_id, seq) SELECT ?, id, 1 FROM modifier_groups').run(pulled.id);
  db.prepare("INSERT INTO modifier_groups (id, name, min_choices, max_choices, created_ts) VALUES ('g1', 'Milk', 0, 1, 0)").run();
  db.prepare("INSERT INTO catalogue_item_groups (item_id, group_id, seq) VALUES (?, 'g1', 1)").run(tea.id);
  db.prepare("DELETE FROM catalogue_item_groups WHERE item_id = ? AND group_id = 'g1'").run(tea.id);
  const batch = new OutboxReader(db).read('r1');
  const summary = batch.events.map((e) => (e.type === 'row' ? `${e.table} ${e.op} ${JSON.stringify(e.key)} ${e.row ? String(e.row.price_cents ?? e.row.name ?? '') : ''}` : e.kind));
  expect(summary).toEqual([
    `catalogue_items upsert ["${tea.id}"] 325`,
    `catalogue_items upsert ["${tea.id}"] 325`,
    'modifier_groups upsert ["g1"] Milk',
    // The link was made and removed before the push: its upsert finds nothing, its delete goes.
    `catalogue_item_groups delete ["${tea.id}","g1"] `,
  ]);
  expect(batch.events[0]!.id).toMatch(/^r1:\d+$/);
  expect(batch.throughSeq).toBe(5);
  new OutboxReader(db).deleteUpTo(batch.throughSeq);
  expect(outbox(db)).toEqual([]);
  db.close();
});

test("what the store shares is this register's schema: each shared table's key is its primary key, and every shared table and fact has its capture triggers", () => {
  const db = openPosDatabase(newDir('ringup-cap-'));
  for (const t of SHARED_ROW_TABLES) {
    const pk = (db.prepare(`PRAGMA table_info(${t.table})`).all() as Array<{ name: string; pk: number }>)
      .filter((c) => c.pk > 0)
      .sort((x, y) => x.pk - y.pk)
      .map((c) => c.name);
    expect(pk, t.table).toEqual([...t.key]);
  }
  const triggers = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'sync_%'").pluck().all() as string[]);
  for (const t of SHARED_ROW_TABLES) for (const what of ['in', 'up', 'rekey', 'out']) expect(triggers.has(`sync_${t.table}_${what}`), `${t.table} ${what}`).toBe(true);
  for (const f of FACT_KINDS.filter((k) => k !== 'cart')) expect(triggers.has(`sync_${f}_fact`), f).toBe(true);
  for (const c of ['closed', 'tender_in', 'tender_up', 'line_up']) expect(triggers.has(`sync_cart_${c}`), c).toBe(true);
  db.close();
});

test('a cart is sent when it closes and again when a closed cart changes, one snapshot waiting at a time, with its lines and tenders', () => {
  const db = openPosDatabase(newDir('ringup-cap-'));
  join(db);
  db.prepare("INSERT INTO carts (id, user_id, status, total_cents, created_ts) VALUES ('c1', 'u1', 'open', 0, 1)").run();
  db.prepare("INSERT INTO cart_lines (id, cart_id, seq, name, unit_cents, quantity, tax_category) VALUES ('l1', 'c1', 1, 'Tea', 300, 1, 'standard')").run();
  db.prepare(
    "INSERT INTO cart_tenders (id, cart_id, seq, kind, status, requested_cents, approved_cents, tendered_cents, change_cents, created_ts) VALUES ('t1', 'c1', 1, 'cash', 'approved', 300, 300, 500, 200, 1)",
  ).run();
  // An open cart is the cashier's business: nothing goes.
  expect(outbox(db)).toEqual([]);
  db.prepare("UPDATE carts SET status = 'paid', total_cents = 300, closed_ts = 2 WHERE id = 'c1'").run();
  expect(outbox(db)).toEqual([{ type: 'fact', kind: 'cart', op: null, key: 'c1', seen_seq: null }]);
  // A refund changes the closed cart: its newer snapshot replaces the one still waiting.
  db.prepare("UPDATE cart_lines SET refunded = 1 WHERE id = 'l1'").run();
  db.prepare("UPDATE cart_tenders SET refunded_cents = 300 WHERE id = 't1'").run();
  expect(outbox(db).map((o) => `${o.kind} ${o.key}`)).toEqual(['cart c1']);
  const [event] = new OutboxReader(db).read('r1').events;
  expect(event).toMatchObject({ type: 'fact', kind: 'cart', key: 'c1', body: { id: 'c1', status: 'paid', total_cents: 300, lines: [{ id: 'l1', refunded: 1 }], tenders: [{ id: 't1', refunded_cents: 300 }] } });
  db.close();
});

test('a card refund is sent once as its own fact, with the sale it gives back to, in a body the store server reads', () => {
  const db = openPosDatabase(newDir('ringup-cap-'));
  join(db);
  const ledger = new RefundLedger(db);
  ledger.record('rf-1', 'tx-sale-on-another-register', 325, 1_900_000_000);
  // The same refund recorded again (a retry) is ignored by the ledger, and so by its trigger.
  ledger.record('rf-1', 'tx-sale-on-another-register', 325, 1_900_000_000);
  expect(outbox(db)).toEqual([{ type: 'fact', kind: 'refunds', op: null, key: 'rf-1', seen_seq: null }]);
  const [event] = new OutboxReader(db).read('r1').events;
  expect(event).toMatchObject({ type: 'fact', kind: 'refunds', key: 'rf-1', body: { refund_id: 'rf-1', original_id: 'tx-sale-on-another-register', cents: 325, created_ts: 1_900_000_000 } });
  expect(event!.type === 'fact' && FACT_BODY_SCHEMAS.refunds.safeParse(event!.body).success).toBe(true);
  db.close();
});

test("a user's wrong-PIN count stays on the register where the PIN was typed; a PIN, name or role change is sent", () => {
  const db = openPosDatabase(newDir('ringup-cap-'));
  const all = (db.prepare('PRAGMA table_info(pos_users)').all() as Array<{ name: string }>).map((c) => c.name).sort();
  const own = REGISTER_OWN_COLUMNS.pos_users!;
  const sent = SHARED_UPDATE_COLUMNS.pos_users!;
  // Every column is in one list or the other (a column added to pos_users later must be placed).
  expect([...own, ...sent].sort()).toEqual(all);
  expect(own.filter((c) => sent.includes(c))).toEqual([]);
  db.prepare("INSERT INTO pos_users (id, name, role, pin_hash, created_ts) VALUES ('u1', 'Casey', 'cashier', 'h1', 0)").run();
  join(db);
  db.prepare("UPDATE pos_users SET failed_attempts = 3, locked_until = 99 WHERE id = 'u1'").run();
  db.prepare("UPDATE pos_users SET failed_attempts = 0, locked_until = 0 WHERE id = 'u1'").run();
  expect(outbox(db)).toEqual([]);
  db.prepare("UPDATE pos_users SET pin_hash = 'h2' WHERE id = 'u1'").run();
  expect(outbox(db).map((o) => `${o.kind} ${o.op ?? ''} ${o.key}`)).toEqual(['pos_users upsert ["u1"]']);
  db.close();
});
