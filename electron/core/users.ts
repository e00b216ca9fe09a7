/**
 * POS users (cashier, manager) and who is signed in at this counter.
 *
 * A fresh data folder gets three users so a newcomer can get in: manager "Morgan"
 * (PIN 1234), cashier "Casey" (PIN 0000) and installer "Jordan" (PIN 2468, sees only
 * the device set-up screens); the sign-in screen says so until a
 * manager changes them. Simplifications: one session per core (one counter per app
 * instance; every window of the node host shares it); users change their own PIN, but
 * adding or removing users waits for a user management screen.
 */
import { randomUUID } from 'node:crypto';
import type { PosUser, Role, Session } from '../../shared/ipc/contract';
import { fail, ok, type Result } from '../../shared/result';
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
  managerOnly: 'Only a manager can do this. Switch to a manager to continue.',
} as const;

/** Wrong PINs in a row before the user is locked out, and for how long. */
export const MAX_FAILED_PINS = 5;
export const LOCKOUT_MS = 60_000;

interface UserRow {
  id: string;
  name: string;
  role: Role;
  pin_hash: string;
  failed_attempts: number;
  locked_until: number;
}

export class UserDirectory {
  private session: Session | null = null;
  private defaultsActive: boolean | undefined;

  constructor(
    private readonly db: PosDatabase,
    private readonly now: () => number = Date.now,
    /** Told whenever someone signs in or out, so every window can follow. */
    private readonly onSessionChange: (session: Session | null) => void = () => {},
  ) {
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

  current(): Session | null {
    return this.session;
  }

  signIn(userId: string, pin: string): Result<Session> {
    const row = this.db.prepare('SELECT * FROM pos_users WHERE id = ?').get(userId) as UserRow | undefined;
    if (!row) return fail('not_found', AUTH_ERRORS.unknownUser);
    const now = this.now();
    if (row.locked_until > now) return fail('locked', AUTH_ERRORS.locked);
    if (!verifyPin(pin, row.pin_hash)) {
      const attempts = row.failed_attempts + 1;
      const locked = attempts >= MAX_FAILED_PINS;
      this.db
        .prepare('UPDATE pos_users SET failed_attempts = ?, locked_until = ? WHERE id = ?')
        .run(locked ? 0 : attempts, locked ? now + LOCKOUT_MS : 0, row.id);
      return locked ? fail('locked', AUTH_ERRORS.locked) : fail('wrong_pin', AUTH_ERRORS.wrongPin, { pin: [AUTH_ERRORS.wrongPin] });
    }
    this.db.prepare('UPDATE pos_users SET failed_attempts = 0, locked_until = 0 WHERE id = ?').run(row.id);
    this.session = { user: { id: row.id, name: row.name, role: row.role }, signedInAt: now };
    this.onSessionChange(this.session);
    return ok(this.session);
  }

  /** The signed-in user replaces their own PIN (the current one is asked again, as on any device). */
  changePin(currentPin: string, newPin: string): Result<null> {
    const s = this.require();
    if (!s.ok) return s;
    const row = this.db.prepare('SELECT * FROM pos_users WHERE id = ?').get(s.value.user.id) as UserRow | undefined;
    if (!row) return fail('not_found', AUTH_ERRORS.unknownUser);
    if (!verifyPin(currentPin, row.pin_hash)) return fail('wrong_pin', AUTH_ERRORS.wrongCurrentPin, { currentPin: [AUTH_ERRORS.wrongCurrentPin] });
    this.db.prepare('UPDATE pos_users SET pin_hash = ? WHERE id = ?').run(hashPin(newPin), row.id);
    this.defaultsActive = undefined;
    return ok(null);
  }

  signOut(): void {
    this.session = null;
    this.onSessionChange(null);
  }

  /** The authorization check every protected handler starts with; enforced here, not only by disabled buttons. */
  require(role?: Role): Result<Session> {
    if (!this.session) return fail('unauthenticated', AUTH_ERRORS.signedOut);
    if (role === 'manager' && this.session.user.role !== 'manager') return fail('forbidden', AUTH_ERRORS.managerOnly);
    return ok(this.session);
  }
}
