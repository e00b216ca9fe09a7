/**
 * Applies what a register pulled from its store (store-wire.ts `StoreEvent`s, in seq order) to its
 * SQLite copy, a whole batch in **one transaction** with `applying = 1` (so the capture triggers
 * of sync-capture.ts do not send it back) and `last_seq` advanced in the same transaction: a kill
 * at any point leaves either the batch applied and counted, or neither.
 *
 * - Shared rows: an upsert writes the row by its key (`INSERT … ON CONFLICT (key) DO UPDATE` of
 *   the columns this register has; a column it does not have is left out, one it has that the row
 *   lacks keeps its value or default), a delete deletes it. A row whose key still has a change
 *   of this register's waiting in the outbox is **skipped**: that change is pushed later, the
 *   server orders it after this one, and it wins everywhere ("the later change by the store
 *   server's clock wins").
 * - A row that breaks a local rule — a SKU two registers both gave while apart (the catalogue's
 *   triggers refuse the second), a reference to something this register does not have — is
 *   skipped, and a `sync-conflict` audit row says so (it is pushed to the store's audit log too).
 *   Simplification: the register keeps its own row for that key until the next change of it.
 * - Stock movements: inserted once by id (`INSERT OR IGNORE`), every register's: stock on hand is
 *   their sum, so two registers selling the last one while apart both count (−1, with the
 *   catalogue's existing low-stock warning), and nothing is lost.
 * - Server events: `register` (this register renamed: its name; removed: it stops, see
 *   store-sync.ts), `store_day` (kept as a day to close, closed after the transaction by
 *   store-day-close.ts, and only once per store day even after a kill).
 *
 * A register joining a store that already has registers (`reset_pending`) first drops its own
 * shared rows — users, store settings, catalogue, and the stock ledger of that catalogue — in the
 * same transaction as the store's first rows arrive, so it never stands with no users at all.
 */
import { SHARED_ROW_TABLES, type RegisterEventBody, type SharedRowTable, type StoreDay, type StoreEvent } from '../../../shared/store/store-wire';
import type { AuditLog } from '../audit/audit-log';
import type { PosDatabase } from '../platform/pos-database';
import { readSyncState, setApplying, setLastSeq, setRegisterName, setResetDone, setStoreDayPending } from './sync-state';

type Json = Record<string, unknown>;
type Statement = ReturnType<PosDatabase['prepare']>;
type SqlValue = string | number | bigint | null | Buffer;

/** What a batch changed, for the caches and screens that must follow (store-sync.ts). */
export interface Applied {
  /** Shared tables written (settings, pos_users, catalogue tables) and 'stock_movements'. */
  tables: Set<string>;
  /** This register's own name as the store now has it (renamed elsewhere). */
  renamed: string | null;
  /** A manager removed this register. */
  removed: boolean;
  /** A store day this register is to close (store-day-close.ts). */
  storeDay: StoreDay | null;
  /** Rows skipped because this register has a change of its own waiting for the same key. */
  skippedPending: number;
  /** Rows skipped because they break a local rule (each audited). */
  refused: number;
}

/** Stock movement columns a pulled movement fills (its local `seq` is this register's own). */
const MOVEMENT_COLUMNS = ['id', 'item_id', 'variant_id', 'delta', 'reason', 'note', 'cart_id', 'user_id', 'user_name', 'ts'] as const;

/**
 * What a joining register drops before the store's rows: children before parents (foreign keys
 * stay on). Its stock ledger goes with its catalogue (its movements name its own items).
 */
const RESET: ReadonlyArray<{ table: string; where?: string }> = [{ table: 'stock_movements' }, ...[...SHARED_ROW_TABLES].reverse()];

const sqlValue = (v: unknown): SqlValue => {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'bigint') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return JSON.stringify(v);
};

export class EventApplier {
  private readonly columns = new Map<string, Set<string>>();
  private readonly upserts = new Map<string, { update: Statement | null; exists: Statement; insert: Statement }>();
  private readonly pending;
  private readonly insertMovement;
  private readonly keyOf = new Map<string, readonly string[]>();
  /** Tables whose shared rows are some of theirs (settings: the store's row): a key outside is not this store's to set. */
  private readonly inScope = new Map<string, (key: unknown[]) => boolean>();

  constructor(
    private readonly db: PosDatabase,
    private readonly audit: AuditLog,
  ) {
    for (const t of SHARED_ROW_TABLES) {
      const cols = (db.prepare(`PRAGMA table_info(${t.table})`).all() as Array<{ name: string }>).map((c) => c.name);
      this.columns.set(t.table, new Set(cols));
      this.keyOf.set(t.table, t.key);
      if ('where' in t) {
        const check = db.prepare(`SELECT 1 FROM (SELECT ${t.key.map((k) => `? AS ${k}`).join(', ')}) WHERE ${t.where}`);
        this.inScope.set(t.table, (key) => check.get(...key.map(sqlValue)) !== undefined);
      }
    }
    this.pending = db.prepare("SELECT 1 FROM sync_outbox WHERE type = 'row' AND kind = ? AND key = ? LIMIT 1");
    this.insertMovement = db.prepare(`INSERT OR IGNORE INTO stock_movements (${MOVEMENT_COLUMNS.join(', ')}) VALUES (${MOVEMENT_COLUMNS.map((c) => `@${c}`).join(', ')})`);
  }

  /** Applies a batch (seq order) and advances last_seq to `throughSeq`, in one transaction. */
  apply(events: readonly StoreEvent[], throughSeq: number, registerId: string): Applied {
    const out: Applied = { tables: new Set(), renamed: null, removed: false, storeDay: null, skippedPending: 0, refused: 0 };
    this.db.transaction(() => {
      const state = readSyncState(this.db);
      setApplying(this.db, true);
      if (state.resetPending) {
        for (const t of RESET) {
          this.db.prepare(`DELETE FROM ${t.table}${t.where ? ` WHERE ${t.where}` : ''}`).run();
          out.tables.add(t.table);
        }
        // Changes of those rows made meanwhile are changes of rows that are gone: they are not sent either.
        this.db.prepare("DELETE FROM sync_outbox WHERE type = 'row' OR kind = 'stock_movements'").run();
        setResetDone(this.db);
      }
      for (const e of events) this.applyOne(e, registerId, out);
      setLastSeq(this.db, throughSeq);
      setApplying(this.db, false);
    })();
    return out;
  }

  private applyOne(e: StoreEvent, registerId: string, out: Applied): void {
    if (e.type === 'row') {
      if (!this.columns.has(e.kind) || !Array.isArray(e.key)) return;
      const table = e.kind as SharedRowTable;
      if (e.key.length !== this.keyOf.get(table)!.length || this.inScope.get(table)?.(e.key) === false) return;
      if (this.pending.get(table, JSON.stringify(e.key))) {
        out.skippedPending++;
        return;
      }
      this.guarded(e, out, () => {
        if (e.op === 'delete') this.deleteRow(table, e.key as unknown[]);
        else if (e.body) this.upsertRow(table, e.body);
        out.tables.add(table);
      });
      return;
    }
    if (e.type === 'fact' && e.kind === 'stock_movements' && e.body) {
      const body = e.body;
      this.guarded(e, out, () => {
        if (this.insertMovement.run(Object.fromEntries(MOVEMENT_COLUMNS.map((c) => [c, sqlValue(body[c])]))).changes > 0) out.tables.add('stock_movements');
      });
      return;
    }
    if (e.type === 'server' && e.kind === 'register' && e.body) {
      const r = e.body as unknown as RegisterEventBody;
      if (r.registerId !== registerId) return;
      if (r.removed) out.removed = true;
      else {
        setRegisterName(this.db, r.name);
        out.renamed = r.name;
      }
      return;
    }
    if (e.type === 'server' && e.kind === 'store_day' && e.body) {
      const day = e.body as unknown as StoreDay;
      // Kept in the same transaction as last_seq: a kill before the Z is made leaves it to do at the next start.
      if (!storeDayClosed(this.db, day.number)) {
        setStoreDayPending(this.db, day);
        out.storeDay = day;
      }
    }
  }

  /** One event in a savepoint: a refusal undoes that event only, is audited, and the batch goes on. */
  private guarded(e: StoreEvent, out: Applied, fn: () => void): void {
    try {
      this.db.transaction(fn)();
    } catch (err) {
      out.refused++;
      const reason = err instanceof Error ? err.message : String(err);
      const what = e.type === 'row' ? `${e.kind} ${JSON.stringify(e.key)}` : `${e.kind} ${String(e.key)}`;
      // Written with capture on, so the store's audit log has it too.
      setApplying(this.db, false);
      this.audit.record({ kind: 'sync-conflict', user: null, detail: `a change from register ${e.registerId ?? 'the store server'} (${what}, store seq ${e.seq}) was not applied here: ${reason}` });
      setApplying(this.db, true);
    }
  }

  /**
   * UPDATE by key, else INSERT — not `INSERT … ON CONFLICT DO UPDATE`: SQLite runs a table's
   * BEFORE INSERT triggers before it finds the conflict, and the catalogue's SKU trigger would
   * then refuse an item's own SKU as taken.
   */
  private upsertRow(table: SharedRowTable, row: Json): void {
    const have = this.columns.get(table)!;
    const cols = Object.keys(row)
      .filter((c) => have.has(c))
      .sort();
    const key = this.keyOf.get(table)!;
    const sig = `${table}|${cols.join(',')}`;
    let stmts = this.upserts.get(sig);
    if (!stmts) {
      const rest = cols.filter((c) => !key.includes(c));
      stmts = {
        update: rest.length > 0 ? this.db.prepare(`UPDATE ${table} SET ${rest.map((c) => `${c} = @${c}`).join(', ')} WHERE ${key.map((k) => `${k} = @${k}`).join(' AND ')}`) : null,
        exists: this.db.prepare(`SELECT 1 FROM ${table} WHERE ${key.map((k) => `${k} = @${k}`).join(' AND ')}`),
        insert: this.db.prepare(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`),
      };
      this.upserts.set(sig, stmts);
    }
    const values = Object.fromEntries(cols.map((c) => [c, sqlValue(row[c])]));
    const keyValues = Object.fromEntries(key.map((k) => [k, values[k]]));
    if (stmts.update ? stmts.update.run(values).changes > 0 : stmts.exists.get(keyValues) !== undefined) return;
    stmts.insert.run(values);
  }

  private deleteRow(table: SharedRowTable, key: unknown[]): void {
    const cols = this.keyOf.get(table)!;
    this.db.prepare(`DELETE FROM ${table} WHERE ${cols.map((c) => `${c} = ?`).join(' AND ')}`).run(...key.map(sqlValue));
  }
}

/** Whether this register has made its Z for that store day (its report carries `storeDay`). */
export function storeDayClosed(db: PosDatabase, storeDay: number): boolean {
  return db.prepare("SELECT 1 FROM z_reports WHERE json_extract(report, '$.storeDay') = ?").get(storeDay) !== undefined;
}
