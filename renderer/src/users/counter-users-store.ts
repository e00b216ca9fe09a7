/** The Counter users screen's list (a user store: the next person starts from a fresh load). */
import type { CounterUser } from '../../../shared/ipc/contract';
import type { Result } from '../../../shared/result';
import { ringup } from '../bridge/bridge';
import { createUserStore, userEpoch } from '../auth/user-store';

/** A failed change: the sentence, and the message of each field that caused it. */
export interface ChangeError {
  message: string;
  fields: Record<string, string[]>;
}

interface CounterUsersState {
  list: CounterUser[] | null;
  error: string | null;
  load(): Promise<void>;
  /** Runs a change; on success the list (and the sign-in screen's users) follow. */
  change(call: () => Promise<Result<CounterUser[]>>): Promise<ChangeError | null>;
}

export const useCounterUsersStore = createUserStore<CounterUsersState>((set) => ({
  list: null,
  error: null,
  async load() {
    const epoch = userEpoch();
    const r = await ringup.usersList();
    if (epoch !== userEpoch()) return;
    set(r.ok ? { list: r.value, error: null } : { error: r.error.message });
  },
  async change(call) {
    const epoch = userEpoch();
    const r = await call();
    if (epoch !== userEpoch()) return null;
    if (!r.ok) return { message: r.error.message, fields: r.error.fields ?? {} };
    // The sign-in screens follow through the core's auth:users-changed event.
    set({ list: r.value, error: null });
    return null;
  },
}));
