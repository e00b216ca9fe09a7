/**
 * Cart arithmetic (shared/cart/cart-math.ts): discounts and tax rounded by the stated rule,
 * shares that add up to the cent, and a returned line's share of each tender.
 */
import { describe, expect, it } from 'vitest';
import { allocate, allocateLineRefund, computeCart, percentOf, type CartLineInput } from '../../shared/cart/cart-math';

const line = (id: string, unitCents: number, quantity = 1, extra: Partial<CartLineInput> = {}): CartLineInput => ({ id, name: id, unitCents, quantity, taxCategory: 'standard', discount: null, ...extra });
const rates = (c: string) => (c === 'exempt' ? 0 : 825);

describe('cart arithmetic', () => {
  it('rounds a percent half-up to the cent', () => {
    expect(percentOf(1_000, 825)).toBe(83); // 82.5 → 83
    expect(percentOf(999, 825)).toBe(82); // 82.4175 → 82
    expect(percentOf(200, 1_250)).toBe(25);
    expect(percentOf(0, 825)).toBe(0);
  });

  it('allocates by largest remainder so the parts add up exactly', () => {
    expect(allocate(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocate(10, [0, 5, 5])).toEqual([0, 5, 5]);
    expect(allocate(7, [0, 0])).toEqual([7, 0]);
    const parts = allocate(1_001, [333, 333, 334]);
    expect(parts.reduce((a, b) => a + b, 0)).toBe(1_001);
  });

  it('three items, a line discount and a whole-cart percent, tax once per category', () => {
    const t = computeCart(
      [line('coffee', 350, 2), line('muffin', 299, 1, { discount: { kind: 'amount', cents: 50 } }), line('beans', 1_299, 1, { taxCategory: 'exempt' })],
      { kind: 'percent', basisPoints: 1_000 },
      rates,
    );
    // gross 700 + 299 + 1299 = 2298; line discount 50 → 2248; 10 % of 2248 = 224.8 → 225
    expect(t.grossCents).toBe(2_298);
    expect(t.lineDiscountCents).toBe(50);
    expect(t.cartDiscountCents).toBe(225);
    // shares of 225 over 700, 249, 1299 (2248): 70.07, 24.92, 130.0 → 70, 25, 130
    expect(t.lines.map((l) => l.cartDiscountShareCents)).toEqual([70, 25, 130]);
    expect(t.subtotalCents).toBe(2_023);
    // standard taxable 630 + 224 = 854 × 8.25 % = 70.455 → 70; exempt 0
    expect(t.taxByCategory.find((c) => c.category === 'standard')).toMatchObject({ taxableCents: 854, taxCents: 70 });
    expect(t.taxCents).toBe(70);
    expect(t.totalCents).toBe(2_093);
    expect(t.lines.reduce((a, l) => a + l.totalCents, 0)).toBe(t.totalCents);
  });

  it('taxes the category sum, not each line (ten 5¢ lines keep their tax)', () => {
    const lines = Array.from({ length: 10 }, (_v, i) => line(`l${i}`, 5));
    const t = computeCart(lines, null, () => 1_000);
    expect(t.taxCents).toBe(5); // 50 × 10 % — per line it would round to 10 × 1 = 10 or 10 × 0
    expect(t.lines.reduce((a, l) => a + l.taxCents, 0)).toBe(5);
  });

  it('caps discounts at what they discount and never goes negative', () => {
    const t = computeCart([line('a', 300, 1, { discount: { kind: 'amount', cents: 500 } }), line('b', 200)], { kind: 'amount', cents: 10_000 }, rates);
    expect(t.lines[0]!.lineDiscountCents).toBe(300);
    expect(t.cartDiscountCents).toBe(200);
    expect(t.totalCents).toBe(0);
    expect(t.lines.every((l) => l.netCents >= 0)).toBe(true);
  });

  it('reports the largest discount share for the manager-approval rule', () => {
    expect(computeCart([line('a', 1_000, 1, { discount: { kind: 'percent', basisPoints: 2_500 } })], null, rates).largestDiscountBasisPoints).toBe(2_500);
    expect(computeCart([line('a', 1_000)], { kind: 'amount', cents: 100 }, rates).largestDiscountBasisPoints).toBe(1_000);
    expect(computeCart([line('a', 1_000)], null, rates).largestDiscountBasisPoints).toBe(0);
  });

  it("counts a line's own discount and its share of the whole-sale discount together, compounded (issue 20)", () => {
    const pct = (basisPoints: number) => ({ kind: 'percent' as const, basisPoints });
    // 20 % + 20 % on $100.00: sold for $64.00, 36 % off.
    const t = computeCart([line('a', 10_000, 1, { discount: pct(2_000) })], pct(2_000), () => 0);
    expect(t.totalCents).toBe(6_400);
    expect(t.largestDiscountBasisPoints).toBe(3_600);
    expect(t.largestDiscountCombined).toBe(true);
    // 15 % + 15 %: 27.75 % off, rounded up to the basis point.
    expect(computeCart([line('a', 10_000, 1, { discount: pct(1_500) })], pct(1_500), () => 0).largestDiscountBasisPoints).toBe(2_775);
    // $5.00 off a $10.00 line, then $3.00 off the $15.00 left of the sale: that line's share is $1.00 → 60 % off it.
    const mixed = computeCart([line('a', 1_000, 1, { discount: { kind: 'amount', cents: 500 } }), line('b', 1_000)], { kind: 'amount', cents: 300 }, () => 0);
    expect(mixed.lines.map((l) => l.cartDiscountShareCents)).toEqual([100, 200]);
    expect(mixed.largestDiscountBasisPoints).toBe(6_000);
    // Alone, each discount is itself: 20 % of $9.99 rounds to $2.00 but is still 20 %, not over a 20 % limit.
    const alone = computeCart([line('a', 999, 1, { discount: pct(2_000) }), line('b', 333)], null, () => 0);
    expect(alone.largestDiscountBasisPoints).toBe(2_000);
    expect(alone.largestDiscountCombined).toBe(false);
    // A whole-sale 20 % shared by largest remainder is 20 % off every line, whatever cent a share got.
    expect(computeCart([line('a', 333), line('b', 333), line('c', 334)], pct(2_000), () => 0).largestDiscountBasisPoints).toBe(2_000);
  });
});

describe('line refund allocation', () => {
  it('splits a line across the tenders in proportion to what each collected', () => {
    // $20 cash + $13.47 card paid a $33.47 sale; a $10.00 line goes back 5.98 cash / 4.02 card
    expect(allocateLineRefund(1_000, [2_000, 1_347])).toEqual([598, 402]);
  });

  it('never gives back more than a tender has left, nor more than the tenders have in all', () => {
    expect(allocateLineRefund(1_000, [100, 0])).toEqual([100, 0]);
    expect(allocateLineRefund(500, [1_000, -5])).toEqual([500, 0]);
    const parts = allocateLineRefund(333, [1, 1, 1_000]);
    expect(parts.reduce((a, b) => a + b, 0)).toBe(333);
    parts.forEach((p, i) => expect(p).toBeLessThanOrEqual([1, 1, 1_000][i]!));
  });

  it('returning every line gives back exactly what was collected', () => {
    const t = computeCart([line('a', 1_234), line('b', 567, 3), line('c', 999)], { kind: 'percent', basisPoints: 500 }, rates);
    let left = [1_000, t.totalCents - 1_000];
    let back = 0;
    for (const l of t.lines) {
      const parts = allocateLineRefund(l.totalCents, left);
      left = left.map((c, i) => c - parts[i]!);
      back += parts.reduce((a, b) => a + b, 0);
    }
    expect(back).toBe(t.totalCents);
    expect(left).toEqual([0, 0]);
  });
});
