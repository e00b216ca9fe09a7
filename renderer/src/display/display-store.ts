/**
 * The customer display's one store: the state the core pushes (`display:state`), read once when the
 * page opens (`display:current`). The page never signs in; it holds nothing but what the customer
 * sees. An answer older than an event already here is dropped (each state carries a growing seq).
 */
import { create } from 'zustand';
import type { DisplayState } from '../../../shared/ipc/display';
import { ringup } from '../bridge/bridge';

interface DisplayStore {
  state: DisplayState | null;
  /** A sentence when the display could not reach Ringup (shown small: the customer only needs to know it is not live). */
  error: string | null;
  /** Why the tip tapped was not taken (the tips offered changed meanwhile). */
  tipError: string | null;
  /** The tip the customer tapped, waiting for the core's word. */
  picking: boolean;
  start(): () => void;
  pickTip(index: number | null, cents: number): Promise<void>;
}

export const useDisplayStore = create<DisplayStore>((set, get) => {
  const take = (next: DisplayState) => {
    const now = get().state;
    if (!now || next.seq >= now.seq) set({ state: next, error: null, ...(next.phase !== 'cart' ? { tipError: null } : {}) });
  };
  return {
    state: null,
    error: null,
    tipError: null,
    picking: false,
    start() {
      const off = ringup.on('display:state', take);
      void ringup.displayCurrent().then((r) => (r.ok ? take(r.value) : set({ error: r.error.message })));
      return off;
    },
    async pickTip(index, cents) {
      const cartId = get().state?.tip?.cartId;
      if (!cartId || get().picking) return;
      set({ picking: true, tipError: null });
      const r = await ringup.displayPickTip({ cartId, index, cents });
      set({ picking: false });
      if (r.ok) take(r.value);
      else set({ tipError: r.error.message });
    },
  };
});
