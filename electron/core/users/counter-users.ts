/**
 * The Counter users screen's core: managers add users, change their role, reset a PIN
 * (which also lifts a lockout) and remove users. Rules a real counter needs:
 * - names are unique (case-insensitive) so the sign-in screen never shows two "Casey";
 * - a manager cannot remove or re-role themselves (another manager can), so the counter
 *   always keeps a manager;
 * - a removed or re-roled user's open windows go back to the sign-in screen;
 * - every change is in the audit log, with who made it.
 * PINs are stored as salted scrypt hashes keyed with the PIN pepper (pin-hash.ts), never
 * returned; a new PIN is hashed off the event loop, after the manager check.
 */
import { randomUUID } from 'node:crypto';
import type { CounterUser, HandlerMap, Role } from '../../../shared/ipc/contract';
import { USERS_MESSAGES } from '../../../shared/ipc/contract';
import { fail, ok, type Result } from '../../../shared/result';
import type { AuditLog } from '../audit/audit-log';
import type { PosDatabase } from '../platform/pos-database';
import type { UserDirectory } from '../auth/users';

type UsersHandlers = Pick<HandlerMap, 'users:list' | 'users:add' | 'users:set-role' | 'users:reset-pin' | 'users:remove'>;

interface Row {
  id: string;
  name: string;
  role: Role;
  locked_until: number;
}

const ROLE_WORD: Record<Role, string> = { cashier: 'cashier', manager: 'manager', installer: 'installer' };

export function createCounterUsersHandlers(deps: { db: PosDatabase; users: UserDirectory; audit: AuditLog; now?: () => number; onChanged?: () => void }): UsersHandlers {
  const { db, users, audit } = deps;
  const now = deps.now ?? Date.now;

  // Locked out: the user's back-off runs, or some window is locked for them (pin-throttle.ts).
  const list = (): CounterUser[] =>
    (db.prepare('SELECT id, name, role, locked_until FROM pos_users ORDER BY sort, name').all() as Row[]).map((r) => ({ id: r.id, name: r.name, role: r.role, locked: users.isLockedOut(r.id) }));
  const find = (id: string) => db.prepare('SELECT id, name, role, locked_until FROM pos_users WHERE id = ?').get(id) as Row | undefined;

  /** Manager only; then the change, its audit record and the new list. */
  function asManager(fn: (me: { id: string; name: string }) => Result<string>): Result<CounterUser[]> {
    const s = users.require('manager');
    if (!s.ok) return s;
    const done = fn(s.value.user);
    if (!done.ok) return done;
    users.forgetDefaultPinCheck();
    audit.record({ kind: 'user-change', user: s.value.user, detail: done.value });
    deps.onChanged?.();
    return ok(list());
  }

  return {
    'users:list': async () => {
      const s = users.require('manager');
      return s.ok ? ok(list()) : s;
    },

    'users:add': async ({ name, role, pin }) => {
      const s = users.require('manager');
      if (!s.ok) return s;
      const hash = await users.hashPin(pin);
      return asManager(() => {
        if (db.prepare('SELECT 1 FROM pos_users WHERE lower(name) = lower(?)').get(name)) return fail('invalid', USERS_MESSAGES.nameTaken, { name: [USERS_MESSAGES.nameTaken] });
        const sort = (db.prepare('SELECT COALESCE(MAX(sort), 0) + 1 AS s FROM pos_users').get() as { s: number }).s;
        db.prepare('INSERT INTO pos_users (id, name, role, pin_hash, sort, created_ts) VALUES (?, ?, ?, ?, ?, ?)').run(randomUUID(), name, role, hash, sort, Math.floor(now() / 1000));
        return ok(`added ${name} as ${ROLE_WORD[role]}`);
      });
    },

    'users:set-role': async ({ id, role }) =>
      asManager((me) => {
        const u = find(id);
        if (!u) return fail('not_found', USERS_MESSAGES.notFound);
        if (u.role === role) return ok(`${u.name} stays ${ROLE_WORD[role]}`);
        if (u.id === me.id) return fail('forbidden', USERS_MESSAGES.notYourself);
        db.prepare('UPDATE pos_users SET role = ? WHERE id = ?').run(role, id);
        users.endSessionsOf(id, `role changed to ${ROLE_WORD[role]}`);
        return ok(`${u.name}: ${ROLE_WORD[u.role]} → ${ROLE_WORD[role]}`);
      }),

    'users:reset-pin': async ({ id, pin }) => {
      const s = users.require('manager');
      if (!s.ok) return s;
      const hash = await users.hashPin(pin);
      return asManager(() => {
        const u = find(id);
        if (!u) return fail('not_found', USERS_MESSAGES.notFound);
        const wasLocked = users.isLockedOut(id);
        db.prepare('UPDATE pos_users SET pin_hash = ? WHERE id = ?').run(hash, id);
        users.liftLockout(id);
        return ok(`reset the PIN of ${u.name}${wasLocked ? ' and lifted the lockout' : ''}`);
      });
    },

    'users:remove': async ({ id }) =>
      asManager((me) => {
        const u = find(id);
        if (!u) return fail('not_found', USERS_MESSAGES.notFound);
        if (u.id === me.id) return fail('forbidden', USERS_MESSAGES.notYourself);
        db.prepare('DELETE FROM pos_users WHERE id = ?').run(id);
        users.endSessionsOf(id, 'user removed');
        return ok(`removed ${u.name} (${ROLE_WORD[u.role]})`);
      }),
  };
}
