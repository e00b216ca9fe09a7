/** The End of day screen: the report on screen (X, a fresh Z, or a past Z), the Z history and the paper to print on. */
import { createUserStore } from '../auth/user-store';
import type { DayReport, HandlerArg, PaperSize, ZReportEntry } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';

interface ReportsState {
  report: DayReport | null;
  history: ZReportEntry[];
  loading: boolean;
  closing: boolean;
  error: string | null;
  paper: PaperSize;
  runX(): Promise<void>;
  /** Closes the day, with the drawer's count when the manager counted it. */
  closeDay(count?: NonNullable<HandlerArg<'reports:z'>>): Promise<string | null>;
  viewZ(number: number): Promise<void>;
  loadHistory(): Promise<void>;
  setPaper(paper: PaperSize): void;
}

export const useReportsStore = createUserStore<ReportsState>((set, get) => ({
  report: null,
  history: [],
  loading: false,
  closing: false,
  error: null,
  paper: '80mm',
  async runX() {
    set({ loading: true });
    const r = await ringup.reportsX();
    set(r.ok ? { loading: false, error: null, report: r.value } : { loading: false, error: r.error.message });
  },
  async closeDay(count) {
    set({ closing: true });
    const r = await ringup.reportsZ(count ?? {});
    if (!r.ok) {
      set({ closing: false });
      return r.error.message;
    }
    set({ closing: false, error: null, report: r.value });
    await get().loadHistory();
    return null;
  },
  async viewZ(number) {
    set({ loading: true });
    const r = await ringup.reportsZView({ number });
    set(r.ok ? { loading: false, error: null, report: r.value } : { loading: false, error: r.error.message });
  },
  async loadHistory() {
    const r = await ringup.reportsZList();
    if (r.ok) set({ history: r.value });
  },
  setPaper: (paper) => set({ paper }),
}));
