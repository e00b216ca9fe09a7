/** Recurring payments: the list, the next 30 days, the one selected, refreshing after a change. */
import { createUserStore } from '../auth/user-store';
import type { RecurringList } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';

interface RecurringState {
  data: RecurringList | null;
  loading: boolean;
  error: string | null;
  selectedId: string | null;
  load(): Promise<void>;
  select(id: string | null): void;
}

let generation = 0;

export const useRecurringStore = createUserStore<RecurringState>((set, get) => ({
  data: null,
  loading: false,
  error: null,
  selectedId: null,
  async load() {
    const g = ++generation;
    set({ loading: true });
    const r = await ringup.recurringList();
    if (g !== generation) return;
    if (!r.ok) return set({ loading: false, error: r.error.message });
    const sel = get().selectedId;
    set({ loading: false, error: null, data: r.value, selectedId: sel && r.value.recurrings.some((x) => x.id === sel) ? sel : (r.value.recurrings[0]?.id ?? null) });
  },
  select: (selectedId) => set({ selectedId }),
}));
