/**
 * The offline queue's state (issue 13) as the core pushes it (`queue:status`): pending
 * count and amount, forwarding progress, the expiry alert. Counter-wide, not a user's
 * work: queued sales belong to the store and stay whoever signs in or out.
 */
import { create } from 'zustand';
import type { QueueStatus } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';

interface QueueState {
  status: QueueStatus | null;
  load(): Promise<void>;
}

export const useQueueStore = create<QueueState>((set) => ({
  status: null,
  async load() {
    const r = await ringup.queueStatus();
    if (r.ok) set({ status: r.value });
  },
}));

ringup.on('queue:status', (status) => useQueueStore.setState({ status }));
