/**
 * Times and dates as the counter reads them (the browser's locale and time zone).
 * The formatters are built once: toLocale*String builds one per call, which is too
 * slow for a list that re-renders rows while it scrolls.
 */
const TIME = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function timeOfDay(unixSeconds: number): string {
  return TIME.format(unixSeconds * 1000);
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
