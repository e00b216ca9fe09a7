/**
 * The audit log: who did what at the counter, and when — sign-ins, wrong PINs,
 * lockouts, sign-outs, idle locks, sales, refunds, voids, settings and PIN changes.
 * Append-only: this class only inserts and reads, and the table's triggers
 * (pos-database.ts) refuse UPDATE and DELETE.
 */
import type { AuditEntry, AuditKind, AuditListArgs, AuditPage, PosUser } from '../../../shared/ipc/contract';
import { AUDIT_PAGE_SIZE } from '../../../shared/ipc/contract';
import type { PosDatabase } from '../platform/pos-database';

export interface AuditRecord {
  kind: AuditKind;
  /** Who did it; null when nobody was signed in. */
  user: Pick<PosUser, 'id' | 'name'> | null;
  amountCents?: number | null;
  transactionId?: string | null;
  detail?: string;
}

interface AuditRow {
  seq: number;
  ts: number;
  kind: AuditKind;
  user_id: string | null;
  user_name: string | null;
  amount_cents: number | null;
  transaction_id: string | null;
  detail: string;
}

export class AuditLog {
  private readonly insert;

  constructor(
    private readonly db: PosDatabase,
    private readonly now: () => number = Date.now,
  ) {
    this.insert = db.prepare(
      'INSERT INTO audit_log (ts, kind, user_id, user_name, amount_cents, transaction_id, detail) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
  }

  record(r: AuditRecord): void {
    this.insert.run(this.now(), r.kind, r.user?.id ?? null, r.user?.name ?? null, r.amountCents ?? null, r.transactionId ?? null, r.detail ?? '');
  }

  /** Newest first, AUDIT_PAGE_SIZE to a page, filtered by user, kind and time range. */
  list(args: AuditListArgs): AuditPage {
    const where: string[] = [];
    const params: Array<string | number> = [];
    if (args.userId !== undefined) {
      where.push('user_id = ?');
      params.push(args.userId);
    }
    if (args.kind !== undefined) {
      where.push('kind = ?');
      params.push(args.kind);
    }
    if (args.from !== undefined) {
      where.push('ts >= ?');
      params.push(args.from);
    }
    if (args.to !== undefined) {
      where.push('ts < ?');
      params.push(args.to);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = (this.db.prepare(`SELECT COUNT(*) AS n FROM audit_log ${clause}`).get(...params) as { n: number }).n;
    const pageCount = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE));
    const page = Math.min(args.page, pageCount);
    const rows = this.db
      .prepare(`SELECT * FROM audit_log ${clause} ORDER BY seq DESC LIMIT ? OFFSET ?`)
      .all(...params, AUDIT_PAGE_SIZE, (page - 1) * AUDIT_PAGE_SIZE) as AuditRow[];
    return { rows: rows.map(toEntry), total, page, pageCount };
  }
}

function toEntry(r: AuditRow): AuditEntry {
  return {
    seq: r.seq,
    ts: r.ts,
    kind: r.kind,
    userId: r.user_id,
    userName: r.user_name,
    amountCents: r.amount_cents,
    transactionId: r.transaction_id,
    detail: r.detail,
  };
}
