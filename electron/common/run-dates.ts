/**
 * Run-date arithmetic for recurrings. Dates are calendar dates ("YYYY-MM-DD") in the
 * location's time zone. Month steps keep the anchor day (the start date's day): from an
 * anchor of the 31st, Jan 31 → Feb 28 (29 in a leap year) → Mar 31, never drifting to
 * the 28th. The n-th run is computed from the anchor, not from the previous run.
 *
 * Plain date arithmetic in electron/common/: the engine's recurring schedule and the core's
 * preview of the next runs step the same way (a preview that differed from the schedule would
 * promise the wrong dates). The engine's own "today at a location" is in
 * gateway/recurring/location-today.ts.
 */

export type IntervalType = 'd' | 'w' | 'm';

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

function parts(date: string): [number, number, number] {
  const m = DATE_RE.exec(date);
  if (!m) throw new Error(`Not a calendar date: ${date}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const format = (y: number, m: number, d: number) => `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
const daysInMonth = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

/** The date of run number `n` (0 = the anchor itself) for a plan stepping `interval` × `type`. */
export function runDate(anchor: string, interval: number, type: IntervalType, n: number): string {
  const [y, m, d] = parts(anchor);
  if (type === 'm') {
    const months = m - 1 + interval * n;
    const year = y + Math.floor(months / 12);
    const month = (((months % 12) + 12) % 12) + 1;
    return format(year, month, Math.min(d, daysInMonth(year, month)));
  }
  const days = interval * n * (type === 'w' ? 7 : 1);
  const t = new Date(Date.UTC(y, m - 1, d + days));
  return format(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
}

/** The calendar date at `unixSeconds` in the IANA time zone `tz` (UTC when unset or unknown). */
export function localDate(unixSeconds: number, tz: string | null | undefined): string {
  let zone = 'UTC';
  if (tz) {
    try {
      new Intl.DateTimeFormat('en-CA', { timeZone: tz });
      zone = tz;
    } catch {
      zone = 'UTC';
    }
  }
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(unixSeconds * 1000));
}

/** True when a run dated `date` is due at `today` (both location calendar dates). */
export const isDue = (date: string, today: string) => date <= today;
