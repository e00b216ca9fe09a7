import { describe, expect, it } from 'vitest';
import { formatMoney, formatMoneyDisplay, parseMoney } from '../../shared/payments/money';
import { isApprovalReason, reasonCodeSentence } from '../../shared/payments/reason-codes';

describe('money', () => {
  it('parses decimal strings to integer cents without floats', () => {
    expect(parseMoney('10.00')).toBe(1000);
    expect(parseMoney('10.5')).toBe(1050);
    expect(parseMoney('0.07')).toBe(7);
    expect(parseMoney(12.34)).toBe(1234);
    expect(parseMoney('999999999999.99')).toBeNull();
    expect(parseMoney('1.234')).toBeNull();
    expect(parseMoney('-1.00')).toBeNull();
    expect(parseMoney('1e3')).toBeNull();
    expect(parseMoney('abc')).toBeNull();
    expect(parseMoney(null)).toBeNull();
  });
  it('formats cents', () => {
    expect(formatMoney(1050)).toBe('10.50');
    expect(formatMoney(7)).toBe('0.07');
    expect(formatMoney(-250)).toBe('-2.50');
    expect(formatMoneyDisplay(1999)).toBe('$19.99');
  });
});

describe('reason codes', () => {
  it('gives cashier sentences', () => {
    expect(reasonCodeSentence(1000)).toBe('Approved.');
    expect(reasonCodeSentence(1616)).toMatch(/insufficient funds/);
    expect(reasonCodeSentence(1607)).toMatch(/code 1607/);
    expect(reasonCodeSentence(null)).toMatch(/No response/);
    expect(isApprovalReason(1201)).toBe(true);
    expect(isApprovalReason(1500)).toBe(false);
  });
});
