/**
 * What the customer display shows (issue 23, point 4), kept by the core and pushed as
 * `display:state` on every change. Nothing polls: it follows the answers of the cart's and the
 * sale screen's handlers (display-follow.ts feeds them in) and the core's own events — the
 * terminal's prompt (`terminal:state`), whether a terminal is set up (`terminal:status`) and the
 * store's name (`settings:changed`).
 *
 * The order a sale shows: the cart as it is rung up (with the tip choice when the store asks for
 * tips and no terminal is set up: a terminal asks its own) → the terminal's prompt while it works
 * → "Approved" or "Declined" → the change due after cash → "Thank you" → idle (the store's name).
 * Approved, declined, change and thank-you each stay for a few seconds (DISPLAY_HOLD_MS), unless
 * the next customer's first line comes sooner.
 *
 * Simplifications: one display per register, following the cart the register last touched
 * (a register with two counter users signed in at two windows shows whichever rang last); a
 * sale taken on the sale screen (no cart) shows approved or declined and the thank-you, not its
 * amount before the answer.
 */
import { tipSuggestions, type TipSuggestion } from '../../../shared/payments/tip-suggestions';
import type { CartView, DisplayPhase, DisplayState, DisplayTip, DisplayTipPick, HandlerArg, SaleOutcome, StoreSettings, TerminalConnection, TerminalScreenState } from '../../../shared/ipc/contract';
import { DISPLAY_MESSAGES } from '../../../shared/ipc/display';
import { fail, ok, type Result } from '../../../shared/result';
import type { CoreEvents } from '../platform/events';
import { displayCartOf } from './display-cart';

/** How long each passing state stays, ms: long enough to read at the counter, short enough for the next customer. */
export const DISPLAY_HOLD_MS = { approved: 3_000, declined: 4_000, change: 6_000, thanks: 4_000 } as const;

/** What the customer reads while the terminal works and it gives no prompt of its own. */
export const TERMINAL_WORDS: Record<Exclude<TerminalScreenState, 'idle'>, string> = {
  card: 'Insert, tap or swipe your card on the terminal.',
  tip: 'Choose a tip on the terminal.',
  pin: 'Enter your PIN on the terminal.',
  signature: 'Sign on the terminal.',
  processing: 'Processing…',
  terms: 'Read and accept on the terminal.',
  done: 'Done.',
};

/** How a cart handler's answer came: an edit or a read of the cart, cash taken, or a card's answer. */
export type CartAnswer = 'edit' | 'cash' | 'card';

export interface CustomerDisplayDeps {
  events: CoreEvents;
  settings: () => StoreSettings;
  holdMs?: Partial<Record<keyof typeof DISPLAY_HOLD_MS, number>>;
}

interface Pick {
  cartId: string;
  picked: DisplayTipPick;
  count: number;
}

/** The offered suggestion that is the customer's pick (a percent follows the cart's new figures); null when it is no longer offered. */
function matchPick(picked: DisplayTipPick, offered: readonly TipSuggestion[]): DisplayTipPick | null {
  if (picked.kind === 'none') return picked;
  if (picked.kind === 'percent') return offered.find((s) => s.kind === 'percent' && s.percent === picked.percent) ?? null;
  return offered.find((s) => s.kind === 'flat' && s.cents === picked.cents) ?? null;
}

export class CustomerDisplay {
  private state: DisplayState;
  /** The open cart the display follows (null once it is paid, cancelled or emptied). */
  private followed: CartView | null = null;
  private terminal: TerminalConnection = 'none';
  private pick: Pick | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The cart a passing state (approved, change, thanks …) belongs to, while it is held. */
  private heldFor: string | null = null;
  private readonly hold: Record<keyof typeof DISPLAY_HOLD_MS, number>;
  private readonly unsubscribe: () => void;

  constructor(private readonly deps: CustomerDisplayDeps) {
    this.hold = { ...DISPLAY_HOLD_MS, ...deps.holdMs };
    this.state = { seq: 0, phase: 'idle', storeName: deps.settings().storeName, cart: null, tip: null, prompt: null, amountCents: 0 };
    this.unsubscribe = deps.events.subscribe((event, payload) => {
      if (event === 'settings:changed') this.refresh({ storeName: (payload as StoreSettings).storeName });
      else if (event === 'terminal:status') {
        this.terminal = (payload as { connection: TerminalConnection }).connection;
        if (this.state.phase === 'cart') this.showCart();
      } else if (event === 'terminal:state') this.terminalSays(payload as { state: TerminalScreenState; prompt: string });
    });
  }

  current(): DisplayState {
    return this.state;
  }

  /** A cart handler answered `view`. */
  cartAnswered(view: CartView, how: CartAnswer): void {
    const last = view.tenders.at(-1);
    if (view.status === 'paid') {
      this.followed = null;
      const cart = displayCartOf(view);
      const thanks = () => this.passing('thanks', { cart }, view.id, this.hold.thanks, () => this.idle());
      if (how === 'card' && last?.status === 'approved') this.passing('approved', { cart, amountCents: last.approvedCents + last.tipCents }, view.id, this.hold.approved, thanks);
      else if (how === 'cash' && view.changeCents > 0) this.passing('change', { cart, amountCents: view.changeCents }, view.id, this.hold.change, thanks);
      else if (this.heldFor !== view.id) thanks(); // a read of the paid cart while its own thank-you shows changes nothing
      return;
    }
    if (view.status === 'cancelled' || view.status === 'cancelling') {
      this.followed = null;
      if (this.heldFor === null || this.heldFor === view.id) this.idle();
      return;
    }
    const empty = view.lines.length === 0 && view.tenders.length === 0;
    this.followed = empty ? null : view;
    if (how === 'card' && last && (last.status === 'approved' || last.status === 'declined')) {
      const cart = displayCartOf(view);
      const back = () => (this.followed ? this.showCart() : this.idle());
      if (last.status === 'approved') this.passing('approved', { cart, amountCents: last.approvedCents + last.tipCents }, view.id, this.hold.approved, back);
      else this.passing('declined', { cart }, view.id, this.hold.declined, back);
      return;
    }
    // The last sale's thank-you stays while the next cart is still empty; its first line ends it.
    if (this.heldFor !== null && (empty || this.heldFor === view.id)) return;
    this.stopHold();
    if (empty) this.idle();
    else this.showCart();
  }

  /** A payment call was refused or failed (nothing approved, nothing declined): the cart shows again. */
  paymentFailed(): void {
    if (this.state.phase !== 'terminal') return;
    if (this.followed) this.showCart();
    else this.idle();
  }

  /** A sale taken on the sale screen (no cart) was answered. */
  saleAnswered(outcome: SaleOutcome): void {
    const back = () => (this.followed ? this.showCart() : this.idle());
    if (outcome.approved) {
      this.passing('approved', { cart: null, amountCents: outcome.transaction.amountCents }, null, this.hold.approved, () =>
        this.passing('thanks', { cart: null }, null, this.hold.thanks, back),
      );
    } else this.passing('declined', { cart: null }, null, this.hold.declined, back);
  }

  /** The customer tapped a tip on the display: only one of those offered for the cart in progress. */
  pickTip(args: HandlerArg<'display:pick-tip'>): Result<DisplayState> {
    const tip = this.state.phase === 'cart' ? this.state.tip : null;
    if (!tip || tip.cartId !== args.cartId) return fail('not_offered', DISPLAY_MESSAGES.tipNotOffered);
    let picked: DisplayTipPick;
    if (args.index === null) {
      if (args.cents !== 0) return fail('tip_changed', DISPLAY_MESSAGES.tipChanged);
      picked = { kind: 'none' };
    } else {
      const s = tip.suggestions[args.index];
      if (!s || s.cents !== args.cents) return fail('tip_changed', DISPLAY_MESSAGES.tipChanged);
      picked = s;
    }
    this.pick = { cartId: args.cartId, picked, count: (this.pick?.cartId === args.cartId ? this.pick.count : 0) + 1 };
    this.showCart();
    return ok(this.state);
  }

  close(): void {
    this.stopHold();
    this.unsubscribe();
  }

  private terminalSays(s: { state: TerminalScreenState; prompt: string }): void {
    // Back to idle: the sale's answer follows and says what to show.
    if (s.state === 'idle') return;
    this.stopHold();
    this.show('terminal', { cart: this.followed ? displayCartOf(this.followed) : null, prompt: s.prompt.trim() || TERMINAL_WORDS[s.state] });
  }

  /** The tip choice for `view`, when the store asks for tips on screen, no terminal asks its own, and something is still to pay. */
  private tipFor(view: CartView): DisplayTip | null {
    const st = this.deps.settings();
    if (!st.tipsEnabled || this.terminal !== 'none') return null;
    if ((view.status !== 'open' && view.status !== 'due') || view.lines.length === 0 || view.balanceCents === 0) return null;
    // A tip went with a card already: not asked again on the rest (as the cashier's screen does).
    if (view.tenders.some((t) => t.status === 'approved' && t.tipCents > 0)) return null;
    const offer = tipSuggestions(view.totals.subtotalCents, view.totals.taxCents, { tipBase: st.tipBase, smartTips: st.smartTips }, st.tipPercents);
    const mine = this.pick?.cartId === view.id ? this.pick : null;
    return { cartId: view.id, suggestions: offer.suggestions, picked: mine ? matchPick(mine.picked, offer.suggestions) : null, pickCount: mine?.count ?? 0 };
  }

  private showCart(): void {
    const view = this.followed;
    if (!view) return this.idle();
    if (this.pick && this.pick.cartId !== view.id) this.pick = null;
    this.show('cart', { cart: displayCartOf(view), tip: this.tipFor(view) });
  }

  private idle(): void {
    this.stopHold();
    this.show('idle', {});
  }

  /** Shows a passing state for `ms`, then runs `next`. */
  private passing(phase: DisplayPhase, parts: Partial<DisplayState>, cartId: string | null, ms: number, next: () => void): void {
    this.stopHold();
    this.show(phase, parts);
    this.heldFor = cartId ?? '';
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.heldFor = null;
      next();
    }, ms);
    this.timer.unref?.();
  }

  private stopHold(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.heldFor = null;
  }

  private show(phase: DisplayPhase, parts: Partial<DisplayState>): void {
    this.refresh({ phase, cart: null, tip: null, prompt: null, amountCents: 0, ...parts });
  }

  /** Applies `parts`; pushes the new state unless nothing the customer sees changed. */
  private refresh(parts: Partial<DisplayState>): void {
    const { seq, ...before } = this.state;
    const next = { ...before, ...parts };
    if (JSON.stringify(next) === JSON.stringify(before)) return;
    this.state = { seq: seq + 1, ...next };
    this.deps.events.emit('display:state', this.state);
  }
}
