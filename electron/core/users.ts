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
 */
import { randomUUID } from 'node:crypto';
import type { AuthLock, PosUser, Role, Session } from '../../shared/ipc/contract';
import { fail, ok, type Result } from '../../shared/result';
import { currentCallerId, runAsCaller } from '../ipc/caller-context';
import type { AuditLog } from './audit-log';
import { hashPin, verifyPin } from './pin-hash';
import type { PosDatabase } from './pos-database';

export const DEFAULT_USERS: ReadonlyArray<{ name: string; role: Role; pin: string }> = [
  { name: 'Morgan', role: 'manager', pin: '1234' },
  { name: 'Casey', role: 'cashier', pin: '0000' },
  { name: 'Jordan', role: 'installer', pin: '2468' },
];

export const AUTH_ERRORS = {
  wrongPin: 'That PIN is not right. Try again.',
  unknownUser: 'This user does not exist any more. Pick another one.',
  locked: 'Too many wrong PINs. Wait a minute, then try again.',
  wrongCurrentPin: 'Your current PIN is not right.',
  signedOut: 'Sign in first: tap your name and enter your PIN.',
  idleLocked: 'The counter locked itself after a while without use. Sign in again.',
  managerOnly: 'Only a manager can do this. Switch to a manager to continue.',
  counterOnly: 'Only a cashier or a manager can take payments.',
  installerScope: 'An installer sets up devices only. Switch to a cashier or a manager for this.',
} as const;

/** Wrong PINs in a row before the user is locked out, and for how long. */
export const MAX_FAILED_PINS = 5;
export const LOCKOUT_MS = 60_000;
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

  constructor(
    private readonly db: PosDatabase,
    private readonly opts: UserDirectoryOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.idleLockMs = opts.idleLockMs ?? (() => DEFAULT_IDLE_LOCK_MS);
    const count = (db.prepare('SELECT COUNT(*) AS n FROM pos_users').get() as { n: number }).n;
    if (count === 0) this.seedDefaults();
    else this.seedInstaller();
  }

  /** A data folder from before the installer role gets the default installer once. */
  private seedInstaller(): void {
    if (this.db.prepare("SELECT 1 FROM pos_users WHERE role = 'installer'").get()) return;
    const u = DEFAULT_USERS.find((d) => d.role === 'installer');
    if (!u) return;
    this.db.prepare('INSERT INTO pos_users (id, name, role, pin_hash, sort, created_ts) VALUES (?, ?, ?, ?, ?, ?)').run(randomUUID(), u.name, u.role, hashPin(u.pin), DEFAULT_USERS.indexOf(u), Math.floor(this.now() / 1000));
  }

  private seedDefaults(): void {
    const insert = this.db.prepare('INSERT INTO pos_users (id, name, role, pin_hash, sort, created_ts) VALUES (?, ?, ?, ?, ?, ?)');
    DEFAULT_USERS.forEach((u, i) => insert.run(randomUUID(), u.name, u.role, hashPin(u.pin), i, Math.floor(this.now() / 1000)));
  }

  list(): PosUser[] {
    return this.db.prepare('SELECT id, name, role FROM pos_users ORDER BY sort, name').all() as PosUser[];
  }

  /** Whether any seeded user still has its documented default PIN (cached until a PIN changes). */
  defaultPinsActive(): boolean {
    if (this.defaultsActive === undefined) {
      const rows = this.db.prepare('SELECT name, pin_hash FROM pos_users').all() as Array<{ name: string; pin_hash: string }>;
      this.defaultsActive = DEFAULT_USERS.some((d) => rows.some((r) => r.name === d.name && verifyPin(d.pin, r.pin_hash)));
    }
    return this.defaultsActive;
  }

  /** The caller's session, or null (an idle one is locked first). Does not count as activity. */
  current(callerId: string = currentCallerId()): Session | null {
    return this.live(callerId)?.session ?? null;
  }

  /** The caller's session as it stands, without the idle check (for the audit decorator, which must not lock on its own). */
  peek(callerId: string = currentCallerId()): Session | null {
    return this.sessions.get(callerId)?.session ?? null;
  }

  signIn(userId: string, pin: string, callerId: string = currentCallerId()): Result<Session> {
    const row = this.db.prepare('SELECT * FROM pos_users WHERE id = ?').get(userId) as UserRow | undefined;
    if (!row) return fail('not_found', AUTH_ERRORS.unknownUser);
    const now = this.now();
    const who = { id: row.id, name: row.name };
    if (row.locked_until > now) {
      this.opts.audit?.record({ kind: 'pin-failed', user: who, detail: 'tried while locked out' });
      return fail('locked', AUTH_ERRORS.locked);
    }
    if (!verifyPin(pin, row.pin_hash)) {
      const attempts = row.failed_attempts + 1;
      const locked = attempts >= MAX_FAILED_PINS;
      this.db
        .prepare('UPDATE pos_users SET failed_attempts = ?, locked_until = ? WHERE id = ?')
        .run(locked ? 0 : attempts, locked ? now + LOCKOUT_MS : 0, row.id);
      this.opts.audit?.record({ kind: 'pin-failed', user: who, detail: `${attempts} of ${MAX_FAILED_PINS} wrong PINs in a row` });
      if (locked) this.opts.audit?.record({ kind: 'lockout', user: who, detail: `locked for ${LOCKOUT_MS / 1000} seconds` });
      return locked ? fail('locked', AUTH_ERRORS.locked) : fail('wrong_pin', AUTH_ERRORS.wrongPin, { pin: [AUTH_ERRORS.wrongPin] });
    }
    this.db.prepare('UPDATE pos_users SET failed_attempts = 0, locked_until = 0 WHERE id = ?').run(row.id);
    const prior = this.sessions.get(callerId);
    if (prior) this.end(callerId, 'sign-out', `switched to ${row.name}`);
    const session: Session = { user: { id: row.id, name: row.name, role: row.role }, signedInAt: now };
    const live: LiveSession = { session, lastActivity: now };
    this.sessions.set(callerId, live);
    this.arm(callerId, live);
    this.opts.audit?.record({ kind: 'sign-in', user: who });
    this.opts.onSessionChange?.(callerId, session);
    return ok(session);
  }

  /**
   * A manager's PIN typed at someone else's counter (a large discount, cancelling a sale a
   * card paid for): checked as at sign-in — wrong PINs count toward the same lockout and are
   * audited — without changing who is signed in. Answers the manager.
   */
  verifyManager(userId: string, pin: string): Result<Session['user']> {
    const row = this.db.prepare('SELECT * FROM pos_users WHERE id = ?').get(userId) as UserRow | undefined;
    if (!row || row.role !== 'manager') return fail('not_manager', AUTH_ERRORS.managerOnly);
    const now = this.now();
    const who = { id: row.id, name: row.name };
    if (row.locked_until > now) return fail('locked', AUTH_ERRORS.locked);
    if (!verifyPin(pin, row.pin_hash)) {
      const attempts = row.failed_attempts + 1;
      const locked = attempts >= MAX_FAILED_PINS;
      this.db.prepare('UPDATE pos_users SET failed_attempts = ?, locked_until = ? WHERE id = ?').run(locked ? 0 : attempts, locked ? now + LOCKOUT_MS : 0, row.id);
      this.opts.audit?.record({ kind: 'pin-failed', user: who, detail: `manager approval: ${attempts} of ${MAX_FAILED_PINS} wrong PINs in a row` });
      if (locked) this.opts.audit?.record({ kind: 'lockout', user: who, detail: `locked for ${LOCKOUT_MS / 1000} seconds` });
      return fail(locked ? 'locked' : 'wrong_pin', locked ? AUTH_ERRORS.locked : AUTH_ERRORS.wrongPin);
    }
    this.db.prepare('UPDATE pos_users SET failed_attempts = 0, locked_until = 0 WHERE id = ?').run(row.id);
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
  changePin(currentPin: string, newPin: string): Result<null> {
    const s = this.require();
    if (!s.ok) return s;
    const row = this.db.prepare('SELECT * FROM pos_users WHERE id = ?').get(s.value.user.id) as UserRow | undefined;
    if (!row) return fail('not_found', AUTH_ERRORS.unknownUser);
    const who = { id: row.id, name: row.name };
    if (!verifyPin(currentPin, row.pin_hash)) {
      this.opts.audit?.record({ kind: 'pin-failed', user: who, detail: 'wrong current PIN when changing the PIN' });
      return fail('wrong_pin', AUTH_ERRORS.wrongCurrentPin, { currentPin: [AUTH_ERRORS.wrongCurrentPin] });
    }
    this.db.prepare('UPDATE pos_users SET pin_hash = ? WHERE id = ?').run(hashPin(newPin), row.id);
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
   * The authorization check every protected handler starts with; enforced here, not
   * only by disabled buttons. It answers for the calling window, locks it if it sat
   * idle too long, and counts as activity.
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

  /** Taking money is for the counter roles (cashier, manager); an installer only sets devices up. */
  requireCounter(): Result<Session> {
    const s = this.require();
    if (s.ok && s.value.user.role === 'installer') return fail('forbidden', AUTH_ERRORS.counterOnly);
    return s;
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
