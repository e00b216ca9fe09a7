/**
 * Payments whose answer was lost (issue 20, point 3), as the core lists them: still being
 * checked, or concluded and not yet seen at this counter. The core pushes the whole list
 * (`sale:lost`) on every change — a restart's lookups, another window's sale — so every
 * signed-in window shows the same note until someone has seen what became of each payment.
 */
import { create } from 'zustand';
import type { LostPaymentView } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';

interface LostPaymentsState {
  items: LostPaymentView[];
  /** The core's sentence when marking one seen failed. */
  error: string | null;
  load(): Promise<void>;
  seen(id: string): Promise<void>;
}

export const useLostPaymentsStore = create<LostPaymentsState>((set) => ({
  items: [],
  error: null,
  async load() {
    const r = await ringup.saleLostList();
    set(r.ok ? { items: r.value, error: null } : { items: [] });
  },
  async seen(id) {
    const r = await ringup.saleLostSeen({ id });
    set(r.ok ? { items: r.value, error: null } : { error: r.error.message });
  },
}));

ringup.on('sale:lost', (items) => useLostPaymentsStore.setState({ items }));
