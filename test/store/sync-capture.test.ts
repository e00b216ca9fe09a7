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
import { itemFieldsSchema } from '../../shared/ipc/catalogue';
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
