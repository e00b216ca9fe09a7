/**
 * Card expiry in the v2 format MMYY. A card is valid through the last day of its
 * expiry month. Years are 20YY (the interface has no century).
 */
export interface ExpDate {
  month: number;
  /** Four-digit year. */
  year: number;
}

/** The value of an ASCII digit at `i`, or -1 (read by character code: this runs several times on every card sale). */
function digitAt(text: string, i: number): number {
  const c = text.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -1;
}

export function parseExpDate(text: string): ExpDate | null {
  if (text.length !== 4) return null;
  const m1 = digitAt(text, 0);
  const m2 = digitAt(text, 1);
  const y1 = digitAt(text, 2);
  const y2 = digitAt(text, 3);
  if (m1 < 0 || m2 < 0 || y1 < 0 || y2 < 0) return null;
  const month = m1 * 10 + m2;
  if (month < 1 || month > 12) return null;
  return { month, year: 2000 + y1 * 10 + y2 };
}

/** True when the card can still be charged at `now` (UTC). */
export function isExpDateCurrent(text: string, now: Date = new Date()): boolean {
  const d = parseExpDate(text);
  if (!d) return false;
  const y = now.getUTCFullYear();
  const mo = now.getUTCMonth() + 1;
  return d.year > y || (d.year === y && d.month >= mo);
}

/** Whole months from `now`'s month to the expiry month (0 = expires this month, negative = expired). */
export function monthsUntilExpiry(text: string, now: Date = new Date()): number | null {
  const d = parseExpDate(text);
  if (!d) return null;
  return (d.year - now.getUTCFullYear()) * 12 + (d.month - (now.getUTCMonth() + 1));
}
