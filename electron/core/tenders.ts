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
 * with the engine's shared schemas (shared/payments/level3-schema.ts) before sending.
 * Simplification: a split sale sends every line with each commercial-card tender (the
 * networks' Level 3 describes the order, not the tender's share).
 */
import { randomUUID } from 'node:crypto';
import { allocateLineRefund, type Discount } from '../../shared/cart/cart-math';
import { beginCancel, beginTender, finishTender, markReversed, pendingTender, type Tender } from '../../shared/cart/tender-machine';
import type { CartView, HandlerMap, HandlerResults, SaleOutcome, Session } from '../../shared/ipc/contract';
import { DEFAULT_CART_RULES, type CartRules, type TaxCategory } from '../../shared/ipc/catalogue';
import { formatMoney as centsToDecimal } from '../../shared/payments/money';
import { LEVEL3_MAX_LINE_ITEMS, validateLevel3 } from '../../shared/payments/level3-schema';
import { fail, ok, type Result } from '../../shared/result';
import type { GatewayClient } from '../client/gateway-client';
import type { Catalogue } from './catalogue';
import { recordCash } from './cash-drawer';
import { CART_MESSAGES, CartStore } from './cart-store';
import type { CoreEvents } from './events';
import { level3ViewOf } from './level3-handlers';
import { verifyPin } from './pin-hash';
import { isOfflinePlaceholder } from '../../shared/offline-ref';
import { OFFLINE_TENDER_COPY, type OfflineSales } from './offline-sales';
import { getSetting, type PosDatabase } from './pos-database';
import { LOCKOUT_MS, MAX_FAILED_PINS, type UserDirectory } from './users';

export const CART_RULES_KEY = 'cart-rules';

export const TENDER_COPY = {
  approvalNeeded: (pct: number) => `Discounts above ${pct} % need a manager's approval: a manager enters their PIN.`,
  approvalRefused: 'That is not a manager PIN. The discount was not applied.',
  approverLocked: 'That manager is locked out for a minute after too many wrong PINs.',
  cancelNeedsManager: 'Cancelling a sale that took a card payment needs a manager (card payments are voided or refunded).',
  nothingToRefund: 'Those lines were already returned.',
  notPaid: 'Only a paid sale can have lines returned.',
  notPartial: 'Only a partly approved card sale can be collected this way.',
  cartBusy: 'Finish or clear the sale in the cart first.',
  alreadyInCart: 'This card sale is already part of a cart.',
  noItem: 'That item is not in the catalogue (or it was archived).',
} as const;

type CartHandlers = Pick<
  HandlerMap,
  | 'cart:current'
  | 'cart:add-item'
  | 'cart:add-open'
  | 'cart:set-quantity'
  | 'cart:remove-line'
  | 'cart:set-line-discount'
  | 'cart:set-cart-discount'
  | 'cart:clear'
  | 'cart:pay-cash'
  | 'cart:pay-card'
  | 'cart:pay-saved'
  | 'cart:pay-terminal'
  | 'cart:cancel'
  | 'cart:adopt-partial'
  | 'cart:view'
  | 'cart:of-transaction'
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
  /** The app's own money handlers (audited): the cart calls them, never the gateway directly. */
  money: Pick<HandlerMap, 'sale:charge' | 'sale:outcome' | 'sale:void-partial' | 'transactions:refund' | 'transactions:void' | 'transactions:view' | 'vault:charge' | 'devices:terminal-sale'>;
  /** The offline queue (issue 13): a card tender approved offline is withdrawn, or found under its gateway id once sent. */
  offline?: Pick<OfflineSales, 'withdraw' | 'item'>;
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
    const r = await deps.money['sale:outcome']({ clientRef: p.id });
    if (!r.ok) return; // still unknown: stays pending, and the screen says so
    const outcome = r.value.outcome;
    const step = finishTender(store.tenderState(cartId), p.id, outcome?.approved ? { approvedCents: outcome.transaction.amountCents, transactionId: outcome.transaction.id } : { approvedCents: 0, transactionId: outcome?.transaction.id ?? null });
    if (step.ok) store.saveTenderState(cartId, step.value);
  }

  /** Checks the discount rule after a change; reverts it (via `undo`) when it needs an approval that was not given. */
  function approvalCheck(s: Session, cartId: string, approval: { managerId: string; pin: string } | undefined): Result<null> {
    const limitBp = cartRulesOf(db).discountApprovalPercent * 100;
    const v = store.view(cartId);
    if (v.totals.largestDiscountBasisPoints <= limitBp) return ok(null);
    if (s.user.role === 'manager') {
      store.setApprovedBy(cartId, s.user.name);
      return ok(null);
    }
    const msg = TENDER_COPY.approvalNeeded(limitBp / 100);
    if (!approval) return fail('approval_needed', msg, { approval: [msg] });
    const row = db.prepare(`SELECT id, name, role, pin_hash, failed_attempts, locked_until FROM pos_users WHERE id = ?`).get(approval.managerId) as
      | { id: string; name: string; role: string; pin_hash: string; failed_attempts: number; locked_until: number }
      | undefined;
    if (!row || row.role !== 'manager') return fail('approval_refused', TENDER_COPY.approvalRefused, { approval: [TENDER_COPY.approvalRefused] });
    if (row.locked_until > now()) return fail('locked', TENDER_COPY.approverLocked);
    if (!verifyPin(approval.pin, row.pin_hash)) {
      // Wrong PINs here count toward the same lockout as at sign-in.
      const attempts = row.failed_attempts + 1;
      const locked = attempts >= MAX_FAILED_PINS;
      db.prepare('UPDATE pos_users SET failed_attempts = ?, locked_until = ? WHERE id = ?').run(locked ? 0 : attempts, locked ? now() + LOCKOUT_MS : 0, row.id);
      return fail('approval_refused', TENDER_COPY.approvalRefused, { approval: [TENDER_COPY.approvalRefused] });
    }
    db.prepare('UPDATE pos_users SET failed_attempts = 0 WHERE id = ?').run(row.id);
    store.setApprovedBy(cartId, row.name);
    return ok(null);
  }

  /** Runs a line/discount change on the signed-in user's open, still editable cart. */
  function edit(fn: (cartId: string, s: Session) => Result<null>): Promise<Result<CartView>> {
    const s = counter();
    if (!s.ok) return Promise.resolve(s);
    const cartId = mine(s.value);
    if (!store.editable(cartId)) return Promise.resolve(fail('conflict', CART_MESSAGES.locked));
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

  function lineOf(cartId: string, lineId: string): Result<null> {
    return store.hasLine(cartId, lineId) ? ok(null) : fail('not_found', CART_MESSAGES.noLine);
  }

  /** Level 3 from the cart for an approved card tender on a commercial card. */
  async function sendLevel3(cartId: string, tender: Tender): Promise<void> {
    // Simplification: a card payment approved offline (issue 13) sends no Level 3 (the gateway has no record of it yet).
    if (!tender.transactionId || isOfflinePlaceholder(tender.transactionId)) return;
    try {
      const t = await deps.client.getTransactionExpanded(tender.transactionId, ['transaction_level3']);
      const l3 = level3ViewOf(t);
      if (!l3.applies || !l3.network) return; // a personal card: nothing to send, nothing to say
      const data = level3FromCart(store.view(cartId), l3.network);
      const v = validateLevel3(l3.network, data);
      if (!v.ok) {
        store.setLevel3Note(tender.id, false, `Level 3 not sent: ${Object.values(v.errors).flat()[0] ?? 'the items do not fit the card network’s rules'}`);
        return;
      }
      await deps.client.saveLevel3(tender.transactionId, v.value);
      store.setLevel3Note(tender.id, true, `Level 3 sent: ${data.line_items.length} line item${data.line_items.length === 1 ? '' : 's'} (${l3.cardLabel}).`);
    } catch (err) {
      store.setLevel3Note(tender.id, false, `Level 3 not sent: ${err instanceof Error ? err.message : 'the gateway did not take it'}.`);
    }
  }

  /** A card tender (keyed or saved): pending first, then the gateway's answer, then Level 3 for a commercial card. */
  async function payByCard(
    cartId: string,
    kind: 'card' | 'saved-card' | 'terminal',
    clientRef: string,
    amountCents: number | undefined,
    charge: (subtotalCents: number, taxCents: number, clientRef: string, confirmedCents: number) => Promise<Result<SaleOutcome>>,
  ): Promise<Result<HandlerResults['cart:pay-card']>> {
    // The same clientRef again (a double click, a retry): answer what that tender became, charge nothing.
    const seen = store.tenders(cartId).find((t) => t.id === clientRef);
    if (seen) return ok({ ...store.view(cartId), message: seen.status === 'pending' ? 'This card payment is still in progress.' : 'This card payment was already sent.' });
    const before = store.tenderState(cartId);
    const step = beginTender(before, { id: clientRef, kind, ...(amountCents !== undefined ? { amountCents } : {}) });
    if (!step.ok) return fail('conflict', step.message, { amountCents: [step.message] });
    const tender = step.value.tender;
    store.saveTenderState(cartId, step.value.state);
    inFlight.add(tender.id);
    try {
      const totals = store.view(cartId).totals;
      // This tender's share of the sale's tax (the interface's tax field is informational per transaction).
      const taxCents = Math.min(tender.requestedCents, Math.floor((totals.taxCents * tender.requestedCents) / Math.max(1, totals.totalCents)));
      // The amount comes from the cart's items, not a typed figure: it is the confirmed amount.
      const r = await charge(tender.requestedCents - taxCents, taxCents, tender.id, tender.requestedCents);
      if (!r.ok && r.error.code === 'outcome_unknown') {
        // Stays pending: `cart:current` asks the gateway again; nothing else may be tendered meanwhile.
        return r;
      }
      const answer = r.ok && r.value.approved ? { approvedCents: r.value.transaction.amountCents, transactionId: r.value.transaction.id } : { approvedCents: 0, transactionId: r.ok ? r.value.transaction.id : null };
      const done = finishTender(store.tenderState(cartId), tender.id, answer);
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

  async function cancelCart(session: Session, cartId: string): Promise<Result<CartView>> {
    const state = store.tenderState(cartId);
    const taken = state.tenders.filter((t) => t.status === 'approved' && t.kind !== 'cash');
    if (taken.length > 0 && session.user.role !== 'manager') {
      // A partial approval alone may be voided by the cashier (the sale path allows it); other card payments need a manager.
      if (!taken.every((t) => t.approvedCents < t.requestedCents)) return fail('forbidden', TENDER_COPY.cancelNeedsManager);
    }
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

    'cart:add-open': async ({ name, amountCents, taxCategory }) =>
      edit((cartId) => {
        store.addOpen(cartId, name, amountCents, taxCategory);
        return ok(null);
      }),

    'cart:set-quantity': async ({ lineId, quantity }) =>
      edit((cartId) => {
        const l = lineOf(cartId, lineId);
        if (l.ok) store.setQuantity(lineId, quantity);
        return l;
      }),

    'cart:remove-line': async ({ lineId }) =>
      edit((cartId) => {
        const l = lineOf(cartId, lineId);
        if (l.ok) store.removeLine(lineId);
        return l;
      }),

    'cart:set-line-discount': async ({ lineId, discount, approval }) =>
      edit((cartId, s) => {
        const l = lineOf(cartId, lineId);
        if (!l.ok) return l;
        store.setLineDiscount(lineId, discount as Discount | null);
        return approvalCheck(s, cartId, approval);
      }),

    'cart:set-cart-discount': async ({ discount, approval }) =>
      edit((cartId, s) => {
        store.setCartDiscount(cartId, discount as Discount | null);
        return approvalCheck(s, cartId, approval);
      }),

    'cart:clear': async () =>
      edit((cartId) => {
        store.clear(cartId);
        return ok(null);
      }),

    'cart:pay-cash': async ({ tenderedCents, amountCents }) => {
      const s = counter();
      if (!s.ok) return s;
      const cartId = mine(s.value);
      const step = beginTender(store.tenderState(cartId), { id: randomUUID(), kind: 'cash', tenderedCents, ...(amountCents !== undefined ? { amountCents } : {}) });
      if (!step.ok) return fail('conflict', step.message, { tenderedCents: [step.message] });
      db.transaction(() => {
        store.saveTenderState(cartId, step.value.state);
        recordCash(db, { cartId, kind: 'sale', cents: step.value.tender.approvedCents, ts: now() });
      })();
      events.emit('drawer:open', { cartId, reason: 'cash-sale' });
      return ok(store.view(cartId));
    },

    'cart:pay-card': async ({ card, amountCents, clientRef }) => {
      const s = counter();
      if (!s.ok) return s;
      return payByCard(mine(s.value), 'card', clientRef, amountCents, (subtotalCents, taxCents, ref, confirmedCents) =>
        deps.money['sale:charge']({ subtotalCents, taxCents, tipCents: 0, card, clientRef: ref, confirmedCents }),
      );
    },

    'cart:pay-saved': async ({ methodId, amountCents, clientRef }) => {
      const s = counter();
      if (!s.ok) return s;
      return payByCard(mine(s.value), 'saved-card', clientRef, amountCents, (subtotalCents, taxCents, ref) =>
        deps.money['vault:charge']({ id: methodId, subtotalCents, taxCents, tipCents: 0, clientRef: ref }),
      );
    },

    'cart:pay-terminal': async ({ amountCents, clientRef }) => {
      const s = counter();
      if (!s.ok) return s;
      // Through the core's terminal path (POST /v2/routertransactions, the tender id as its
      // transaction_api_id); a fixed tip of 0 so the terminal asks for none: the cart's total is set.
      return payByCard(mine(s.value), 'terminal', clientRef, amountCents, (subtotalCents, taxCents, ref) =>
        deps.money['devices:terminal-sale']({ subtotalCents, taxCents, tipCents: 0, clientRef: ref }),
      );
    },

    'cart:cancel': async () => {
      const s = counter();
      if (!s.ok) return s;
      const cartId = mine(s.value);
      return oneAtATime(cartId, () => cancelCart(s.value, cartId));
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
          tenders: [{ id: randomUUID(), kind: 'card', status: 'approved', requestedCents: t.requestedCents, approvedCents: t.amountCents, tenderedCents: 0, changeCents: 0, transactionId: t.id, refundedCents: 0 }],
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

    'cart:of-transaction': async ({ transactionId }) => {
      const s = users.require();
      if (!s.ok) return s;
      const id = store.cartOfTransaction(transactionId);
      return ok(id ? store.view(id) : null);
    },

  };
}

class Rollback extends Error {}

/** The cart's lines as Level 3 data for a network (decimal strings as the interface takes them). */
export function level3FromCart(view: CartView, network: 'visa' | 'mastercard'): { line_items: Array<Record<string, string>>; tax_amount: string; sales_tax: string } {
  const rows = view.lines
    .map((l, i) => ({ l, t: view.totals.lines[i]! }))
    .slice(0, LEVEL3_MAX_LINE_ITEMS[network])
    .map(({ l, t }) => {
      const rate = view.totals.taxByCategory.find((c) => c.category === l.taxCategory)?.rateBasisPoints ?? 0;
      const item: Record<string, string> = {
        description: l.name.slice(0, 26),
        product_code: (l.productCode || l.itemId?.replace(/-/g, '').slice(0, 12) || 'OPEN').slice(0, 12),
        unit_code: l.unitCode || 'EA',
        unit_cost: centsToDecimal(l.unitCents),
        quantity: String(l.quantity),
        discount_amount: centsToDecimal(t.lineDiscountCents + t.cartDiscountShareCents),
        tax_amount: centsToDecimal(t.taxCents),
        tax_rate: (rate / 100).toFixed(2),
      };
      // No made-up commodity code: a Visa line without one fails the check and Level 3 is not sent (the note says why).
      if (network === 'visa' && l.commodityCode) item.commodity_code = l.commodityCode;
      return item;
    });
  return { line_items: rows, tax_amount: centsToDecimal(view.totals.taxCents), sales_tax: centsToDecimal(view.totals.taxCents) };
}
