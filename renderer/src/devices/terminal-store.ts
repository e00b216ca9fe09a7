/**
 * The counter's payment devices: the terminal's status (for the status bar and the sale
 * screen), what it shows right now (pushed `terminal:state`), how this sale is paid
 * (terminal by default when one is set up, keyed card, or check) and a scanned check.
 * A finished terminal or check payment hands its outcome to the sale store, so the result
 * screen is the same as for a keyed sale.
 */
import { createUserStore } from '../auth/user-store';
import type { ScannedCheck, SaleOutcome, TerminalScreenState, TerminalStatus } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { AttemptRef, settleWhenKnown } from '../sales/attempt-ref';
import { DECLINED_BY_CASHIER, sendConfirmed } from '../sales/amount-question-store';

export type PayMethod = 'terminal' | 'keyed' | 'check';

interface TerminalState {
  status: TerminalStatus | null;
  screen: TerminalScreenState;
  prompt: string;
  /** null until the cashier picks: the default is the terminal when one is reachable. */
  chosen: PayMethod | null;
  tipOnTerminal: boolean;
  running: boolean;
  error: string | null;
  check: ScannedCheck | null;
  scanning: boolean;
  load(): Promise<void>;
  method(): PayMethod;
  choose(m: PayMethod): void;
  setTipOnTerminal(on: boolean): void;
  payOnTerminal(a: { subtotalCents: number; taxCents: number; tipCents: number }, done: (o: SaleOutcome) => void): Promise<void>;
  cancel(): Promise<void>;
  scanCheck(): Promise<void>;
  /** The numbers the cashier keyed from a check the scanner could not read (no MICR line). */
  keyCheck(numbers: Omit<ScannedCheck, 'micr'>): void;
  payByCheck(a: { subtotalCents: number; taxCents: number; holderName: string }, done: (o: SaleOutcome) => void): Promise<void>;
  reset(): void;
}

/** A retry after a lost answer is the same sale at the gateway (sales/attempt-ref.ts). */
const terminalAttempt = new AttemptRef();
const checkAttempt = new AttemptRef();

export const useTerminalStore = createUserStore<TerminalState>((set, get) => ({
  status: null,
  screen: 'idle',
  prompt: '',
  chosen: null,
  tipOnTerminal: true,
  running: false,
  error: null,
  check: null,
  scanning: false,
  async load() {
    const r = await ringup.devicesTerminalStatus();
    if (r.ok) set({ status: r.value });
  },
  method() {
    const s = get();
    if (s.chosen) return s.chosen;
    // An offline terminal falls back to keyed entry until the cashier picks otherwise.
    return s.status && (s.status.connection === 'connected' || s.status.connection === 'busy') ? 'terminal' : 'keyed';
  },
  choose: (chosen) => set({ chosen, error: null }),
  setTipOnTerminal: (tipOnTerminal) => set({ tipOnTerminal }),
  async payOnTerminal(a, done) {
    if (get().running) return;
    const ask = get().tipOnTerminal && get().status?.tipPercents;
    // A tip picked on the terminal is not known yet: the store's guards see the amount before it (as the core does).
    const tipCents = ask ? null : a.tipCents;
    const clientRef = terminalAttempt.for(`terminal|${a.subtotalCents}|${a.taxCents}|${tipCents ?? 'on terminal'}`);
    set({ error: null });
    const r = await sendConfirmed({ subtotalCents: a.subtotalCents, tipCents: tipCents ?? 0, totalCents: a.subtotalCents + a.taxCents + (tipCents ?? 0) }, async (c) => {
      set({ running: true, screen: 'card', prompt: 'Insert, tap or swipe card' });
      const sent = await ringup.devicesTerminalSale({ subtotalCents: a.subtotalCents, taxCents: a.taxCents, tipCents, clientRef, ...c });
      set({ running: false, screen: 'idle', prompt: '' });
      settleWhenKnown(terminalAttempt, sent);
      return sent;
    });
    if (r.ok) done(r.value);
    else if (r.error.code !== DECLINED_BY_CASHIER) set({ error: r.error.message });
  },
  async cancel() {
    await ringup.devicesTerminalCancel();
  },
  async scanCheck() {
    set({ scanning: true, error: null, check: null });
    const r = await ringup.devicesCheckScan();
    set(r.ok ? { scanning: false, check: r.value } : { scanning: false, error: r.error.message });
  },
  keyCheck: (numbers) => set({ check: { ...numbers, micr: null }, error: null }),
  async payByCheck(a, done) {
    const check = get().check;
    if (!check || get().running) return;
    const clientRef = checkAttempt.for(`check|${check.micr ?? `keyed ${check.routing} ${check.account} ${check.checkNumber}`}|${a.subtotalCents}|${a.taxCents}`);
    set({ error: null });
    const r = await sendConfirmed({ subtotalCents: a.subtotalCents, tipCents: 0, totalCents: a.subtotalCents + a.taxCents }, async (c) => {
      set({ running: true });
      const sent = await ringup.devicesCheckPay({ ...a, check, clientRef, ...(c.confirmedCents !== undefined ? { confirmedCents: c.confirmedCents } : {}) });
      set({ running: false });
      settleWhenKnown(checkAttempt, sent);
      return sent;
    });
    if (r.ok) {
      set({ check: null });
      done(r.value);
    } else if (r.error.code !== DECLINED_BY_CASHIER) set({ error: r.error.message });
  },
  reset: () => set({ error: null, check: null, chosen: null }),
}));

ringup.on('terminal:state', (p) => useTerminalStore.setState({ screen: p.state, prompt: p.prompt }));
ringup.on('terminal:status', (status) => useTerminalStore.setState({ status }));
