/** The Batches screen: the open batch and the history, the one selected, its rows and the settle in progress. */
import { createUserStore } from './user-store';
import type { BatchList, BatchRow, BatchSummary, SettleOutcome } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';

interface BatchesState {
  list: BatchList | null;
  loading: boolean;
  error: string | null;
  selectedId: string | null;
  summary: BatchSummary | null;
  rows: BatchRow[];
  loadingRows: boolean;
  settling: boolean;
  outcome: SettleOutcome | null;
  settleError: string | null;
  load(): Promise<void>;
  select(id: string): Promise<void>;
  settle(): Promise<void>;
}

let rowsGeneration = 0;

export const useBatchesStore = createUserStore<BatchesState>((set, get) => ({
  list: null,
  loading: false,
  error: null,
  selectedId: null,
  summary: null,
  rows: [],
  loadingRows: false,
  settling: false,
  outcome: null,
  settleError: null,
  async load() {
    set({ loading: true });
    const r = await ringup.batchesList();
    if (!r.ok) return set({ loading: false, error: r.error.message });
    set({ loading: false, error: null, list: r.value });
    const keep = get().selectedId;
    const known = keep && (r.value.open?.id === keep || r.value.history.some((b) => b.id === keep));
    const first = known ? keep : (r.value.open?.id ?? r.value.history[0]?.id ?? null);
    if (first) await get().select(first);
    else set({ selectedId: null, summary: null, rows: [] });
  },
  async select(id) {
    const generation = ++rowsGeneration;
    set({ selectedId: id, loadingRows: true, ...(get().selectedId !== id ? { summary: null, rows: [], outcome: null, settleError: null } : {}) });
    const s = await ringup.batchesSummary({ batchId: id });
    if (generation !== rowsGeneration) return;
    if (!s.ok) return set({ loadingRows: false, error: s.error.message });
    set({ summary: s.value, error: null });
    // Page after page, as the Transactions list does: the first rows show at once.
    let rows: BatchRow[] = [];
    const seen = new Set<string>();
    for (let page = 1; ; page++) {
      const r = await ringup.batchesRows({ batchId: id, page });
      if (generation !== rowsGeneration) return;
      if (!r.ok) return set({ loadingRows: false, error: r.error.message });
      // A sale that joins the open batch meanwhile shifts later pages by one: keep each row once.
      const fresh = r.value.rows.filter((x) => !seen.has(x.id));
      for (const x of fresh) seen.add(x.id);
      rows = rows.concat(fresh);
      const more = page < r.value.pageCount;
      set({ rows, loadingRows: more });
      if (!more) return;
    }
  },
  async settle() {
    const id = get().selectedId;
    if (!id || get().settling) return;
    set({ settling: true, outcome: null, settleError: null });
    const r = await ringup.batchesSettle({ batchId: id });
    if (!r.ok) return set({ settling: false, settleError: r.error.message });
    set({ settling: false, outcome: r.value });
    await get().load();
  },
}));
