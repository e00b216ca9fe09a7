/**
 * The cart's IPC handlers: lines, discounts, and its tenders. Every money step goes
 * through the existing sale path (`sale:charge`, `transactions:refund`, `transactions:void`,
 * `sale:void-partial`, each audited) — this file adds no gateway call of its own except
 * the Level 3 save — and cash is recorded only here, in the app database.
 *
 * Each card tender is its own gateway transaction, with the tender's id as its
 * transaction_api_id, so a lost answer is looked up, never charged twice. The tender is
 * written as pending before the gateway is asked: a second submit (another click, another
 * window) is refused by the state machine while it is pending.
 *
 * Level 3 from the cart: after a card tender is approved, the engine's own view of the
 * transaction (its transaction_level3 expand, which it attaches for commercial BINs) says
 * whether the card is commercial; if so the cart's lines become the line items, checked
 * with the engine's shared schemas before sending (cart-level3.ts).
 * Simplification: a split sale sends every line with each commercial-card tender (the
 * networks' Level 3 describes the order, not the tender's share).
 */
import { randomUUID } from 'node:crypto';
import type { GuardConfirmations, GuardSettings } from '../../../shared/amount-guards';
import { allocateLineRefund, type Discount } from '../../../shared/cart/cart-math';
import { DISCOUNT_COPY, discountFit } from '../../../shared/cart/discount-guard';
import { beginCancel, beginTender, finishTender, markReversed, pendingTender, TENDER_MESSAGES, type Tender } from '../../../shared/cart/tender-machine';
import { CART_SALES_PAGE_SIZE, type CartView, type HandlerMap, type HandlerResults, type SaleOutcome, type Session, type TransactionView } from '../../../shared/ipc/contract';
import { DEFAULT_CART_RULES, type CartRules, type TaxCategory } from '../../../shared/ipc/catalogue';
import { formatMoney as centsToDecimal } from '../../../shared/payments/money';
import { validateLevel3 } from '../../../shared/payments/level3-schema';
import { luhnValid } from '../../../shared/payments/luhn';
import { LEVEL3_NOTES, level3FromCart, NETWORK_NAMES, plainLevel3Error } from './cart-level3';
import { fail, ok, type Result } from '../../../shared/result';
import type { GatewayClient } from '../../client/gateway-client';
import type { Catalogue } from '../catalogue/catalogue';
import { refuseAmount } from '../sales/amount-refusal';
import { recordCash } from './cash-drawer';
import { CART_MESSAGES, CartStore } from './cart-store';
import type { CoreEvents } from '../platform/events';
import { level3ViewOf } from '../level3/level3-handlers';
import { isOfflinePlaceholder } from '../../../shared/offline-ref';
import { OFFLINE_TENDER_COPY, type OfflineSales } from '../queue/offline-sales';
import { getSetting, type PosDatabase } from '../platform/pos-database';
import { cardInstrument, REF_COPY, type TenderRefs } from './tender-refs';
import type { UserDirectory } from '../auth/users';

export const CART_RULES_KEY = 'cart-rules';

export const TENDER_COPY = {
  approvalNeeded: (pct: number) => `Discounts above ${pct} % need a manager's approval: a manager enters their PIN.`,
  /** Issue 20: a line's own discount and its share of the whole-sale one count together. */
  combinedNeedsApproval: (pct: number, sharePct: number) =>
    `Together, the line discount and the whole-sale discount come to ${sharePct} % off, above the ${pct} % a cashier may give: a manager enters their PIN (or lower a discount).`,
  /** Issue 20: the hard cap holds for all the card payments of one sale together, not for each. */
  cartAboveCap: (capCents: number, onCardsCents: number) =>
    `A sale can be at most $${centsToDecimal(capCents)} on cards, all its card payments together, and $${centsToDecimal(onCardsCents)} of it is on cards already. Take the rest in cash, or ask a manager to raise the limit in the store settings.`,
  shareGrew: (pct: number, sharePct: number) =>
    `That leaves a discount of ${sharePct} %, above the ${pct} % a cashier may give: a manager enters their PIN (or lower the discount first).`,
  tenderNeedsApproval: (pct: number, sharePct: number) =>
    `This sale has a discount of ${sharePct} %, above the ${pct} % a cashier may give: a manager enters their PIN before it is paid.`,
  approvalRefused: 'That is not a manager PIN. Nothing was changed.',
  cancelNeedsManager: 'Cancelling a sale that took a card payment needs a manager: a manager enters their PIN (card payments are voided or refunded).',
  cancelRefused: 'That is not a manager PIN. The sale was not cancelled.',
  nothingToRefund: 'Those lines were already returned.',
  notPaid: 'Only a paid sale can have lines returned.',
  notPartial: 'Only a partly approved card sale can be collected this way.',
  cartBusy: 'Finish or clear the sale in the cart first.',
  alreadyInCart: 'This card sale is already part of a cart.',
  noItem: 'That item is not in the catalogue (or it was archived).',
  /** A scanned code no active item has (issue 21, point 9). */
  noCode: (code: string) => `No item has the code ${code}. Check the item in the catalogue, or find it by name.`,
  /** Not echoed: digits that pass the card check could be a card number keyed into the wrong place. */
  noCodeUnsaid: 'No item has the code you scanned (it is not shown here: it could be a card number). Check the item in the catalogue, or find it by name.',
  /** Collecting a due cart (issue 20, point 4). */
  notDue: 'Only a sale with money due can be collected: this one owes nothing.',
  collectBusy: 'Finish or clear the sale in your cart first, then collect the rest of this one.',
  collectTaken: (who: string) => `${who} is collecting this sale at their counter. A manager can take it over.`,
  dueNoCancel: 'This sale was paid before and its items are gone: it cannot be cancelled here. Collect what is due, or put it back for later.',
  notCollecting: 'You are not collecting a sale that has money due.',
} as const;

type CartHandlers = Pick<
  HandlerMap,
  | 'cart:current'
  | 'cart:add-item'
  | 'cart:add-code'
  | 'cart:add-open'
  | 'cart:set-quantity'
  | 'cart:remove-line'
  | 'cart:set-line-discount'
  | 'cart:set-cart-discount'
  | 'cart:comp'
  | 'cart:approve'
  | 'cart:clear'
  | 'cart:pay-cash'
  | 'cart:pay-card'
  | 'cart:pay-saved'
  | 'cart:pay-terminal'
  | 'cart:cancel'
  | 'cart:adopt-partial'
  | 'cart:view'
  | 'cart:receipt'
  | 'cart:sales'
  | 'cart:of-transaction'
  | 'cart:collect'
  | 'cart:put-back'
  | 'cart:refund-lines'
>;

export interface TenderDeps {
  db: PosDatabase;
  users: UserDirectory;
  catalogue: Catalogue;
  /** For the Level 3 save and reading the engine's view of a card transaction. */
  client: GatewayClient;
  events: CoreEvents;
  /** The store's sales tax rate (basis points) for the standard category. */
  taxRateBasisPoints: () => number;
  /** The store's amount guards: an open amount typed in, and each card tender, are held to them like a keyed sale. */
  guards: () => GuardSettings;
  /** The app's own money handlers (audited): the cart calls them, never the gateway directly. */
  money: Pick<HandlerMap, 'sale:charge' | 'sale:outcome' | 'sale:void-partial' | 'transactions:refund' | 'transactions:void' | 'transactions:view' | 'vault:charge' | 'devices:terminal-sale'>;
  /** The offline queue (issue 13): a card tender approved offline is withdrawn, or found under its gateway id once sent. */
  offline?: Pick<OfflineSales, 'withdraw' | 'item'>;
  /** Makes and binds each card tender's reference (issue 20, point 2): the screen's clientRef is only an attempt id. */
  refs: TenderRefs;
  now?: () => number;
}

export function cartRulesOf(db: PosDatabase): CartRules {
  const raw = getSetting(db, CART_RULES_KEY);
  if (!raw) return DEFAULT_CART_RULES;
  try {
    return { ...DEFAULT_CART_RULES, ...(JSON.parse(raw) as Partial<CartRules>) };
  } catch {
    return DEFAULT_CART_RULES;
  }
}

/**
 * What a card tender's answer pays of the cart (issue 21): the approved amount less its tip (the tip is the card's,
 * on top of the balance), and the tip. Simplification: a partial approval of a tipped card counts its tip first.
 */
function tenderAnswer(outcome: SaleOutcome | null): { approvedCents: number; tipCents: number; transactionId: string | null } {
  if (!outcome?.approved) return { approvedCents: 0, tipCents: 0, transactionId: outcome?.transaction.id ?? null };
  const t = outcome.transaction;
  return { approvedCents: Math.max(0, t.amountCents - t.tipCents), tipCents: t.tipCents, transactionId: t.id };
}

export function createTenderHandlers(deps: TenderDeps): CartHandlers {
  const { db, users, catalogue, events } = deps;
  const now = deps.now ?? Date.now;
  const taxRate = (category: string) => ((category as TaxCategory) === 'exempt' ? 0 : deps.taxRateBasisPoints());
  const store = new CartStore(db, taxRate, now);
  /** Tenders whose gateway call is running in this process (the others that are pending were cut off by a restart). */
  const inFlight = new Set<string>();
  /** Money given back from one cart runs one step at a time: two quick returns of the same line must not both see it unreturned. */
  const queues = new Map<string, Promise<unknown>>();
  function oneAtATime<T>(cartId: string, fn: () => Promise<T>): Promise<T> {
    const next = (queues.get(cartId) ?? Promise.resolve()).then(fn, fn);
    const tail = next.catch(() => undefined);
    queues.set(cartId, tail);
    void tail.then(() => {
      if (queues.get(cartId) === tail) queues.delete(cartId);
    });
    return next;
  }

  const counter = (): Result<Session> => users.requireCounter();
  const mine = (s: Session) => store.openCartOf(s.user.id);

  /** A pending card tender left by a restart: ask the gateway by its transaction_api_id (the tender id). */
  async function resolvePending(cartId: string): Promise<void> {
    const p = pendingTender(store.tenderState(cartId));
    if (!p || inFlight.has(p.id)) return;
    // The tender's own reference, handed down by the core (the window that started it may be gone after a restart).
    const r = await deps.refs.runWith(p.id, () => deps.money['sale:outcome']({ clientRef: p.id }));
    if (!r.ok && r.error.code === 'outcome_unknown') return; // still unknown: stays pending, and the screen says so
    // An answer that was not this tender (voided and not counted) took no money for it.
    const outcome = r.ok ? r.value.outcome : null;
    const step = finishTender(store.tenderState(cartId), p.id, tenderAnswer(outcome));
    if (step.ok) store.saveTenderState(cartId, step.value);
  }

  /** A manager's PIN typed at this counter, checked: the manager, or why not; none typed: undefined. */
  type Approver = Result<Session['user']> | undefined;

  /** A manager's PIN typed at this counter: the manager, or why not (in the words of what was being approved). */
  async function managerPin(approval: Approval, refused: string): Promise<Result<Session['user']>> {
    const r = await users.verifyManager(approval.managerId, approval.pin);
    if (r.ok) return r;
    // The lockout's own words say how long to wait (pin-throttle.ts lockedFor).
    if (r.error.code === 'locked') return fail('locked', r.error.message, { approval: [r.error.message] });
    return fail('approval_refused', refused, { approval: [refused] });
  }

  /**
   * The discount rule, checked after every change to what a discount is a share of and
   * before every tender: the cart's largest discount share is within the store's limit, or a
   * manager approved at least that share (signed in, or their PIN as `approval`). An approval
   * covers the share it was given for, never a larger one a later edit makes; once the cart
   * is back within the limit the approval is dropped. `refusal` words the answer without one.
   */
  function approvalCheck(s: Session, cartId: string, approval: Approver, refusal: (limitPct: number, sharePct: number) => string): Result<null> {
    const limitBp = cartRulesOf(db).discountApprovalPercent * 100;
    const share = store.view(cartId).totals.largestDiscountBasisPoints;
    if (share <= limitBp) {
      if (store.approval(cartId)) store.setApproval(cartId, null);
      return ok(null);
    }
    const given = store.approval(cartId);
    if (given && given.basisPoints >= share) return ok(null);
    if (s.user.role === 'manager') {
      store.setApproval(cartId, { by: s.user.name, basisPoints: share });
      return ok(null);
    }
    if (!approval) {
      const sharePct = Math.round(share / 10) / 10;
      const msg = store.view(cartId).totals.largestDiscountCombined ? TENDER_COPY.combinedNeedsApproval(limitBp / 100, sharePct) : refusal(limitBp / 100, sharePct);
      return fail('approval_needed', msg, { approval: [msg] });
    }
    if (!approval.ok) return approval;
    store.setApproval(cartId, { by: approval.value.name, basisPoints: share });
    return ok(null);
  }
  const discountRefusal = (limitPct: number) => TENDER_COPY.approvalNeeded(limitPct);
  /**
   * A typed manager PIN is checked before the cart changes (the check is asynchronous, off
   * the event loop, and the cart's edit runs in one synchronous transaction): checked — and
   * a wrong one counted — whenever one is sent, used only when the change needs it.
   */
  const approverOf = async (approval: Approval | undefined): Promise<Approver> => (approval && counter().ok ? managerPin(approval, TENDER_COPY.approvalRefused) : undefined);

  /** Runs a line/discount change on the signed-in user's open, still editable cart. */
  function edit(fn: (cartId: string, s: Session) => Result<null>): Promise<Result<CartView>> {
    const s = counter();
    if (!s.ok) return Promise.resolve(s);
    const cartId = mine(s.value);
    if (!store.editable(cartId)) return Promise.resolve(fail('conflict', store.view(cartId).status === 'due' ? CART_MESSAGES.dueLocked : CART_MESSAGES.locked));
    let r: Result<null> = ok(null);
    // One transaction: a discount refused for want of approval leaves the cart as it was.
    try {
      db.transaction(() => {
        r = fn(cartId, s.value);
        if (!r.ok) throw new Rollback();
      })();
    } catch (err) {
      if (!(err instanceof Rollback)) throw err;
    }
    return Promise.resolve(r.ok ? ok(store.view(cartId)) : r);
  }

  /**
   * Every discount of the cart still fits what it discounts (discount-guard.ts), checked after
   * each edit inside its transaction: a discount set on `target` that does not fit is refused in
   * its own words; anything else that no longer fits was shrunk under a discount by the edit.
   * Comps came through `cart:comp` and always fit.
   */
  function fitCheck(cartId: string, target: 'cart' | string | null): Result<null> {
    const v = store.view(cartId);
    const t = v.totals;
    const places = [
      ...v.lines.map((l, i) => ({ id: l.id, what: l.name, base: t.lines[i]!.grossCents, d: l.discount })),
      { id: 'cart', what: DISCOUNT_COPY.wholeSale, base: t.grossCents - t.lineDiscountCents, d: v.cartDiscount },
    ];
    for (const p of places) {
      if (!p.d || p.d.kind === 'comp') continue;
      const fit = discountFit(p.base, p.d);
      if (fit === 'fits') continue;
      const cents = p.d.kind === 'amount' ? p.d.cents : p.base;
      const msg = p.id !== target ? DISCOUNT_COPY.shrinks(p.what, cents, p.base) : fit === 'over' ? DISCOUNT_COPY.over(p.what, cents, p.base) : DISCOUNT_COPY.whole(p.what);
      return fail('discount_too_large', msg, { discount: [msg] });
    }
    return ok(null);
  }

  function lineOf(cartId: string, lineId: string): Result<null> {
    return store.hasLine(cartId, lineId) ? ok(null) : fail('not_found', CART_MESSAGES.noLine);
  }

  /** Level 3 from the cart for an approved card tender on a commercial card (cart-level3.ts); the note goes on the merchant's copy. */
  async function sendLevel3(cartId: string, tender: Tender): Promise<void> {
    // Simplification: a card payment approved offline (issue 13) sends no Level 3 (the gateway has no record of it yet).
    if (!tender.transactionId || isOfflinePlaceholder(tender.transactionId)) return;
    try {
      const t = await deps.client.getTransactionExpanded(tender.transactionId, ['transaction_level3']);
      const l3 = level3ViewOf(t);
      if (!l3.applies || !l3.network) return; // a personal card: nothing to send, nothing to say
      const view = store.view(cartId);
      const built = level3FromCart(view, l3.network, cartRulesOf(db).defaultCommodityCode);
      if (!built.ok) return store.setLevel3Note(tender.id, false, built.note);
      const v = validateLevel3(l3.network, built.data);
      if (!v.ok) return store.setLevel3Note(tender.id, false, plainLevel3Error(v.errors, view));
      await deps.client.saveLevel3(tender.transactionId, v.value);
      store.setLevel3Note(tender.id, true, LEVEL3_NOTES.sent(built.data.line_items.length, built.folded, NETWORK_NAMES[l3.network], l3.cardLabel));
    } catch (err) {
      store.setLevel3Note(tender.id, false, LEVEL3_NOTES.failed(`${err instanceof Error ? err.message.replace(/\.$/, '') : 'the gateway did not take it'}.`));
    }
  }

  /**
   * The hard cap for the sale as a whole (issue 20): what this cart's card payments collected
   * (keyed, saved card, terminal: every tender the gateway moves money for, a partial approval by
   * what it approved; reversed and declined ones moved nothing) plus `askedCents` stays within
   * the store's hard cap, so a cart above the cap is not paid in card splits each under it. Cash
   * is not counted: it never reaches the gateway (the drawer's count checks it), so a cart above
   * the cap can still be paid, the rest in cash. A manager's approval does not lift it: the cap is
   * raised only in the store settings. A check is not a cart tender; a check sale is one sale,
   * held to the cap by itself.
   */
  function cartCapRefusal(cartId: string, askedCents: number): Result<never> | null {
    const capCents = deps.guards().hardCapCents;
    const onCards = store.tenders(cartId).filter((t) => t.kind !== 'cash' && (t.status === 'approved' || t.status === 'pending')).reduce((a, t) => a + (t.status === 'pending' ? t.requestedCents : t.approvedCents), 0);
    if (onCards + askedCents <= capCents) return null;
    const msg = TENDER_COPY.cartAboveCap(capCents, onCards);
    return fail('above_hard_cap', msg, { amountCents: [msg] });
  }

  /**
   * A card tender (keyed, saved or terminal): pending first, then the gateway's answer, then Level 3 for a commercial card.
   * `ask.tipCents` is the tip on top of its part of the balance (issue 21): chosen at the counter, or null for one the
   * customer picks on the terminal; the charge carries it, the tender counts only what it paid of the balance.
   */
  async function payByCard(
    s: Session,
    cartId: string,
    kind: 'card' | 'saved-card' | 'terminal',
    clientRef: string,
    instrument: string,
    ask: { amountCents: number | undefined; tipCents: number | null; confirmedCents: number | undefined; confirmedTipCents: number | undefined },
    charge: (amounts: { subtotalCents: number; taxCents: number; tipCents: number | null }, clientRef: string, confirmed: GuardConfirmations) => Promise<Result<SaleOutcome>>,
  ): Promise<Result<HandlerResults['cart:pay-card']>> {
    const { amountCents, tipCents, confirmedCents, confirmedTipCents } = ask;
    const tip = tipCents ?? 0;
    // The same attempt again in this window on this cart (a double click, a retry): answer what that tender became, charge nothing.
    const scope = `cart:${cartId}`;
    const earlier = deps.refs.refOfAttempt(s, scope, clientRef);
    const seen = earlier ? store.tenders(cartId).find((t) => t.id === earlier) : undefined;
    if (seen) return ok({ ...store.view(cartId), message: seen.status === 'pending' ? 'This card payment is still in progress.' : 'This card payment was already sent.' });
    const allowed = approvalCheck(s, cartId, undefined, TENDER_COPY.tenderNeedsApproval);
    if (!allowed.ok) return allowed;
    // The store's guards on what this card is asked for, before a tender is written: a question leaves no trace in the cart.
    const asked = amountCents ?? store.view(cartId).balanceCents;
    const refused = asked > 0 ? refuseAmount(deps.guards(), { subtotalCents: asked, tipCents: tip, totalCents: asked + tip }, { confirmedCents, confirmedTipCents }) : null;
    if (refused) return refused;
    const capped = cartCapRefusal(cartId, asked);
    if (capped) return capped;
    // The tender's reference is the core's, bound to this cart, amount and card, saved method or terminal, on disk before the request leaves.
    const made = deps.refs.refFor(s, { scope, attempt: clientRef, amountCents: asked, tipCents, method: 'cc', action: 'sale', instrument });
    if (!made.ok) return made;
    const ref = made.value;
    const before = store.tenderState(cartId);
    const step = beginTender(before, { id: ref, kind, ...(amountCents !== undefined ? { amountCents } : {}) });
    if (!step.ok) return fail('conflict', step.message, { amountCents: [step.message] });
    const tender = step.value.tender;
    if (tender.requestedCents !== asked) return fail('conflict', REF_COPY.notBound);
    store.saveTenderState(cartId, step.value.state);
    inFlight.add(tender.id);
    try {
      // This tender's share of the sale's tax, set when it was begun (tender-tax.ts): the shares add up to the cart's tax.
      const taxCents = tender.taxCents;
      // Checked above (the cashier confirmed it when it is large): the card path gets it, tip included, as confirmed.
      const confirmed = { confirmedCents: tender.requestedCents + tip, ...(tip > 0 ? { confirmedTipCents: tip } : {}) };
      const r = await deps.refs.runWith(tender.id, () => charge({ subtotalCents: tender.requestedCents - taxCents, taxCents, tipCents }, tender.id, confirmed));
      if (!r.ok && r.error.code === 'outcome_unknown') {
        // Stays pending: `cart:current` asks the gateway again; nothing else may be tendered meanwhile.
        return r;
      }
      const done = finishTender(store.tenderState(cartId), tender.id, tenderAnswer(r.ok ? r.value : null));
      if (done.ok) store.saveTenderState(cartId, done.value);
      if (!r.ok) return r;
      const finished = store.tenders(cartId).find((t) => t.id === tender.id)!;
      if (finished.status === 'approved') await sendLevel3(cartId, finished);
      const view = store.view(cartId);
      let message = r.value.message;
      if (r.value.approved && r.value.transaction.partial) {
        message = `Only $${centsToDecimal(r.value.transaction.amountCents)} of $${centsToDecimal(tender.requestedCents)} was approved. $${centsToDecimal(view.balanceCents)} remains to collect: another card or cash.`;
      }
      return ok({ ...view, message });
    } finally {
      inFlight.delete(tender.id);
    }
  }

  /**
   * Cancels the cart. A partial approval alone may be voided by the cashier (the sale path
   * allows it); any other card payment needs a manager: signed in, or their PIN typed at the
   * cashier's counter, and then the voids and refunds run as that manager (checked and audited as theirs).
   */
  async function cancelCart(session: Session, cartId: string, approval: Approval | undefined): Promise<Result<CartView>> {
    const state = store.tenderState(cartId);
    const taken = state.tenders.filter((t) => t.status === 'approved' && t.kind !== 'cash');
    if (taken.length > 0 && session.user.role !== 'manager' && !taken.every((t) => t.approvedCents < t.requestedCents)) {
      if (!approval) return fail('approval_needed', TENDER_COPY.cancelNeedsManager, { approval: [TENDER_COPY.cancelNeedsManager] });
      const m = await managerPin(approval, TENDER_COPY.cancelRefused);
      if (!m.ok) return m;
      return users.actAsManager(m.value, () => reverseAll(cartId));
    }
    return reverseAll(cartId);
  }

  async function reverseAll(cartId: string): Promise<Result<CartView>> {
    const state = store.tenderState(cartId);
    const step = beginCancel(state);
    if (!step.ok) return fail('conflict', step.message);
    let st = step.value.state;
    store.saveTenderState(cartId, st);
    let cashBack = false;
    for (const t of step.value.toReverse) {
      if (t.kind === 'cash') {
        cashBack = true;
        recordCash(db, { cartId, kind: 'return', cents: t.approvedCents - t.refundedCents, ts: now() });
        st = markReversed(st, t.id);
        continue;
      }
      // ── Offline store-and-forward (issue 13): a card payment approved offline still carries its stand-in id.
      let id = t.transactionId!;
      if (isOfflinePlaceholder(id) && deps.offline) {
        const q = await deps.offline.withdraw(t.id);
        // Withdrawn now (never sent), or declined, refused or expired once sent: no money moved.
        if (q && q.state !== 'approved') {
          st = markReversed(st, t.id);
          continue;
        }
        if (!q?.transactionId) continue; // not in this queue: stays for Cancel again
        id = q.transactionId; // the gateway took it meanwhile: void (or refund) that sale
      }
      const partial = t.approvedCents < t.requestedCents;
      let r: Result<unknown> = partial ? await deps.money['sale:void-partial']({ id }) : await deps.money['transactions:void']({ id });
      // Settled already: refund what it collected instead.
      if (!r.ok && r.error.code === 'conflict') r = await deps.money['transactions:refund']({ id, amountCents: t.approvedCents - t.refundedCents });
      if (r.ok) st = markReversed(st, t.id);
    }
    store.saveTenderState(cartId, st);
    if (cashBack) events.emit('drawer:open', { cartId, reason: 'cash-return' });
    if (st.status !== 'cancelled') return fail('gateway', 'Some card payments could not be given back yet. The sale stays open for cancelling; try Cancel sale again.');
    return ok(store.view(cartId));
  }

  async function refundLines(cartId: string, lineIds: readonly string[]): Promise<Result<HandlerResults['cart:refund-lines']>> {
    const view = store.view(cartId);
    if (view.status !== 'paid') return fail('conflict', TENDER_COPY.notPaid);
    const chosen = view.totals.lines.filter((l) => lineIds.includes(l.id) && !view.lines.find((x) => x.id === l.id)?.refunded);
    if (chosen.length === 0) return fail('conflict', TENDER_COPY.nothingToRefund);
    const lineTotal = chosen.reduce((a, l) => a + l.totalCents, 0);
    const tenders = view.tenders.filter((t) => t.status === 'approved');
    const shares = allocateLineRefund(lineTotal, tenders.map((t) => t.approvedCents - t.refundedCents));
    const done = new Map<string, number>();
    let refunded = 0;
    let cashBack = 0;
    const problems: string[] = [];
    for (let i = 0; i < tenders.length; i++) {
      const t = tenders[i]!;
      const cents = shares[i]!;
      if (cents <= 0) continue;
      if (t.kind === 'cash') {
        done.set(t.id, cents);
        cashBack += cents;
        refunded += cents;
        continue;
      }
      let id = t.transactionId!;
      if (isOfflinePlaceholder(id)) {
        // ── Offline store-and-forward (issue 13): only a sale the gateway has can be refunded.
        const q = deps.offline?.item(t.id);
        if (q?.state !== 'approved' || !q.transactionId) {
          problems.push(q?.state === 'pending' ? OFFLINE_TENDER_COPY.notSentYet : OFFLINE_TENDER_COPY.neverCharged);
          continue;
        }
        id = q.transactionId;
      }
      const r = await deps.money['transactions:refund']({ id, amountCents: cents });
      if (r.ok && r.value.approved) {
        done.set(t.id, cents);
        refunded += cents;
      } else problems.push(r.ok ? r.value.message : r.error.message);
    }
    if (problems.length > 0 && done.size === 0) return fail('gateway', problems[0]!);
    // The lines are marked returned once anything went back, so a retry can never give the same line twice;
    // a share that failed is said in the message, for a manager to refund from that card's sale by amount.
    db.transaction(() => {
      store.markLinesRefunded(cartId, chosen.map((l) => l.id), done);
      recordCash(db, { cartId, kind: 'refund', cents: cashBack, ts: now() });
    })();
    if (cashBack > 0) events.emit('drawer:open', { cartId, reason: 'cash-refund' });
    const message =
      problems.length === 0
        ? `Returned ${chosen.length} line${chosen.length === 1 ? '' : 's'}: $${centsToDecimal(refunded)}${cashBack > 0 ? `, of which $${centsToDecimal(cashBack)} in cash from the drawer` : ''}.`
        : `Only $${centsToDecimal(refunded)} of $${centsToDecimal(lineTotal)} went back: ${problems[0]} Refund the rest from that card's sale by amount.`;
    return ok({ cart: store.view(cartId), refundedCents: refunded, cashBackCents: cashBack, message });
  }

  return {
    'cart:current': async () => {
      const s = counter();
      if (!s.ok) return s;
      const cartId = mine(s.value);
      await resolvePending(cartId);
      return ok(store.view(cartId));
    },

    'cart:add-item': async ({ itemId, quantity }) =>
      edit((cartId) => {
        const item = catalogue.get(itemId);
        if (!item || item.archived) return fail('not_found', TENDER_COPY.noItem);
        store.addItem(cartId, item, quantity);
        return ok(null);
      }),

    'cart:add-code': async ({ code }) =>
      edit((cartId) => {
        const item = catalogue.byCode(code);
        if (!item) return fail('not_found', /^\d{13,19}$/.test(code) && luhnValid(code) ? TENDER_COPY.noCodeUnsaid : TENDER_COPY.noCode(code));
        store.addItem(cartId, item, 1);
        return ok(null);
      }),

    'cart:add-open': async ({ name, amountCents, taxCategory, confirmedCents }) =>
      edit((cartId) => {
        // A typed amount is held to the store's guards like a keyed sale's: refused above the cap, confirmed above the threshold.
        const refused = refuseAmount(deps.guards(), { subtotalCents: amountCents, tipCents: 0, totalCents: amountCents }, { confirmedCents });
        if (refused) return refused;
        store.addOpen(cartId, name, amountCents, taxCategory);
        return ok(null);
      }),

    'cart:set-quantity': async ({ lineId, quantity, approval }) => {
      const approver = await approverOf(approval);
      return edit((cartId, s) => {
        const l = lineOf(cartId, lineId);
        if (!l.ok) return l;
        store.setQuantity(lineId, quantity);
        const fits = fitCheck(cartId, null);
        return fits.ok ? approvalCheck(s, cartId, approver, TENDER_COPY.shareGrew) : fits;
      });
    },

    'cart:remove-line': async ({ lineId, approval }) => {
      const approver = await approverOf(approval);
      return edit((cartId, s) => {
        const l = lineOf(cartId, lineId);
        if (!l.ok) return l;
        store.removeLine(lineId);
        const fits = fitCheck(cartId, null);
        return fits.ok ? approvalCheck(s, cartId, approver, TENDER_COPY.shareGrew) : fits;
      });
    },

    'cart:approve': async ({ approval }) => {
      const s = counter();
      if (!s.ok) return s;
      const cartId = mine(s.value);
      const r = approvalCheck(s.value, cartId, await approverOf(approval), TENDER_COPY.tenderNeedsApproval);
      return r.ok ? ok(store.view(cartId)) : r;
    },

    'cart:set-line-discount': async ({ lineId, discount, approval }) => {
      const approver = await approverOf(approval);
      return edit((cartId, s) => {
        const l = lineOf(cartId, lineId);
        if (!l.ok) return l;
        store.setLineDiscount(lineId, discount as Discount | null);
        const fits = fitCheck(cartId, lineId);
        return fits.ok ? approvalCheck(s, cartId, approver, discountRefusal) : fits;
      });
    },

    'cart:set-cart-discount': async ({ discount, approval }) => {
      const approver = await approverOf(approval);
      return edit((cartId, s) => {
        store.setCartDiscount(cartId, discount as Discount | null);
        const fits = fitCheck(cartId, 'cart');
        return fits.ok ? approvalCheck(s, cartId, approver, discountRefusal) : fits;
      });
    },

    'cart:comp': async ({ lineId, approval }) => {
      // The PIN is checked before the cart's transaction (as approverOf does), in a comp's own words.
      const manager = approval && counter().ok ? await managerPin(approval, DISCOUNT_COPY.compRefused) : undefined;
      return edit((cartId, s) => {
        const what = lineId === undefined ? DISCOUNT_COPY.wholeSale : store.view(cartId).lines.find((l) => l.id === lineId)?.name;
        if (what === undefined) return fail('not_found', CART_MESSAGES.noLine);
        let by = s.user.name;
        if (s.user.role !== 'manager') {
          if (!manager) return fail('approval_needed', DISCOUNT_COPY.compNeedsManager(what), { approval: [DISCOUNT_COPY.compNeedsManager(what)] });
          if (!manager.ok) return manager;
          by = manager.value.name;
        }
        if (lineId === undefined) store.setCartDiscount(cartId, { kind: 'comp' });
        else store.setLineDiscount(lineId, { kind: 'comp' });
        store.setApproval(cartId, { by, basisPoints: 10_000 });
        // Nothing left to pay: the sale closes at $0.00 (the tenders' machine takes no $0.00 payment).
        const state = store.tenderState(cartId);
        if (state.totalCents === 0) store.saveTenderState(cartId, { ...state, status: 'paid' });
        return ok(null);
      });
    },

    'cart:clear': async () =>
      edit((cartId) => {
        store.clear(cartId);
        return ok(null);
      }),

    'cart:pay-cash': async ({ tenderedCents, amountCents }) => {
      const s = counter();
      if (!s.ok) return s;
      const cartId = mine(s.value);
      const allowed = approvalCheck(s.value, cartId, undefined, TENDER_COPY.tenderNeedsApproval);
      if (!allowed.ok) return allowed;
      const step = beginTender(store.tenderState(cartId), { id: randomUUID(), kind: 'cash', tenderedCents, ...(amountCents !== undefined ? { amountCents } : {}) });
      if (!step.ok) return fail('conflict', step.message, { tenderedCents: [step.message] });
      db.transaction(() => {
        store.saveTenderState(cartId, step.value.state);
        recordCash(db, { cartId, kind: 'sale', cents: step.value.tender.approvedCents, ts: now() });
      })();
      events.emit('drawer:open', { cartId, reason: 'cash-sale' });
      return ok(store.view(cartId));
    },

    'cart:pay-card': async ({ card, amountCents, clientRef, tipCents, confirmedCents, confirmedTipCents }) => {
      const s = counter();
      if (!s.ok) return s;
      return payByCard(s.value, mine(s.value), 'card', clientRef, cardInstrument(card.number, card.expiry), { amountCents, tipCents, confirmedCents, confirmedTipCents }, (a, ref, confirmed) =>
        deps.money['sale:charge']({ ...a, tipCents: a.tipCents ?? 0, card, clientRef: ref, ...confirmed }),
      );
    },

    'cart:pay-saved': async ({ methodId, amountCents, clientRef, tipCents, confirmedCents, confirmedTipCents }) => {
      const s = counter();
      if (!s.ok) return s;
      return payByCard(s.value, mine(s.value), 'saved-card', clientRef, `vault:${methodId}`, { amountCents, tipCents, confirmedCents, confirmedTipCents }, (a, ref, confirmed) =>
        deps.money['vault:charge']({ id: methodId, ...a, tipCents: a.tipCents ?? 0, clientRef: ref, ...confirmed }),
      );
    },

    'cart:pay-terminal': async ({ amountCents, clientRef, tipCents, confirmedCents, confirmedTipCents }) => {
      const s = counter();
      if (!s.ok) return s;
      // Through the core's terminal path (POST /v2/routertransactions, the tender id as its transaction_api_id): the tip
      // chosen at the counter, or (null) the terminal asks the customer, on the store's tip base as on the sale screen.
      return payByCard(s.value, mine(s.value), 'terminal', clientRef, 'terminal', { amountCents, tipCents, confirmedCents, confirmedTipCents }, (a, ref, confirmed) =>
        deps.money['devices:terminal-sale']({ ...a, clientRef: ref, ...confirmed }),
      );
    },

    'cart:cancel': async ({ approval }) => {
      const s = counter();
      if (!s.ok) return s;
      const cartId = mine(s.value);
      if (store.view(cartId).status === 'due') return fail('conflict', TENDER_COPY.dueNoCancel);
      return oneAtATime(cartId, () => cancelCart(s.value, cartId, approval));
    },

    /**
     * A due cart becomes the counter user's cart to tender (issue 20, point 4). Only one cart is
     * a user's to tender at a time, so their own must be empty (a sale in it is never pushed
     * aside); only one collector at a time, whoever sold it — a manager may take it over from
     * another (a collector who left it), unless a payment of it is in progress. Moves no money:
     * the tenders that follow are the normal ones, each held to the balance and the hard cap.
     */
    'cart:collect': async ({ cartId }) => {
      const s = counter();
      if (!s.ok) return s;
      if (!store.exists(cartId)) return fail('not_found', CART_MESSAGES.noCart);
      const me = s.value.user.id;
      return oneAtATime(cartId, async () => {
        const c = store.collection(cartId);
        if (c.status !== 'due' || store.view(cartId).balanceCents === 0) return fail('conflict', TENDER_COPY.notDue);
        if (c.collectorId === me) return ok(store.view(cartId));
        const takeOver = s.value.user.role === 'manager' && !pendingTender(store.tenderState(cartId));
        if (c.collectorId && !takeOver) return fail('conflict', c.collector && s.value.user.role !== 'manager' ? TENDER_COPY.collectTaken(c.collector) : TENDER_MESSAGES.pending);
        // The user's cart to tender now: another due cart they collect, or their own open one.
        const current = store.view(mine(s.value));
        if (current.status === 'due' || current.lines.length > 0 || current.tenders.length > 0) return fail('conflict', TENDER_COPY.collectBusy);
        if (!store.collect(cartId, me, c.collectorId)) return fail('conflict', TENDER_COPY.collectBusy);
        return ok(store.view(cartId));
      });
    },

    'cart:put-back': async () => {
      const s = counter();
      if (!s.ok) return s;
      const cartId = mine(s.value);
      if (store.view(cartId).status !== 'due') return fail('conflict', TENDER_COPY.notCollecting);
      if (pendingTender(store.tenderState(cartId))) return fail('conflict', TENDER_MESSAGES.pending);
      store.putBack(cartId);
      return ok(store.view(mine(s.value)));
    },

    'cart:refund-lines': async ({ cartId, lineIds }) => {
      const s = users.require('manager');
      if (!s.ok) return s;
      if (!store.exists(cartId)) return fail('not_found', CART_MESSAGES.noCart);
      return oneAtATime(cartId, () => refundLines(cartId, lineIds));
    },
    'cart:adopt-partial': async ({ transactionId }) => {
      const s = counter();
      if (!s.ok) return s;
      if (store.cartOfTransaction(transactionId)) return fail('conflict', TENDER_COPY.alreadyInCart);
      const r = await deps.money['transactions:view']({ id: transactionId });
      if (!r.ok) return r;
      const t = r.value;
      if (t.kind !== 'sale' || !t.partial || t.state !== 'approved') return fail('conflict', TENDER_COPY.notPartial);
      const cartId = mine(s.value);
      const cur = store.view(cartId);
      if (cur.lines.length > 0 || cur.tenders.length > 0) return fail('conflict', TENDER_COPY.cartBusy);
      db.transaction(() => {
        // The amount asked already carries its tax (the keyed sale added it): one untaxed line for it.
        store.addOpen(cartId, t.taxCents > 0 ? 'Sale (tax included)' : 'Sale', t.requestedCents, 'exempt');
        const state = store.tenderState(cartId);
        store.saveTenderState(cartId, {
          ...state,
          tenders: [{ id: randomUUID(), kind: 'card', status: 'approved', requestedCents: t.requestedCents, approvedCents: t.amountCents, tenderedCents: 0, changeCents: 0, transactionId: t.id, refundedCents: 0, taxCents: t.taxCents, tipCents: t.tipCents }],
        });
      })();
      return ok(store.view(cartId));
    },

    'cart:view': async ({ cartId }) => {
      const s = users.require();
      if (!s.ok) return s;
      if (!store.exists(cartId)) return fail('not_found', CART_MESSAGES.noCart);
      return ok(store.view(cartId));
    },

    'cart:receipt': async ({ cartId }) => {
      const s = users.require();
      if (!s.ok) return s;
      if (!store.exists(cartId)) return fail('not_found', CART_MESSAGES.noCart);
      const cart = store.view(cartId);
      // Each card tender's own gateway record: brand, last four, auth code, entry mode, signature line.
      const cardTenders = cart.tenders.filter((t) => t.kind !== 'cash' && t.transactionId && (t.status === 'approved' || t.status === 'reversed'));
      const views = await Promise.all(cardTenders.map((t) => deps.money['transactions:view']({ id: t.transactionId! })));
      const cards: Record<string, TransactionView | null> = {};
      cardTenders.forEach((t, i) => {
        const r = views[i]!;
        cards[t.id] = r.ok ? r.value : null;
      });
      return ok({ cart, cashier: store.cashierOf(cartId), cards });
    },

    'cart:sales': async ({ page }) => {
      const s = users.require();
      if (!s.ok) return s;
      const { rows, total } = store.paidCarts(page, CART_SALES_PAGE_SIZE);
      return ok({ rows, page, pageCount: Math.max(1, Math.ceil(total / CART_SALES_PAGE_SIZE)) });
    },

    'cart:of-transaction': async ({ transactionId }) => {
      const s = users.require();
      if (!s.ok) return s;
      const id = store.cartOfTransaction(transactionId);
      return ok(id ? store.view(id) : null);
    },

  };
}

class Rollback extends Error {}

type Approval = { managerId: string; pin: string };
