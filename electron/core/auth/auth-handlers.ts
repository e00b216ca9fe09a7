/** The `auth:*` channels: who may sign in, and who is signed in at the calling window. */
import type { HandlerMap } from '../../../shared/ipc/contract';
import { ok } from '../../../shared/result';
import type { UserDirectory } from './users';

export function createAuthHandlers(
  users: UserDirectory,
): Pick<HandlerMap, 'auth:users' | 'auth:session' | 'auth:sign-in' | 'auth:sign-out' | 'auth:change-pin' | 'auth:activity'> {
  return {
    'auth:users': async () => ok({ users: users.list(), defaultPinsActive: await users.defaultPinsActive() }),
    'auth:session': async () => ok(users.current()),
    'auth:sign-in': async ({ userId, pin }) => users.signIn(userId, pin),
    'auth:change-pin': async ({ currentPin, newPin }) => users.changePin(currentPin, newPin),
    'auth:sign-out': async () => {
      users.signOut();
      return ok(null);
    },
    'auth:activity': async () => {
      users.touch();
      return ok(null);
    },
  };
}
