/**
 * A manager's list screen in a user store (user-store.ts): the list as the core answers it, loaded
 * and changed (each change answers the new list). An answer that arrives after someone else
 * signed in is dropped (userEpoch), so the next person never sees the last one's list or error.
 * The Counter users and Registers screens keep their lists this way.
 */
import type { Result } from '../../../shared/result';
import { userEpoch } from './user-store';

/** A failed change: the sentence, and the message of each field that caused it. */
export interface ListChangeError {
  message: string;
  fields: Record<string, string[]>;
}

export interface UserList<T> {
  list: T[] | null;
  error: string | null;
  load(): Promise<void>;
  /** Runs a change; on success the list follows. */
  change(call: () => Promise<Result<T[]>>): Promise<ListChangeError | null>;
}

export function userList<T>(set: (partial: Pick<UserList<T>, 'list' | 'error'> | Pick<UserList<T>, 'error'>) => void, fetch: () => Promise<Result<T[]>>): UserList<T> {
  return {
    list: null,
    error: null,
    async load() {
      const epoch = userEpoch();
      const r = await fetch();
      if (epoch !== userEpoch()) return;
      set(r.ok ? { list: r.value, error: null } : { error: r.error.message });
    },
    async change(call) {
      const epoch = userEpoch();
      const r = await call();
      if (epoch !== userEpoch()) return null;
      if (!r.ok) return { message: r.error.message, fields: r.error.fields ?? {} };
      set({ list: r.value, error: null });
      return null;
    },
  };
}
