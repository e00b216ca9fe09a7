/** The Batches screen: the open batch and the history, the one selected, its rows and the settle in progress. */
import { createUserStore } from '../auth/user-store';
import { BATCH_PAGE_SIZE, type BatchList, type BatchRow, type BatchSummary, type SettleOutcome } from '../../../shared/ipc/contract';
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
/** The first request's size: a screenful and more, answered at once even for a batch of 100,000. */
const FIRST_PAGE_ROWS = 100;

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
    // The totals (every row counted in the core) and the rows load side by side: the first rows show at once.
    const summary = ringup.batchesSummary({ batchId: id }).then((s) => {
      if (generation !== rowsGeneration) return;
      set(s.ok ? { summary: s.value, error: null } : { error: s.error.message });
    });
    // A small first page shows the first rows at once; then page after page of BATCH_PAGE_SIZE (the first
    // page again: its rows already shown are kept once). A refresh of the batch on screen is gathered off
    // screen and shown once complete, so the list does not redraw under the manager's scrolling 20 times.
    const quiet = get().rows.length > 0;
    let rows: BatchRow[] = [];
    const seen = new Set<string>();
    const requests = [{ page: 1, pageSize: FIRST_PAGE_ROWS }, ...Array.from({ length: 1000 }, (_, i) => ({ page: i + 1, pageSize: BATCH_PAGE_SIZE }))];
    for (const [n, req] of requests.entries()) {
      const r = await ringup.batchesRows({ batchId: id, ...req });
      if (generation !== rowsGeneration) return;
      if (!r.ok) {
        set({ loadingRows: false, error: r.error.message });
        break;
      }
      // A sale that joins the open batch meanwhile shifts later pages by one: keep each row once.
      const fresh = r.value.rows.filter((x) => !seen.has(x.id));
      for (const x of fresh) seen.add(x.id);
      rows = rows.concat(fresh);
      const more = n === 0 ? r.value.pageCount > 1 : req.page < r.value.pageCount;
      if (!quiet || !more) set({ rows, loadingRows: more });
      if (!more) break;
    }
    await summary;
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
