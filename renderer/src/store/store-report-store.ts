/**
 * The End of day screen's store part (issue 24): the store's report (every register, the totals,
 * the card check), the store's closed days, and which of them is on screen instead of this
 * register's X or Z (`view`). A user store: the next person starts on this register's X report.
 */
import type { HandlerArg, StoreDayView, StoreReport } from '../../../shared/ipc/contract';
import type { FormError } from '../ui/form-failure';
import { ringup } from '../bridge/bridge';
import { createUserStore, userEpoch } from '../auth/user-store';
import { useReportsStore } from '../reports/reports-store';

interface StoreReportState {
  /** What the report area shows: this register's report (reports-store), the store's report, or one store day. */
  view: 'register' | 'store' | 'day';
  report: StoreReport | null;
  day: StoreDayView | null;
  days: StoreDayView[];
  loading: boolean;
  error: string | null;
  showReport(): Promise<void>;
  showDay(day: StoreDayView): void;
  showRegister(): void;
  loadDays(): Promise<void>;
  /** The store's Z: on success the store day is shown, and this register's own Z joins its history. */
  closeDay(args: HandlerArg<'store:close-day'>): Promise<FormError | null>;
}

export const useStoreReportStore = createUserStore<StoreReportState>((set, get) => ({
  view: 'register',
  report: null,
  day: null,
  days: [],
  loading: false,
  error: null,
  async showReport() {
    const epoch = userEpoch();
    set({ view: 'store', loading: true });
    const r = await ringup.storeReport();
    if (epoch !== userEpoch()) return;
    set(r.ok ? { loading: false, error: null, report: r.value } : { loading: false, error: r.error.message });
  },
  showDay: (day) => set({ view: 'day', day, error: null }),
  showRegister: () => set({ view: 'register' }),
  async loadDays() {
    const epoch = userEpoch();
    const r = await ringup.storeDays();
    if (epoch !== userEpoch()) return;
    // The day on screen follows (its "waiting for" empties as registers close).
    if (r.ok) set((s) => ({ days: r.value, day: s.day ? (r.value.find((d) => d.number === s.day!.number) ?? s.day) : null }));
  },
  async closeDay(args) {
    const epoch = userEpoch();
    const r = await ringup.storeCloseDay(args);
    if (epoch !== userEpoch()) return null;
    if (!r.ok) return { message: r.error.message, fields: r.error.fields ?? {} };
    const { thisRegisterZ, ...day } = r.value;
    set({ view: 'day', day, error: null });
    if (thisRegisterZ) useReportsStore.setState({ report: thisRegisterZ });
    await Promise.all([get().loadDays(), useReportsStore.getState().loadHistory()]);
    return null;
  },
}));
