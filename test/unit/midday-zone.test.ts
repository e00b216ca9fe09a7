import { describe, expect, it } from 'vitest';
import { middayZone } from '../e2e/midday-zone';

describe('the end-to-end runs\' time zone', () => {
  it('is about noon, on the UTC date, whatever the UTC hour the run starts at', () => {
    for (let hour = 0; hour < 24; hour++) {
      const start = new Date(Date.UTC(2026, 10, 27, hour, 58, 30));
      const zone = middayZone(start);
      const parts = Object.fromEntries(new Intl.DateTimeFormat('en-GB', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', hourCycle: 'h23' }).formatToParts(start).map((p) => [p.type, p.value]));
      expect(`${parts.year}-${parts.month}-${parts.day} ${parts.hour}`, `${hour}:58 UTC → ${zone}`).toBe('2026-11-27 12');
    }
  });
});
