/**
 * Today's transactions, the search for older ones, and the one selected for refund,
 * void or a receipt.
 */
import { createUserStore, userEpoch } from '../auth/user-store';
import type { TransactionSearchArgs, TransactionView } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import type { KindFilter } from './transaction-filters';

export type { KindFilter } from './transaction-filters';

/** What "Find older…" was last filled in with, as typed: it opens again with it (issue 21, point 13). */
export interface FindDraft {
  lastFour: string;
  amount: string;
  from: string;
  to: string;
  apiId: string;
  code: string;
}

const EMPTY_FIND: FindDraft = { lastFour: '', amount: '', from: '', to: '', apiId: '', code: '' };

interface TransactionsState {
  mode: 'today' | 'search';
  loading: boolean;
  /** Page 1 is on screen and later pages are still arriving. */
  loadingMore: boolean;
  error: string | null;
  /** Today's list has never loaded (since the screen opened): the screen says so instead of showing $0.00. */
  loadFailed: boolean;
  today: TransactionView[];
  searchResults: TransactionView[];
  kind: KindFilter;
  text: string;
  selectedId: string | null;
  selected: TransactionView | null;
  findDraft: FindDraft;
  loadToday(): Promise<void>;
  setFindDraft(patch: Partial<FindDraft>): void;
  search(args: TransactionSearchArgs): Promise<string | null>;
  showToday(): void;
  setKind(kind: KindFilter): void;
  setText(text: string): void;
  select(row: TransactionView | null): void;
  refreshSelected(view: TransactionView): void;
}

let loadGeneration = 0;

export const useTransactionsStore = createUserStore<TransactionsState>((set, get) => ({
  mode: 'today',
  loading: false,
  loadingMore: false,
  error: null,
  loadFailed: false,
  today: [],
  searchResults: [],
  kind: 'all',
  text: '',
  selectedId: null,
  selected: null,
  findDraft: EMPTY_FIND,
  setFindDraft: (patch) => set((s) => ({ findDraft: { ...s.findDraft, ...patch } })),
  async loadToday() {
    // Page after page: the first rows are on screen at once, the rest stream in behind them.
    const generation = ++loadGeneration;
    const epoch = userEpoch();
    set({ loading: true });
    let rows: TransactionView[] = [];
    const seen = new Set<string>();
    let until: number | undefined;
    for (let page = 1; ; page++) {
      const r = await ringup.transactionsToday(until === undefined ? { page } : { page, until });
      if (generation !== loadGeneration || epoch !== userEpoch()) return; // a newer load, or another user, took over
      if (!r.ok) return set((st) => ({ loading: false, loadingMore: false, error: r.error.message, loadFailed: page === 1 ? true : st.loadFailed }));
      const fresh = r.value.rows.filter((x) => !seen.has(x.id));
      for (const x of fresh) seen.add(x.id);
      rows = rows.concat(fresh);
      until = r.value.until;
      const more = page < r.value.pageCount;
      const sel = get().selectedId;
      set({ loading: false, loadingMore: more, error: null, loadFailed: false, today: rows, selected: sel ? (rows.find((x) => x.id === sel) ?? get().selected) : null });
      if (!more) return;
    }
  },
  async search(args) {
    const epoch = userEpoch();
    set({ loading: true });
    const r = await ringup.transactionsSearch(args);
    if (epoch !== userEpoch()) return null;
    if (!r.ok) {
      set({ loading: false });
      return r.error.message;
    }
    set({ loading: false, error: null, mode: 'search', searchResults: r.value, selectedId: null, selected: null });
    return null;
  },
  showToday: () => set({ mode: 'today', selectedId: null, selected: null }),
  setKind: (kind) => set({ kind }),
  setText: (text) => set({ text }),
  select: (row) => set({ selectedId: row?.id ?? null, selected: row }),
  refreshSelected(view) {
    const patch = (rows: TransactionView[]) => rows.map((r) => (r.id === view.id ? view : r));
    set((s) => ({ selected: s.selectedId === view.id ? view : s.selected, today: patch(s.today), searchResults: patch(s.searchResults) }));
  },
}));
