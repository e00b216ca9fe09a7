/**
 * Who did what at this counter: the app's own record, keyed by the gateway's
 * transaction id, of the signed-in user behind every sale, refund and void (the
 * gateway only gets the short `clerk_number`). It also links a sale that collects
 * the rest of a partial approval to that first sale, and finds transactions by the
 * short reference printed on receipts.
 */
import type { Session, TransactionView } from '../../../shared/ipc/contract';
import { maskCardNumbersInText } from '../../../shared/payments/masking';
import type { PosDatabase } from '../platform/pos-database';

export type ClerkAction = 'sale' | 'refund' | 'void';

export interface ClerkRecord {
  transactionId: string;
  action: ClerkAction;
  userId: string;
  userName: string;
  /** For a sale that collects the rest of a partial approval: the first sale's id. */
  linkedTo: string | null;
  createdTs: number;
}

/** The interface's clerk_number for a user: letters and digits of the user id, at most 16 (PayaConnect's bound). */
export function clerkNumberOf(userId: string): string {
  return userId.replace(/[^A-Za-z0-9]/g, '').slice(0, 16);
}

/**
 * The users' names by id and by clerk_number, also as the engine answers a clerk_number
 * that looks like a card (it masks those, so about one user id in 1,300 comes back as
 * "************1234").
 */
export function clerkNamesOf(users: readonly { id: string; name: string }[]): Map<string, string> {
  return new Map(users.flatMap((u) => [[u.id, u.name], [clerkNumberOf(u.id), u.name], [maskCardNumbersInText(clerkNumberOf(u.id)), u.name]] as const));
}

export { shortRefOf } from '../../../shared/short-ref';

interface Row {
  transaction_id: string;
  action: ClerkAction;
  user_id: string;
  user_name: string;
  linked_to: string | null;
  created_ts: number;
}

const toRecord = (r: Row): ClerkRecord => ({ transactionId: r.transaction_id, action: r.action, userId: r.user_id, userName: r.user_name, linkedTo: r.linked_to, createdTs: r.created_ts });

export class ClerkRecords {
  private readonly insert;
  private readonly byId;
  private readonly byRef;
  private readonly linkedToStmt;
  private readonly manyStmt;

  constructor(db: PosDatabase) {
    this.insert = db.prepare('INSERT OR IGNORE INTO clerk_records (transaction_id, action, user_id, user_name, linked_to, created_ts) VALUES (?, ?, ?, ?, ?, ?)');
    this.byId = db.prepare('SELECT * FROM clerk_records WHERE transaction_id = ?');
    this.byRef = db.prepare("SELECT DISTINCT transaction_id FROM clerk_records WHERE ref = ? LIMIT 50");
    this.linkedToStmt = db.prepare('SELECT * FROM clerk_records WHERE linked_to = ?');
    this.manyStmt = db.prepare('SELECT * FROM clerk_records WHERE transaction_id IN (SELECT value FROM json_each(?))');
  }

  record(r: ClerkRecord): void {
    this.insert.run(r.transactionId, r.action, r.userId, r.userName, r.linkedTo, r.createdTs);
  }

  /**
   * Records the user behind a sale taken outside sales.ts (the terminal, a check, a saved
   * card) and answers its view with the name of whoever made it: the first record wins, so
   * the same clientRef sent again by someone else still names the one who charged it.
   */
  saleBy(view: TransactionView, session: Session, nowMs: number = Date.now()): TransactionView {
    this.record({ transactionId: view.id, action: 'sale', userId: session.user.id, userName: session.user.name, linkedTo: null, createdTs: Math.floor(nowMs / 1000) });
    const made = this.of(view.id).find((r) => r.action === 'sale');
    return { ...view, clerkName: made?.userName ?? session.user.name };
  }

  /** Every record of one transaction (its sale or refund, and a void). */
  of(transactionId: string): ClerkRecord[] {
    return (this.byId.all(transactionId) as Row[]).map(toRecord);
  }

  /** Records of many transactions at once (one query), by transaction id. */
  ofMany(transactionIds: readonly string[]): Map<string, ClerkRecord[]> {
    const out = new Map<string, ClerkRecord[]>();
    if (transactionIds.length === 0) return out;
    for (const r of (this.manyStmt.all(JSON.stringify(transactionIds)) as Row[]).map(toRecord)) {
      const list = out.get(r.transactionId);
      if (list) list.push(r);
      else out.set(r.transactionId, [r]);
    }
    return out;
  }

  /** Sales that collected the rest of this one. */
  linkedTo(transactionId: string): ClerkRecord[] {
    return (this.linkedToStmt.all(transactionId) as Row[]).map(toRecord);
  }

  /** Transaction ids whose short reference is `ref` (case-insensitive). */
  idsByRef(ref: string): string[] {
    return (this.byRef.all(ref.toUpperCase()) as Array<{ transaction_id: string }>).map((r) => r.transaction_id);
  }
}
