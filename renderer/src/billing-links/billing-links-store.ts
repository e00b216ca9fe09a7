/** Pay links and invoices: the lists (paid / unpaid, remaining balance) and reloading them after a change. */
import { createUserStore, userEpoch } from '../auth/user-store';
import type { BillingLinksView } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';

interface BillingLinksState {
  view: BillingLinksView;
  loading: boolean;
  error: string | null;
  load(): Promise<void>;
}

let generation = 0;

export const useBillingLinksStore = createUserStore<BillingLinksState>((set) => ({
  view: { paylinks: [], invoices: [] },
  loading: false,
  error: null,
  async load() {
    const g = ++generation;
    const epoch = userEpoch();
    set({ loading: true });
    const r = await ringup.paylinksList();
    if (g !== generation || epoch !== userEpoch()) return;
    if (!r.ok) return set({ loading: false, error: r.error.message });
    set({ loading: false, error: null, view: r.value });
  },
}));
