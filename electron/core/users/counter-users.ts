/**
 * The Counter users screen's core: managers add users, change their role, reset a PIN
 * (which also lifts a lockout) and remove users. Rules a real counter needs:
 * - names are unique (case-insensitive) so the sign-in screen never shows two "Casey";
 * - a manager cannot remove or re-role themselves (another manager can), so the counter
 *   always keeps a manager;
 * - a removed or re-roled user's open windows go back to the sign-in screen;
 * - every change is in the audit log, with who made it (users.ts declares it; recorders.ts words it).
 * Managers only: users.ts declares it, the channel rules enforce it.
 * PINs are stored as salted scrypt hashes keyed with the PIN pepper (pin-hash.ts), never
 * returned; a new PIN is hashed off the event loop, after the manager check.
 */
import { randomUUID } from 'node:crypto';
import type { CounterUser, HandlerMap, Role } from '../../../shared/ipc/contract';
import { USERS_MESSAGES } from '../../../shared/ipc/contract';
import { fail, ok, type Result } from '../../../shared/result';
import type { PosDatabase } from '../platform/pos-database';
import type { UserDirectory } from '../auth/users';
import { callerSession } from '../../ipc/channel-rules';

type UsersHandlers = Pick<HandlerMap, 'users:list' | 'users:add' | 'users:set-role' | 'users:reset-pin' | 'users:remove'>;

interface Row {
  id: string;
  name: string;
  role: Role;
  locked_until: number;
}

const ROLE_WORD: Record<Role, string> = { cashier: 'cashier', manager: 'manager', installer: 'installer' };

export function createCounterUsersHandlers(deps: { db: PosDatabase; users: UserDirectory; now?: () => number; onChanged?: () => void }): UsersHandlers {
  const { db, users } = deps;
  const now = deps.now ?? Date.now;

  // Locked out: the user's back-off runs, or some window is locked for them (pin-throttle.ts).
  const list = (): CounterUser[] =>
    (db.prepare('SELECT id, name, role, locked_until FROM pos_users ORDER BY sort, name').all() as Row[]).map((r) => ({ id: r.id, name: r.name, role: r.role, locked: users.isLockedOut(r.id) }));
  const find = (id: string) => db.prepare('SELECT id, name, role, locked_until FROM pos_users WHERE id = ?').get(id) as Row | undefined;

  /** The change as the calling manager, then the new list. */
  function asManager(fn: (me: { id: string; name: string }) => Result<null>): Result<CounterUser[]> {
    const done = fn(callerSession().user);
    if (!done.ok) return done;
    users.forgetDefaultPinCheck();
    deps.onChanged?.();
    return ok(list());
  }

  return {
    'users:list': async () => ok(list()),

    'users:add': async ({ name, role, pin }) => {
      const hash = await users.hashPin(pin);
      return asManager(() => {
        if (db.prepare('SELECT 1 FROM pos_users WHERE lower(name) = lower(?)').get(name)) return fail('invalid', USERS_MESSAGES.nameTaken, { name: [USERS_MESSAGES.nameTaken] });
        const sort = (db.prepare('SELECT COALESCE(MAX(sort), 0) + 1 AS s FROM pos_users').get() as { s: number }).s;
        db.prepare('INSERT INTO pos_users (id, name, role, pin_hash, sort, created_ts) VALUES (?, ?, ?, ?, ?, ?)').run(randomUUID(), name, role, hash, sort, Math.floor(now() / 1000));
        return ok(null);
      });
    },

    'users:set-role': async ({ id, role }) =>
      asManager((me) => {
        const u = find(id);
        if (!u) return fail('not_found', USERS_MESSAGES.notFound);
        if (u.role === role) return ok(null);
        if (u.id === me.id) return fail('forbidden', USERS_MESSAGES.notYourself);
        db.prepare('UPDATE pos_users SET role = ? WHERE id = ?').run(role, id);
        users.endSessionsOf(id, `role changed to ${ROLE_WORD[role]}`);
        return ok(null);
      }),

    'users:reset-pin': async ({ id, pin }) => {
      const hash = await users.hashPin(pin);
      return asManager(() => {
        const u = find(id);
        if (!u) return fail('not_found', USERS_MESSAGES.notFound);
        db.prepare('UPDATE pos_users SET pin_hash = ? WHERE id = ?').run(hash, id);
        users.liftLockout(id);
        return ok(null);
      });
    },

    'users:remove': async ({ id }) =>
      asManager((me) => {
        const u = find(id);
        if (!u) return fail('not_found', USERS_MESSAGES.notFound);
        if (u.id === me.id) return fail('forbidden', USERS_MESSAGES.notYourself);
        db.prepare('DELETE FROM pos_users WHERE id = ?').run(id);
        users.endSessionsOf(id, 'user removed');
        return ok(null);
      }),
  };
}
