/**
 * What a register of a store captures for the store server (issue 24): the SQLite schema of
 * the register's side of the sync — `sync_state` (one row) and `sync_outbox` — and the
 * triggers that write an outbox row in the same transaction as every change the store shares,
 * so a kill -9 at any point loses nothing. Made by one step of POS_MIGRATIONS (pos-database.ts).
 *
 * The triggers capture **which** row changed (its table and key, as a JSON array of the key's
 * values, `json_array(NEW.id)`), never the row itself: the outbox reader (outbox-reader.ts)
 * reads the row as it is when the outbox is pushed. Why not `json_object(...)` of every column in
 * the trigger: the trigger's text would then name every column, and a later migration adding a
 * column would have to re-create every trigger of that table, while this step's text (never
 * edited once shipped) named the old columns. Read at push time, the row that travels always
 * has every column the register has, and what it carries is the row's latest state, which is
 * what "the later change wins" compares anyway. A row changed and then removed before a push
 * sends only its delete (its upsert finds nothing to send).
 *
 * Each outbox row keeps `seen_seq`: the store's last seq this register had applied when the
 * change was made, for the server's "made apart" check (store-wire.ts, `seenSeq`).
 *
 * Every trigger fires only when this register is in a store and is not applying what it
 * pulled (`joined = 1 AND applying = 0` in sync_state): a register in no store writes nothing
 * extra, and applying another register's change does not echo it back.
 *
 * Facts: a stock movement, an audit row, a cash movement, a Z report and a card refund (the
 * refund ledger's row: written by refund-sale.ts only once the gateway approved it, for a refund by
 * amount on the Transactions screen, a cart's line return and a cancelled cart's settled card
 * alike), once each, when written; a cart when it closes (paid, due or cancelled) and again
 * whenever a closed cart's tenders or lines change (a refund, a void, a due cart collected). A
 * cart's earlier snapshot still waiting in the outbox is dropped for the new one: the server keeps
 * the latest per cart. Simplification: the refund ledger is cleared when the register moves to
 * another gateway account (account-records.ts); a refund still waiting in the outbox then sends
 * nothing (its row is gone when the outbox is read).
 */
import { SHARED_ROW_TABLES, type SharedRowTable } from '../../../shared/store/store-wire';
import { Z_REPORTS_TABLE } from '../reports/z-reports-table';

/**
 * Columns of a shared table that each register keeps to itself: a change of only these is not
 * sent, and a row pulled from the store does not overwrite them here (apply-events.ts). A user's
 * wrong-PIN count and back-off are the register's where the PINs were typed: sent, a sign-in on a
 * register away from the store would carry its whole row — the user's old PIN hash with it — and
 * undo a PIN a manager changed meanwhile on another register (the later row wins). Simplification:
 * a user locked out on one register is not locked out on the others (each counts its own tries).
 */
export const REGISTER_OWN_COLUMNS: Partial<Record<SharedRowTable, readonly string[]>> = { pos_users: ['failed_attempts', 'locked_until'] };

/**
 * For a table with own columns, the columns whose change is sent (the trigger's UPDATE OF list):
 * with REGISTER_OWN_COLUMNS, every column of the table — a test holds it to PRAGMA table_info, so
 * a column added to the table later is put in one list or the other.
 */
export const SHARED_UPDATE_COLUMNS: Partial<Record<SharedRowTable, readonly string[]>> = { pos_users: ['id', 'name', 'role', 'pin_hash', 'sort', 'created_ts'] };

/** The register's clock in ms, in SQL. */
const NOW_MS = "CAST(unixepoch('subsec') * 1000 AS INTEGER)";
/** The triggers' guard: in a store, and not applying what was pulled. */
const CAPTURING = '(SELECT joined = 1 AND applying = 0 FROM sync_state WHERE id = 1)';
const SEEN_SEQ = '(SELECT last_seq FROM sync_state WHERE id = 1)';

/** The kinds of fact the outbox carries, with the SQL of their key. */
const FACT_TRIGGERS: ReadonlyArray<{ table: string; kind: string; key: string }> = [
  { table: 'stock_movements', kind: 'stock_movements', key: 'NEW.id' },
  { table: 'audit_log', kind: 'audit_log', key: 'CAST(NEW.seq AS TEXT)' },
  { table: 'cash_movements', kind: 'cash_movements', key: 'CAST(NEW.seq AS TEXT)' },
  { table: 'z_reports', kind: 'z_reports', key: 'CAST(NEW.number AS TEXT)' },
  // A refund is its own fact: refunded from another register (the store's shared gateway), no cart changes here.
  { table: 'refund_ledger', kind: 'refunds', key: 'NEW.refund_id' },
];

const CLOSED = "('paid', 'due', 'cancelled')";

function outboxInsert(type: 'row' | 'fact', kind: string, key: string, op: 'upsert' | 'delete' | null, seen: boolean): string {
  return `INSERT INTO sync_outbox (type, kind, op, key, seen_seq, at) VALUES ('${type}', '${kind}', ${op ? `'${op}'` : 'NULL'}, ${key}, ${seen ? SEEN_SEQ : 'NULL'}, ${NOW_MS});`;
}

/** A shared table's triggers: insert and update capture an upsert of the key, delete a delete (a changed key is a delete and an upsert). */
function rowTriggers(t: (typeof SHARED_ROW_TABLES)[number]): string {
  const keyOf = (row: 'NEW' | 'OLD') => `json_array(${t.key.map((k) => `${row}.${k}`).join(', ')})`;
  // `where` (settings: the store's row only) is written over the key's columns: checked on them.
  const limit = (row: 'NEW' | 'OLD') => ('where' in t ? ` AND EXISTS (SELECT 1 FROM (SELECT ${t.key.map((k) => `${row}.${k} AS ${k}`).join(', ')}) WHERE ${t.where})` : '');
  const name = (what: string) => `sync_${t.table}_${what}`;
  const keyChanged = t.key.map((k) => `OLD.${k} IS NOT NEW.${k}`).join(' OR ');
  return `CREATE TRIGGER ${name('in')} AFTER INSERT ON ${t.table} WHEN ${CAPTURING}${limit('NEW')}
     BEGIN ${outboxInsert('row', t.table, keyOf('NEW'), 'upsert', true)} END;
   CREATE TRIGGER ${name('up')} AFTER UPDATE${SHARED_UPDATE_COLUMNS[t.table] ? ` OF ${SHARED_UPDATE_COLUMNS[t.table]!.join(', ')}` : ''} ON ${t.table} WHEN ${CAPTURING}${limit('NEW')}
     BEGIN ${outboxInsert('row', t.table, keyOf('NEW'), 'upsert', true)} END;
   CREATE TRIGGER ${name('rekey')} AFTER UPDATE ON ${t.table} WHEN ${CAPTURING}${limit('OLD')} AND (${keyChanged})
     BEGIN ${outboxInsert('row', t.table, keyOf('OLD'), 'delete', true)} END;
   CREATE TRIGGER ${name('out')} AFTER DELETE ON ${t.table} WHEN ${CAPTURING}${limit('OLD')}
     BEGIN ${outboxInsert('row', t.table, keyOf('OLD'), 'delete', true)} END;`;
}

function factTriggers(): string {
  const once = FACT_TRIGGERS.map(
    (f) => `CREATE TRIGGER sync_${f.kind}_fact AFTER INSERT ON ${f.table} WHEN ${CAPTURING}
     BEGIN ${outboxInsert('fact', f.kind, f.key, null, false)} END;`,
  );
  // A closed cart's snapshot: the latest replaces one still waiting.
  const cart = (name: string, on: string, id: string, when: string) => `CREATE TRIGGER sync_cart_${name} AFTER ${on} WHEN ${CAPTURING} AND ${when}
     BEGIN DELETE FROM sync_outbox WHERE type = 'fact' AND kind = 'cart' AND key = ${id};
       ${outboxInsert('fact', 'cart', id, null, false)} END;`;
  const closedCart = (id: string) => `(SELECT status FROM carts WHERE id = ${id}) IN ${CLOSED}`;
  return [
    ...once,
    cart('closed', 'UPDATE ON carts', 'NEW.id', `NEW.status IN ${CLOSED}`),
    cart('tender_in', 'INSERT ON cart_tenders', 'NEW.cart_id', closedCart('NEW.cart_id')),
    cart('tender_up', 'UPDATE ON cart_tenders', 'NEW.cart_id', closedCart('NEW.cart_id')),
    cart('line_up', 'UPDATE ON cart_lines', 'NEW.cart_id', closedCart('NEW.cart_id')),
  ].join('\n   ');
}

/**
 * The migration step. z_reports is made by ZReportStore (IF NOT EXISTS) too: the same
 * definition here, so its trigger has a table to sit on in a database that has no Z yet.
 */
export const SYNC_MIGRATION_STEP = `${Z_REPORTS_TABLE};
   CREATE TABLE sync_state (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     joined INTEGER NOT NULL DEFAULT 0 CHECK (joined IN (0, 1)),
     applying INTEGER NOT NULL DEFAULT 0 CHECK (applying IN (0, 1)),
     removed INTEGER NOT NULL DEFAULT 0 CHECK (removed IN (0, 1)),
     store_id TEXT,
     register_id TEXT,
     register_name TEXT,
     addresses TEXT NOT NULL DEFAULT '[]',
     cert_pem TEXT,
     last_seq INTEGER NOT NULL DEFAULT 0,
     last_sync_ms INTEGER,
     reset_pending INTEGER NOT NULL DEFAULT 0 CHECK (reset_pending IN (0, 1)),
     store_day_pending TEXT,
     gateway TEXT
   );
   INSERT INTO sync_state (id) VALUES (1);
   CREATE TABLE sync_outbox (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     type TEXT NOT NULL CHECK (type IN ('row', 'fact')),
     kind TEXT NOT NULL,
     op TEXT CHECK (op IN ('upsert', 'delete')),
     key TEXT NOT NULL,
     seen_seq INTEGER,
     at INTEGER NOT NULL
   );
   CREATE INDEX sync_outbox_key ON sync_outbox (kind, key);
   ${SHARED_ROW_TABLES.map(rowTriggers).join('\n   ')}
   ${factTriggers()}`;
