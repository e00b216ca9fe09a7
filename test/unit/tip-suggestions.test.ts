import { describe, expect, it } from 'vitest';
import { DEFAULT_STORE_SETTINGS } from '../../shared/ipc/settings';
import { percentTipCents, terminalTipRequest, tipBaseCents, tipSuggestions, type TipRules } from '../../shared/payments/tip-suggestions';

const BEFORE: TipRules = { tipBase: 'before-tax', smartTips: { enabled: false, thresholdCents: 1_000, amountsCents: [100, 200, 300] } };
const AFTER: TipRules = { ...BEFORE, tipBase: 'after-tax' };
const SMART: TipRules = { ...BEFORE, smartTips: { ...BEFORE.smartTips, enabled: true } };

describe('the tip base', () => {
  it('is the amount before tax by default (as Toast), the taxed total when the store says so', () => {
    expect(DEFAULT_STORE_SETTINGS.tipBase).toBe('before-tax');
    expect(DEFAULT_STORE_SETTINGS.smartTips.enabled).toBe(false);
    expect(tipBaseCents(1_000, 75, 'before-tax')).toBe(1_000);
    expect(tipBaseCents(1_000, 75, 'after-tax')).toBe(1_075);
  });

  it('gives $1.50 for 15 % of a $10.00 sale with 7.5 % tax before tax, $1.61 after', () => {
    expect(tipSuggestions(1_000, 75, BEFORE, [15, 18, 20]).suggestions).toEqual([
      { kind: 'percent', percent: 15, cents: 150 },
      { kind: 'percent', percent: 18, cents: 180 },
      { kind: 'percent', percent: 20, cents: 200 },
    ]);
    expect(tipSuggestions(1_000, 75, AFTER, [15, 18, 20]).suggestions.map((s) => s.cents)).toEqual([161, 194, 215]);
  });
});

describe('rounding a percent tip', () => {
  it('rounds half up on the cent, in whole cents', () => {
    expect(percentTipCents(1_075, 15)).toBe(161); // 161.25
    expect(percentTipCents(1_075, 18)).toBe(194); // 193.5 → up
    expect(percentTipCents(10, 15)).toBe(2); // 1.5 → up
    expect(percentTipCents(3, 15)).toBe(0); // 0.45 → down
    expect(percentTipCents(0, 20)).toBe(0);
    expect(percentTipCents(99_999_999, 99)).toBe(98_999_999); // 98,999,999.01: integer math, no float drift at the top
  });
});

describe('smart tips', () => {
  it('offers the flat amounts below the threshold and the percents from it on', () => {
    const under = tipSuggestions(999, 0, SMART, [15, 20, 25]);
    expect(under).toEqual({ baseCents: 999, flat: true, suggestions: [{ kind: 'flat', cents: 100 }, { kind: 'flat', cents: 200 }, { kind: 'flat', cents: 300 }] });
    const at = tipSuggestions(1_000, 0, SMART, [15, 20, 25]);
    expect(at.flat).toBe(false);
    expect(at.suggestions.map((s) => s.cents)).toEqual([150, 200, 250]);
  });

  it('compares the threshold with the tip base: tax counts only when tips are after tax', () => {
    expect(tipSuggestions(950, 75, SMART, [15, 20, 25]).flat).toBe(true);
    expect(tipSuggestions(950, 75, { ...SMART, tipBase: 'after-tax' }, [15, 20, 25]).flat).toBe(false);
  });

  it('tells a terminal that asks for the tip its base, and the flat amounts below the threshold', () => {
    expect(terminalTipRequest(1_000, 75, BEFORE)).toEqual({ tipBaseCents: 1_000 });
    expect(terminalTipRequest(1_000, 75, AFTER)).toEqual({ tipBaseCents: 1_075 });
    expect(terminalTipRequest(500, 38, SMART)).toEqual({ tipBaseCents: 500, tipAmountsCents: [100, 200, 300] });
  });
});
