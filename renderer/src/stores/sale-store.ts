/**
 * The sale in progress: amount, tax, tip, and the outcome once charged. Card data is
 * NOT here: the card form keeps it in its own state only until the charge is sent.
 */
import { createUserStore, userEpoch } from './user-store';
import type { KeyedCard, SaleConfig, SaleOutcome } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { applyKey, saleTotals, type KeypadKey, type SaleTotals, type TipChoice } from '../lib/amount-entry';

export type SalePhase = 'entry' | 'charging' | 'result';

interface SaleState {
  config: SaleConfig | null;
  configError: string | null;
  subtotalCents: number;
  taxOn: boolean;
  tip: TipChoice;
  phase: SalePhase;
  outcome: SaleOutcome | null;
  error: string | null;
  fieldErrors: Record<string, string[]>;
  /** Bumped to ask the card form to clear itself (after every charge attempt). */
  cardResetToken: number;
  loadConfig(): Promise<void>;
  press(key: KeypadKey): void;
  setTaxOn(on: boolean): void;
  setTip(tip: TipChoice): void;
  totals(): SaleTotals;
  charge(card: KeyedCard): Promise<void>;
  newSale(): void;
  retry(): void;
}

/** A fresh sale: what the store starts with and what "New sale" returns to. */
const NEW_SALE = {
  subtotalCents: 0,
  taxOn: false,
  tip: { kind: 'none' } as TipChoice,
  phase: 'entry' as SalePhase,
  outcome: null,
  error: null,
  fieldErrors: {},
};

export const useSaleStore = createUserStore<SaleState>((set, get) => ({
  config: null,
  configError: null,
  ...NEW_SALE,
  cardResetToken: 0,
  async loadConfig() {
    const epoch = userEpoch();
    const r = await ringup.saleConfig();
    if (epoch !== userEpoch()) return; // someone else signed in meanwhile
    set(r.ok ? { config: r.value, configError: null } : { configError: r.error.message });
  },
  press(key) {
    if (get().phase !== 'entry') return;
    set({ subtotalCents: applyKey(get().subtotalCents, key), error: null });
  },
  setTaxOn: (taxOn) => set({ taxOn }),
  setTip: (tip) => set({ tip }),
  totals() {
    const s = get();
    return saleTotals(s.subtotalCents, s.taxOn, s.config?.taxRateBasisPoints ?? 0, s.tip);
  },
  async charge(card) {
    const s = get();
    if (s.phase === 'charging') return;
    const t = s.totals();
    const epoch = userEpoch();
    set({ phase: 'charging', error: null, fieldErrors: {} });
    const r = await ringup.saleCharge({
      subtotalCents: t.subtotalCents,
      taxCents: t.taxCents,
      tipCents: t.tipCents,
      card,
      clientRef: crypto.randomUUID(),
    });
    if (epoch !== userEpoch()) return; // signed out meanwhile: the result is not the next person's
    if (r.ok) {
      set((st) => ({ phase: 'result', outcome: r.value, cardResetToken: st.cardResetToken + 1 }));
    } else {
      set({ phase: 'entry', error: r.error.message, fieldErrors: r.error.fields ?? {} });
    }
  },
  newSale() {
    set((st) => ({ ...NEW_SALE, cardResetToken: st.cardResetToken + 1 }));
  },
  /** After a decline: same amount, tip and tax; a fresh card. */
  retry() {
    set((st) => ({ phase: 'entry', outcome: null, error: null, fieldErrors: {}, cardResetToken: st.cardResetToken + 1 }));
  },
}));
