/**
 * This register's place in a store (issue 24) as the core pushes it (`store:status`): in no
 * store, connected, away (with the changes waiting to be sent) or removed. Counter-wide, not a
 * user's work: the register belongs to the store whoever is signed in.
 */
import { create } from 'zustand';
import { STORE_STATUS_NONE, type StoreStatus } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';

interface StoreStatusState {
  status: StoreStatus;
  /** Whether the core has answered once (before that, "in no store" is a guess). */
  known: boolean;
  load(): Promise<void>;
}

export const useStoreStatusStore = create<StoreStatusState>((set) => ({
  status: STORE_STATUS_NONE,
  known: false,
  async load() {
    const r = await ringup.storeStatus();
    if (r.ok) set({ status: r.value, known: true });
  },
}));

ringup.on('store:status', (status) => useStoreStatusStore.setState({ status, known: true }));
