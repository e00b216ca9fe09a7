import { describe, expect, it } from 'vitest';
import { isDue, localDate, runDate } from '../../../electron/common/run-dates';

describe('recurring run dates', () => {
  it('keeps the anchor day across month ends: Jan 31 → Feb 28/29 → Mar 31', () => {
    expect([0, 1, 2, 3].map((n) => runDate('2027-01-31', 1, 'm', n))).toEqual(['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30']);
    expect(runDate('2028-01-31', 1, 'm', 1)).toBe('2028-02-29');
    expect(runDate('2027-08-31', 3, 'm', 2)).toBe('2028-02-29');
    expect(runDate('2026-11-30', 1, 'm', 2)).toBe('2027-01-30');
  });

  it('steps days and weeks across month and year ends', () => {
    expect(runDate('2026-12-30', 2, 'd', 1)).toBe('2027-01-01');
    expect(runDate('2028-02-22', 1, 'w', 1)).toBe('2028-02-29');
    expect(runDate('2026-12-01', 2, 'w', 3)).toBe('2027-01-12');
  });

  it('reads the date in the location time zone', () => {
    const t = Date.UTC(2026, 11, 1, 3, 0, 0) / 1000; // 03:00 UTC on Dec 1
    expect(localDate(t, 'UTC')).toBe('2026-12-01');
    expect(localDate(t, 'America/New_York')).toBe('2026-11-30');
    expect(localDate(t, 'Not/AZone')).toBe('2026-12-01');
    expect(isDue('2026-12-01', localDate(t, 'America/New_York'))).toBe(false);
    expect(isDue('2026-12-01', localDate(t, 'Asia/Tokyo'))).toBe(true);
  });
});
