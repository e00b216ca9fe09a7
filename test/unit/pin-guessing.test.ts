/**
 * Issue 20, point 7: PINs that hold against guessing at the counter.
 *
 * - a wrong current PIN on "change PIN" counts exactly like a wrong sign-in PIN;
 * - a lockout is per user and per window: one window's wrong PINs (20 in parallel) do not
 *   lock the store — another window signs the same manager in after a short back-off, and
 *   the other users at once;
 * - one window cannot sweep every user: it locks for everyone after too many wrong PINs;
 * - the refusal says how long to wait in plain words;
 * - PIN checks run off the event loop: another call is answered while many are checked.
 * The clock is injected; nothing waits on wall time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PIN_COST } from '../../electron/core/auth/pin-hash';
import { openPosDatabase, type PosDatabase } from '../../electron/core/platform/pos-database';
import { lockedFor, MAX_FAILED_PINS, MAX_WINDOW_FAILED_PINS, USER_BACKOFF_MAX_MS, UserDirectory, WINDOW_LOCKOUT_MS } from '../../electron/core/auth/users';
import { runAsCaller } from '../../electron/ipc/caller-context';
import { testPins } from '../helpers/test-pins';

let dir: string;
let db: PosDatabase;
let now: number;
let users: UserDirectory;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ringup-guess-'));
  db = openPosDatabase(dir);
  now = 1_000_000;
  users = new UserDirectory(db, { now: () => now, pins: testPins() });
});
afterEach(() => {
  users.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const idOf = (name: string) => users.list().find((u) => u.name === name)!.id;

describe('wrong PINs', () => {
  it('a wrong current PIN on change-pin counts toward the lockout like a wrong sign-in PIN', async () => {
    const morgan = idOf('Morgan');
    expect((await users.signIn(morgan, '1234', 'w1')).ok).toBe(true);
    for (let i = 0; i < MAX_FAILED_PINS; i++) {
      const r = await runAsCaller('w1', () => users.changePin(String(9000 + i), '4321'));
      expect(r.ok).toBe(false);
    }
    // The window is now locked for Morgan: even the right current PIN is refused, with how long to wait.
    const right = await runAsCaller('w1', () => users.changePin('1234', '4321'));
    expect(right).toMatchObject({ ok: false, error: { code: 'locked', message: lockedFor(WINDOW_LOCKOUT_MS) } });
    const again = await users.signIn(morgan, '1234', 'w1');
    expect(!again.ok && again.error.code).toBe('locked');
  });

  it('20 parallel wrong PINs from one window lock that window only: the manager signs in elsewhere after a short back-off', async () => {
    const morgan = idOf('Morgan');
    const casey = idOf('Casey');
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => users.signIn(morgan, String(5000 + i), 'attacker')));
    expect(results.every((r) => !r.ok)).toBe(true);
    // Only MAX_FAILED_PINS of them were checked at all; the rest were refused before any hashing.
    expect(results.filter((r) => !r.ok && r.error.code === 'wrong_pin').length + 1).toBeLessThanOrEqual(MAX_FAILED_PINS);
    // Other users at another window: at once.
    expect((await users.signIn(casey, '0000', 'register-2')).ok).toBe(true);
    // The manager at another window: after the per-user back-off, never longer than a few seconds.
    const first = await users.signIn(morgan, '1234', 'register-3');
    if (!first.ok) {
      expect(first.error.code).toBe('locked');
      now += USER_BACKOFF_MAX_MS;
    }
    expect((await users.signIn(morgan, '1234', 'register-3')).ok).toBe(true);
    // The attacking window stays locked for Morgan.
    const still = await users.signIn(morgan, '1234', 'attacker');
    expect(!still.ok && still.error.code).toBe('locked');
  });

  it('one window cannot sweep every user: after too many wrong PINs in all it is locked for everyone', async () => {
    const names = users.list().map((u) => u.id);
    let tries = 0;
    // Spread over users so no single (user, window) pair reaches its own limit.
    while (tries < MAX_WINDOW_FAILED_PINS) {
      const id = names[tries % names.length]!;
      now += USER_BACKOFF_MAX_MS; // past any per-user back-off
      await users.signIn(id, '9999', 'sweeper');
      tries++;
    }
    now += USER_BACKOFF_MAX_MS;
    const casey = await users.signIn(idOf('Casey'), '0000', 'sweeper');
    expect(casey).toMatchObject({ ok: false, error: { code: 'locked' } });
    expect((await users.signIn(idOf('Casey'), '0000', 'register-2')).ok).toBe(true);
    now += WINDOW_LOCKOUT_MS;
    expect((await users.signIn(idOf('Casey'), '0000', 'sweeper')).ok).toBe(true);
  });

  it('says how long to wait in plain words', () => {
    expect(lockedFor(30_000)).toBe('Too many wrong PINs — try again in 30 seconds.');
    expect(lockedFor(1_000)).toBe('Too many wrong PINs — try again in 1 second.');
    expect(lockedFor(1_200)).toBe('Too many wrong PINs — try again in 2 seconds.');
  });

  it('N windows together guess one user no faster than the per-user back-off allows', async () => {
    const morgan = idOf('Morgan');
    let checked = 0;
    // 50 windows, each trying once per simulated second for 60 seconds.
    for (let t = 0; t < 60; t++) {
      const round = await Promise.all(Array.from({ length: 50 }, (_, w) => users.signIn(morgan, '9999', `tab-${w}`)));
      checked += round.filter((r) => !r.ok && r.error.code === 'wrong_pin').length;
      now += 1_000;
    }
    // MAX_FAILED_PINS free tries, then at most one per back-off period (≥ 1 s, reaching the cap).
    expect(checked).toBeLessThanOrEqual(MAX_FAILED_PINS + 60);
    expect(checked).toBeLessThanOrEqual(MAX_FAILED_PINS + 3 + Math.ceil(60_000 / USER_BACKOFF_MAX_MS));
  });
});

describe('PIN checks off the event loop', () => {
  it('another call is answered while many wrong PINs are being checked', async () => {
    // At the app's own scrypt cost, so each check is real work for the thread pool.
    users.close();
    db.prepare('DELETE FROM pos_users').run(); // seeded afresh under this hasher's pepper
    users = new UserDirectory(db, { now: () => now, pins: testPins(undefined, PIN_COST) });
    const ids = users.list().map((u) => u.id);
    let settled = 0;
    const checks = Array.from({ length: 12 }, (_, i) =>
      Promise.resolve(users.signIn(ids[i % ids.length]!, '9999', `tab-${i}`)).then((r) => {
        settled++;
        return r;
      }),
    );
    // The other window's call: a plain session read, answered on the next turn of the loop.
    const other = await new Promise<number>((resolve) => setImmediate(() => resolve(settled)));
    expect(other).toBeLessThan(checks.length);
    await Promise.all(checks);
    expect(settled).toBe(checks.length);
    expect((await Promise.all(checks)).every((r) => !r.ok && r.error.code === 'wrong_pin')).toBe(true);
  });
});
