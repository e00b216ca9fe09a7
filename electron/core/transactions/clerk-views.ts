/**
 * Transactions as the counter shows them: the gateway's record joined with this app's own —
 * who rang it up or voided it, which partial approval it collects the rest of (clerk
 * records), and what it has had refunded (the gateway's refund rows and this app's refund
 * ledger, the larger counts). Every money handler of the sale path answers through here, and
 * writes its clerk record here, so a view always names the one who did it.
 */
import type { Session, TransactionView } from '../../../shared/ipc/contract';
import type { GatewayClient } from '../../client/gateway-client';
import type { V2Transaction } from '../../client/v2-types';
import type { ClerkAction, ClerkRecords } from '../sales/clerk-records';
import type { RefundLedger } from './refund-ledger';
import { STATUS, toView, TYPE } from './transaction-view';

export interface TransactionViewsDeps {
  client: GatewayClient;
  clerks: ClerkRecords;
  ledger: RefundLedger;
  now: () => number;
}

export class TransactionViews {
  constructor(private readonly deps: TransactionViewsDeps) {}

  /** Writes who did `action` on a transaction (and the first sale a rest-of-partial sale collects). */
  remember(transactionId: string, action: ClerkAction, session: Session, linkedTo: string | null = null): void {
    this.deps.clerks.record({ transactionId, action, userId: session.user.id, userName: session.user.name, linkedTo, createdTs: Math.floor(this.deps.now() / 1000) });
  }

  /** Adds this app's own record (who, linked sale) to views. */
  withClerks(views: TransactionView[]): TransactionView[] {
    const records = this.deps.clerks.ofMany(views.map((v) => v.id));
    if (records.size === 0) return views;
    return views.map((v) => {
      const rs = records.get(v.id);
      if (!rs) return v;
      const made = rs.find((r) => r.action === 'sale' || r.action === 'refund');
      const voided = rs.find((r) => r.action === 'void');
      return { ...v, clerkName: made?.userName ?? null, voidedBy: voided?.userName ?? null, collectsRestOf: made?.linkedTo ?? null };
    });
  }

  withClerk(v: TransactionView): TransactionView {
    return this.withClerks([v])[0]!;
  }

  /** Views of a list, with refunds counted from the ledger and from refund rows in the same list. */
  viewsOf(list: readonly V2Transaction[]): TransactionView[] {
    const refunded = this.deps.ledger.all();
    const fromRows = new Map<string, number>();
    for (const t of list) {
      if (Number(t.type_id) === TYPE.refund && t.previous_transaction_id && Number(t.status_id) !== STATUS.declined && Number(t.status_id) !== STATUS.voided) {
        const v = toView(t);
        fromRows.set(t.previous_transaction_id, (fromRows.get(t.previous_transaction_id) ?? 0) + v.amountCents);
      }
    }
    return this.withClerks(list.map((t) => toView(t, Math.max(refunded.get(t.id) ?? 0, fromRows.get(t.id) ?? 0))));
  }

  /** One transaction, fresh from the gateway, with what it has had refunded. */
  async viewOne(id: string): Promise<TransactionView> {
    const t = await this.deps.client.getTransaction(id);
    const atGateway = Number(t.type_id) === TYPE.sale ? await this.refundedAtGateway(t.id) : 0;
    return this.withClerk(toView(t, Math.max(this.deps.ledger.refundedOf(t.id), atGateway)));
  }

  /** Approved refunds of a sale, asked of the gateway (exact filter on previous_transaction_id). */
  private async refundedAtGateway(id: string): Promise<number> {
    try {
      const { items } = await this.deps.client.listTransactions({ previous_transaction_id: id, type_id: String(TYPE.refund) }, 1, 500);
      return items
        .filter((r) => r.previous_transaction_id === id && Number(r.status_id) !== STATUS.declined && Number(r.status_id) !== STATUS.voided)
        .reduce((sum, r) => sum + toView(r).amountCents, 0);
    } catch {
      return 0; // A gateway without this filter: the ledger still counts this app's own refunds.
    }
  }
}
