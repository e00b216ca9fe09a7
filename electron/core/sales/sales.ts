/**
 * The counter's money handlers: sale, today's list, search, refund, void, receipt.
 * Every one checks the session first (refund and void need a manager — enforced
 * here, whatever the screen shows), talks to the gateway only through the typed
 * client, and answers plain sentences.
 *
 * Card data arrives once, in `sale:charge`, goes straight into the gateway request
 * and is dropped: it is never logged, stored or returned (the gateway answers with
 * first_six / last_four only).
 *
 * Simplifications: what a sale has had refunded is the larger of the gateway's refund
 * records (filtered by previous_transaction_id) and this app's own refund ledger (for a
 * gateway that cannot filter so); `receipt:print` prints through the shell only when
 * the shell supplies `printReceipt` (Electron main does not yet), otherwise the
 * renderer falls back to the browser's print.
 */
import { TODAY_PAGE_SIZE, type CoreStatus, type HandlerMap, type RefundOutcome, type SaleConfig, type SaleOutcome, type Session, type TransactionView } from '../../../shared/ipc/contract';
import type { Approval } from '../../../shared/ipc/common';
import type { StoreSettings } from '../../../shared/ipc/settings';
import { fail, ok, type Result } from '../../../shared/result';
import { GatewayError, type GatewayClient } from '../../client/gateway-client';
import type { V2Transaction, V2TransactionCreate, V2TransactionFilters } from '../../client/v2-types';
import { isExpDateCurrent } from '../../../shared/payments/exp-date';
import { luhnValid } from '../../../shared/payments/luhn';
import { formatMoney as centsToDecimal } from '../../../shared/payments/money';
import { REFUND_TOO_MUCH, refundLimitSentence } from '../../../shared/refund-limit';
import { withGatewayFailure } from '../gateway/guarded-call';
import { refuseAmount } from './amount-refusal';
import { ClerkRecords, clerkNumberOf, shortRefOf, type ClerkAction } from './clerk-records';
import type { PosDatabase } from '../platform/pos-database';
import { STATUS, toView, totalsOf, TYPE } from '../transactions/transaction-view';
import type { UserDirectory } from '../auth/users';
import type { SaleStatus } from '../../../shared/cart/tender-machine';
import type { OfflineSales } from '../queue/offline-sales';
import { failureOf, type LostAnswer, type LostPayments } from './lost-payments';
import { cardInstrument, type TenderRefs } from '../cart/tender-refs';
import { TIP_ADJUST_ERRORS, tipAdjustRefusal } from '../transactions/tip-adjust';
import { receiptDelivery } from '../receipts/receipt-delivery';

export const SALE_ERRORS = {
  luhn: 'This card number is not valid. Check the digits and try again.',
  expired: 'This card has expired. Ask for another card.',
  tooMuch: 'The total is above the largest amount one sale may carry.',
  refundTooMuch: REFUND_TOO_MUCH,
  notRefundable: 'This sale cannot be refunded: it was declined, voided or already fully refunded.',
  notVoidable: 'This sale cannot be voided any more. Refund it instead.',
  alreadySettled: 'This sale has already settled, so it cannot be voided. Refund it instead.',
  notASale: 'Only a sale can be refunded or voided.',
  notPartial: 'Only a partly approved sale can be voided from the sale screen. Ask a manager to void other sales.',
  /** The gateway's answer was lost and it could not be asked what happened: the screen keeps asking. */
  outcomeUnknown: 'The payment gateway did not answer. Checking whether the card was charged — do not charge again.',
  /** The answer was lost, and the gateway still has no record of the sale well past its processing time: nothing was charged. */
  notCharged: 'The payment gateway did not answer and has no record of this sale, so the card was not charged. Charge again when ready.',
  printInBrowser: 'Printing goes through the browser here.',
  /** A sale collecting the rest of a partial approval is that rest exactly: its tax is in it already, and a tip was asked on the first. */
  restNotExact: (restCents: number) => `The rest of this sale is ${dollars(restCents)}: charge exactly that, with no tip or tax added.`,
  restCollected: 'The rest of this sale has already been collected.',
  restOfPartialOnly: 'Only the rest of a partly approved sale can be collected this way.',
  /** Issue 20: a card payment of a paid cart given back is a cart return. */
  cartReturnNeedsManager: 'This card paid part of a sale that is already paid, so voiding it is a return: a manager enters their PIN (or signs in). Nothing was voided.',
  cartReturnRefused: 'That is not a manager PIN. The card payment was not voided.',
  /** The PIN lockout's own words (how long to wait: pin-throttle.ts), then what did not happen. */
  approverLocked: (wait: string) => `${wait} The card payment was not voided.`,
  /** Issue 21, point 12: a cashier asks, a manager approves with their PIN at the cashier's counter. */
  refundNeedsManager: 'A refund is approved by a manager: they enter their PIN here (or sign in). Nothing was refunded.',
  refundRefused: 'That is not a manager PIN. Nothing was refunded.',
  voidNeedsManager: 'A void is approved by a manager: they enter their PIN here (or sign in). Nothing was voided.',
  voidRefused: 'That is not a manager PIN. The sale was not voided.',
} as const;

/** What a cashier's step says when it waits for a manager, when the PIN is not a manager's, and when the approver is locked out. */
interface ApprovalWords {
  needed: string;
  refused: string;
  locked(wait: string): string;
}
const CART_RETURN_WORDS: ApprovalWords = { needed: SALE_ERRORS.cartReturnNeedsManager, refused: SALE_ERRORS.cartReturnRefused, locked: SALE_ERRORS.approverLocked };
const REFUND_WORDS: ApprovalWords = { needed: SALE_ERRORS.refundNeedsManager, refused: SALE_ERRORS.refundRefused, locked: (wait) => `${wait} Nothing was refunded.` };
const TIP_WORDS: ApprovalWords = { needed: TIP_ADJUST_ERRORS.lowerNeedsManager, refused: TIP_ADJUST_ERRORS.lowerRefused, locked: (wait) => `${wait} The tip was not changed.` };
const VOID_WORDS: ApprovalWords = { needed: SALE_ERRORS.voidNeedsManager, refused: SALE_ERRORS.voidRefused, locked: (wait) => `${wait} The sale was not voided.` };

const dollars = (cents: number) => `$${centsToDecimal(cents)}`;

/** Find by Ref on a gateway without the `id_suffix` filter: how far back and how many rows it scans, and its page size. */
const REF_SCAN_DAYS = 90;
const REF_SCAN_ROWS = 20_000;
const REF_PAGE_SIZE = 1_000;

export interface SalesDeps {
  client: GatewayClient;
  /**
   * The client `sale:void-partial` voids with. A cashier's requests go as the engine's
   * cashier user, who may not void (role-credentials.ts); voiding a partial approval to
   * start over is the one void the core lets a cashier make (it checks: a partial, unsettled
   * sale), so it goes as the gateway's admin user. Defaults to `client`.
   */
  partialVoidClient?: GatewayClient;
  /**
   * Reads whether a receipt e-mail went out. The gateway's outbox is the managers' (it holds
   * customers' addresses and links); the core reads only that one message's state as the
   * gateway's admin user, and a cashier gets the state, never the outbox. Defaults to `client`.
   */
  outboxClient?: GatewayClient;
  users: UserDirectory;
  db: PosDatabase;
  locationId: string | undefined;
  productTransactionId: string | undefined;
  shell: CoreStatus['shell'];
  /**
   * Prints (or saves as PDF) the receipt page in the desktop app, answering where a PDF
   * went or null. Electron main supplies it (webContents.print / printToPDF); without it
   * `receipt:print` answers `use_browser_print` and the renderer calls window.print().
   */
  printReceipt?: (transactionId: string) => Promise<string | null>;
  /** The store's settings (thresholds, tax, tips, receipt header), read fresh on every use. */
  settings: () => StoreSettings;
  now?: () => number;
  /** Offline store-and-forward (issue 13, offline-sales.ts): takes a sale the gateway could not be reached for. */
  offline?: Pick<OfflineSales, 'take'>;
  /**
   * The carts whose card tenders these transactions may be (issue 20, cart-store.ts): a void of a
   * paid cart's card is a cart return (a manager's), and a cart follows a void of its tender.
   */
  carts?: { statusOfTransaction(transactionId: string): SaleStatus | null; tenderVoided(transactionId: string): void };
  /** Makes and binds every transaction_api_id (issue 20, point 2): the screen's clientRef is only an attempt id. */
  refs: TenderRefs;
  /** Payments whose answer is not known, on disk with their cashier before they leave (issue 20, point 3). */
  lost: LostPayments;
}

type SalesHandlers = Pick<
  HandlerMap,
  | 'sale:config'
  | 'sale:charge'
  | 'sale:outcome'
  | 'sale:void-partial'
  | 'sale:lost-list'
  | 'sale:lost-seen'
  | 'transactions:today'
  | 'transactions:search'
  | 'transactions:view'
  | 'transactions:refund'
  | 'transactions:void'
  | 'transactions:adjust-tip'
  | 'receipt:print'
  | 'receipt:email'
>;

/** Unix seconds of local midnight of the day `ms` falls in. */
export function startOfLocalDay(ms: number): number {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  return Math.floor(d.getTime() / 1000);
}

export function createSalesHandlers(deps: SalesDeps): SalesHandlers {
  const { client, users, db, lost } = deps;
  const now = deps.now ?? Date.now;

  const ledgerSum = db.prepare('SELECT COALESCE(SUM(cents), 0) AS cents FROM refund_ledger WHERE original_id = ?');
  const ledgerAll = db.prepare('SELECT original_id, SUM(cents) AS cents FROM refund_ledger GROUP BY original_id');
  const ledgerInsert = db.prepare('INSERT OR IGNORE INTO refund_ledger (refund_id, original_id, cents, created_ts) VALUES (?, ?, ?, ?)');

  const refundedFromLedger = (id: string) => (ledgerSum.get(id) as { cents: number }).cents;
  const clerks = new ClerkRecords(db);

  const remember = (transactionId: string, action: ClerkAction, session: Session, linkedTo: string | null = null) =>
    clerks.record({ transactionId, action, userId: session.user.id, userName: session.user.name, linkedTo, createdTs: Math.floor(now() / 1000) });

  /** Adds this app's own record (who, linked sale) to views. */
  function withClerks(views: TransactionView[]): TransactionView[] {
    const records = clerks.ofMany(views.map((v) => v.id));
    if (records.size === 0) return views;
    return views.map((v) => {
      const rs = records.get(v.id);
      if (!rs) return v;
      const made = rs.find((r) => r.action === 'sale' || r.action === 'refund');
      const voided = rs.find((r) => r.action === 'void');
      return { ...v, clerkName: made?.userName ?? null, voidedBy: voided?.userName ?? null, collectsRestOf: made?.linkedTo ?? null };
    });
  }
  const withClerk = (v: TransactionView) => withClerks([v])[0]!;

  /** Views of a list, with refunds counted from the ledger and from refund rows in the same list. */
  function viewsOf(list: readonly V2Transaction[]): TransactionView[] {
    const refunded = new Map<string, number>();
    for (const row of ledgerAll.all() as Array<{ original_id: string; cents: number }>) refunded.set(row.original_id, row.cents);
    const fromRows = new Map<string, number>();
    for (const t of list) {
      if (Number(t.type_id) === TYPE.refund && t.previous_transaction_id && Number(t.status_id) !== STATUS.declined && Number(t.status_id) !== STATUS.voided) {
        const v = toView(t);
        fromRows.set(t.previous_transaction_id, (fromRows.get(t.previous_transaction_id) ?? 0) + v.amountCents);
      }
    }
    return withClerks(list.map((t) => toView(t, Math.max(refunded.get(t.id) ?? 0, fromRows.get(t.id) ?? 0))));
  }

  /** Approved refunds of a sale, asked of the gateway (exact filter on previous_transaction_id). */
  async function refundedAtGateway(id: string): Promise<number> {
    try {
      const { items } = await client.listTransactions({ previous_transaction_id: id, type_id: String(TYPE.refund) }, 1, 500);
      return items
        .filter((r) => r.previous_transaction_id === id && Number(r.status_id) !== STATUS.declined && Number(r.status_id) !== STATUS.voided)
        .reduce((sum, r) => sum + toView(r).amountCents, 0);
    } catch {
      return 0; // A gateway without this filter: the ledger still counts this app's own refunds.
    }
  }

  async function viewOne(id: string): Promise<TransactionView> {
    const t = await client.getTransaction(id);
    const atGateway = Number(t.type_id) === TYPE.sale ? await refundedAtGateway(t.id) : 0;
    return withClerk(toView(t, Math.max(refundedFromLedger(t.id), atGateway)));
  }

  /**
   * Transactions whose receipt Ref (shortRefOf: the id's last 8 characters) is `ref`, whichever
   * register or tender made them: this register's clerk records first (one GET each), then the
   * gateway — the embedded engine's `id_suffix` filter answers in one request; a gateway that
   * ignores that filter (its rows do not all end so) is scanned newest first instead.
   * Simplification: the scan reads at most REF_SCAN_ROWS rows of the searched period (by default
   * the last REF_SCAN_DAYS days), so an older sale on such a gateway needs its date range.
   */
  async function findByRef(ref: string, from: number | undefined, to: number | undefined): Promise<V2Transaction[]> {
    const wanted = ref.toUpperCase();
    const found = new Map<string, V2Transaction>();
    for (const id of clerks.idsByRef(wanted)) {
      try {
        found.set(id, await client.getTransaction(id));
      } catch (err) {
        if (!(err instanceof GatewayError && err.status === 404)) throw err;
      }
    }
    const location: V2TransactionFilters = deps.locationId ? { location_id: deps.locationId } : {};
    const asked: V2TransactionFilters = from !== undefined || to !== undefined ? { created_ts: `${from ?? 0}|${to ?? 4_102_444_800}` } : {};
    const keep = (rows: readonly V2Transaction[]) => rows.filter((t) => shortRefOf(t.id) === wanted).forEach((t) => found.set(t.id, t));
    const bySuffix = await client.listTransactions({ ...location, ...asked, id_suffix: wanted.toLowerCase() }, 1, REF_PAGE_SIZE);
    keep(bySuffix.items);
    if (bySuffix.items.some((t) => shortRefOf(t.id) !== wanted)) {
      // The gateway ignored the filter: page through the period instead, newest first.
      const nowS = Math.floor(now() / 1000);
      const period = { ...location, created_ts: `${from ?? nowS - REF_SCAN_DAYS * 86_400}|${to ?? nowS + 86_400}` };
      for (let page = 1; page * REF_PAGE_SIZE <= REF_SCAN_ROWS; page++) {
        const { items } = await client.listTransactions(period, page, REF_PAGE_SIZE);
        keep(items);
        if (items.length < REF_PAGE_SIZE) break;
      }
    }
    return [...found.values()];
  }

  const outcomeOf = (view: TransactionView): SaleOutcome => ({ approved: view.state === 'approved', message: view.message, transaction: view });

  /** A lost payment's answer as the screen hears it (its clerk record, made by lost-payments.ts, names who charged it). */
  function lookupAnswer(a: LostAnswer): Result<SaleOutcome> {
    if (a.kind === 'unknown') return fail('outcome_unknown', SALE_ERRORS.outcomeUnknown);
    if (a.kind === 'not_charged') return fail('not_charged', SALE_ERRORS.notCharged);
    if (a.kind === 'refused') return a.result;
    return ok(outcomeOf(withClerk(toView(a.transaction))));
  }

  /**
   * The sale screen's configuration: the store settings as saved now (a manager's save reaches a
   * signed-in counter through `settings:changed`, which makes the screen ask again). The name on
   * the receipt is the store name on the settings screen; the tip percents offered on screen are
   * the store's — a payment terminal asks with its own percents, on the terminal only.
   */
  function loadConfig(): SaleConfig {
    const st = deps.settings();
    return {
      merchantName: st.storeName,
      tipPercents: [...st.tipPercents],
      tipEnabled: st.tipsEnabled,
      tipRules: { tipBase: st.tipBase, smartTips: st.smartTips },
      taxRateBasisPoints: st.taxRateBasisPoints,
      taxOnByDefault: st.taxOnByDefault,
      confirmAboveCents: st.confirmAboveCents,
      hardCapCents: st.hardCapCents,
      tipConfirmPercent: st.tipConfirmPercent,
      storeAddress: st.storeAddress,
      storePhone: st.storePhone,
    };
  }

  const base = () => ({
    payment_method: 'cc' as const,
    ...(deps.locationId ? { location_id: deps.locationId } : {}),
    ...(deps.productTransactionId ? { product_transaction_id: deps.productTransactionId } : {}),
  });

  /** Runs money changes of one sale one after another (refunds and voids of different sales still overlap). */
  const queues = new Map<string, Promise<unknown>>();
  function oneAtATime<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const prev = queues.get(id) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const tail = next.catch(() => undefined);
    queues.set(id, tail);
    void tail.then(() => {
      if (queues.get(id) === tail) queues.delete(id);
    });
    return next;
  }

  const guarded = withGatewayFailure;

  /**
   * Why a sale may not collect the rest of `firstId` (null: it may): the first must be a partly
   * approved sale still standing, and this one exactly what is left of it — asked minus approved,
   * minus what sales linked to it have collected — with no tip or tax added.
   */
  async function restRefusal(firstId: string, args: { subtotalCents: number; taxCents: number; tipCents: number }): Promise<Result<never> | null> {
    const first = await viewOne(firstId);
    if (first.kind !== 'sale' || !first.partial || first.state !== 'approved') return fail('bad_request', SALE_ERRORS.restOfPartialOnly);
    let collected = 0;
    for (const r of clerks.linkedTo(firstId)) {
      if (r.action !== 'sale') continue;
      const linked = await viewOne(r.transactionId);
      if (linked.state !== 'declined' && linked.state !== 'voided') collected += linked.amountCents;
    }
    const restCents = first.requestedCents - first.amountCents - collected;
    if (restCents <= 0) return fail('conflict', SALE_ERRORS.restCollected);
    if (args.taxCents !== 0 || args.tipCents !== 0 || args.subtotalCents !== restCents) {
      const msg = SALE_ERRORS.restNotExact(restCents);
      return fail('bad_request', msg, { amount: [msg] });
    }
    return null;
  }

  /** Voids a partial approval (checked: partial, unsettled) as `by`; a cart whose tender it was follows. */
  function voidPartial(id: string, by: Session): Promise<Result<TransactionView>> {
    return oneAtATime(id, () =>
      guarded(async () => {
        const original = await viewOne(id);
        if (original.kind !== 'sale' || !original.partial) return fail('bad_request', SALE_ERRORS.notPartial);
        if (original.settled) return fail('conflict', SALE_ERRORS.alreadySettled);
        if (!original.voidable) return fail('conflict', SALE_ERRORS.notVoidable);
        const t = await (deps.partialVoidClient ?? client).voidTransaction(id);
        remember(id, 'void', by);
        deps.carts?.tenderVoided(id);
        return ok(withClerk(toView(t, refundedFromLedger(id))));
      }),
    );
  }

  /**
   * A cashier's step that gives money back, approved at their counter by a manager's PIN
   * (checked here, never on the screen: wrong PINs count toward the same lockout as at
   * sign-in). It then runs as that manager — under a caller of their own, so the gateway
   * gets it with the admin user and its clerk record names them — while the window stays
   * the cashier's, who the audit line names as the one who asked.
   */
  async function byManager<T>(approval: Approval | undefined, words: ApprovalWords, step: (manager: Session) => Promise<Result<T>>): Promise<Result<T>> {
    if (!approval) return fail('approval_needed', words.needed, { approval: [words.needed] });
    const m = await users.verifyManager(approval.managerId, approval.pin);
    if (!m.ok) {
      const msg = m.error.code === 'locked' ? words.locked(m.error.message) : words.refused;
      return fail(m.error.code === 'locked' ? 'locked' : 'approval_refused', msg, { approval: [msg] });
    }
    return users.actAsManager(m.value, () => step({ user: m.value, signedInAt: now() }));
  }

  /** Refunds part or all of a sale as `by`, never more than is left. */
  function refund(by: Session, id: string, amountCents: number): Promise<Result<RefundOutcome>> {
    // One refund or void of a sale at a time: two quick refunds must not both see the same amount left.
    return oneAtATime(id, () =>
      guarded(async () => {
        const original = await viewOne(id);
        if (original.kind !== 'sale') return fail('bad_request', SALE_ERRORS.notASale);
        if (original.refundableCents <= 0) return fail('conflict', SALE_ERRORS.notRefundable);
        if (amountCents > original.refundableCents) {
          const msg = `${SALE_ERRORS.refundTooMuch} ${refundLimitSentence(original.refundableCents)}`;
          return fail('bad_request', msg, { amount: [msg] });
        }
        const t = await client.createTransaction({
          action: 'refund',
          ...base(),
          transaction_amount: centsToDecimal(amountCents),
          previous_transaction_id: id,
          clerk_number: clerkNumberOf(by.user.id),
        });
        remember(t.id, 'refund', by);
        const made = withClerk(toView(t));
        const approved = made.state === 'approved' || made.state === 'refunded';
        if (approved) ledgerInsert.run(made.id, id, amountCents, Math.floor(now() / 1000));
        return ok({ approved, message: approved ? `Refunded $${centsToDecimal(amountCents)}.` : made.message, refund: made, original: await viewOne(id) });
      }),
    );
  }

  /** Voids an unsettled sale as `by`; a cart whose tender it was follows. */
  function voidSale(by: Session, id: string): Promise<Result<TransactionView>> {
    return oneAtATime(id, () =>
      guarded(async () => {
        const original = await viewOne(id);
        if (original.kind !== 'sale') return fail('bad_request', SALE_ERRORS.notASale);
        if (original.settled) return fail('conflict', SALE_ERRORS.alreadySettled);
        if (!original.voidable) return fail('conflict', SALE_ERRORS.notVoidable);
        const t = await client.voidTransaction(id);
        remember(id, 'void', by);
        deps.carts?.tenderVoided(id);
        return ok(withClerk(toView(t, refundedFromLedger(id))));
      }),
    );
  }

  return {
    'sale:config': async () => {
      const s = users.require();
      if (!s.ok) return s;
      return ok(loadConfig());
    },

    'sale:charge': async (args) => {
      const s = users.requireCounter();
      if (!s.ok) return s;
      const session = s.value;
      const total = args.subtotalCents + args.taxCents + args.tipCents;
      // The same guards as the screen's, enforced here whatever the screen did.
      const refused = refuseAmount(deps.settings(), { subtotalCents: args.subtotalCents, tipCents: args.tipCents, totalCents: total }, args);
      if (refused) return refused;
      if (!luhnValid(args.card.number)) return fail('bad_request', SALE_ERRORS.luhn, { 'card.number': [SALE_ERRORS.luhn] });
      if (!isExpDateCurrent(args.card.expiry, new Date(now()))) return fail('bad_request', SALE_ERRORS.expired, { 'card.expiry': [SALE_ERRORS.expired] });
      // The reference is the core's, bound to this tender before anything leaves: the cart's, handed down, or this attempt's.
      const tender = { amountCents: total - args.tipCents, tipCents: args.tipCents, method: 'cc', action: 'sale', instrument: cardInstrument(args.card.number, args.card.expiry) } as const;
      const handed = deps.refs.handedDown(tender);
      if (!handed.ok) return handed;
      const made = handed.value !== null ? { ok: true as const, value: handed.value } : deps.refs.refFor(session, { scope: 'sale', attempt: args.clientRef, ...tender });
      if (!made.ok) {
        // This screen's own retry of a sale the core found after its answer was lost: that answer, once (lost-payments.ts).
        const again = made.error.code === 'already_answered' ? await lost.answerForRetry(session, { scope: 'sale', attempt: args.clientRef, ...tender }) : null;
        return again ? lookupAnswer(again) : made;
      }
      const ref = made.value;
      const request: V2TransactionCreate = {
        action: 'sale',
        ...base(),
        transaction_amount: centsToDecimal(total),
        ...(args.taxCents > 0 ? { tax: centsToDecimal(args.taxCents) } : {}),
        ...(args.tipCents > 0 ? { tip_amount: centsToDecimal(args.tipCents) } : {}),
        account_number: args.card.number,
        exp_date: args.card.expiry,
        cvv: args.card.cvv,
        billing_zip: args.card.zip,
        transaction_api_id: ref,
        clerk_number: clerkNumberOf(session.user.id),
      };
      // What goes to the offline queue carries the core's reference too (its transaction_api_id when forwarded).
      const queued = { ...args, clientRef: ref };
      // The rest of a partial approval: one at a time per first sale, so two quick charges cannot both collect it.
      const firstId = args.collectsRestOf;
      if (firstId) return oneAtATime(firstId, () => guarded(async () => (await restRefusal(firstId, args)) ?? send()));
      return guarded(send);

      async function send(): Promise<Result<SaleOutcome>> {
        // On disk with its cashier before it leaves: a lost answer is resumed after a restart too (lost-payments.ts).
        lost.sending(ref, { way: 'keyed', session, amountCents: total, collectsRestOf: args.collectsRestOf ?? null });
        let t: V2Transaction;
        try {
          t = await client.createTransaction(request);
        } catch (err) {
          const failure = failureOf(err);
          // ── Offline store-and-forward (issue 13): the connection was refused, so the sale never left; it waits in the offline queue.
          const offline = failure === 'unreachable' ? deps.offline?.take(queued, session) : null;
          if (failure !== 'lost' || offline) {
            lost.answered(ref); // refused, or never left: nothing is unknown
            if (offline) return offline;
            throw err;
          }
          // No answer, but the request may have reached the gateway: unknown until known (`sale:outcome`, the core's sweep).
          lost.lost(ref, request);
          let found: V2Transaction | null;
          try {
            found = await client.findByApiId(ref, deps.locationId);
          } catch (lookupErr) {
            // ── Offline store-and-forward (issue 13): the gateway went away mid-request. Queueing is safe: the
            // forward carries the same transaction_api_id, so a sale the gateway did take comes back as the original.
            const taken = lookupErr instanceof GatewayError && lookupErr.status === 0 ? deps.offline?.take(queued, session) : null;
            if (taken?.ok) {
              lost.answered(ref);
              return taken;
            }
            return fail('outcome_unknown', SALE_ERRORS.outcomeUnknown);
          }
          // No record yet proves nothing: the POST may still land. The screen keeps asking.
          if (!found) return fail('outcome_unknown', SALE_ERRORS.outcomeUnknown);
          return lookupAnswer(await lost.settle(ref, found, session));
        }
        // An answer that is not this tender (amount, card, method, action, another sale's record) is never counted.
        return lost.counted(ref, t, session, (charged) => {
          remember(charged.id, 'sale', session, args.collectsRestOf ?? null);
          return ok(outcomeOf(withClerk(toView(charged))));
        });
      }
    },

    'sale:outcome': async ({ clientRef }) => {
      const s = users.require();
      if (!s.ok) return s;
      // The cart's pending tender hands its own reference down; a screen's attempt id names the reference this window's user got for it.
      const ref = deps.refs.handedDownRef() ?? deps.refs.refOfAttempt(s.value, 'sale', clientRef);
      if (!ref) return ok({ outcome: null }); // no reference was made for it: nothing was sent
      const r = lookupAnswer(await lost.resolve(ref, s.value));
      return r.ok ? ok({ outcome: r.value }) : r.error.code === 'not_charged' ? ok({ outcome: null }) : r;
    },

    'sale:lost-list': async () => {
      const s = users.requireCounter();
      if (!s.ok) return s;
      return ok(lost.list());
    },

    'sale:lost-seen': async ({ id }) => {
      const s = users.requireCounter();
      if (!s.ok) return s;
      lost.seen(id, s.value);
      return ok(lost.list());
    },

    'sale:void-partial': async ({ id, approval }) => {
      const s = users.require();
      if (!s.ok) return s;
      // A card payment of a paid cart: voiding it gives money back on a finished sale, a cart return (issue 20).
      if (s.value.user.role !== 'manager' && deps.carts?.statusOfTransaction(id) === 'paid') {
        // The void is the manager's: their name is its clerk record (the view's voidedBy, and the audit line's "approved by").
        return byManager(approval, CART_RETURN_WORDS, (manager) => voidPartial(id, manager));
      }
      return voidPartial(id, s.value);
    },

    'transactions:today': async ({ page, until: asked }) => {
      const s = users.require();
      if (!s.ok) return s;
      return guarded(async () => {
        const since = startOfLocalDay(now());
        // A snapshot: later pages keep page 1's upper bound, so sales made meanwhile do not shift them.
        const until = Math.min(asked ?? Math.floor(now() / 1000), since + 86_399);
        const filters: V2TransactionFilters = { created_ts: `${since}|${until}` };
        if (deps.locationId) filters.location_id = deps.locationId;
        const { items, meta } = await client.listTransactions(filters, page, TODAY_PAGE_SIZE);
        const rows = viewsOf(items);
        const pageCount = meta.pagination?.pageCount ?? (items.length < TODAY_PAGE_SIZE ? page : page + 1);
        return ok({ rows, totals: totalsOf(rows), since, until, page, pageCount: Math.max(page, pageCount) });
      });
    },

    'transactions:search': async (args) => {
      const s = users.require();
      if (!s.ok) return s;
      return guarded(async () => {
        let items: V2Transaction[];
        if (args.ref) {
          items = await findByRef(args.ref, args.from, args.to);
        } else {
          const filters: V2TransactionFilters = {};
          if (deps.locationId) filters.location_id = deps.locationId;
          if (args.lastFour) filters.last_four = args.lastFour;
          if (args.amountCents !== undefined) filters.transaction_amount = centsToDecimal(args.amountCents);
          if (args.transactionApiId) filters.transaction_api_id = args.transactionApiId;
          if (args.authCode) filters.auth_code = args.authCode.toUpperCase();
          if (args.from !== undefined || args.to !== undefined) filters.created_ts = `${args.from ?? 0}|${args.to ?? 4_102_444_800}`;
          items = (await client.listTransactions(filters, 1, 500)).items;
        }
        // The gateway's text filters match substrings; keep only exact matches (and apply every filter to Ref hits).
        const exact = items.filter((t) => {
          const ts = Number(t.created_ts ?? 0);
          return (
            (!args.lastFour || (t.last_four ?? '').endsWith(args.lastFour)) &&
            (args.amountCents === undefined || toView(t).requestedCents === args.amountCents) &&
            (!args.transactionApiId || t.transaction_api_id === args.transactionApiId) &&
            (!args.authCode || (t.auth_code ?? '').toUpperCase() === args.authCode.toUpperCase()) &&
            (args.from === undefined || ts >= args.from) &&
            (args.to === undefined || ts <= args.to)
          );
        });
        return ok(viewsOf(exact));
      });
    },

    'transactions:view': async ({ id }) => {
      const s = users.require();
      if (!s.ok) return s;
      return guarded(async () => ok(await viewOne(id)));
    },

    'transactions:refund': async ({ id, amountCents, approval }) => {
      const s = users.requireCounter();
      if (!s.ok) return s;
      return s.value.user.role === 'manager' ? refund(s.value, id, amountCents) : byManager(approval, REFUND_WORDS, (manager) => refund(manager, id, amountCents));
    },

    'transactions:void': async ({ id, approval }) => {
      const s = users.requireCounter();
      if (!s.ok) return s;
      return s.value.user.role === 'manager' ? voidSale(s.value, id) : byManager(approval, VOID_WORDS, (manager) => voidSale(manager, id));
    },

    'transactions:adjust-tip': async ({ id, tipCents, approval }) => {
      const s = users.requireCounter();
      if (!s.ok) return s;
      // One money change of a sale at a time: a tip adjust and a void or refund never cross.
      return oneAtATime(id, () =>
        guarded(async () => {
          const sale = await viewOne(id);
          const refused = tipAdjustRefusal(sale, tipCents);
          if (refused) return refused;
          const adjust = (by: Session) =>
            guarded(async () => {
              const t = await client.updateTransaction(id, { action: 'edit', tip_amount: centsToDecimal(tipCents) });
              return ok({ transaction: withClerk(toView(t, sale.refundedCents)), previousTipCents: sale.tipCents, adjustedBy: by.user.name });
            });
          // A lower tip collects less than was approved: a manager's step (the gateway's partial reversal role).
          if (tipCents < sale.tipCents && s.value.user.role !== 'manager') return byManager(approval, TIP_WORDS, adjust);
          return adjust(s.value);
        }),
      );
    },

    'receipt:print': async ({ id }) => {
      const s = users.require();
      if (!s.ok) return s;
      if (!deps.printReceipt) return fail('use_browser_print', SALE_ERRORS.printInBrowser);
      return ok({ savedTo: await deps.printReceipt(id) });
    },

    'receipt:email': async ({ id, email }) => {
      const s = users.require();
      if (!s.ok) return s;
      return guarded(async () => {
        await client.updateTransaction(id, { action: 'edit', notification_email_address: email });
        return ok({ sentTo: email, delivery: await receiptDelivery(deps.outboxClient ?? client, id, deps.locationId) });
      });
    },
  };
}
