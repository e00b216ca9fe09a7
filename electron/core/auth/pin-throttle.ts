/**
 * How fast PINs may be guessed (issue 20): a lockout per user *and* per window, plus a
 * per-user back-off across all windows.
 *
 * - (user, window): MAX_FAILED_PINS wrong PINs in a row from one window against one user
 *   lock that window for that user for WINDOW_LOCKOUT_MS. Other windows are not affected,
 *   so one window can no longer lock a user (the manager) out of the whole store.
 * - window: MAX_WINDOW_FAILED_PINS wrong PINs from one window in all (any users, since its
 *   last good PIN) lock that window for everyone for WINDOW_LOCKOUT_MS, so one window
 *   cannot sweep every user's PINs.
 * - user, across windows: the node host lets anyone with its access key open tabs, and
 *   each tab is a window, so the two limits above alone would let N tabs guess N times as
 *   fast. After MAX_FAILED_PINS wrong PINs in a row for a user (from anywhere), each next
 *   try must wait a back-off that doubles from 1 s up to USER_BACKOFF_MAX_MS. That caps the
 *   guessing rate for one user at one PIN per 5 s whatever the number of windows (10,000
 *   PINs: about 7 hours on average, each wrong PIN in the audit log), while a real manager
 *   at another register waits at most those 5 s. A refused try (during a lock or the
 *   back-off) is not counted, so someone hammering cannot push the back-off further out.
 *
 * Every try is counted *before* its PIN is checked (the check is asynchronous, off the event
 * loop): parallel tries cannot all pass the gate and only then be counted. A right PIN
 * clears the counts for that user and window.
 * The per-user state lives in `pos_users` (failed_attempts, locked_until: the back-off's end),
 * so a restart does not reset it and the Counter users screen shows it; the per-window state
 * is in memory, as windows are (a window is a caller: electron/ipc/caller-context.ts).
 */

/** Wrong PINs in a row from one window against one user before that window is locked for that user. Also the free tries per user before the back-off. */
export const MAX_FAILED_PINS = 5;
/** Wrong PINs in all from one window before it is locked for everyone. */
export const MAX_WINDOW_FAILED_PINS = 10;
/** How long a window stays locked (for one user or for all). */
export const WINDOW_LOCKOUT_MS = 30_000;
/** The per-user back-off's ceiling: a real user waits at most this long after someone guessed. */
export const USER_BACKOFF_MAX_MS = 5_000;

/** The wait after a user's `failures`-th wrong PIN in a row (from any window). */
export function userBackoffMs(failures: number): number {
  if (failures < MAX_FAILED_PINS) return 0;
  return Math.min(USER_BACKOFF_MAX_MS, 1_000 * 2 ** (failures - MAX_FAILED_PINS));
}

interface Count {
  fails: number;
  until: number;
}

export interface Reservation {
  /** The try counted this far: whether it locked the (user, window) pair or the window. */
  lockedPair: boolean;
  lockedWindow: boolean;
  pairFails: number;
}

export class PinThrottle {
  private readonly pairs = new Map<string, Count>();
  private readonly windows = new Map<string, Count>();

  constructor(private readonly now: () => number) {}

  /** Milliseconds this window must wait before trying a PIN for this user (0: go ahead). */
  waitMs(userId: string, windowId: string, userLockedUntil: number): number {
    const now = this.now();
    const until = Math.max(userLockedUntil, this.pairs.get(pairKey(userId, windowId))?.until ?? 0, this.windows.get(windowId)?.until ?? 0);
    return Math.max(0, until - now);
  }

  /** Counts a try as wrong before its PIN is checked (cleared by `succeeded`). */
  reserve(userId: string, windowId: string): Reservation {
    const now = this.now();
    const pair = bump(this.pairs, pairKey(userId, windowId));
    const win = bump(this.windows, windowId);
    const lockedPair = pair.fails >= MAX_FAILED_PINS;
    const lockedWindow = win.fails >= MAX_WINDOW_FAILED_PINS;
    if (lockedPair) Object.assign(pair, { fails: 0, until: now + WINDOW_LOCKOUT_MS });
    if (lockedWindow) Object.assign(win, { fails: 0, until: now + WINDOW_LOCKOUT_MS });
    return { lockedPair, lockedWindow, pairFails: lockedPair ? MAX_FAILED_PINS : pair.fails };
  }

  /** A right PIN: this user's count at this window, and the window's, start over. */
  succeeded(userId: string, windowId: string, reservation: Reservation): void {
    this.pairs.delete(pairKey(userId, windowId));
    const win = this.windows.get(windowId);
    // A right PIN on the very try that locked the window does not unlock it for the next one (it was counted as a guess).
    if (win && !reservation.lockedWindow) win.fails = 0;
  }

  /** Whether any window is locked for this user now (the Counter users screen's "Locked out"). */
  lockedAnywhere(userId: string): boolean {
    const now = this.now();
    for (const [key, c] of this.pairs) if (key.startsWith(`${userId}\u0000`) && c.until > now) return true;
    return false;
  }

  /** A manager reset the user's PIN: every window's count for them goes. */
  forgetUser(userId: string): void {
    for (const key of [...this.pairs.keys()]) if (key.startsWith(`${userId}\u0000`)) this.pairs.delete(key);
  }
}

const pairKey = (userId: string, windowId: string) => `${userId}\u0000${windowId}`;

function bump(map: Map<string, Count>, key: string): Count {
  const c = map.get(key) ?? { fails: 0, until: 0 };
  c.fails += 1;
  map.set(key, c);
  return c;
}

/** The refusal in plain words, with how long to wait. */
export function lockedFor(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  return `Too many wrong PINs — try again in ${s} ${s === 1 ? 'second' : 'seconds'}.`;
}
