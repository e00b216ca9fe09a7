/**
 * The named timestamp ranges of the interface (`today`, `last week`…), computed from
 * the engine clock in UTC. Weeks start on Monday. `last 30 days` / `last 90 days` end
 * now; `today`, `this week` and `this month` end at the end of the current period.
 */
export const NAMED_RANGES = ['today', 'yesterday', 'this week', 'last week', 'last 30 days', 'last 90 days', 'this month', 'last month'] as const;
export type NamedRange = (typeof NAMED_RANGES)[number];

const DAY = 86_400;

export function isNamedRange(v: string): v is NamedRange {
  return (NAMED_RANGES as readonly string[]).includes(v);
}

/** Inclusive [from, to] in Unix seconds. */
export function namedRange(range: NamedRange, now: number): [number, number] {
  const d = new Date(now * 1000);
  const startOfDay = Math.floor(now / DAY) * DAY;
  const dow = (d.getUTCDay() + 6) % 7; // Monday = 0
  const startOfWeek = startOfDay - dow * DAY;
  const startOfMonth = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
  const startOfNextMonth = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000;
  const startOfLastMonth = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1) / 1000;
  switch (range) {
    case 'today':
      return [startOfDay, startOfDay + DAY - 1];
    case 'yesterday':
      return [startOfDay - DAY, startOfDay - 1];
    case 'this week':
      return [startOfWeek, startOfWeek + 7 * DAY - 1];
    case 'last week':
      return [startOfWeek - 7 * DAY, startOfWeek - 1];
    case 'last 30 days':
      return [now - 30 * DAY, now];
    case 'last 90 days':
      return [now - 90 * DAY, now];
    case 'this month':
      return [startOfMonth, startOfNextMonth - 1];
    case 'last month':
      return [startOfLastMonth, startOfMonth - 1];
  }
}
