/**
 * Counter users (issue 11, point 5): managers add, re-role, reset and remove users; names
 * are unique; nobody removes or re-roles themselves (so a manager always remains); a PIN
 * reset lifts a lockout; cashiers cannot do any of it; every change is audited.
 */
import { describe, expect, it } from 'vitest';
import { USERS_MESSAGES, type CounterUser } from '../../shared/ipc/contract';
import { AUTH_ERRORS, MAX_FAILED_PINS } from '../../electron/core/auth/users';
import { useCoreHarness, value } from '../helpers/core-harness';

const h = useCoreHarness('ringup-counter-users-');
const byName = (list: CounterUser[], name: string) => list.find((u) => u.name === name);

describe('counter users', () => {
  it('a cashier may not list or change users', async () => {
    await h.signInAs('Casey', '0000');
    const r = await h.call('users:list');
    expect(!r.ok && r.error.message).toBe(AUTH_ERRORS.managerOnly);
    expect((await h.call('users:add', { name: 'Eve', role: 'manager', pin: '4444' })).ok).toBe(false);
  });

  it('a manager adds a user who can then sign in; names are unique whatever the case', async () => {
    await h.signInAs('Morgan', '1234');
    const list = value(await h.call('users:add', { name: 'Riley', role: 'cashier', pin: '5555' }));
    expect(byName(list, 'Riley')).toMatchObject({ role: 'cashier', locked: false });
    const dup = await h.call('users:add', { name: 'riley', role: 'manager', pin: '5556' });
    expect(!dup.ok && dup.error.fields?.name).toEqual([USERS_MESSAGES.nameTaken]);
    const users = value(await h.call('auth:users')).users;
    const riley = users.find((u) => u.name === 'Riley')!;
    expect(value(await h.call('auth:sign-in', { userId: riley.id, pin: '5555' })).user).toMatchObject({ name: 'Riley', role: 'cashier' });
  });

  it('nobody removes or re-roles themselves; another manager can', async () => {
    await h.signInAs('Morgan', '1234');
    const morgan = byName(value(await h.call('users:list')), 'Morgan')!;
    const self = await h.call('users:remove', { id: morgan.id });
    expect(!self.ok && self.error.message).toBe(USERS_MESSAGES.notYourself);
    expect((await h.call('users:set-role', { id: morgan.id, role: 'cashier' })).ok).toBe(false);
    value(await h.call('users:add', { name: 'Alex', role: 'manager', pin: '7777' }));
    await h.signInAs('Alex', '7777');
    const after = value(await h.call('users:set-role', { id: morgan.id, role: 'cashier' }));
    expect(byName(after, 'Morgan')?.role).toBe('cashier');
    value(await h.call('users:set-role', { id: morgan.id, role: 'manager' }));
  });

  it('a PIN reset lifts a lockout; removing a user takes them off the sign-in screen', async () => {
    const casey = value(await h.call('auth:users')).users.find((u) => u.name === 'Casey')!;
    for (let i = 0; i < MAX_FAILED_PINS; i++) await h.call('auth:sign-in', { userId: casey.id, pin: '9999' });
    await h.signInAs('Morgan', '1234');
    expect(byName(value(await h.call('users:list')), 'Casey')?.locked).toBe(true);
    const reset = value(await h.call('users:reset-pin', { id: casey.id, pin: '2580' }));
    expect(byName(reset, 'Casey')?.locked).toBe(false);
    expect(value(await h.call('auth:sign-in', { userId: casey.id, pin: '2580' })).user.name).toBe('Casey');
    await h.signInAs('Morgan', '1234');
    const riley = byName(value(await h.call('users:list')), 'Riley')!;
    const left = value(await h.call('users:remove', { id: riley.id }));
    expect(byName(left, 'Riley')).toBeUndefined();
    expect(value(await h.call('auth:users')).users.map((u) => u.name)).not.toContain('Riley');
    const gone = await h.call('auth:sign-in', { userId: riley.id, pin: '5555' });
    expect(!gone.ok && gone.error.message).toBe(AUTH_ERRORS.unknownUser);
  });

  it('every change is in the audit log with who made it', async () => {
    await h.signInAs('Morgan', '1234');
    const page = value(await h.call('audit:list', { kind: 'user-change', page: 1 }));
    const details = page.rows.map((e) => `${e.userName}: ${e.detail}`);
    expect(details).toEqual(expect.arrayContaining(['Morgan: added Riley as cashier', 'Alex: Morgan: manager → cashier', 'Morgan: reset the PIN of Casey and lifted the lockout', 'Morgan: removed Riley (cashier)']));
  });
});
