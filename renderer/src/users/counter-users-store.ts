/** The Counter users screen's list (a user store: the next person starts from a fresh load). */
import type { CounterUser } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { createUserStore } from '../auth/user-store';
import { userList, type ListChangeError, type UserList } from '../auth/user-list';

/** A failed change: the sentence, and the message of each field that caused it. */
export type ChangeError = ListChangeError;

type CounterUsersState = UserList<CounterUser>;

// The sign-in screens follow a change through the core's auth:users-changed event.
export const useCounterUsersStore = createUserStore<CounterUsersState>((set) => userList<CounterUser>((p) => set(p), () => ringup.usersList()));
