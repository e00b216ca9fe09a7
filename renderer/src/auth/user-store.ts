/**
 * One person's work never reaches the next. Every zustand store that holds a user's
 * work (the sale in progress, its result, filters, selections, drafts, which screen
 * is open) is created with `createUserStore` instead of zustand's `create`; it
 * registers itself here, and `resetUserStores()` — called on sign-out, Switch user
 * (F8), an idle lock, or another user signing in — runs every one's init again, so
 * each starts as a store does when the app opens. Re-running (not restoring the first
 * snapshot) matters: a fresh state may hold something made once per start, such as the
 * sale's clientRef (its transaction_api_id); a restored snapshot would hand the next
 * person the first person's id, and their sale would come back as the earlier one. It also bumps `useResetEpoch`, which app.tsx uses as
 * the key of the screen area, so component state (open dialogs, half-typed forms)
 * is thrown away too.
 *
 * A store that is NOT a user's work (the theme, the core's status, the session itself,
 * the store settings) is listed in COUNTER_WIDE_STORES; a unit test fails when a
 * `*-store.ts` file in any renderer folder does neither, so a later store cannot forget.
 */
import { create, type StateCreator, type StoreApi, type UseBoundStore } from 'zustand';

/** Files in stores/ whose state belongs to the counter, not to the person signed in (lost payments: every person at the counter sees them until seen; the customer display's page has nobody signed in; the register's place in a store). */
export const COUNTER_WIDE_STORES = ['theme-store.ts', 'status-store.ts', 'session-store.ts', 'settings-store.ts', 'user-store.ts', 'queue-store.ts', 'lost-payments-store.ts', 'printer-status-store.ts', 'display-store.ts', 'store-status-store.ts'] as const;

const resets: Array<() => void> = [];

export function createUserStore<T>(init: StateCreator<T, [], []>): UseBoundStore<StoreApi<T>> {
  const store = create<T>()(init);
  resets.push(() => store.setState(init(store.setState, store.getState, store), true));
  return store;
}

/** Bumped on every reset; the screen area is keyed on it. */
export const useResetEpoch = create<{ epoch: number }>(() => ({ epoch: 0 }));

export function resetUserStores(): void {
  for (const reset of resets) reset();
  useResetEpoch.setState((s) => ({ epoch: s.epoch + 1 }));
}

/**
 * For async actions in user stores: take the epoch before the call, and drop the
 * answer if a reset happened meanwhile (the previous person's sale result or list
 * must not land in the next person's screen).
 */
export function userEpoch(): number {
  return useResetEpoch.getState().epoch;
}
