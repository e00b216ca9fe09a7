/**
 * Times and dates as the counter reads them (the browser's locale and time zone).
 * The formatters are built once: toLocale*String builds one per call, which is too
 * slow for a list that re-renders rows while it scrolls.
 */
const TIME = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const DATE = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const DAY_MONTH = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });

export function timeOfDay(unixSeconds: number): string {
  return TIME.format(unixSeconds * 1000);
}

/** The date alone, short where it can be: "Nov 27" this year, "Nov 27, 2025" before (a list row's narrow column). */
export function dateOnly(unixSeconds: number, now = Date.now()): string {
  const ms = unixSeconds * 1000;
  return new Date(ms).getFullYear() === new Date(now).getFullYear() ? DAY_MONTH.format(ms) : DATE.format(ms);
}

export function dateAndTime(unixSeconds: number): string {
  return DATE_TIME.format(unixSeconds * 1000);
}

/** `<input type="date">` value → unix seconds at local midnight (or the end of that day). */
export function dateInputToUnix(value: string, endOfDay: boolean): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return undefined;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), endOfDay ? 23 : 0, endOfDay ? 59 : 0, endOfDay ? 59 : 0);
  return Math.floor(d.getTime() / 1000);
}
