import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPosDatabase, type PosDatabase } from '../../electron/core/platform/pos-database';
import { AUTH_ERRORS, DEFAULT_USERS, lockedFor, MAX_FAILED_PINS, UserDirectory, WINDOW_LOCKOUT_MS } from '../../electron/core/auth/users';
import { testPins } from '../helpers/test-pins';

/** One PIN pepper for the file: a directory opened again on the same database checks the same PINs. */
const pins = testPins();

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
  it('are salted scrypt strings keyed with the pepper that verify only the right PIN', async () => {
    const hasher = testPins(undefined, { N: 16384, r: 8, p: 1 });
    const a = await hasher.hash('1234');
    const b = await hasher.hash('1234');
    expect(a).toMatch(/^scrypt-hmac\$[0-9a-f]{16}\$16384\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(a).not.toBe(b);
    expect(await hasher.verify('1234', a)).toBe(true);
    expect(await hasher.verify('1235', a)).toBe(false);
    expect(await hasher.verify('1234', 'plain$1234')).toBe(false);
    // Another pepper checks nothing made with this one.
    expect(await testPins().verify('1234', a)).toBe(false);
  });
});

describe('UserDirectory', () => {
  it('seeds a manager and a cashier on a fresh data folder, with hashed PINs only', async () => {
    const users = new UserDirectory(db, { pins });
    expect(users.list().map((u) => [u.name, u.role])).toEqual(DEFAULT_USERS.map((u) => [u.name, u.role]));
    expect(await users.defaultPinsActive()).toBe(true);
    const rows = db.prepare('SELECT pin_hash FROM pos_users').all() as Array<{ pin_hash: string }>;
    for (const r of rows) expect(r.pin_hash.startsWith('scrypt-hmac$')).toBe(true);
    db.pragma('wal_checkpoint(TRUNCATE)');
    const file = readFileSync(join(dir, 'ringup.db'));
    expect(file.includes(Buffer.from('scrypt-hmac$'))).toBe(true);
    // Seeding again (a second start) does not duplicate users.
    expect(new UserDirectory(db, { pins }).list()).toHaveLength(DEFAULT_USERS.length);
  });

  it('signs in with the right PIN, refuses a wrong one with a sentence, and tracks the role', async () => {
    const users = new UserDirectory(db, { pins });
    const [morgan, casey] = users.list();
    expect(users.require().ok).toBe(false);
    const wrong = await users.signIn(morgan!.id, '9999');
    expect(wrong).toEqual({ ok: false, error: { code: 'wrong_pin', message: AUTH_ERRORS.wrongPin, fields: { pin: [AUTH_ERRORS.wrongPin] } } });
    const ok = await users.signIn(casey!.id, '0000');
    expect(ok.ok && ok.value.user).toEqual({ id: casey!.id, name: 'Casey', role: 'cashier' });
    expect(users.require().ok).toBe(true);
    expect(users.require('manager')).toEqual({ ok: false, error: { code: 'forbidden', message: AUTH_ERRORS.managerOnly } });
    expect((await users.signIn(morgan!.id, '1234')).ok).toBe(true);
    expect(users.require('manager').ok).toBe(true);
    users.signOut();
    expect(users.require()).toEqual({ ok: false, error: { code: 'unauthenticated', message: AUTH_ERRORS.signedOut } });
    expect(await users.signIn('no-such-user', '1234')).toEqual({ ok: false, error: { code: 'not_found', message: AUTH_ERRORS.unknownUser } });
  });

  it('lets the signed-in user change their own PIN; the first-run hint goes once no default PIN is left', async () => {
    const users = new UserDirectory(db, { pins });
    const [morgan, casey, jordan] = users.list();
    expect(await users.changePin('1234', '2468')).toEqual({ ok: false, error: { code: 'unauthenticated', message: AUTH_ERRORS.signedOut } });
    expect((await users.signIn(morgan!.id, '1234')).ok).toBe(true);
    expect(await users.changePin('9999', '2468')).toEqual({
      ok: false,
      error: { code: 'wrong_pin', message: AUTH_ERRORS.wrongCurrentPin, fields: { currentPin: [AUTH_ERRORS.wrongCurrentPin] } },
    });
    expect(await users.changePin('1234', '2468')).toEqual({ ok: true, value: null });
    expect(await users.defaultPinsActive()).toBe(true); // Casey still has 0000
    expect((await users.signIn(morgan!.id, '1234')).ok).toBe(false);
    expect((await users.signIn(morgan!.id, '2468')).ok).toBe(true);
    expect((await users.signIn(casey!.id, '0000')).ok).toBe(true);
    expect((await users.changePin('0000', '13579')).ok).toBe(true);
    expect(await users.defaultPinsActive()).toBe(true); // Jordan (installer) still has 2468
    expect((await users.signIn(jordan!.id, '2468')).ok).toBe(true);
    expect((await users.changePin('2468', '8642')).ok).toBe(true);
    expect(await users.defaultPinsActive()).toBe(false);
  });

  it('seeds the installer into a data folder made before the installer role', async () => {
    const fresh = new UserDirectory(db, { pins });
    expect(fresh.list().filter((u) => u.role === 'installer').map((u) => u.name)).toEqual(['Jordan']);
    db.prepare("DELETE FROM pos_users WHERE role = 'installer'").run();
    const again = new UserDirectory(db, { pins });
    expect(again.list().map((u) => u.name)).toEqual(['Morgan', 'Casey', 'Jordan']);
  });


  it('tells its listener whenever someone signs in or out, naming the window', async () => {
    const seen: Array<[string, string | null]> = [];
    const users = new UserDirectory(db, { pins, onSessionChange: (caller, s) => seen.push([caller, s ? s.user.name : null]) });
    const [morgan] = users.list();
    await users.signIn(morgan!.id, '0001', 'ws-1'); // wrong PIN: no change
    await users.signIn(morgan!.id, '1234', 'ws-1');
    users.signOut('ws-1');
    expect(seen).toEqual([
      ['ws-1', 'Morgan'],
      ['ws-1', null],
    ]);
  });

  it('locks a user out after too many wrong PINs, then lets them in again', async () => {
    let now = 1_000_000;
    const users = new UserDirectory(db, { pins, now: () => now });
    const morgan = users.list()[0]!;
    for (let i = 0; i < MAX_FAILED_PINS - 1; i++) expect((await users.signIn(morgan.id, '0001')).ok).toBe(false);
    const locked = await users.signIn(morgan.id, '0001');
    expect(!locked.ok && locked.error.message).toBe(lockedFor(WINDOW_LOCKOUT_MS));
    // Even the right PIN waits out the lockout.
    const stillLocked = await users.signIn(morgan.id, '1234');
    expect(!stillLocked.ok && stillLocked.error.code).toBe('locked');
    now += WINDOW_LOCKOUT_MS + 1;
    expect((await users.signIn(morgan.id, '1234')).ok).toBe(true);
  });
});
