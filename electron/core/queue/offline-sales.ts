/**
 * The counter's side of the offline queue (issue 13): `take` is the one call the sale
 * path (sales.ts) makes when the gateway cannot be reached; the `queue:*` handlers feed
 * the status bar and the manager's Queue screen.
 *
 * Simplification: an offline sale's receipt carries a reference made from its own
 * transaction_api_id (the gateway's id does not exist yet); once forwarded, the sale is
 * found in Transactions under its gateway reference.
 */
import type { HandlerMap, QueueItem, SaleChargeArgs, SaleOutcome, Session, StoreSettings, TransactionView } from '../../../shared/ipc/contract';
import { isOfflinePlaceholder, offlinePlaceholderId } from '../../../shared/offline-ref';
import { formatMoney } from '../../../shared/payments/money';
import { fail, ok, type Result } from '../../../shared/result';
import { type ClerkRecords, clerkNumberOf, shortRefOf } from '../sales/clerk-records';
import type { OfflineForwarder } from './offline-forwarder';
import { ACK_GRACE_SECONDS, type DueSale, type OfflineQueue, type OfflineRules, type WithdrawOutcome } from './offline-queue';
import type { PosDatabase } from '../platform/pos-database';
import { ownerKeyOf } from '../cart/tender-refs';
import { callerSession } from '../../ipc/channel-rules';

export const OFFLINE_APPROVED = 'Approved offline. The sale is stored on this computer and goes to the gateway by itself when it answers again.';

export const OFFLINE_CUSTOMER_NOT_QUEUED = 'That sale is not in the offline queue.';

/** The power-cut window (issue 20, point 3): what the acknowledgement and the sign-in choice answer, in words. */
export const UNCONFIRMED_COPY = {
  notYours: 'Only the screen that took this sale, or a manager, can confirm it was shown.',
  notListed: 'That sale is not waiting for a choice: it was confirmed, sent or cancelled already.',
  confirmedMeanwhile: 'That sale was confirmed on its screen meanwhile, so it stays and is sent to the gateway.',
  kept: (amount: string) => `Kept: the ${amount} sale is sent to the gateway when it answers.`,
  cancelled: (amount: string) => `Cancelled: the ${amount} sale is never sent, and the card is never charged.`,
} as const;

/** What the cart says of a card payment that still waits in the offline queue. */
export const OFFLINE_TENDER_COPY = {
  notSentYet: 'This card payment was approved offline and still waits to be sent to the gateway: it can be returned once the gateway has it.',
  neverCharged: 'This card payment was approved offline but never charged (declined once sent, or not sent in time): there is nothing to give back on it.',
} as const;


/**
 * What the core does when a queued sale reached the gateway: records who rang it up (like
 * any sale), and gives a cart tender paid offline the gateway's transaction id in place of
 * its stand-in, so the cart's cancel and line returns reach the real sale.
 */
export function offlineForwardedRecorder(db: PosDatabase, clerks: ClerkRecords): (sale: DueSale, transactionId: string) => void {
  // The cart tender's id is the sale's transaction_api_id (tenders.ts); only a stand-in is replaced.
  const tender = db.prepare('UPDATE cart_tenders SET transaction_id = ? WHERE id = ? AND transaction_id = ?');
  return (sale, transactionId) => {
    clerks.record({ transactionId, action: 'sale', userId: sale.clerkId, userName: sale.clerkName, linkedTo: sale.collectsRestOf, createdTs: Math.floor(Date.now() / 1000) });
    tender.run(transactionId, sale.clientRef, offlinePlaceholderId(sale.clientRef));
  };
}

export interface OfflineSalesDeps {
  queue: OfflineQueue;
  forwarder: OfflineForwarder;
  /** A cart tender paid by a sale cancelled at sign-in: the cart follows (its reference: the tender's id). */
  onUnconfirmedCancelled?: (clientRef: string) => void;
  /** How long a sale may wait for its screen's acknowledgement in this run (seconds; default ACK_GRACE_SECONDS). */
  ackGraceSeconds?: number;
  settings: () => StoreSettings;
  locationId: string | undefined;
  productTransactionId: string | undefined;
}

export interface OfflineSales {
  /**
   * Queues a keyed sale the gateway could not take (durably, before answering), or refuses
   * it with the store's rule in a sentence (by default a store takes no keyed cards offline).
   */
  take(args: SaleChargeArgs, session: Session): Result<SaleOutcome>;
  /** Takes back a sale not sent yet (a cart cancelled); see OfflineForwarder.withdraw. */
  withdraw(clientRef: string): Promise<WithdrawOutcome>;
  /** A queued sale by its transaction_api_id (null: never queued). */
  item(clientRef: string): QueueItem | null;
  handlers: Pick<
    HandlerMap,
    'queue:status' | 'queue:list' | 'queue:forward-now' | 'queue:set-customer' | 'queue:acknowledge' | 'queue:unconfirmed' | 'queue:resolve-unconfirmed'
  >;
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

const ENTRY_VIEW = { K: 'keyed', S: 'swiped', C: 'chip', P: 'contactless' } as const;

/**
 * The sale screen's and the receipt's view of a sale taken offline: approved, marked
 * offline, under its stand-in id; nothing to refund or void before the gateway has it.
 */
export function offlineViewOf(it: QueueItem, opts: { collectsRestOf: string | null; signatureLine?: boolean }): TransactionView {
  return {
    id: offlinePlaceholderId(it.clientRef),
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
    entryMode: ENTRY_VIEW[it.entryMode],
    // Keyed and swiped cards sign; a chip or contactless read signs when its CVM said so.
    signatureLine: opts.signatureLine ?? (it.entryMode === 'K' || it.entryMode === 'S'),
    clerkName: it.clerkName,
    voidedBy: null,
    collectsRestOf: opts.collectsRestOf,
    offline: true,
  };
}

export function createOfflineSales(deps: OfflineSalesDeps): OfflineSales {
  const { queue, forwarder } = deps;
  const grace = deps.ackGraceSeconds ?? ACK_GRACE_SECONDS;
  return {
    take(args, session) {
      const rules = offlineRulesOf(deps.settings());
      const total = args.subtotalCents + args.taxCents + args.tipCents;
      // A keyed card is refused with its own sentence unless the store takes keyed cards offline (enqueue checks).
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
          // This window and user acknowledge it once their screen shows "Approved offline".
          owner: ownerKeyOf(session),
        },
        rules,
      );
      if (!r.ok) return fail('offline_refused', r.message);
      // On disk now: the status bar follows, and forwarding starts at once should the gateway already be back.
      void forwarder.kick();
      return ok({ approved: true, message: OFFLINE_APPROVED, transaction: offlineViewOf(r.item, { collectsRestOf: args.collectsRestOf ?? null }) });
    },
    withdraw: (clientRef) => forwarder.withdraw(clientRef),
    item: (clientRef) => queue.item(clientRef),
    handlers: {
      'queue:status': async () => {
        return ok(forwarder.status());
      },
      'queue:list': async () => {
        return ok({ status: forwarder.status(), items: queue.list(500) });
      },
      'queue:forward-now': async () => {
        queue.makeAllDue();
        void forwarder.kick();
        return ok(forwarder.status());
      },
      'queue:set-customer': async ({ clientRef, name, contact }) => {
        if (!queue.setCustomer(clientRef, { name, contact })) return fail('not_found', OFFLINE_CUSTOMER_NOT_QUEUED);
        return ok(queue.item(clientRef)!);
      },
      'queue:acknowledge': async ({ id }) => {
        // The screen has the sale's stand-in id (offline-<reference>); nothing else names a queued sale to it.
        const clientRef = isOfflinePlaceholder(id) ? id.slice(offlinePlaceholderId('').length) : null;
        const item = clientRef ? queue.item(clientRef) : null;
        if (!clientRef || !item) return fail('not_found', OFFLINE_CUSTOMER_NOT_QUEUED);
        const s = callerSession();
        if (queue.ownerOf(clientRef) !== ownerKeyOf(s) && s.user.role !== 'manager') return fail('forbidden', UNCONFIRMED_COPY.notYours);
        const after = queue.acknowledge(clientRef)!;
        // Acknowledged: it may go now, should the gateway already be back.
        if (!item.acknowledged && after.acknowledged) void forwarder.kick();
        return ok(after);
      },
      'queue:unconfirmed': async () => {
        return ok(queue.unconfirmed(grace));
      },
      'queue:resolve-unconfirmed': async ({ clientRef, choice }) => {
        const listed = queue.unconfirmed(grace).find((it) => it.clientRef === clientRef);
        if (!listed) {
          const it = queue.item(clientRef);
          // Kept twice (two counters chose at once), or confirmed on its own screen meanwhile: it stays.
          if (it?.acknowledged && it.state !== 'withdrawn') {
            return choice === 'keep' ? ok({ item: it, message: UNCONFIRMED_COPY.kept(`$${formatMoney(it.amountCents)}`) }) : fail('conflict', UNCONFIRMED_COPY.confirmedMeanwhile);
          }
          return fail('conflict', UNCONFIRMED_COPY.notListed);
        }
        const amount = `$${formatMoney(listed.amountCents)}`;
        const after = choice === 'keep' ? queue.acknowledge(clientRef)! : queue.cancelUnconfirmed(clientRef)!;
        // Another counter's choice or the screen's own acknowledgement got there first: say what it became.
        if (choice === 'cancel' && after.state !== 'withdrawn') return fail('conflict', UNCONFIRMED_COPY.confirmedMeanwhile);
        // Audited with who chose by the channel rules (queue.ts declares it; recorders.ts words it).
        if (choice === 'keep') void forwarder.kick();
        else {
          deps.onUnconfirmedCancelled?.(clientRef);
          void forwarder.kick(); // the status bar's count follows
        }
        return ok({ item: after, message: choice === 'keep' ? UNCONFIRMED_COPY.kept(amount) : UNCONFIRMED_COPY.cancelled(amount) });
      },
    },
  };
}
