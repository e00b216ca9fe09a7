/**
 * POS users (cashier, manager) and who is signed in at each window.
 *
 * A fresh data folder gets three users so a newcomer can get in: manager "Morgan"
 * (PIN 1234), cashier "Casey" (PIN 0000) and installer "Jordan" (PIN 2468, sees only
 * the device set-up screens); the sign-in screen says so until a manager changes them.
 *
 * Sessions are per caller: every Electron window and every node-host WebSocket
 * connection signs in on its own (see electron/ipc/caller-context.ts), so a new
 * browser tab never lands signed in as the last person, and one window's sign-out
 * leaves the others alone. A session expires after the store's idle-lock time
 * without activity (a protected action, or the window reporting a key press or a
 * tap through `auth:activity`); the core then ends it and tells that window.
 *
 * Users change their own PIN; managers add, remove, re-role and reset users on the
 * Counter users screen (counter-users.ts). Simplification: a session lives in memory:
 * restarting the core signs everyone out.
 *
 * Sign-ins, sign-outs (by the user, a switch, the idle lock, a closed window, a removed user)
 * and PIN changes are audited here, where they happen, whichever way they came: the auth:*
 * channels declare those kinds and leave the writing to this class (recorders.ts).
 *
 * Every PIN typed — at sign-in, as the current PIN when changing it, as a manager's
 * approval at someone else's counter — goes through one check (`checkPin`): counted toward
 * the lockout per user and per window before it is checked (pin-throttle.ts), hashed off the
 * event loop and keyed with the PIN pepper (pin-hash.ts).
 */
import { randomUUID } from 'node:crypto';
import type { AuthLock, PosUser, Role, Session } from '../../../shared/ipc/contract';
import { fail, ok, type Result } from '../../../shared/result';
import { currentCallerId, runAsCaller } from '../../ipc/caller-context';
import type { AuditLog } from '../audit/audit-log';
import type { PinHasher } from './pin-hash';
import { lockedFor, MAX_FAILED_PINS, PinThrottle, userBackoffMs, type Reservation } from './pin-throttle';
import type { PosDatabase } from '../platform/pos-database';

export { lockedFor, MAX_FAILED_PINS, MAX_WINDOW_FAILED_PINS, USER_BACKOFF_MAX_MS, WINDOW_LOCKOUT_MS } from './pin-throttle';

export const DEFAULT_USERS: ReadonlyArray<{ name: string; role: Role; pin: string }> = [
  { name: 'Morgan', role: 'manager', pin: '1234' },
  { name: 'Casey', role: 'cashier', pin: '0000' },
  { name: 'Jordan', role: 'installer', pin: '2468' },
];

export const AUTH_ERRORS = {
  wrongPin: 'That PIN is not right. Try again.',
  unknownUser: 'This user does not exist any more. Pick another one.',
  keysMissing: 'This PIN was set on another register and cannot be checked here. Restore that register’s key backup (System → Key backup), or have a manager reset the PIN.',
  wrongCurrentPin: 'Your current PIN is not right.',
  signedOut: 'Sign in first: tap your name and enter your PIN.',
  idleLocked: 'The counter locked itself after a while without use. Sign in again.',
  managerOnly: 'Only a manager can do this. Switch to a manager to continue.',
  counterOnly: 'Only a cashier or a manager can take payments.',
  installerScope: 'An installer sets up devices only. Switch to a cashier or a manager for this.',
  setupOnly: 'Only an installer or a manager can set up devices.',
} as const;

export const DEFAULT_IDLE_LOCK_MS = 5 * 60_000;

interface UserRow {
  id: string;
  name: string;
  role: Role;
  pin_hash: string;
  failed_attempts: number;
  locked_until: number;
}

interface LiveSession {
  session: Session;
  lastActivity: number;
  timer?: ReturnType<typeof setTimeout>;
}

export interface UserDirectoryOptions {
  /** Hashes and checks PINs with the PIN pepper from the secret store (app-core.ts loads it). */
  pins: PinHasher;
  now?: () => number;
  /** Told whenever a caller's session starts or ends, so that window can follow. */
  onSessionChange?: (callerId: string, session: Session | null) => void;
  /** Told when a caller's session ended by the idle lock (after onSessionChange). */
  onLocked?: (callerId: string, lock: AuthLock) => void;
  /** Idle time before a session expires, read at every check (the store settings can change it). */
  idleLockMs?: () => number;
  audit?: AuditLog;
  /** Whether to arm real timers that end idle sessions on their own (off in unit tests, which call sweep()). */
  timers?: boolean;
}

export class UserDirectory {
  private readonly sessions = new Map<string, LiveSession>();
  private defaultsActive: boolean | undefined;
  private readonly now: () => number;
  private readonly idleLockMs: () => number;
  private readonly pins: PinHasher;
  private readonly throttle: PinThrottle;

  constructor(
    private readonly db: PosDatabase,
    private readonly opts: UserDirectoryOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.idleLockMs = opts.idleLockMs ?? (() => DEFAULT_IDLE_LOCK_MS);
    this.pins = opts.pins;
    this.throttle = new PinThrottle(this.now);
    this.keyLegacyHashes();
    const count = (db.prepare('SELECT COUNT(*) AS n FROM pos_users').get() as { n: number }).n;
    if (count === 0) this.seedDefaults();
    else this.seedInstaller();
  }

  /**
   * PIN hashes stored before the pepper (`scrypt$…`) are keyed now, at the first start,
   * without knowing any PIN (pin-hash.ts `upgrade`); the new prefix marks them done.
   */
  private keyLegacyHashes(): void {
    const rows = this.db.prepare("SELECT id, pin_hash FROM pos_users WHERE pin_hash LIKE 'scrypt$%'").all() as Array<{ id: string; pin_hash: string }>;
    const update = this.db.prepare('UPDATE pos_users SET pin_hash = ? WHERE id = ?');
    this.db.transaction(() => {
      for (const r of rows) {
        const keyed = this.pins.upgrade(r.pin_hash);
        if (keyed) update.run(keyed, r.id);
      }
    })();
  }

  /** Hashes a new PIN (off the event loop) for the Counter users screen. */
  hashPin(pin: string): Promise<string> {
    return this.pins.hash(pin);
  }

  /** A data folder from before the installer role gets the default installer once. */
  private seedInstaller(): void {
    if (this.db.prepare("SELECT 1 FROM pos_users WHERE role = 'installer'").get()) return;
    const u = DEFAULT_USERS.find((d) => d.role === 'installer');
    if (!u) return;
    this.db.prepare('INSERT INTO pos_users (id, name, role, pin_hash, sort, created_ts) VALUES (?, ?, ?, ?, ?, ?)').run(randomUUID(), u.name, u.role, this.pins.hashSync(u.pin), DEFAULT_USERS.indexOf(u), Math.floor(this.now() / 1000));
  }

  private seedDefaults(): void {
    const insert = this.db.prepare('INSERT INTO pos_users (id, name, role, pin_hash, sort, created_ts) VALUES (?, ?, ?, ?, ?, ?)');
    DEFAULT_USERS.forEach((u, i) => insert.run(randomUUID(), u.name, u.role, this.pins.hashSync(u.pin), i, Math.floor(this.now() / 1000)));
  }

  list(): PosUser[] {
    return this.db.prepare('SELECT id, name, role FROM pos_users ORDER BY sort, name').all() as PosUser[];
  }

  /** Whether any seeded user still has its documented default PIN (cached until a PIN changes). */
  async defaultPinsActive(): Promise<boolean> {
    if (this.defaultsActive === undefined) {
      const rows = this.db.prepare('SELECT name, pin_hash FROM pos_users').all() as Array<{ name: string; pin_hash: string }>;
      const checks = await Promise.all(DEFAULT_USERS.flatMap((d) => rows.filter((r) => r.name === d.name).map((r) => this.pins.verify(d.pin, r.pin_hash))));
      this.defaultsActive = checks.some(Boolean);
    }
    return this.defaultsActive;
  }

  /** Whether the user must wait before trying a PIN at some window, or anywhere (the Counter users screen's mark). */
  isLockedOut(userId: string): boolean {
    const row = this.db.prepare('SELECT locked_until FROM pos_users WHERE id = ?').get(userId) as { locked_until: number } | undefined;
    return (row?.locked_until ?? 0) > this.now() || this.throttle.lockedAnywhere(userId);
  }

  /** A manager reset the user's PIN: the back-off and every window's lock for them go. */
  liftLockout(userId: string): void {
    this.db.prepare('UPDATE pos_users SET failed_attempts = 0, locked_until = 0 WHERE id = ?').run(userId);
    this.throttle.forgetUser(userId);
  }

  /**
   * One PIN typed for `row` at window `callerId`, whatever for (`what` words it in the audit
   * log). Refused without checking while this window is locked for the user, or the user's
   * back-off runs; else counted as wrong first — synchronously, before the asynchronous
   * check, so parallel tries cannot slip past the count — and cleared if it is right.
   */
  private async checkPin(row: UserRow, pin: string, callerId: string, what: string): Promise<Result<null>> {
    const who = { id: row.id, name: row.name };
    if (!this.pins.canCheck(row.pin_hash)) return fail('keys_missing', AUTH_ERRORS.keysMissing);
    const fresh = this.db.prepare('SELECT failed_attempts, locked_until FROM pos_users WHERE id = ?').get(row.id) as Pick<UserRow, 'failed_attempts' | 'locked_until'>;
    const wait = this.throttle.waitMs(row.id, callerId, fresh.locked_until);
    if (wait > 0) {
      this.opts.audit?.record({ kind: 'pin-failed', user: who, detail: `${what}: tried while locked out` });
      return fail('locked', lockedFor(wait));
    }
    const now = this.now();
    const userFails = fresh.failed_attempts + 1;
    this.db.prepare('UPDATE pos_users SET failed_attempts = ?, locked_until = ? WHERE id = ?').run(userFails, now + userBackoffMs(userFails), row.id);
    const reservation: Reservation = this.throttle.reserve(row.id, callerId);
    if (await this.pins.verify(pin, row.pin_hash)) {
      this.db.prepare('UPDATE pos_users SET failed_attempts = 0, locked_until = 0 WHERE id = ?').run(row.id);
      this.throttle.succeeded(row.id, callerId, reservation);
      return ok(null);
    }
    this.opts.audit?.record({ kind: 'pin-failed', user: who, detail: `${what}${reservation.pairFails} of ${MAX_FAILED_PINS} wrong PINs in a row` });
    if (reservation.lockedPair || reservation.lockedWindow) {
      const wait = this.throttle.waitMs(row.id, callerId, 0);
      this.opts.audit?.record({ kind: 'lockout', user: who, detail: `${reservation.lockedWindow ? 'this window locked for everyone' : 'this window locked for this user'} for ${Math.ceil(wait / 1000)} seconds` });
      return fail('locked', lockedFor(wait));
    }
    return fail('wrong_pin', AUTH_ERRORS.wrongPin);
  }

  /** The caller's session, or null (an idle one is locked first). Does not count as activity. */
  current(callerId: string = currentCallerId()): Session | null {
    return this.live(callerId)?.session ?? null;
  }

  /** The caller's session as it stands, without the idle check (for the audit decorator, which must not lock on its own). */
  peek(callerId: string = currentCallerId()): Session | null {
    return this.sessions.get(callerId)?.session ?? null;
  }

  async signIn(userId: string, pin: string, callerId: string = currentCallerId()): Promise<Result<Session>> {
    const row = this.db.prepare('SELECT * FROM pos_users WHERE id = ?').get(userId) as UserRow | undefined;
    if (!row) return fail('not_found', AUTH_ERRORS.unknownUser);
    const checked = await this.checkPin(row, pin, callerId, '');
    if (!checked.ok) return checked.error.code === 'wrong_pin' ? fail('wrong_pin', AUTH_ERRORS.wrongPin, { pin: [AUTH_ERRORS.wrongPin] }) : checked;
    // The user may have been removed or re-roled while the PIN was checked.
    const current = this.db.prepare('SELECT * FROM pos_users WHERE id = ?').get(userId) as UserRow | undefined;
    if (!current) return fail('not_found', AUTH_ERRORS.unknownUser);
    return ok(this.startSession(current, callerId));
  }

  private startSession(row: UserRow, callerId: string): Session {
    const now = this.now();
    const who = { id: row.id, name: row.name };
    const prior = this.sessions.get(callerId);
    if (prior) this.end(callerId, 'sign-out', `switched to ${row.name}`);
    const session: Session = { user: { id: row.id, name: row.name, role: row.role }, signedInAt: now };
    const live: LiveSession = { session, lastActivity: now };
    this.sessions.set(callerId, live);
    this.arm(callerId, live);
    this.opts.audit?.record({ kind: 'sign-in', user: who });
    this.opts.onSessionChange?.(callerId, session);
    return session;
  }

  /**
   * A manager's PIN typed at someone else's counter (a large discount, cancelling a sale a
   * card paid for): checked as at sign-in — wrong PINs count toward the same lockout and are
   * audited — without changing who is signed in. Answers the manager.
   */
  async verifyManager(userId: string, pin: string): Promise<Result<Session['user']>> {
    const row = this.db.prepare('SELECT * FROM pos_users WHERE id = ?').get(userId) as UserRow | undefined;
    if (!row || row.role !== 'manager') return fail('not_manager', AUTH_ERRORS.managerOnly);
    const checked = await this.checkPin(row, pin, currentCallerId(), 'manager approval: ');
    if (!checked.ok) return checked;
    return ok({ id: row.id, name: row.name, role: row.role });
  }

  /**
   * Runs one step as a manager whose PIN was just verified (the voids and refunds of a sale
   * a manager cancels at a cashier's counter): under a caller of its own, so the money
   * handlers check and audit the manager, while the window's own session stays the cashier's.
   */
  async actAsManager<T>(manager: Session['user'], fn: () => Promise<T>): Promise<T> {
    const callerId = `manager-approval:${randomUUID()}`;
    const now = this.now();
    this.sessions.set(callerId, { session: { user: manager, signedInAt: now }, lastActivity: now });
    try {
      return await runAsCaller(callerId, fn);
    } finally {
      this.sessions.delete(callerId);
    }
  }

  /** The signed-in user replaces their own PIN (the current one is asked again, as on any device). */
  async changePin(currentPin: string, newPin: string): Promise<Result<null>> {
    const s = this.require();
    if (!s.ok) return s;
    const row = this.db.prepare('SELECT * FROM pos_users WHERE id = ?').get(s.value.user.id) as UserRow | undefined;
    if (!row) return fail('not_found', AUTH_ERRORS.unknownUser);
    const who = { id: row.id, name: row.name };
    // A wrong current PIN counts exactly like a wrong sign-in PIN for this user at this window (issue 20).
    const checked = await this.checkPin(row, currentPin, currentCallerId(), 'current PIN when changing the PIN: ');
    if (!checked.ok) {
      const message = checked.error.code === 'wrong_pin' ? AUTH_ERRORS.wrongCurrentPin : checked.error.message;
      return fail(checked.error.code, message, { currentPin: [message] });
    }
    const hash = await this.pins.hash(newPin);
    this.db.prepare('UPDATE pos_users SET pin_hash = ? WHERE id = ?').run(hash, row.id);
    this.defaultsActive = undefined;
    this.opts.audit?.record({ kind: 'pin-change', user: who });
    return ok(null);
  }

  signOut(callerId: string = currentCallerId()): void {
    if (this.sessions.has(callerId)) this.end(callerId, 'sign-out', '');
    this.opts.onSessionChange?.(callerId, null);
  }

  /** PINs or users changed elsewhere (the Counter users screen): check the default PINs again. */
  forgetDefaultPinCheck(): void {
    this.defaultsActive = undefined;
  }

  /**
   * The user was removed or their role changed: every window signed in as them goes back
   * to the sign-in screen (a removed cashier's open window must not keep selling).
   */
  endSessionsOf(userId: string, detail: string): void {
    for (const [callerId, live] of [...this.sessions]) {
      if (live.session.user.id !== userId) continue;
      this.end(callerId, 'sign-out', detail);
      this.opts.onSessionChange?.(callerId, null);
    }
  }

  /**
   * The users table changed under the directory (the store's users, pulled from the store
   * server): a session whose user is gone or has another role now ends, as the Counter users
   * screen ends them; the default-PIN check is made again.
   */
  followUsersTable(): void {
    this.defaultsActive = undefined;
    const role = this.db.prepare('SELECT role FROM pos_users WHERE id = ?');
    for (const live of [...this.sessions.values()]) {
      const id = live.session.user.id;
      const now = role.get(id) as { role: Role } | undefined;
      if (!now) this.endSessionsOf(id, 'user removed on another register of the store');
      else if (now.role !== live.session.user.role) this.endSessionsOf(id, `role changed to ${now.role} on another register of the store`);
    }
  }

  /** The window or connection went away (closed tab, destroyed window): its session ends with it. */
  disconnect(callerId: string): void {
    if (this.sessions.has(callerId)) this.end(callerId, 'sign-out', 'window closed');
  }

  /** The person at this window is active: the idle lock starts over. */
  touch(callerId: string = currentCallerId()): void {
    const live = this.live(callerId);
    if (!live) return;
    live.lastActivity = this.now();
    this.arm(callerId, live);
  }

  /**
   * Whether the calling window is signed in: the check the channel rules run before every
   * channel that needs a signed-in caller (electron/ipc/channel-rules.ts), enforced here, not
   * only by disabled buttons. It answers for the calling window, locks it if it sat idle too
   * long, and counts as activity. `role` asks for a manager in particular (the directory's own
   * tests); the channels' roles come from their declarations, checked by the rules alone.
   */
  require(role?: Role): Result<Session> {
    const callerId = currentCallerId();
    const wasSignedIn = this.sessions.has(callerId);
    const live = this.live(callerId);
    if (!live) return fail('unauthenticated', wasSignedIn ? AUTH_ERRORS.idleLocked : AUTH_ERRORS.signedOut);
    if (role === 'manager' && live.session.user.role !== 'manager') return fail('forbidden', AUTH_ERRORS.managerOnly);
    live.lastActivity = this.now();
    this.arm(callerId, live);
    return ok(live.session);
  }

  /** Locks every session that has been idle for the idle-lock time (the timers call this; tests call it directly). */
  sweep(): void {
    for (const callerId of [...this.sessions.keys()]) this.live(callerId);
  }

  /** Re-arms every timer (the idle-lock time changed). */
  rearm(): void {
    for (const [callerId, live] of this.sessions) this.arm(callerId, live);
    this.sweep();
  }

  close(): void {
    for (const live of this.sessions.values()) clearTimeout(live.timer);
  }

  /** The caller's session if it is still within the idle-lock time; an idle one is ended here. */
  private live(callerId: string): LiveSession | undefined {
    const live = this.sessions.get(callerId);
    if (!live) return undefined;
    const idleMs = this.idleLockMs();
    const idleFor = this.now() - live.lastActivity;
    if (idleFor < idleMs) return live;
    this.end(callerId, 'idle-lock', `after ${Math.round(idleMs / 1000)} seconds without use`);
    this.opts.onSessionChange?.(callerId, null);
    this.opts.onLocked?.(callerId, { reason: 'idle', idleSeconds: Math.round(idleFor / 1000) });
    return undefined;
  }

  private end(callerId: string, kind: 'sign-out' | 'idle-lock', detail: string): void {
    const live = this.sessions.get(callerId);
    if (!live) return;
    clearTimeout(live.timer);
    this.sessions.delete(callerId);
    this.opts.audit?.record({ kind, user: live.session.user, detail });
  }

  private arm(callerId: string, live: LiveSession): void {
    if (!this.opts.timers) return;
    clearTimeout(live.timer);
    const due = live.lastActivity + this.idleLockMs() - this.now();
    live.timer = setTimeout(() => {
      if (this.sessions.get(callerId) !== live) return;
      if (this.live(callerId)) this.arm(callerId, live); // still in time (the idle-lock time grew): wait again
    }, Math.max(0, due) + 50);
    live.timer.unref();
  }
}
