/**
 * Card expiry in the v2 format MMYY. A card is valid through the last day of its
 * expiry month. Years are 20YY (the interface has no century).
 */
export interface ExpDate {
  month: number;
  /** Four-digit year. */
  year: number;
}

export function parseExpDate(text: string): ExpDate | null {
  const m = /^(\d{2})(\d{2})$/.exec(text);
  if (!m) return null;
  const month = Number(m[1]);
  if (month < 1 || month > 12) return null;
  return { month, year: 2000 + Number(m[2]) };
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
