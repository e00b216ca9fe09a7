/**
 * The audit log: who did what at the counter, and when — sign-ins, wrong PINs,
 * lockouts, sign-outs, idle locks, sales, refunds, voids, settings and PIN changes.
 * Append-only: this class only inserts and reads, and the table's triggers
 * (pos-database.ts) refuse UPDATE and DELETE. Each row is chained to the one before it
 * (audit-chain.ts), so an edit of the file itself is detected by `verify`.
 */
import type { AuditEntry, AuditKind, AuditListArgs, AuditPage, AuditVerification, PosUser } from '../../../shared/ipc/contract';
import { AUDIT_PAGE_SIZE } from '../../../shared/ipc/contract';
import type { PosDatabase } from '../platform/pos-database';
import { AUDIT_GENESIS_HASH, auditRowHash, verifyAuditChain, type AuditHashedRow } from './audit-chain';

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
  private readonly append: (r: AuditRecord) => void;

  constructor(
    private readonly db: PosDatabase,
    private readonly now: () => number = Date.now,
  ) {
    const insert = db.prepare(
      `INSERT INTO audit_log (seq, ts, kind, user_id, user_name, amount_cents, transaction_id, detail, prev_hash, hash)
       VALUES (@seq, @ts, @kind, @user_id, @user_name, @amount_cents, @transaction_id, @detail, @prev_hash, @hash)`,
    );
    // The next number AUTOINCREMENT would give (it never reuses one, even a removed row's) and
    // the newest row's hash, read in the insert's transaction: the row's hash covers its seq.
    const nextSeq = db.prepare("SELECT COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'audit_log'), 0) + 1 AS seq");
    const lastHash = db.prepare('SELECT hash FROM audit_log ORDER BY seq DESC LIMIT 1');
    this.append = db.transaction((r: AuditRecord) => {
      const row: AuditHashedRow = {
        seq: (nextSeq.get() as { seq: number }).seq,
        ts: this.now(),
        kind: r.kind,
        user_id: r.user?.id ?? null,
        user_name: r.user?.name ?? null,
        amount_cents: r.amountCents ?? null,
        transaction_id: r.transactionId ?? null,
        detail: r.detail ?? '',
      };
      const prev = (lastHash.get() as { hash: string } | undefined)?.hash ?? AUDIT_GENESIS_HASH;
      insert.run({ ...row, prev_hash: prev, hash: auditRowHash(prev, row) });
    });
  }

  record(r: AuditRecord): void {
    this.append(r);
  }

  /** Walks the hash chain: whether every record is as it was written (audit-chain.ts). */
  verify(): Promise<AuditVerification> {
    return verifyAuditChain(this.db);
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
