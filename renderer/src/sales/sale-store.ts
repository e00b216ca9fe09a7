/**
 * The sale in progress: amount, tax, tip, and the outcome once charged. Card data is
 * NOT in the store: the card form keeps it in its own state until the charge is sent;
 * while a large-amount or large-tip question is open it waits in the store's closure
 * (never in state, never logged) and is dropped when the question is answered.
 *
 * Never charged twice: every sale gets its clientRef (an attempt id; the core maps it to the
 * transaction_api_id it makes and binds to this tender) when it starts, and keeps it through retries until the gateway's outcome is known; a
 * lost answer is looked up by it (`sale:outcome`) and Charge stays disabled meanwhile.
 *
 * A partial approval is never walked away from silently: while one is open (on its result,
 * or while the rest is collected), F2, the Sale tab, New sale and Switch user ask whether to
 * void it or keep it and collect the rest (`leaving`, answered by PartialLeaveDialog).
 */
import { createUserStore, userEpoch } from '../auth/user-store';
import type { Approval, KeyedCard, SaleChargeArgs, SaleConfig, SaleOutcome, TransactionView } from '../../../shared/ipc/contract';
import { aboveHardCap, hardCapSentence, needsLargeConfirm, needsTipConfirm } from '../../../shared/amount-guards';
import { newClientRef } from './attempt-ref';
import { ringup } from '../bridge/bridge';
import { applyKey, saleTotals, type KeypadKey, type SaleTotals, type TipChoice } from './amount-entry';
import { money } from '../ui/money-format';
import { ok, type Result } from '../../../shared/result';

/** `checking`: the gateway's answer was lost; asking it (by clientRef) what happened before anything else. */
export type SalePhase = 'entry' | 'charging' | 'checking' | 'result';

/** F2, the Sale tab, New sale or Switch user while a sale's outcome is not known yet: it is kept, and this says why. */
export const SALE_NOT_LEFT = {
  charging: 'This sale is being charged. Nothing else can start until its outcome is known.',
  checking: 'This sale is still being checked with the payment gateway. Nothing else can start until its outcome is known.',
} as const;

/** What the cashier was about to do when the void-or-keep question about an open partial approval came up. */
export type LeaveIntent = 'new-sale' | 'switch-user';

/** How often the screen asks again while the outcome of a sale is unknown. */
export const OUTCOME_POLL_MS = 2_000;

export type SaleQuestion = { kind: 'amount'; totalCents: number } | { kind: 'tip'; tipCents: number; subtotalCents: number };

/** The first, partly approved sale a second card is collecting the rest of. */
export interface FirstCard {
  transaction: TransactionView;
  /** What is left to collect: asked − approved. */
  restCents: number;
}

interface SaleState {
  config: SaleConfig | null;
  configError: string | null;
  subtotalCents: number;
  taxOn: boolean;
  tip: TipChoice;
  phase: SalePhase;
  clientRef: string;
  outcome: SaleOutcome | null;
  error: string | null;
  /** A plain notice after an action (e.g. the partial approval was voided). */
  notice: string | null;
  fieldErrors: Record<string, string[]>;
  /** The large-amount or large-tip question waiting for the cashier. */
  question: SaleQuestion | null;
  confirmedCents: number | undefined;
  confirmedTipCents: number | undefined;
  firstCard: FirstCard | null;
  /** Set while the void-or-keep question about an open partial approval is on screen. */
  leaving: LeaveIntent | null;
  /** The nav store's visit count this sale has answered (a visit is F2 or the Sale tab: a new sale). */
  visitSeen: number;
  /** Bumped to ask the card form to clear itself (after every charge attempt). */
  cardResetToken: number;
  loadConfig(): Promise<void>;
  press(key: KeypadKey): void;
  setTaxOn(on: boolean): void;
  setTip(tip: TipChoice): void;
  totals(): SaleTotals;
  charge(card: KeyedCard): Promise<void>;
  answer(yes: boolean): void;
  /** F2, the Sale tab, New sale: starts over, unless a charge is unresolved (refused) or a partial approval is open (asks). */
  newSale(): void;
  /**
   * The sale screen shows for nav visit `visit`: a visit not answered yet is a new sale. Coming
   * back to the screen without one (after "Keep it and collect the rest") starts nothing.
   */
  visited(visit: number): void;
  /** Starts over without asking: for a caller that settled the open partial approval itself (handed it to the cart). */
  startOver(): void;
  retry(): void;
  collectRest(): void;
  /** The partial approval this sale still has open (on its result, or while its rest is collected), or null. */
  openPartial(): FirstCard | null;
  /** Whether Switch user must wait: true when it is refused (charge unresolved) or the void-or-keep question opened. */
  holdsSwitchUser(): boolean;
  /** "Keep it and collect the rest": the question closes, and the result moves on to collecting the rest. */
  keepPartial(): void;
  /** Closes the question with nothing changed (Escape). */
  stayPut(): void;
  /**
   * Voids the open partial approval and starts over; answers the core's refusal. A cashier may
   * void a partial approval, except one that paid part of a cart already paid: that is a return,
   * refused `approval_needed` until a manager's PIN comes as `approval` (issue 20, point 4).
   */
  voidPartial(approval?: Approval): Promise<Result<null>>;
}

/** A fresh sale: what the store starts with and what "New sale" (and F2) return to. */
const NEW_SALE = {
  subtotalCents: 0,
  taxOn: false,
  tip: { kind: 'none' } as TipChoice,
  phase: 'entry' as SalePhase,
  outcome: null,
  error: null,
  notice: null,
  fieldErrors: {},
  question: null,
  confirmedCents: undefined,
  confirmedTipCents: undefined,
  firstCard: null,
  leaving: null,
};

export const useSaleStore = createUserStore<SaleState>((set, get) => {
  // Per person: a reset (user-store.ts) runs this again, so a waiting card or a scheduled check is dropped with the sale.
  let pendingCard: KeyedCard | null = null;
  let pollTimer: ReturnType<typeof setTimeout> | undefined;

  async function send(card: KeyedCard): Promise<void> {
    const s = get();
    const t = s.totals();
    set({ phase: 'charging', error: null, notice: null, fieldErrors: {} });
    const args: SaleChargeArgs = { subtotalCents: t.subtotalCents, taxCents: t.taxCents, tipCents: t.tipCents, card, clientRef: s.clientRef };
    if (s.confirmedCents !== undefined) args.confirmedCents = s.confirmedCents;
    if (s.confirmedTipCents !== undefined) args.confirmedTipCents = s.confirmedTipCents;
    if (s.firstCard) args.collectsRestOf = s.firstCard.transaction.id;
    const epoch = userEpoch();
    const r = await ringup.saleCharge(args);
    if (epoch !== userEpoch()) return; // signed out meanwhile: the result is not the next person's
    if (r.ok) return showResult(r.value);
    if (r.error.code === 'outcome_unknown') {
      set((st) => ({ phase: 'checking', error: r.error.message, cardResetToken: st.cardResetToken + 1 }));
      return scheduleCheck();
    }
    if (r.error.code === 'confirm_amount' || r.error.code === 'confirm_tip') {
      // The core's store settings are newer than this screen's: ask its question, as the screen would have (and catch up).
      pendingCard = card;
      void get().loadConfig();
      return set({ phase: 'entry', question: r.error.code === 'confirm_amount' ? { kind: 'amount', totalCents: t.totalCents } : { kind: 'tip', tipCents: t.tipCents, subtotalCents: t.subtotalCents } });
    }
    // Not charged (refused, or the gateway has no record): same clientRef, so charging again cannot charge twice.
    set({ phase: 'entry', error: r.error.message, fieldErrors: r.error.fields ?? {} });
  }

  function showResult(outcome: SaleOutcome): void {
    set((st) => ({ phase: 'result', outcome, error: null, cardResetToken: st.cardResetToken + 1 }));
  }

  function scheduleCheck(): void {
    clearTimeout(pollTimer);
    pollTimer = setTimeout(() => void check(), OUTCOME_POLL_MS);
  }

  async function check(): Promise<void> {
    if (get().phase !== 'checking') return;
    const epoch = userEpoch();
    const r = await ringup.saleOutcome({ clientRef: get().clientRef });
    if (epoch !== userEpoch()) return;
    if (get().phase !== 'checking') return;
    if (!r.ok && r.error.code === 'outcome_unknown') return scheduleCheck(); // still no answer: keep asking, Charge stays disabled
    // Known now, but not this sale's to count (the gateway's record is not what was asked: voided, not counted): said in words.
    if (!r.ok) return set({ phase: 'entry', error: r.error.message });
    if (r.value.outcome) return showResult(r.value.outcome);
    set({ phase: 'entry', error: 'The payment gateway has no record of this sale, so the card was not charged. Charge again when ready.' });
  }

  return {
    config: null,
    configError: null,
    ...NEW_SALE,
    clientRef: newClientRef(),
    cardResetToken: 0,
    visitSeen: 0,
    async loadConfig() {
      const epoch = userEpoch();
      const r = await ringup.saleConfig();
      if (epoch !== userEpoch()) return; // someone else signed in meanwhile
      if (!r.ok) return set({ configError: r.error.message });
      // An untouched new sale follows the store's "tax on by default" (also when a manager changes it meanwhile).
      const s = get();
      const fresh = s.phase === 'entry' && s.subtotalCents === 0 && s.firstCard === null && (s.config === null || s.taxOn === s.config.taxOnByDefault);
      set({ config: r.value, configError: null, ...(fresh ? { taxOn: r.value.taxOnByDefault } : {}) });
    },
    press(key) {
      if (get().phase !== 'entry' || get().firstCard) return; // the rest of a partial approval is a fixed amount
      set({ subtotalCents: applyKey(get().subtotalCents, key), error: null, notice: null });
    },
    // The rest of a partial approval is fixed: its tax is in it already, and no tip goes on top.
    setTaxOn(taxOn) {
      if (!get().firstCard) set({ taxOn });
    },
    setTip(tip) {
      if (!get().firstCard) set({ tip });
    },
    totals() {
      const s = get();
      return saleTotals(s.subtotalCents, s.taxOn, s.config?.taxRateBasisPoints ?? 0, s.tip, s.config?.tipRules.tipBase ?? 'before-tax');
    },
    async charge(card) {
      const s = get();
      if (s.phase !== 'entry' || !s.config) return;
      const t = s.totals();
      if (aboveHardCap(s.config, t.totalCents)) return set({ error: hardCapSentence(s.config.hardCapCents), fieldErrors: {} });
      if (t.tipCents > 0 && needsTipConfirm(s.config, t.subtotalCents, t.tipCents) && s.confirmedTipCents !== t.tipCents) {
        pendingCard = card;
        return set({ question: { kind: 'tip', tipCents: t.tipCents, subtotalCents: t.subtotalCents } });
      }
      if (needsLargeConfirm(s.config, t.totalCents) && s.confirmedCents !== t.totalCents) {
        pendingCard = card;
        return set({ question: { kind: 'amount', totalCents: t.totalCents } });
      }
      await send(card);
    },
    answer(yes) {
      const q = get().question;
      const card = pendingCard;
      pendingCard = null;
      if (!q) return;
      if (!yes || !card) return set({ question: null });
      set(q.kind === 'amount' ? { question: null, confirmedCents: q.totalCents } : { question: null, confirmedTipCents: q.tipCents });
      void get().charge(card);
    },
    newSale() {
      const phase = get().phase;
      // Never drop a sale whose outcome is not known yet: a new one could charge the card again.
      if (phase === 'charging' || phase === 'checking') return set({ error: SALE_NOT_LEFT[phase] });
      if (get().openPartial()) return set({ leaving: 'new-sale' });
      get().startOver();
    },
    visited(visit) {
      if (visit === 0 || visit === get().visitSeen) return;
      set({ visitSeen: visit });
      get().newSale();
    },
    startOver() {
      pendingCard = null;
      set((st) => ({ ...NEW_SALE, taxOn: st.config?.taxOnByDefault ?? false, clientRef: newClientRef(), cardResetToken: st.cardResetToken + 1 }));
    },
    openPartial() {
      const s = get();
      const o = s.outcome;
      if (s.phase === 'result' && o) {
        if (o.approved && o.transaction.partial && !s.firstCard) return { transaction: o.transaction, restCents: o.transaction.requestedCents - o.transaction.amountCents };
        if (o.approved) return null; // the rest was collected
      }
      return s.firstCard;
    },
    holdsSwitchUser() {
      const phase = get().phase;
      if (phase === 'charging' || phase === 'checking') {
        set({ error: SALE_NOT_LEFT[phase] });
        return true;
      }
      if (!get().openPartial()) return false;
      set({ leaving: 'switch-user' });
      return true;
    },
    keepPartial() {
      set({ leaving: null });
      if (get().phase === 'result') get().collectRest();
    },
    stayPut: () => set({ leaving: null }),
    /** After a decline: same amount, tip and tax; a fresh card and a fresh clientRef (the declined one is spent). */
    retry() {
      set((st) => ({ phase: 'entry', outcome: null, error: null, fieldErrors: {}, clientRef: newClientRef(), cardResetToken: st.cardResetToken + 1 }));
    },
    /** After a partial approval: a new keyed sale for what is left, linked to the first. */
    collectRest() {
      const o = get().outcome;
      if (!o || !o.transaction.partial) return;
      const restCents = o.transaction.requestedCents - o.transaction.amountCents;
      set((st) => ({
        ...NEW_SALE,
        subtotalCents: restCents,
        firstCard: { transaction: o.transaction, restCents },
        clientRef: newClientRef(),
        cardResetToken: st.cardResetToken + 1,
      }));
    },
    async voidPartial(approval) {
      const open = get().openPartial();
      if (!open) return ok(null);
      const epoch = userEpoch();
      const r = await ringup.saleVoidPartial({ id: open.transaction.id, ...(approval ? { approval } : {}) });
      if (epoch !== userEpoch()) return ok(null);
      if (!r.ok) return r;
      get().startOver();
      set({ notice: `The partial approval of ${money(open.transaction.amountCents)} was voided; the customer is not charged. Start the sale again.` });
      return ok(null);
    },
  };
});

// A manager saved new store settings (any window): a signed-in sale screen follows at once (tax, tips, thresholds, receipt header).
ringup.on('settings:changed', () => {
  if (useSaleStore.getState().config) void useSaleStore.getState().loadConfig();
});
