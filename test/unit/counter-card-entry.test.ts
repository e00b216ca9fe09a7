import { describe, expect, it } from 'vitest';
import {
  brandFromPrefix,
  CARD_MESSAGES,
  cardFromText,
  cardNumberError,
  cvvError,
  expiryError,
  expiryMMYY,
  formatExpiryInput,
  groupCardNumber,
  maskedCardNumber,
  zipError,
} from '../../renderer/src/sales/card-entry';
import { NO_SWIPE, swipeKey } from '../../renderer/src/sales/reader-keystrokes';

const NOW = new Date(Date.UTC(2026, 10, 21));

describe('keyed card entry', () => {
  it('knows the brand from the first digits', () => {
    expect(brandFromPrefix('4')).toBe('visa');
    expect(brandFromPrefix('5454')).toBe('mastercard');
    expect(brandFromPrefix('2221')).toBe('mastercard');
    expect(brandFromPrefix('37')).toBe('amex');
    expect(brandFromPrefix('6011')).toBe('discover');
    expect(brandFromPrefix('9')).toBe('unknown');
  });

  it('groups and masks the number', () => {
    expect(groupCardNumber('4111111111111111')).toBe('4111 1111 1111 1111');
    expect(groupCardNumber('371449635398431')).toBe('3714 496353 98431');
    expect(groupCardNumber('41111')).toBe('4111 1');
    expect(maskedCardNumber('4111111111111111')).toBe('•••• 1111');
  });

  it('checks Luhn as soon as the number is complete, and length only at the end', () => {
    expect(cardNumberError('4111111111111111', false)).toBeNull();
    expect(cardNumberError('4111111111111112', false)).toBe(CARD_MESSAGES.numberInvalid);
    expect(cardNumberError('411111', false)).toBeNull();
    expect(cardNumberError('411111', true)).toBe(CARD_MESSAGES.numberIncomplete);
    expect(cardNumberError('', true)).toBe(CARD_MESSAGES.required);
    expect(cardNumberError('371449635398431', false)).toBeNull();
  });

  it('formats and checks the expiry', () => {
    expect(formatExpiryInput('1', '')).toBe('1');
    expect(formatExpiryInput('3', '')).toBe('03/');
    expect(formatExpiryInput('12', '1')).toBe('12/');
    expect(formatExpiryInput('1230', '12/3')).toBe('12/30');
    expect(expiryMMYY('12/30')).toBe('1230');
    expect(expiryError('12/30', true, NOW)).toBeNull();
    expect(expiryError('13/30', false, NOW)).toBe(CARD_MESSAGES.expiryMonth);
    expect(expiryError('01/20', false, NOW)).toBe(CARD_MESSAGES.expired);
    expect(expiryError('11/26', true, NOW)).toBeNull();
    expect(expiryError('12/', true, NOW)).toBe(CARD_MESSAGES.expiryIncomplete);
  });

  it('wants 4 CVV digits for Amex and 3 for the others', () => {
    expect(cvvError('123', 'visa', true)).toBeNull();
    expect(cvvError('123', 'amex', true)).toBe(CARD_MESSAGES.cvvIncomplete(4));
    expect(cvvError('12', 'visa', false)).toBeNull();
    expect(cvvError('1234', 'visa', false)).toBe(CARD_MESSAGES.cvvIncomplete(3));
  });

  it('accepts US ZIPs and postal codes', () => {
    expect(zipError('32606', true)).toBeNull();
    expect(zipError('326061234', true)).toBeNull();
    expect(zipError('32606-1234', true)).toBeNull();
    expect(zipError('K1A 0B1', true)).toBeNull();
    expect(zipError('326', false)).toBeNull();
    expect(zipError('326', true)).toBe(CARD_MESSAGES.zipInvalid);
  });
});

describe('a card entered in one go', () => {
  const swipe = '%B5454545454545454^DOE/PAT^30121010000000000?;5454545454545454=30121010000000000?';

  it('reads a paste or a swipe as one whole card', () => {
    expect(cardFromText('5454 5454 5454 5454')).toEqual({ number: '5454545454545454', expiry: null });
    expect(cardFromText('4111111111111111 12/30')).toEqual({ number: '4111111111111111', expiry: null });
    expect(cardFromText(swipe)).toEqual({ number: '5454545454545454', expiry: '12/30' });
    expect(cardFromText(';371449635398431=30111010000000000?')).toEqual({ number: '371449635398431', expiry: '11/30' });
    expect(cardFromText('%E?;E?')).toBeNull();
  });

  it('follows a reader typing both tracks and its Enter, and lets a person type', () => {
    let s = NO_SWIPE;
    const tracks: string[] = [];
    const swallowed: boolean[] = [];
    for (const key of [...swipe.split(''), 'Enter', '1', 'Enter']) {
      const step = swipeKey(s, key);
      s = step.next;
      swallowed.push(step.swallow);
      if (step.track) tracks.push(step.track);
    }
    expect(tracks.map((t) => cardFromText(t)?.number)).toEqual(['5454545454545454', '5454545454545454']);
    // Every key of the swipe and the reader's Enter; the person's "1" and Enter go through.
    expect(swallowed.slice(0, swipe.length + 1).every(Boolean)).toBe(true);
    expect(swallowed.slice(swipe.length + 1)).toEqual([false, false]);
    expect(swipeKey(swipeKey(NO_SWIPE, '%').next, 'Escape')).toEqual({ next: NO_SWIPE, swallow: true, track: null });
  });
});
