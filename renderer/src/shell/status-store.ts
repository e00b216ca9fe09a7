import { create } from 'zustand';
import type { CoreStatus } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';

interface StatusState {
  status: CoreStatus | null;
  error: string | null;
  checking: boolean;
  load(): Promise<void>;
  recheck(): Promise<void>;
}

export const useStatusStore = create<StatusState>((set, get) => ({
  status: null,
  error: null,
  checking: false,
  async load() {
    const r = await ringup.coreStatus();
    set(r.ok ? { status: r.value, error: null } : { error: r.error.message });
  },
  async recheck() {
    set({ checking: true });
    const r = await ringup.gatewayCheck();
    const current = get().status;
    if (r.ok && current) set({ status: { ...current, gateway: r.value }, error: null, checking: false });
    else set({ error: r.ok ? null : r.error.message, checking: false });
  },
}));

ringup.on('core:status', (status) => useStatusStore.setState({ status }));
