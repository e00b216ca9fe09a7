/**
 * The counter's side of the offline queue (issue 13): `take` is the one call the sale
 * path (sales.ts) makes when the gateway cannot be reached; the `queue:*` handlers feed
 * the status bar and the manager's Queue screen.
 *
 * Simplification: an offline sale's receipt carries a reference made from its own
 * transaction_api_id (the gateway's id does not exist yet); once forwarded, the sale is
 * found in Transactions under its gateway reference.
 */
import type { HandlerMap, SaleChargeArgs, SaleOutcome, Session, StoreSettings, TransactionView } from '../../shared/ipc/contract';
import { fail, ok, type Result } from '../../shared/result';
import { clerkNumberOf, shortRefOf } from './clerk-records';
import type { OfflineForwarder } from './offline-forwarder';
import type { OfflineQueue, OfflineRules } from './offline-queue';
import type { UserDirectory } from './users';

export const OFFLINE_APPROVED = 'Approved offline. The sale is stored on this computer and goes to the gateway by itself when it answers again.';

export interface OfflineSalesDeps {
  queue: OfflineQueue;
  forwarder: OfflineForwarder;
  users: UserDirectory;
  settings: () => StoreSettings;
  locationId: string | undefined;
  productTransactionId: string | undefined;
}

export interface OfflineSales {
  /**
   * Queues a keyed sale the gateway could not take (durably, before answering). Null when
   * the store takes no keyed cards offline (its default): the sale path answers as it did.
   */
  take(args: SaleChargeArgs, session: Session): Result<SaleOutcome> | null;
  handlers: Pick<HandlerMap, 'queue:status' | 'queue:list' | 'queue:forward-now'>;
}

export function offlineRulesOf(s: StoreSettings): OfflineRules {
  return {
    offlinePaymentCapCents: s.offlinePaymentCapCents,
    offlineTotalCapCents: s.offlineTotalCapCents,
    offlineAllowKeyed: s.offlineAllowKeyed,
    offlineApprovalAboveCents: s.offlineApprovalAboveCents,
    offlineExpiryHours: s.offlineExpiryHours,
    offlineAlertHours: s.offlineAlertHours,
  };
}

export function createOfflineSales(deps: OfflineSalesDeps): OfflineSales {
  const { queue, forwarder, users } = deps;
  return {
    take(args, session) {
      const rules = offlineRulesOf(deps.settings());
      if (!rules.offlineAllowKeyed) return null;
      const total = args.subtotalCents + args.taxCents + args.tipCents;
      const r = queue.enqueue(
        {
          clientRef: args.clientRef,
          amountCents: total,
          taxCents: args.taxCents,
          tipCents: args.tipCents,
          card: args.card,
          clerk: { id: session.user.id, name: session.user.name, number: clerkNumberOf(session.user.id), role: session.user.role },
          locationId: deps.locationId ?? null,
          productTransactionId: deps.productTransactionId ?? null,
          collectsRestOf: args.collectsRestOf ?? null,
          keyed: true,
        },
        rules,
      );
      if (!r.ok) return fail('offline_refused', r.message);
      // On disk now: the status bar follows, and forwarding starts at once should the gateway already be back.
      void forwarder.kick();
      const it = r.item;
      const view: TransactionView = {
        id: `offline-${it.clientRef}`,
        apiId: it.clientRef,
        kind: 'sale',
        state: 'approved',
        statusId: 0,
        reasonCodeId: null,
        message: OFFLINE_APPROVED,
        amountCents: it.amountCents,
        requestedCents: it.amountCents,
        partial: false,
        taxCents: it.taxCents,
        tipCents: it.tipCents,
        refundedCents: 0,
        // Nothing can be refunded or voided before the gateway has the sale.
        refundableCents: 0,
        voidable: false,
        cardBrand: it.cardBrand,
        lastFour: it.lastFour,
        authCode: null,
        createdTs: it.queuedTs,
        settled: false,
        previousTransactionId: null,
        notificationEmail: null,
        ref: shortRefOf(it.clientRef),
        entryMode: 'keyed',
        signatureLine: true,
        clerkName: it.clerkName,
        voidedBy: null,
        collectsRestOf: args.collectsRestOf ?? null,
        offline: true,
      };
      return ok({ approved: true, message: OFFLINE_APPROVED, transaction: view });
    },
    handlers: {
      'queue:status': async () => {
        const s = users.require();
        if (!s.ok) return s;
        return ok(forwarder.status());
      },
      'queue:list': async () => {
        const s = users.require('manager');
        if (!s.ok) return s;
        return ok({ status: forwarder.status(), items: queue.list(500) });
      },
      'queue:forward-now': async () => {
        const s = users.require('manager');
        if (!s.ok) return s;
        queue.makeAllDue();
        void forwarder.kick();
        return ok(forwarder.status());
      },
    },
  };
}
