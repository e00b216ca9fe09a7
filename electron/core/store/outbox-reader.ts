/**
 * The outbox as the store server takes it: the oldest rows of `sync_outbox` (sync-capture.ts),
 * each read into the event it stands for (store-wire.ts `PushedEvent`), with the row or fact as it
 * is now. Event ids are `<registerId>:<outbox seq>`, so a batch pushed again after a kill or a lost
 * answer carries the same ids and the server keeps each event once.
 *
 * An outbox row whose row or fact is no longer there sends nothing: a shared row changed and
 * then deleted sends its delete (a later outbox row); a fact is never deleted by the app.
 * Outbox rows are deleted only once the server answered the push (`deleteUpTo`).
 */
import { SHARED_ROW_TABLES, SYNC_BATCH_MAX, type FactKind, type PushedEvent, type SharedRowTable } from '../../../shared/store/store-wire';
import type { PosDatabase } from '../platform/pos-database';

/** A batch stops growing past this many bytes of JSON (one Z report with its day is some kilobytes): the server's body limit is well above it. */
export const PUSH_BYTES_SOFT_MAX = 512 * 1024;

interface OutboxRow {
  seq: number;
  type: 'row' | 'fact';
  kind: string;
  op: 'upsert' | 'delete' | null;
  key: string;
  seen_seq: number | null;
  at: number;
}

export interface OutboxBatch {
  events: PushedEvent[];
  /** The newest outbox seq the batch covers (rows that sent nothing included); 0 when the outbox is empty. */
  throughSeq: number;
}

type Json = Record<string, unknown>;

export class OutboxReader {
  private readonly page;
  private readonly rowReaders = new Map<string, (key: unknown[]) => Json | undefined>();
  private readonly factReaders: Record<FactKind, (key: string) => Json | undefined>;
  private readonly newest;

  constructor(private readonly db: PosDatabase) {
    this.page = db.prepare(`SELECT * FROM sync_outbox ORDER BY seq LIMIT ${SYNC_BATCH_MAX}`);
    this.newest = db.prepare('SELECT seq FROM sync_outbox ORDER BY seq DESC LIMIT 1').pluck();
    for (const t of SHARED_ROW_TABLES) {
      const get = db.prepare(`SELECT * FROM ${t.table} WHERE ${t.key.map((k) => `${k} = ?`).join(' AND ')}`);
      this.rowReaders.set(t.table, (key) => get.get(...key) as Json | undefined);
    }
    const one = (sql: string) => {
      const s = db.prepare(sql);
      return (key: string) => s.get(key) as Json | undefined;
    };
    const cartRow = one('SELECT * FROM carts WHERE id = ?');
    const lines = db.prepare('SELECT * FROM cart_lines WHERE cart_id = ? ORDER BY seq');
    const tenders = db.prepare('SELECT * FROM cart_tenders WHERE cart_id = ? ORDER BY seq');
    const z = one('SELECT * FROM z_reports WHERE number = ?');
    this.factReaders = {
      stock_movements: one('SELECT * FROM stock_movements WHERE id = ?'),
      audit_log: one('SELECT * FROM audit_log WHERE seq = ?'),
      cash_movements: one('SELECT * FROM cash_movements WHERE seq = ?'),
      refunds: one('SELECT * FROM refund_ledger WHERE refund_id = ?'),
      // The Z as printed, and the store day it closed for (when a store's Z made it: store-day.ts).
      z_reports: (key) => {
        const r = z(key);
        if (!r) return undefined;
        const report = JSON.parse(String(r.report)) as Json;
        return { ...r, report, storeDay: typeof report.storeDay === 'number' ? report.storeDay : null };
      },
      // A closed cart with its lines and tenders: the store's figures are made from these.
      cart: (key) => {
        const c = cartRow(key);
        return c ? { ...c, lines: lines.all(key), tenders: tenders.all(key) } : undefined;
      },
    };
  }

  /** The newest outbox seq (0: empty): the push loop's cheap look at whether there is anything to send. */
  newestSeq(): number {
    return (this.newest.get() as number | undefined) ?? 0;
  }

  count(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM sync_outbox').get() as { n: number }).n;
  }

  /** The rows after `seq`: what still waits once a batch through `seq` has landed. */
  countAfter(seq: number): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM sync_outbox WHERE seq > ?').get(seq) as { n: number }).n;
  }

  /** The oldest rows, as events (read in one transaction: one consistent view of the rows they name). */
  read(registerId: string): OutboxBatch {
    return this.db.transaction(() => {
      const events: PushedEvent[] = [];
      let throughSeq = 0;
      let bytes = 0;
      for (const o of this.page.all() as OutboxRow[]) {
        const event = this.eventOf(registerId, o);
        if (event) {
          const size = JSON.stringify(event).length;
          if (events.length > 0 && bytes + size > PUSH_BYTES_SOFT_MAX) break;
          bytes += size;
          events.push(event);
        }
        throughSeq = o.seq;
      }
      return { events, throughSeq };
    })();
  }

  /** The server has these: they go. */
  deleteUpTo(seq: number): void {
    this.db.prepare('DELETE FROM sync_outbox WHERE seq <= ?').run(seq);
  }

  private eventOf(registerId: string, o: OutboxRow): PushedEvent | null {
    const id = `${registerId}:${o.seq}`;
    if (o.type === 'row') {
      const key = JSON.parse(o.key) as Array<string | number>;
      const table = o.kind as SharedRowTable;
      if (o.op === 'delete') return { type: 'row', id, table, op: 'delete', key, row: null, seenSeq: o.seen_seq ?? 0, at: o.at };
      const row = this.rowReaders.get(table)?.(key);
      return row ? { type: 'row', id, table, op: 'upsert', key, row, seenSeq: o.seen_seq ?? 0, at: o.at } : null;
    }
    const kind = o.kind as FactKind;
    const body = this.factReaders[kind]?.(o.key);
    return body ? { type: 'fact', id, kind, key: o.key, body, at: o.at } : null;
  }
}
