/**
 * The cart's card tenders — keyed (`cart:pay-card`), a saved card (`cart:pay-saved`), the
 * terminal (`cart:pay-terminal`). Every money step goes through the app's own audited sale
 * path (`money`: sale:charge, vault:charge, devices:terminal-sale); the cart adds no gateway
 * call of its own except the Level 3 save.
 *
 * Each card tender is its own gateway transaction, with the tender's id as its
 * transaction_api_id, so a lost answer is looked up, never charged twice. The tender is written
 * as pending before the gateway is asked: a second submit (another click, another window) is
 * refused by the state machine while it is pending.
 */
import type { GuardConfirmations, GuardSettings } from '../../../shared/amount-guards';
import { beginTender, finishTender } from '../../../shared/cart/tender-machine';
import type { HandlerArg, HandlerMap, HandlerResults, SaleOutcome, Session } from '../../../shared/ipc/contract';
import { formatMoney as centsToDecimal } from '../../../shared/payments/money';
import { fail, ok, type Result } from '../../../shared/result';
import type { UserDirectory } from '../auth/users';
import { refuseAmount } from '../sales/amount-refusal';
import { approvalCheck } from './cart-approval';
import type { CartStore } from './cart-store';
import type { InFlightTenders } from './in-flight-tenders';
import { sendLevel3, type SendLevel3Deps } from './send-level3';
import { tenderAnswer } from './tender-answer';
import { TENDER_COPY } from './tender-copy';
import { cardInstrument, REF_COPY, type TenderRefs } from './tender-refs';

export interface PayByCardDeps extends SendLevel3Deps {
  users: UserDirectory;
  store: CartStore;
  /** The store's amount guards: each card tender is held to them like a keyed sale. */
  guards: () => GuardSettings;
  refs: TenderRefs;
  inFlight: InFlightTenders;
}

export async function payCard(deps: PayByCardDeps & { money: Pick<HandlerMap, 'sale:charge'> }, { card, amountCents, clientRef, tipCents, confirmedCents, confirmedTipCents }: HandlerArg<'cart:pay-card'>): Promise<Result<HandlerResults['cart:pay-card']>> {
  const s = deps.users.require();
  if (!s.ok) return s;
  return payByCard(deps, s.value, deps.store.openCartOf(s.value.user.id), 'card', clientRef, cardInstrument(card.number, card.expiry), { amountCents, tipCents, confirmedCents, confirmedTipCents }, (a, ref, confirmed) =>
    deps.money['sale:charge']({ ...a, tipCents: a.tipCents ?? 0, card, clientRef: ref, ...confirmed }),
  );
}

export async function paySaved(deps: PayByCardDeps & { money: Pick<HandlerMap, 'vault:charge'> }, { methodId, amountCents, clientRef, tipCents, confirmedCents, confirmedTipCents }: HandlerArg<'cart:pay-saved'>): Promise<Result<HandlerResults['cart:pay-saved']>> {
  const s = deps.users.require();
  if (!s.ok) return s;
  return payByCard(deps, s.value, deps.store.openCartOf(s.value.user.id), 'saved-card', clientRef, `vault:${methodId}`, { amountCents, tipCents, confirmedCents, confirmedTipCents }, (a, ref, confirmed) =>
    deps.money['vault:charge']({ id: methodId, ...a, tipCents: a.tipCents ?? 0, clientRef: ref, ...confirmed }),
  );
}

export async function payTerminal(deps: PayByCardDeps & { money: Pick<HandlerMap, 'devices:terminal-sale'> }, { amountCents, clientRef, tipCents, confirmedCents, confirmedTipCents }: HandlerArg<'cart:pay-terminal'>): Promise<Result<HandlerResults['cart:pay-terminal']>> {
  const s = deps.users.require();
  if (!s.ok) return s;
  // Through the core's terminal path (POST /v2/routertransactions, the tender id as its transaction_api_id): the tip
  // chosen at the counter, or (null) the terminal asks the customer, on the store's tip base as on the sale screen.
  return payByCard(deps, s.value, deps.store.openCartOf(s.value.user.id), 'terminal', clientRef, 'terminal', { amountCents, tipCents, confirmedCents, confirmedTipCents }, (a, ref, confirmed) =>
    deps.money['devices:terminal-sale']({ ...a, clientRef: ref, ...confirmed }),
  );
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
function cartCapRefusal(deps: Pick<PayByCardDeps, 'store' | 'guards'>, cartId: string, askedCents: number): Result<never> | null {
  const capCents = deps.guards().hardCapCents;
  const onCards = deps.store.tenders(cartId).filter((t) => t.kind !== 'cash' && (t.status === 'approved' || t.status === 'pending')).reduce((a, t) => a + (t.status === 'pending' ? t.requestedCents : t.approvedCents), 0);
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
  deps: PayByCardDeps,
  s: Session,
  cartId: string,
  kind: 'card' | 'saved-card' | 'terminal',
  clientRef: string,
  instrument: string,
  ask: { amountCents: number | undefined; tipCents: number | null; confirmedCents: number | undefined; confirmedTipCents: number | undefined },
  charge: (amounts: { subtotalCents: number; taxCents: number; tipCents: number | null }, clientRef: string, confirmed: GuardConfirmations) => Promise<Result<SaleOutcome>>,
): Promise<Result<HandlerResults['cart:pay-card']>> {
  const { store } = deps;
  const { amountCents, tipCents, confirmedCents, confirmedTipCents } = ask;
  const tip = tipCents ?? 0;
  // The same attempt again in this window on this cart (a double click, a retry): answer what that tender became, charge nothing.
  const scope = `cart:${cartId}`;
  const earlier = deps.refs.refOfAttempt(s, scope, clientRef);
  const seen = earlier ? store.tenders(cartId).find((t) => t.id === earlier) : undefined;
  if (seen) return ok({ ...store.view(cartId), message: seen.status === 'pending' ? 'This card payment is still in progress.' : 'This card payment was already sent.' });
  const allowed = approvalCheck(deps, s, cartId, undefined, TENDER_COPY.tenderNeedsApproval);
  if (!allowed.ok) return allowed;
  // The store's guards on what this card is asked for, before a tender is written: a question leaves no trace in the cart.
  const asked = amountCents ?? store.view(cartId).balanceCents;
  const refused = asked > 0 ? refuseAmount(deps.guards(), { subtotalCents: asked, tipCents: tip, totalCents: asked + tip }, { confirmedCents, confirmedTipCents }) : null;
  if (refused) return refused;
  const capped = cartCapRefusal(deps, cartId, asked);
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
  return deps.inFlight.during(tender.id, async () => {
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
    if (finished.status === 'approved') await sendLevel3(deps, cartId, finished);
    const view = store.view(cartId);
    let message = r.value.message;
    if (r.value.approved && r.value.transaction.partial) {
      message = `Only $${centsToDecimal(r.value.transaction.amountCents)} of $${centsToDecimal(tender.requestedCents)} was approved. $${centsToDecimal(view.balanceCents)} remains to collect: another card or cash.`;
    }
    return ok({ ...view, message });
  });
}
