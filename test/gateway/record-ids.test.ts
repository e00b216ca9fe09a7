// Record ids are UUID v7 (framework/ids.ts): time-ordered, so a table's primary key grows at
// its right edge (the sale path's page writes), and never a card number.
import { describe, expect, it } from 'vitest';
import { newId, uuidV7 } from '../../electron/gateway/framework/ids';
import { maskCardNumbersInText } from '../../shared/payments/masking';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('record ids', () => {
  it('are RFC 9562 version 7 UUIDs whose first 48 bits are the milliseconds', () => {
    const ms = Date.UTC(2026, 10, 26, 20, 0, 0, 123);
    const id = uuidV7(ms);
    expect(id).toMatch(V7);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(ms);
    expect(newId()).toMatch(V7);
  });

  it('sort in the order they were made, across milliseconds', () => {
    const base = Date.UTC(2026, 0, 1);
    // Steps that carry across every byte of the 48-bit time, where a wrong split would show.
    const times = [0, 1, 255, 256, 65_535, 65_536, 16_777_215, 16_777_216, 4_294_967_295, 4_294_967_296].map((d) => base + d);
    const ids = times.map((t) => uuidV7(t));
    expect([...ids].sort()).toEqual(ids);
  });

  it('are distinct and never hold a card number', () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20_000; i++) {
      const id = newId();
      expect(maskCardNumbersInText(id)).toBe(id);
      ids.add(id);
    }
    expect(ids.size).toBe(20_000);
  });
});
