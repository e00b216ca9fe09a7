/**
 * The core's own SQLite database, `<dataDir>/ringup.db`: POS users (PIN hashes),
 * the refund ledger, who did each transaction (clerk records), small settings (the store
 * settings among them) and the append-only audit log. The gateway engine keeps its own database
 * under `<dataDir>/gateway/`; nothing here duplicates a transaction, and nothing
 * here ever holds card data.
 */
import { chmodSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { ownerOnlyFile, ownerOnlyFolder } from './data-dir';
import { openDatabase } from '../../common/sqlite';
import { WalCheckpointer } from '../../common/wal-checkpointer';
import { AUDIT_GENESIS_HASH, AUDIT_HASH_SQL_FUNCTION, installAuditHashFunction } from '../audit/audit-chain';
import { SYNC_MIGRATION_STEP } from '../store/sync-capture';

export type PosDatabase = Database.Database;

/**
 * The offline queue's triggers that keep offline_queue_totals (what waits) in step with each
 * change, in the same transaction. Written once, run by two migrations: the one that makes the
 * queue and the one that rebuilds its table (dropping a table drops its triggers). The text is
 * what both migrations always ran, indentation included: SQLite stores it in sqlite_master.
 * Never edit it: a change to the triggers is a new migration.
 */
const OFFLINE_QUEUE_TRIGGERS = `CREATE TRIGGER offline_queue_in AFTER INSERT ON offline_queue WHEN NEW.state = 'pending'
     BEGIN UPDATE offline_queue_totals SET pending_count = pending_count + 1, pending_cents = pending_cents + NEW.amount_cents; END;
   CREATE TRIGGER offline_queue_done AFTER UPDATE OF state ON offline_queue WHEN OLD.state = 'pending' AND NEW.state <> 'pending'
     BEGIN UPDATE offline_queue_totals SET pending_count = pending_count - 1, pending_cents = pending_cents - OLD.amount_cents; END;
   CREATE TRIGGER offline_queue_again AFTER UPDATE OF state ON offline_queue WHEN OLD.state <> 'pending' AND NEW.state = 'pending'
     BEGIN UPDATE offline_queue_totals SET pending_count = pending_count + 1, pending_cents = pending_cents + NEW.amount_cents; END;
   CREATE TRIGGER offline_queue_gone AFTER DELETE ON offline_queue WHEN OLD.state = 'pending'
     BEGIN UPDATE offline_queue_totals SET pending_count = pending_count - 1, pending_cents = pending_cents - OLD.amount_cents; END;`;

/** The database's schema, one step a version (user_version); a step, once shipped, is never edited. */
export const POS_MIGRATIONS: readonly string[] = [
  `CREATE TABLE pos_users (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     role TEXT NOT NULL CHECK (role IN ('cashier', 'manager')),
     pin_hash TEXT NOT NULL,
     sort INTEGER NOT NULL DEFAULT 0,
     failed_attempts INTEGER NOT NULL DEFAULT 0,
     locked_until INTEGER NOT NULL DEFAULT 0,
     created_ts INTEGER NOT NULL
   );
   CREATE TABLE refund_ledger (
     refund_id TEXT PRIMARY KEY,
     original_id TEXT NOT NULL,
     cents INTEGER NOT NULL CHECK (cents > 0),
     created_ts INTEGER NOT NULL
   );
   CREATE INDEX refund_ledger_original ON refund_ledger (original_id);
   CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);`,
  // The installer role (issue 12): SQLite cannot change a CHECK, so the table is rebuilt.
  `CREATE TABLE pos_users_v2 (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     role TEXT NOT NULL CHECK (role IN ('cashier', 'manager', 'installer')),
     pin_hash TEXT NOT NULL,
     sort INTEGER NOT NULL DEFAULT 0,
     failed_attempts INTEGER NOT NULL DEFAULT 0,
     locked_until INTEGER NOT NULL DEFAULT 0,
     created_ts INTEGER NOT NULL
   );
   INSERT INTO pos_users_v2 SELECT id, name, role, pin_hash, sort, failed_attempts, locked_until, created_ts FROM pos_users;
   DROP TABLE pos_users;
   ALTER TABLE pos_users_v2 RENAME TO pos_users;`,
  // The audit log (audit-log.ts): append-only. The app has no UPDATE or DELETE path,
  // and these triggers refuse both, so not even a bug elsewhere in the core can
  // rewrite history. (Someone with the file and the sqlite3 tool can still drop the
  // triggers: this guards the app, not the disk; the hash chain added later, audit-chain.ts, detects that.)
  `CREATE TABLE audit_log (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     ts INTEGER NOT NULL,
     kind TEXT NOT NULL,
     user_id TEXT,
     user_name TEXT,
     amount_cents INTEGER,
     transaction_id TEXT,
     detail TEXT NOT NULL DEFAULT ''
   );
   CREATE INDEX audit_log_ts ON audit_log (ts);
   CREATE INDEX audit_log_user ON audit_log (user_id, ts);
   CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
     BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
   CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
     BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;`,
  // Who rang up, refunded or voided each transaction (see clerk-records.ts); `ref` is the receipt's short reference.
  `CREATE TABLE clerk_records (
     transaction_id TEXT NOT NULL,
     action TEXT NOT NULL CHECK (action IN ('sale', 'refund', 'void')),
     user_id TEXT NOT NULL,
     user_name TEXT NOT NULL,
     linked_to TEXT,
     created_ts INTEGER NOT NULL,
     ref TEXT GENERATED ALWAYS AS (upper(substr(replace(transaction_id, '-', ''), -8))) VIRTUAL,
     PRIMARY KEY (transaction_id, action)
   );
   CREATE INDEX clerk_records_ref ON clerk_records (ref);
   CREATE INDEX clerk_records_linked ON clerk_records (linked_to) WHERE linked_to IS NOT NULL;`,
  // The offline store-and-forward queue (issue 13, offline-queue.ts). `card_blob` is the card
  // data, AES-256-GCM encrypted with a SecretStore key; it is set to NULL once forwarded.
  `CREATE TABLE offline_queue (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     client_ref TEXT NOT NULL UNIQUE,
     amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
     tax_cents INTEGER NOT NULL DEFAULT 0,
     tip_cents INTEGER NOT NULL DEFAULT 0,
     card_brand TEXT NOT NULL,
     last_four TEXT NOT NULL,
     zip TEXT NOT NULL DEFAULT '',
     clerk_id TEXT NOT NULL,
     clerk_name TEXT NOT NULL,
     clerk_number TEXT,
     location_id TEXT,
     product_transaction_id TEXT,
     collects_rest_of TEXT,
     card_blob BLOB,
     queued_ts INTEGER NOT NULL,
     expires_ts INTEGER NOT NULL,
     state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'approved', 'declined', 'error', 'expired')),
     attempts INTEGER NOT NULL DEFAULT 0,
     next_try_ts INTEGER NOT NULL DEFAULT 0,
     message TEXT,
     transaction_id TEXT,
     forwarded_ts INTEGER
   );
   CREATE INDEX offline_queue_pending ON offline_queue (state, seq, amount_cents, expires_ts);
   -- What waits, kept by triggers in the same transaction as each change, so the total-cap check
   -- of an enqueue reads one row instead of summing the queue.
   CREATE TABLE offline_queue_totals (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     pending_count INTEGER NOT NULL,
     pending_cents INTEGER NOT NULL
   );
   INSERT INTO offline_queue_totals VALUES (1, 0, 0);
   ${OFFLINE_QUEUE_TRIGGERS}`,
  // The catalogue and carts (issue 15, catalogue.ts and cart-store.ts). A cart's lines copy
  // the item's name, price and codes, so editing the catalogue never rewrites a past sale.
  `CREATE TABLE catalogue_items (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     price_cents INTEGER NOT NULL CHECK (price_cents > 0),
     sku TEXT NOT NULL DEFAULT '',
     product_code TEXT NOT NULL DEFAULT '',
     unit_code TEXT NOT NULL DEFAULT 'EA',
     commodity_code TEXT NOT NULL DEFAULT '',
     tax_category TEXT NOT NULL DEFAULT 'standard',
     quick_key INTEGER NOT NULL DEFAULT 0,
     archived INTEGER NOT NULL DEFAULT 0,
     created_ts INTEGER NOT NULL
   );
   CREATE TABLE carts (
     id TEXT PRIMARY KEY,
     user_id TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('open', 'paid', 'cancelling', 'cancelled')),
     cart_discount TEXT,
     discount_approved_by TEXT,
     total_cents INTEGER NOT NULL DEFAULT 0,
     created_ts INTEGER NOT NULL,
     closed_ts INTEGER
   );
   CREATE UNIQUE INDEX carts_one_open ON carts (user_id) WHERE status IN ('open', 'cancelling');
   CREATE TABLE cart_lines (
     id TEXT PRIMARY KEY,
     cart_id TEXT NOT NULL REFERENCES carts (id),
     seq INTEGER NOT NULL,
     item_id TEXT,
     name TEXT NOT NULL,
     unit_cents INTEGER NOT NULL CHECK (unit_cents > 0),
     quantity INTEGER NOT NULL CHECK (quantity > 0),
     tax_category TEXT NOT NULL,
     product_code TEXT NOT NULL DEFAULT '',
     unit_code TEXT NOT NULL DEFAULT 'EA',
     commodity_code TEXT NOT NULL DEFAULT '',
     discount TEXT,
     refunded INTEGER NOT NULL DEFAULT 0
   );
   CREATE INDEX cart_lines_cart ON cart_lines (cart_id, seq);
   CREATE TABLE cart_tenders (
     id TEXT PRIMARY KEY,
     cart_id TEXT NOT NULL REFERENCES carts (id),
     seq INTEGER NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN ('cash', 'card', 'saved-card', 'terminal')),
     status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'declined', 'reversed')),
     requested_cents INTEGER NOT NULL,
     approved_cents INTEGER NOT NULL,
     tendered_cents INTEGER NOT NULL,
     change_cents INTEGER NOT NULL,
     transaction_id TEXT,
     refunded_cents INTEGER NOT NULL DEFAULT 0 CHECK (refunded_cents <= approved_cents),
     level3_sent INTEGER,
     level3_note TEXT,
     created_ts INTEGER NOT NULL
   );
   CREATE INDEX cart_tenders_cart ON cart_tenders (cart_id, seq);
   CREATE INDEX cart_tenders_ts ON cart_tenders (created_ts);
   -- Every movement of cash in or out of the drawer (cash tenders in; line returns and cancelled sales out), for expected cash.
   CREATE TABLE cash_movements (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     cart_id TEXT NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN ('sale', 'refund', 'return')),
     cents INTEGER NOT NULL,
     ts INTEGER NOT NULL
   );
   CREATE INDEX cash_movements_ts ON cash_movements (ts);`,
  // The share a manager's discount approval was given for (basis points): it covers that share,
  // not a larger one a later edit (a line removed, a quantity lowered) would make.
  `ALTER TABLE carts ADD COLUMN discount_approved_bp INTEGER;`,
  // The offline queue, second shape (issue 13 follow-ups): a pending sale may be withdrawn (a
  // cart cancelled before it was sent); card-present sales keep their entry mode (C chip,
  // S swiped, P contactless; K keyed); the customer's name and phone or e-mail, given at the
  // counter, reach the manager when a sale is declined after the customer left. SQLite cannot
  // change a CHECK, so the table is rebuilt (its triggers go with it and are made again).
  `CREATE TABLE offline_queue_v2 (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     client_ref TEXT NOT NULL UNIQUE,
     amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
     tax_cents INTEGER NOT NULL DEFAULT 0,
     tip_cents INTEGER NOT NULL DEFAULT 0,
     card_brand TEXT NOT NULL,
     last_four TEXT NOT NULL,
     zip TEXT NOT NULL DEFAULT '',
     entry_mode TEXT NOT NULL DEFAULT 'K' CHECK (entry_mode IN ('K', 'S', 'C', 'P')),
     customer_name TEXT NOT NULL DEFAULT '',
     customer_contact TEXT NOT NULL DEFAULT '',
     clerk_id TEXT NOT NULL,
     clerk_name TEXT NOT NULL,
     clerk_number TEXT,
     location_id TEXT,
     product_transaction_id TEXT,
     collects_rest_of TEXT,
     card_blob BLOB,
     queued_ts INTEGER NOT NULL,
     expires_ts INTEGER NOT NULL,
     state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'approved', 'declined', 'error', 'expired', 'withdrawn')),
     attempts INTEGER NOT NULL DEFAULT 0,
     next_try_ts INTEGER NOT NULL DEFAULT 0,
     message TEXT,
     transaction_id TEXT,
     forwarded_ts INTEGER
   );
   INSERT INTO offline_queue_v2 (seq, client_ref, amount_cents, tax_cents, tip_cents, card_brand, last_four, zip, clerk_id, clerk_name, clerk_number,
       location_id, product_transaction_id, collects_rest_of, card_blob, queued_ts, expires_ts, state, attempts, next_try_ts, message, transaction_id, forwarded_ts)
     SELECT seq, client_ref, amount_cents, tax_cents, tip_cents, card_brand, last_four, zip, clerk_id, clerk_name, clerk_number,
       location_id, product_transaction_id, collects_rest_of, card_blob, queued_ts, expires_ts, state, attempts, next_try_ts, message, transaction_id, forwarded_ts
     FROM offline_queue;
   DROP TABLE offline_queue;
   ALTER TABLE offline_queue_v2 RENAME TO offline_queue;
   CREATE INDEX offline_queue_pending ON offline_queue (state, seq, amount_cents, expires_ts);
   ${OFFLINE_QUEUE_TRIGGERS}`,
  // A paid cart one of whose card payments a manager voided afterwards is `due` (issue 20): it is
  // no longer paid, and what that card paid is owed. SQLite cannot change a CHECK, so the table is
  // rebuilt (the migrations run with foreign keys off, and are checked before they commit).
  `CREATE TABLE carts_v2 (
     id TEXT PRIMARY KEY,
     user_id TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('open', 'paid', 'due', 'cancelling', 'cancelled')),
     cart_discount TEXT,
     discount_approved_by TEXT,
     total_cents INTEGER NOT NULL DEFAULT 0,
     created_ts INTEGER NOT NULL,
     closed_ts INTEGER,
     discount_approved_bp INTEGER
   );
   INSERT INTO carts_v2 (id, user_id, status, cart_discount, discount_approved_by, total_cents, created_ts, closed_ts, discount_approved_bp)
     SELECT id, user_id, status, cart_discount, discount_approved_by, total_cents, created_ts, closed_ts, discount_approved_bp FROM carts;
   DROP TABLE carts;
   ALTER TABLE carts_v2 RENAME TO carts;
   CREATE UNIQUE INDEX carts_one_open ON carts (user_id) WHERE status IN ('open', 'cancelling');`,
  // References made and bound by the core (issue 20, point 2, tender-refs.ts): each
  // transaction_api_id the core sends for new money, with the one tender it was made for, on
  // disk before the request leaves; transaction_id is the answer it was counted for (one
  // reference per transaction: a transaction another reference took is never counted again).
  `CREATE TABLE tender_refs (
     ref TEXT PRIMARY KEY,
     binding_key TEXT NOT NULL,
     owner TEXT NOT NULL,
     scope TEXT NOT NULL,
     attempt TEXT NOT NULL,
     amount_cents INTEGER NOT NULL CHECK (amount_cents >= 0),
     tip_cents INTEGER,
     method TEXT NOT NULL CHECK (method IN ('cc', 'ach')),
     action TEXT NOT NULL CHECK (action IN ('sale', 'debit')),
     instrument TEXT NOT NULL,
     transaction_id TEXT UNIQUE,
     answer TEXT CHECK (answer IN ('approved', 'not_approved')),
     created_ts INTEGER NOT NULL
   );
   CREATE INDEX tender_refs_binding ON tender_refs (binding_key);
   CREATE INDEX tender_refs_attempt ON tender_refs (owner, scope, attempt);`,
  // Payments whose outcome is not known yet (issue 20, point 3, lost-payments.ts): written with
  // their cashier before the request leaves, gone once the gateway answers; what a timeout, a
  // kill or a power cut leaves behind is resolved by lookups after a restart too, and stays
  // listed until someone at the counter has seen what it became (seen_by).
  `CREATE TABLE lost_payments (
     ref TEXT PRIMARY KEY,
     way TEXT NOT NULL CHECK (way IN ('keyed', 'saved', 'terminal', 'check')),
     user_id TEXT NOT NULL,
     user_name TEXT NOT NULL,
     user_role TEXT NOT NULL,
     amount_cents INTEGER NOT NULL CHECK (amount_cents >= 0),
     collects_rest_of TEXT,
     boot TEXT NOT NULL,
     first_sent_ms INTEGER NOT NULL,
     last_sent_ms INTEGER NOT NULL,
     bound_ms INTEGER NOT NULL,
     state TEXT NOT NULL CHECK (state IN ('sent', 'lost', 'approved', 'declined', 'not_charged', 'not_counted')),
     transaction_id TEXT,
     concluded_ms INTEGER,
     seen_by TEXT,
     seen_ms INTEGER
   );
   CREATE INDEX lost_payments_shown ON lost_payments (state, seen_by);`,
  // A due cart being collected (issue 20, point 4: cart:collect): the counter user whose cart to
  // tender it is until it is paid. Its own user_id stays the cashier who sold it (the receipt's
  // cashier); one collector per cart, and one due cart per collector.
  `ALTER TABLE carts ADD COLUMN collector_id TEXT;
   CREATE UNIQUE INDEX carts_one_collecting ON carts (collector_id) WHERE status = 'due' AND collector_id IS NOT NULL;`,
  // The power-cut window of the offline queue (issue 20, point 3): a queued sale is forwarded
  // only once the screen that took it said "Approved offline" (acked = 1). boot_id names the
  // run of the app that queued it (one left unacknowledged by an earlier run is shown at the
  // next sign-in), owner the window and user that may acknowledge it. New rows start
  // unacknowledged (the default is 0); the rows already there were queued before this rule, by
  // a screen that showed them, so they count as acknowledged.
  `ALTER TABLE offline_queue ADD COLUMN acked INTEGER NOT NULL DEFAULT 0 CHECK (acked IN (0, 1));
   ALTER TABLE offline_queue ADD COLUMN boot_id TEXT;
   ALTER TABLE offline_queue ADD COLUMN owner TEXT;
   UPDATE offline_queue SET acked = 1;
   CREATE INDEX offline_queue_unacked ON offline_queue (seq) WHERE acked = 0 AND state = 'pending';`,
  // Each tender's share of its cart's tax (issue 21, point 3: shared/cart/tender-tax.ts), fixed
  // when the tender is begun: what a card sent as its tax, and what the reports count for cash.
  // Tenders taken before it keep 0; their card's tax is in the gateway's record as before.
  `ALTER TABLE cart_tenders ADD COLUMN tax_cents INTEGER NOT NULL DEFAULT 0 CHECK (tax_cents >= 0);`,
  // Issue 21, point 10a: a card tender of a cart may carry a tip on top of its part of the
  // balance (the tip is the card's, never part of what the cart's lines are paid with).
  `ALTER TABLE cart_tenders ADD COLUMN tip_cents INTEGER NOT NULL DEFAULT 0 CHECK (tip_cents >= 0);`,
  // The audit log's hash chain (issue 22, point 2; audit-chain.ts): each row carries the hash of
  // the row before it and its own. The rows already there are chained here in seq order (a
  // recursive walk calling audit_row_hash, which openPosDatabase registers), with the UPDATE
  // trigger lifted for this one step only. From now on an insert must carry its hash and name the
  // newest row's as its prev_hash, so no path of the app can write an unchained row.
  `ALTER TABLE audit_log ADD COLUMN prev_hash TEXT;
   ALTER TABLE audit_log ADD COLUMN hash TEXT;
   DROP TRIGGER audit_log_no_update;
   WITH RECURSIVE chain (seq, prev_hash, hash) AS MATERIALIZED (
     SELECT seq, '${AUDIT_GENESIS_HASH}', ${AUDIT_HASH_SQL_FUNCTION}('${AUDIT_GENESIS_HASH}', seq, ts, kind, user_id, user_name, amount_cents, transaction_id, detail)
       FROM audit_log WHERE seq = (SELECT MIN(seq) FROM audit_log)
     UNION ALL
     SELECT a.seq, c.hash, ${AUDIT_HASH_SQL_FUNCTION}(c.hash, a.seq, a.ts, a.kind, a.user_id, a.user_name, a.amount_cents, a.transaction_id, a.detail)
       FROM chain c JOIN audit_log a ON a.seq = (SELECT MIN(seq) FROM audit_log WHERE seq > c.seq)
   )
   UPDATE audit_log SET prev_hash = chain.prev_hash, hash = chain.hash FROM chain WHERE chain.seq = audit_log.seq;
   CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
     BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
   CREATE TRIGGER audit_log_chained BEFORE INSERT ON audit_log
     WHEN NEW.hash IS NULL OR NEW.prev_hash IS NOT COALESCE((SELECT hash FROM audit_log ORDER BY seq DESC LIMIT 1), '${AUDIT_GENESIS_HASH}')
     BEGIN SELECT RAISE(ABORT, 'audit_log rows are chained: write them through AuditLog'); END;`,
  // Catalogue depth (issue 23, point 6; electron/core/catalogue/): categories, an item's variants
  // (own price and SKU), modifier groups and their choices, which groups an item offers (in
  // order), and stock as a ledger of movements (on hand is their sum, never a stored count: a
  // store's registers can merge ledgers, issue 24). Categories, variants, groups and choices are
  // archived, never deleted: past lines and movements point at them. A SKU names one item or
  // variant across both tables, any case: the triggers refuse a write that would make it name
  // two (rows already there are left alone). A cart line keeps the choice it was sold with
  // (JSON, names and prices as they were); a cart remembers which items it warned about.
  `CREATE TABLE catalogue_categories (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     colour TEXT NOT NULL,
     sort_order INTEGER NOT NULL DEFAULT 0,
     archived INTEGER NOT NULL DEFAULT 0,
     created_ts INTEGER NOT NULL
   );
   ALTER TABLE catalogue_items ADD COLUMN category_id TEXT REFERENCES catalogue_categories (id);
   ALTER TABLE catalogue_items ADD COLUMN track_stock INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE catalogue_items ADD COLUMN reorder_level INTEGER NOT NULL DEFAULT 0;
   CREATE TABLE catalogue_variants (
     id TEXT PRIMARY KEY,
     item_id TEXT NOT NULL REFERENCES catalogue_items (id),
     seq INTEGER NOT NULL,
     name TEXT NOT NULL,
     price_cents INTEGER NOT NULL CHECK (price_cents > 0),
     sku TEXT NOT NULL DEFAULT '',
     archived INTEGER NOT NULL DEFAULT 0
   );
   CREATE INDEX catalogue_variants_item ON catalogue_variants (item_id, seq);
   CREATE INDEX catalogue_variants_sku ON catalogue_variants (lower(sku)) WHERE sku <> '';
   CREATE INDEX catalogue_items_sku ON catalogue_items (lower(sku)) WHERE sku <> '';
   CREATE TRIGGER catalogue_variant_sku_in BEFORE INSERT ON catalogue_variants WHEN NEW.sku <> '' AND (
       EXISTS (SELECT 1 FROM catalogue_items WHERE lower(sku) = lower(NEW.sku) AND sku <> '')
       OR EXISTS (SELECT 1 FROM catalogue_variants WHERE lower(sku) = lower(NEW.sku) AND sku <> ''))
     BEGIN SELECT RAISE(ABORT, 'a SKU names one item or variant'); END;
   CREATE TRIGGER catalogue_variant_sku_up BEFORE UPDATE OF sku ON catalogue_variants WHEN NEW.sku <> '' AND lower(NEW.sku) <> lower(OLD.sku) AND (
       EXISTS (SELECT 1 FROM catalogue_items WHERE lower(sku) = lower(NEW.sku) AND sku <> '')
       OR EXISTS (SELECT 1 FROM catalogue_variants WHERE lower(sku) = lower(NEW.sku) AND sku <> '' AND id <> NEW.id))
     BEGIN SELECT RAISE(ABORT, 'a SKU names one item or variant'); END;
   CREATE TRIGGER catalogue_item_sku_in BEFORE INSERT ON catalogue_items WHEN NEW.sku <> '' AND (
       EXISTS (SELECT 1 FROM catalogue_variants WHERE lower(sku) = lower(NEW.sku) AND sku <> '')
       OR EXISTS (SELECT 1 FROM catalogue_items WHERE lower(sku) = lower(NEW.sku) AND sku <> ''))
     BEGIN SELECT RAISE(ABORT, 'a SKU names one item or variant'); END;
   CREATE TRIGGER catalogue_item_sku_up BEFORE UPDATE OF sku ON catalogue_items WHEN NEW.sku <> '' AND lower(NEW.sku) <> lower(OLD.sku) AND (
       EXISTS (SELECT 1 FROM catalogue_variants WHERE lower(sku) = lower(NEW.sku) AND sku <> '')
       OR EXISTS (SELECT 1 FROM catalogue_items WHERE lower(sku) = lower(NEW.sku) AND sku <> '' AND id <> NEW.id))
     BEGIN SELECT RAISE(ABORT, 'a SKU names one item or variant'); END;
   CREATE TABLE modifier_groups (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     min_choices INTEGER NOT NULL CHECK (min_choices >= 0),
     max_choices INTEGER NOT NULL CHECK (max_choices >= 1 AND max_choices >= min_choices),
     archived INTEGER NOT NULL DEFAULT 0,
     created_ts INTEGER NOT NULL
   );
   CREATE TABLE modifier_options (
     id TEXT PRIMARY KEY,
     group_id TEXT NOT NULL REFERENCES modifier_groups (id),
     seq INTEGER NOT NULL,
     name TEXT NOT NULL,
     price_cents INTEGER NOT NULL CHECK (price_cents >= 0),
     archived INTEGER NOT NULL DEFAULT 0
   );
   CREATE INDEX modifier_options_group ON modifier_options (group_id, seq);
   CREATE TABLE catalogue_item_groups (
     item_id TEXT NOT NULL REFERENCES catalogue_items (id),
     group_id TEXT NOT NULL REFERENCES modifier_groups (id),
     seq INTEGER NOT NULL,
     PRIMARY KEY (item_id, group_id)
   );
   ALTER TABLE cart_lines ADD COLUMN choice TEXT;
   ALTER TABLE carts ADD COLUMN stock_warning TEXT;
   ALTER TABLE carts ADD COLUMN stock_warned TEXT;
   CREATE TABLE stock_movements (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     id TEXT NOT NULL UNIQUE,
     item_id TEXT NOT NULL REFERENCES catalogue_items (id),
     variant_id TEXT REFERENCES catalogue_variants (id),
     delta INTEGER NOT NULL CHECK (delta <> 0),
     reason TEXT NOT NULL CHECK (reason IN ('sale', 'return', 'cancel', 'adjust', 'count')),
     note TEXT NOT NULL DEFAULT '',
     cart_id TEXT,
     user_id TEXT,
     user_name TEXT NOT NULL DEFAULT '',
     ts INTEGER NOT NULL
   );
   CREATE INDEX stock_movements_item ON stock_movements (item_id, variant_id);
   CREATE INDEX stock_movements_cart ON stock_movements (cart_id) WHERE cart_id IS NOT NULL;`,
  // Serial barcode scanners registered on Devices (issue 23, point 5: core/barcode/): the core
  // keeps each one's port open. One scanner a path: two listeners cannot share a serial port.
  `CREATE TABLE barcode_scanners (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     path TEXT NOT NULL UNIQUE,
     baud INTEGER NOT NULL CHECK (baud > 0),
     created_ts INTEGER NOT NULL
   );`,
  // Receipt printers and their print queue (issue 23, points 1 and 2; electron/core/printers/).
  // A printer is reached over TCP (host + port) or a serial port (path + baud); its logo is the
  // PNG's bytes. A print job keeps the receipt's document (receiptline text, encoded to ESC/POS
  // for the printer it goes to when it prints), never card data beyond what the receipt shows.
  `CREATE TABLE printers (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN ('tcp', 'serial')),
     host TEXT,
     port INTEGER,
     path TEXT,
     baud INTEGER,
     paper TEXT NOT NULL CHECK (paper IN ('80mm', '58mm')),
     chars_per_line INTEGER NOT NULL,
     cut INTEGER NOT NULL DEFAULT 1,
     logo BLOB,
     active INTEGER NOT NULL DEFAULT 1,
     created_ts INTEGER NOT NULL
   );
   CREATE TABLE print_jobs (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     what TEXT NOT NULL,
     ref TEXT,
     copy TEXT CHECK (copy IN ('customer', 'merchant') OR copy IS NULL),
     title TEXT NOT NULL,
     document TEXT NOT NULL,
     state TEXT NOT NULL DEFAULT 'waiting' CHECK (state IN ('waiting', 'printed')),
     tries INTEGER NOT NULL DEFAULT 0,
     last_error TEXT,
     created_ts INTEGER NOT NULL,
     printed_ts INTEGER
   );
   CREATE INDEX print_jobs_waiting ON print_jobs (seq) WHERE state = 'waiting';`,
  // A register of a store (issue 24; electron/core/store/sync-capture.ts): the sync's state, its
  // outbox, and the triggers that fill the outbox in the same transaction as each shared change.
  SYNC_MIGRATION_STEP,
];

export function openPosDatabase(dataDir: string): PosDatabase {
  // Owner-only whatever folder --data named (issue 20, point 9). SQLite creates -wal and -shm
  // with the database file's own mode, so a 0600 ringup.db made before SQLite opens it keeps
  // them 0600 too; an older install's files are tightened here.
  ownerOnlyFolder(dataDir);
  const file = join(dataDir, 'ringup.db');
  ownerOnlyFile(file);
  for (const f of [`${file}-wal`, `${file}-shm`]) if (existsSync(f)) chmodSync(f, 0o600);
  const db = openDatabase(file);
  db.pragma('journal_mode = WAL');
  // Every commit reaches the disk before it returns (the WAL is fsynced): an offline sale is
  // on disk before the cashier sees "approved offline" (issue 13), and so is every other write here.
  db.pragma('synchronous = FULL');
  // The audit chain's migration step calls it (SQLite has no SHA-256 of its own).
  installAuditHashFunction(db);
  const version = db.pragma('user_version', { simple: true }) as number;
  // Foreign keys are switched on after the migrations: a table rebuilt with children (carts) is
  // dropped and renamed as SQLite's ALTER TABLE procedure says, with them off (the pragma is a
  // no-op inside a transaction), and each step is checked before it commits. Off explicitly:
  // better-sqlite3 opens a connection with them on.
  db.pragma('foreign_keys = OFF');
  for (let v = version; v < POS_MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(POS_MIGRATIONS[v]!);
      const broken = db.pragma('foreign_key_check') as unknown[];
      if (broken.length > 0) throw new Error(`Database migration ${v + 1} would break ${broken.length} references between tables; nothing was changed.`);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
  db.pragma('foreign_keys = ON');
  return db;
}

/**
 * Moves the database's WAL checkpoints to a worker thread (the WalCheckpointer the engine uses too):
 * an automatic checkpoint inside a COMMIT would add the copy and an fsync of the database
 * file to that commit — the offline queue's "approved offline" waits for its commit
 * (issue 13). Falls back to SQLite's automatic checkpoints when no worker can start.
 * Answers the function that stops it.
 */
export async function startPosCheckpointer(db: PosDatabase, dataDir: string): Promise<() => Promise<void>> {
  db.pragma('wal_autocheckpoint = 0');
  const worker = await WalCheckpointer.start(join(dataDir, 'ringup.db'));
  if (!worker) {
    db.pragma('wal_autocheckpoint = 1000');
    return async () => {};
  }
  return () => worker.stop();
}

export function getSetting(db: PosDatabase, key: string): string | undefined {
  const row = db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value;
}

export function setSetting(db: PosDatabase, key: string, value: string): void {
  db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
}
