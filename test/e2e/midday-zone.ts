/**
 * The time zone the end-to-end runs' app (the node host and its core) and browser live in: one
 * where it is about noon when the run starts, so that no run crosses the app's local midnight,
 * where its "today" (today's transactions, the X report's day) starts again. A CI run that
 * crossed it (23:5x UTC) lost an earlier test's cart sale from today's list. The zone's date is
 * the UTC date (noon ± the minutes past the hour), so a date the tests compute in UTC is the
 * app's date too. Chosen once by the Playwright config and handed to its workers in the
 * environment (RINGUP_E2E_TZ), so the host and the browser agree.
 */
export function middayZone(now = new Date()): string {
  const hoursAhead = 12 - now.getUTCHours();
  if (hoursAhead === 0) return 'Etc/GMT';
  // POSIX-style names: Etc/GMT-12 is twelve hours ahead of UTC.
  return `Etc/GMT${hoursAhead > 0 ? '-' : '+'}${Math.abs(hoursAhead)}`;
}
