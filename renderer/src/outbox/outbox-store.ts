/** The outbox screen's channel filter and the page on screen (a user store: the next person starts with everything). */
import type { OutboxChannel, OutboxListArgs, OutboxPage } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { createUserStore, userEpoch } from '../auth/user-store';

interface OutboxState {
  channel: OutboxChannel | '';
  page: OutboxPage | null;
  loading: boolean;
  error: string | null;
  setChannel(channel: OutboxChannel | ''): void;
  load(args: OutboxListArgs): Promise<void>;
}

export const useOutboxStore = createUserStore<OutboxState>((set) => ({
  channel: '',
  page: null,
  loading: false,
  error: null,
  setChannel: (channel) => set({ channel }),
  async load(args) {
    const epoch = userEpoch();
    set({ loading: true });
    const r = await ringup.outboxList(args);
    if (epoch !== userEpoch()) return;
    set(r.ok ? { page: r.value, loading: false, error: null } : { loading: false, error: r.error.message });
  },
}));
