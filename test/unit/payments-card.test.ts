import { describe, expect, it } from 'vitest';
import { luhnValid } from '../../shared/payments/luhn';
import { cvvLength, detectCardBrand } from '../../shared/payments/card-brand';
import { firstSix, lastFour, maskAccountNumber, maskCardNumbersInText } from '../../shared/payments/masking';
import { isExpDateCurrent, monthsUntilExpiry, parseExpDate } from '../../shared/payments/exp-date';
import { abaRoutingValid, achAccountValid } from '../../shared/payments/aba-routing';

const TEST_CARDS = ['4111111111111111', '4012888888881881', '5454545454545454', '6011000995500000', '371449635398431', '4005562231212149', '4485271031055802', '5405222222222226'];

describe('luhn', () => {
  it('accepts every sandbox test card', () => {
    for (const c of TEST_CARDS) expect(luhnValid(c), c).toBe(true);
  });
  it('refuses a changed digit, letters and empty input', () => {
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(luhnValid('4111-1111-1111-1111')).toBe(false);
    expect(luhnValid('')).toBe(false);
  });
});

describe('card brand', () => {
  it('detects the four networks', () => {
    expect(detectCardBrand('4111111111111111')).toBe('visa');
    expect(detectCardBrand('5454545454545454')).toBe('mastercard');
    expect(detectCardBrand('2221000000000009')).toBe('mastercard');
    expect(detectCardBrand('371449635398431')).toBe('amex');
    expect(detectCardBrand('6011000995500000')).toBe('discover');
    expect(detectCardBrand('9999999999999995')).toBe('unknown');
    expect(cvvLength('amex')).toBe(4);
    expect(cvvLength('visa')).toBe(3);
  });
});

describe('masking', () => {
  it('keeps only first six and last four', () => {
    expect(firstSix('4111111111111111')).toBe('411111');
    expect(lastFour('4111111111111111')).toBe('1111');
    expect(maskAccountNumber('4111111111111111')).toBe('411111******1111');
    expect(maskAccountNumber('123456789')).toBe('*****6789');
  });
});

describe('card numbers in free text', () => {
  it('masks a Luhn-valid run of 13–19 digits (single spaces or hyphens between) and nothing else', () => {
    expect(maskCardNumbersInText('card 4111 1111 1111 1111 here')).toBe('card ************1111 here');
    expect(maskCardNumbersInText('4111-1111-1111-1111')).toBe('************1111');
    expect(maskCardNumbersInText('4111  1111 1111 1111')).toBe('4111  1111 1111 1111');
    expect(maskCardNumbersInText('4111111111111112')).toBe('4111111111111112');
    expect(maskCardNumbersInText('00000000-0000-4000-8000-000000000000')).toBe('00000000-0000-4000-8000-000000000000');
  });

  it('answers as the plain pattern does for any text (the scan that skips the regex agrees with it)', () => {
    // The reference: the rule written as one regular expression, applied to every text.
    const reference = (text: string) =>
      text.replace(/\d(?:[ -]?\d){12,18}/g, (run) => {
        const digits = run.replace(/[ -]/g, '');
        return luhnValid(digits) && /[1-9]/.test(digits) ? '*'.repeat(digits.length - 4) + digits.slice(-4) : run;
      });
    // A fixed pseudo-random walk (no time, no seed from outside): digits, separators, letters.
    let state = 7;
    const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
    const alphabet = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', ' ', '-', 'a', '--', '  '];
    const differ: string[] = [];
    for (let n = 0; n < 50_000; n++) {
      let text = TEST_CARDS[n % TEST_CARDS.length] as string;
      const len = 5 + Math.floor(next() * 30);
      for (let i = 0; i < len; i++) text += alphabet[next() < 0.8 ? Math.floor(next() * 10) : 10 + Math.floor(next() * 5)];
      const cut = text.slice(Math.floor(next() * 8));
      if (maskCardNumbersInText(cut) !== reference(cut)) differ.push(cut);
    }
    expect(differ.slice(0, 5)).toEqual([]);
  });
});

describe('exp date', () => {
  const now = new Date(Date.UTC(2026, 10, 21));
  it('parses MMYY and checks the month', () => {
    expect(parseExpDate('1229')).toEqual({ month: 12, year: 2029 });
    expect(parseExpDate('1329')).toBeNull();
    expect(parseExpDate('12/29')).toBeNull();
    // Only four ASCII digits: no sign, space, full-width or other script's digits, and no month 00.
    for (const bad of ['', '129', '12290', '+129', ' 129', '12 9', '１２２９', '١٢٢٩', '0029', '12a9', '12.9']) expect(parseExpDate(bad)).toBeNull();
    expect(parseExpDate('0100')).toEqual({ month: 1, year: 2000 });
    expect(isExpDateCurrent('1126', now)).toBe(true);
    expect(isExpDateCurrent('1026', now)).toBe(false);
    expect(monthsUntilExpiry('0127', now)).toBe(2);
  });
});

describe('ABA routing', () => {
  it('checks the 3-7-1 checksum', () => {
    expect(abaRoutingValid('072000326')).toBe(true);
    expect(abaRoutingValid('072000327')).toBe(false);
    expect(abaRoutingValid('72000326')).toBe(false);
    expect(achAccountValid('1234')).toBe(true);
    expect(achAccountValid('123')).toBe(false);
    expect(achAccountValid('123456789012345678')).toBe(false);
  });
});
