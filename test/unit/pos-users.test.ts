import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashPin, verifyPin } from '../../electron/core/pin-hash';
import { openPosDatabase, type PosDatabase } from '../../electron/core/pos-database';
import { AUTH_ERRORS, DEFAULT_USERS, LOCKOUT_MS, MAX_FAILED_PINS, UserDirectory } from '../../electron/core/users';

let dir: string;
let db: PosDatabase;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ringup-users-'));
  db = openPosDatabase(dir);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('PIN hashes', () => {
  it('are salted scrypt strings that verify only the right PIN', () => {
    const a = hashPin('1234');
    const b = hashPin('1234');
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(a).not.toBe(b);
    expect(verifyPin('1234', a)).toBe(true);
    expect(verifyPin('1235', a)).toBe(false);
    expect(verifyPin('1234', 'plain$1234')).toBe(false);
  });
});

describe('UserDirectory', () => {
  it('seeds a manager and a cashier on a fresh data folder, with hashed PINs only', () => {
    const users = new UserDirectory(db);
    expect(users.list().map((u) => [u.name, u.role])).toEqual(DEFAULT_USERS.map((u) => [u.name, u.role]));
    expect(users.defaultPinsActive()).toBe(true);
    const rows = db.prepare('SELECT pin_hash FROM pos_users').all() as Array<{ pin_hash: string }>;
    for (const r of rows) expect(r.pin_hash.startsWith('scrypt$')).toBe(true);
    db.pragma('wal_checkpoint(TRUNCATE)');
    const file = readFileSync(join(dir, 'ringup.db'));
    expect(file.includes(Buffer.from('scrypt$'))).toBe(true);
    // Seeding again (a second start) does not duplicate users.
    expect(new UserDirectory(db).list()).toHaveLength(DEFAULT_USERS.length);
  });

  it('signs in with the right PIN, refuses a wrong one with a sentence, and tracks the role', () => {
    const users = new UserDirectory(db);
    const [morgan, casey] = users.list();
    expect(users.require().ok).toBe(false);
    const wrong = users.signIn(morgan!.id, '9999');
    expect(wrong).toEqual({ ok: false, error: { code: 'wrong_pin', message: AUTH_ERRORS.wrongPin, fields: { pin: [AUTH_ERRORS.wrongPin] } } });
    const ok = users.signIn(casey!.id, '0000');
    expect(ok.ok && ok.value.user).toEqual({ id: casey!.id, name: 'Casey', role: 'cashier' });
    expect(users.require().ok).toBe(true);
    expect(users.require('manager')).toEqual({ ok: false, error: { code: 'forbidden', message: AUTH_ERRORS.managerOnly } });
    expect(users.signIn(morgan!.id, '1234').ok).toBe(true);
    expect(users.require('manager').ok).toBe(true);
    users.signOut();
    expect(users.require()).toEqual({ ok: false, error: { code: 'unauthenticated', message: AUTH_ERRORS.signedOut } });
    expect(users.signIn('no-such-user', '1234')).toEqual({ ok: false, error: { code: 'not_found', message: AUTH_ERRORS.unknownUser } });
  });

  it('lets the signed-in user change their own PIN; the first-run hint goes once no default PIN is left', () => {
    const users = new UserDirectory(db);
    const [morgan, casey, jordan] = users.list();
    expect(users.changePin('1234', '2468')).toEqual({ ok: false, error: { code: 'unauthenticated', message: AUTH_ERRORS.signedOut } });
    expect(users.signIn(morgan!.id, '1234').ok).toBe(true);
    expect(users.changePin('9999', '2468')).toEqual({
      ok: false,
      error: { code: 'wrong_pin', message: AUTH_ERRORS.wrongCurrentPin, fields: { currentPin: [AUTH_ERRORS.wrongCurrentPin] } },
    });
    expect(users.changePin('1234', '2468')).toEqual({ ok: true, value: null });
    expect(users.defaultPinsActive()).toBe(true); // Casey still has 0000
    expect(users.signIn(morgan!.id, '1234').ok).toBe(false);
    expect(users.signIn(morgan!.id, '2468').ok).toBe(true);
    expect(users.signIn(casey!.id, '0000').ok).toBe(true);
    expect(users.changePin('0000', '13579').ok).toBe(true);
    expect(users.defaultPinsActive()).toBe(true); // Jordan (installer) still has 2468
    expect(users.signIn(jordan!.id, '2468').ok).toBe(true);
    expect(users.changePin('2468', '8642').ok).toBe(true);
    expect(users.defaultPinsActive()).toBe(false);
  });

  it('seeds the installer into a data folder made before the installer role', () => {
    const fresh = new UserDirectory(db);
    expect(fresh.list().filter((u) => u.role === 'installer').map((u) => u.name)).toEqual(['Jordan']);
    db.prepare("DELETE FROM pos_users WHERE role = 'installer'").run();
    const again = new UserDirectory(db);
    expect(again.list().map((u) => u.name)).toEqual(['Morgan', 'Casey', 'Jordan']);
  });


  it('tells its listener whenever someone signs in or out, naming the window', () => {
    const seen: Array<[string, string | null]> = [];
    const users = new UserDirectory(db, { onSessionChange: (caller, s) => seen.push([caller, s ? s.user.name : null]) });
    const [morgan] = users.list();
    users.signIn(morgan!.id, '0001', 'ws-1'); // wrong PIN: no change
    users.signIn(morgan!.id, '1234', 'ws-1');
    users.signOut('ws-1');
    expect(seen).toEqual([
      ['ws-1', 'Morgan'],
      ['ws-1', null],
    ]);
  });

  it('locks a user out after too many wrong PINs, then lets them in again', () => {
    let now = 1_000_000;
    const users = new UserDirectory(db, { now: () => now });
    const morgan = users.list()[0]!;
    for (let i = 0; i < MAX_FAILED_PINS - 1; i++) expect(users.signIn(morgan.id, '0001').ok).toBe(false);
    const locked = users.signIn(morgan.id, '0001');
    expect(!locked.ok && locked.error.message).toBe(AUTH_ERRORS.locked);
    // Even the right PIN waits out the lockout.
    const stillLocked = users.signIn(morgan.id, '1234');
    expect(!stillLocked.ok && stillLocked.error.code).toBe('locked');
    now += LOCKOUT_MS + 1;
    expect(users.signIn(morgan.id, '1234').ok).toBe(true);
  });
});
