import { describe, expect, it } from 'vitest';
import { applyKey, saleTotals } from '../../renderer/src/sales/amount-entry';
import { balancePart } from '../../renderer/src/sales/balance-part';
import { basisPointsOf, formatPercentBp, money, parseTypedAmount } from '../../renderer/src/ui/money-format';
import { percentTipCents } from '../../shared/payments/tip-suggestions';
import { MAX_AMOUNT_CENTS } from '../../shared/ipc/contract';

describe('the till keypad', () => {
  it('fills the amount from the right, deletes, clears and caps', () => {
    let c = 0;
    for (const k of ['1', '2', '5', '0'] as const) c = applyKey(c, k);
    expect(c).toBe(1250);
    expect(applyKey(c, 'back')).toBe(125);
    expect(applyKey(c, '00')).toBe(125000);
    expect(applyKey(c, 'clear')).toBe(0);
    expect(applyKey(0, '0')).toBe(0);
    expect(applyKey(MAX_AMOUNT_CENTS, '9')).toBe(MAX_AMOUNT_CENTS);
  });
});

describe('money text', () => {
  it('formats cents with grouping and no float error', () => {
    expect(money(0)).toBe('$0.00');
    expect(money(5)).toBe('$0.05');
    expect(money(123456789)).toBe('$1,234,567.89');
    expect(money(-1050)).toBe('-$10.50');
  });

  it('parses typed amounts', () => {
    expect(parseTypedAmount('12.5')).toBe(1250);
    expect(parseTypedAmount('$1,234.56')).toBe(123456);
    expect(parseTypedAmount('0.1')).toBe(10);
    expect(parseTypedAmount('7')).toBe(700);
    expect(parseTypedAmount('1.234')).toBeNull();
    expect(parseTypedAmount('abc')).toBeNull();
    expect(parseTypedAmount('-1')).toBeNull();
  });

  it('rounds tips and tax half up in integer math', () => {
    expect(percentTipCents(2450, 18)).toBe(441); // 4.41
    expect(percentTipCents(1000, 15)).toBe(150);
    expect(percentTipCents(333, 15)).toBe(50); // 49.95 → 50
    expect(basisPointsOf(1000, 825)).toBe(83); // 82.5 → 83
    expect(formatPercentBp(825)).toBe('8.25%');
    expect(formatPercentBp(800)).toBe('8%');
    expect(formatPercentBp(850)).toBe('8.5%');
  });

  it('totals a sale: tax on the subtotal, a percent tip on the store\'s tip base', () => {
    expect(saleTotals(2000, true, 825, { kind: 'percent', percent: 20 }, 'before-tax')).toEqual({ subtotalCents: 2000, taxCents: 165, tipCents: 400, totalCents: 2565 });
    expect(saleTotals(2000, true, 825, { kind: 'percent', percent: 20 }, 'after-tax')).toEqual({ subtotalCents: 2000, taxCents: 165, tipCents: 433, totalCents: 2598 });
    expect(saleTotals(2000, false, 825, { kind: 'custom', cents: 123 }, 'before-tax')).toEqual({ subtotalCents: 2000, taxCents: 0, tipCents: 123, totalCents: 2123 });
    expect(saleTotals(500, true, 825, { kind: 'flat', cents: 200 }, 'after-tax').tipCents).toBe(200);
    expect(saleTotals(2000, false, 825, { kind: 'none' }, 'before-tax').totalCents).toBe(2000);
  });
});

describe('a part of the balance on one tender', () => {
  it('is all of it when blank, the typed amount when it fits, and a sentence otherwise', () => {
    expect(balancePart('', 2_500)).toEqual({ blank: true, cents: 2_500, error: null });
    expect(balancePart('  ', 2_500)).toEqual({ blank: true, cents: 2_500, error: null });
    expect(balancePart('10', 2_500)).toEqual({ blank: false, cents: 1_000, error: null });
    expect(balancePart('25.00', 2_500)).toEqual({ blank: false, cents: 2_500, error: null });
    for (const bad of ['25.01', '0', 'ten', '-1']) {
      expect(balancePart(bad, 2_500), bad).toMatchObject({ blank: false, error: 'Type an amount up to the balance, $25.00.' });
    }
  });
});
