/**
 * The sale in progress: amount, tax, tip, and the outcome once charged. Card data is
 * NOT in the store: the card form keeps it in its own state until the charge is sent;
 * while a large-amount or large-tip question is open it waits in this module (never
 * in state, never logged) and is dropped when the question is answered.
 *
 * Never charged twice: every sale gets its clientRef (the gateway's transaction_api_id)
 * when it starts, and keeps it through retries until the gateway's outcome is known; a
 * lost answer is looked up by it (`sale:outcome`) and Charge stays disabled meanwhile.
 */
import { createUserStore, userEpoch } from './user-store';
import type { KeyedCard, SaleChargeArgs, SaleConfig, SaleOutcome, TransactionView } from '../../../shared/ipc/contract';
import { aboveHardCap, hardCapSentence, needsLargeConfirm, needsTipConfirm } from '../../../shared/amount-guards';
import { ringup } from '../bridge/bridge';
import { applyKey, saleTotals, type KeypadKey, type SaleTotals, type TipChoice } from '../lib/amount-entry';
import { money } from '../lib/money-format';

/** `checking`: the gateway's answer was lost; asking it (by clientRef) what happened before anything else. */
export type SalePhase = 'entry' | 'charging' | 'checking' | 'result';

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
  /** Bumped to ask the card form to clear itself (after every charge attempt). */
  cardResetToken: number;
  loadConfig(): Promise<void>;
  press(key: KeypadKey): void;
  setTaxOn(on: boolean): void;
  setTip(tip: TipChoice): void;
  totals(): SaleTotals;
  charge(card: KeyedCard): Promise<void>;
  answer(yes: boolean): void;
  newSale(): void;
  retry(): void;
  collectRest(): void;
  voidPartial(): Promise<string | null>;
}

let pendingCard: KeyedCard | null = null;
let pollTimer: ReturnType<typeof setTimeout> | undefined;

const newRef = () => crypto.randomUUID();

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
};

export const useSaleStore = createUserStore<SaleState>((set, get) => {
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
    if (!r.ok) return scheduleCheck(); // still no answer: keep asking, Charge stays disabled
    if (r.value.outcome) return showResult(r.value.outcome);
    set({ phase: 'entry', error: 'The payment gateway has no record of this sale, so the card was not charged. Charge again when ready.' });
  }

  return {
    config: null,
    configError: null,
    ...NEW_SALE,
    clientRef: newRef(),
    cardResetToken: 0,
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
    setTaxOn: (taxOn) => set({ taxOn }),
    setTip: (tip) => set({ tip }),
    totals() {
      const s = get();
      return saleTotals(s.subtotalCents, s.taxOn, s.config?.taxRateBasisPoints ?? 0, s.tip);
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
      if (phase === 'charging' || phase === 'checking') return; // never drop a sale whose outcome is not known yet
      pendingCard = null;
      set((st) => ({ ...NEW_SALE, taxOn: st.config?.taxOnByDefault ?? false, clientRef: newRef(), cardResetToken: st.cardResetToken + 1 }));
    },
    /** After a decline: same amount, tip and tax; a fresh card and a fresh clientRef (the declined one is spent). */
    retry() {
      set((st) => ({ phase: 'entry', outcome: null, error: null, fieldErrors: {}, clientRef: newRef(), cardResetToken: st.cardResetToken + 1 }));
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
        clientRef: newRef(),
        cardResetToken: st.cardResetToken + 1,
      }));
    },
    /** Voids the partial approval (any signed-in user may) and starts over; answers an error sentence or null. */
    async voidPartial() {
      const o = get().outcome;
      if (!o) return null;
      const r = await ringup.saleVoidPartial({ id: o.transaction.id });
      if (!r.ok) return r.error.message;
      get().newSale();
      set({ notice: `The partial approval of ${money(o.transaction.amountCents)} was voided; the customer is not charged. Start the sale again.` });
      return null;
    },
  };
});

// A manager saved new store settings (any window): a signed-in sale screen follows at once (tax, tips, thresholds, receipt header).
ringup.on('settings:changed', () => {
  if (useSaleStore.getState().config) void useSaleStore.getState().loadConfig();
});
