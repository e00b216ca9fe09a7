/**
 * Keyed card entry as the cashier types it: brand from the first digits, grouping,
 * Luhn as soon as the number is long enough, expiry "MM/YY", CVV length by brand.
 * Nothing here keeps a card number; the form holds it only until the sale is sent.
 */
import { cvvLength, type CardBrand } from '../../../shared/payments/card-brand';
import { isExpDateCurrent } from '../../../shared/payments/exp-date';
import { luhnValid } from '../../../shared/payments/luhn';
import { readTracks } from '../../../shared/payments/track-data';

export const CARD_MESSAGES = {
  numberIncomplete: 'The card number is too short.',
  numberInvalid: 'This card number is not valid. Check the digits.',
  expiryIncomplete: 'Enter the expiry as MM/YY.',
  expiryMonth: 'The month must be 01 to 12.',
  expired: 'This card has expired.',
  cvvIncomplete: (n: number) => `The security code is ${n} digits.`,
  zipInvalid: 'Enter a 5-digit ZIP or a postal code.',
  required: 'Required.',
  unreadable: 'The card could not be read. Swipe it again or key the number.',
} as const;

/** Brand while typing: only the prefix is known yet. */
export function brandFromPrefix(digits: string): CardBrand {
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^(6011|65|64[4-9])/.test(digits)) return 'discover';
  return 'unknown';
}

export const BRAND_LABELS: Record<CardBrand, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'Amex',
  discover: 'Discover',
  unknown: 'Card',
};

export function expectedLength(brand: CardBrand): number {
  return brand === 'amex' ? 15 : 16;
}

export function maxLength(brand: CardBrand): number {
  return brand === 'amex' ? 15 : brand === 'unknown' ? 19 : 16;
}

export function digitsOnly(text: string): string {
  return text.replace(/\D/g, '');
}

/** "4111111111111111" → "4111 1111 1111 1111"; Amex 4-6-5. */
export function groupCardNumber(digits: string): string {
  if (brandFromPrefix(digits) === 'amex') {
    return [digits.slice(0, 4), digits.slice(4, 10), digits.slice(10, 15)].filter(Boolean).join(' ');
  }
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** What the field shows once the number is entered and the field loses focus. */
export function maskedCardNumber(digits: string): string {
  return digits.length >= 4 ? `•••• ${digits.slice(-4)}` : '';
}

export function cardNumberError(digits: string, final: boolean): string | null {
  const brand = brandFromPrefix(digits);
  if (digits.length === 0) return final ? CARD_MESSAGES.required : null;
  const complete = brand === 'unknown' ? digits.length >= 13 : digits.length >= expectedLength(brand);
  if (!complete) return final ? CARD_MESSAGES.numberIncomplete : null;
  return luhnValid(digits) ? null : CARD_MESSAGES.numberInvalid;
}

/** "1", "12", "123" → "1", "12/", "12/3": the slash appears by itself. */
export function formatExpiryInput(text: string, previous: string): string {
  const d = digitsOnly(text).slice(0, 4);
  if (d.length === 1 && Number(d) > 1) return `0${d}/`;
  if (d.length === 2 && text.length > previous.length) return `${d}/`;
  if (d.length <= 2) return d;
  return `${d.slice(0, 2)}/${d.slice(2)}`;
}

/** "12/29" → "1229" */
export function expiryMMYY(text: string): string {
  return digitsOnly(text).slice(0, 4);
}

export function expiryError(text: string, final: boolean, now: Date = new Date()): string | null {
  const d = expiryMMYY(text);
  if (d.length === 0) return final ? CARD_MESSAGES.required : null;
  const month = Number(d.slice(0, 2));
  if (d.length >= 2 && (month < 1 || month > 12)) return CARD_MESSAGES.expiryMonth;
  if (d.length < 4) return final ? CARD_MESSAGES.expiryIncomplete : null;
  return isExpDateCurrent(d, now) ? null : CARD_MESSAGES.expired;
}

export function cvvError(cvv: string, brand: CardBrand, final: boolean): string | null {
  const n = cvvLength(brand);
  if (cvv.length === 0) return final ? CARD_MESSAGES.required : null;
  if (cvv.length !== n && (final || cvv.length > n)) return CARD_MESSAGES.cvvIncomplete(n);
  return null;
}

export function zipError(zip: string, final: boolean): string | null {
  const z = zip.trim();
  if (z.length === 0) return final ? CARD_MESSAGES.required : null;
  if (/^\d+$/.test(z)) {
    if (z.length === 5 || z.length === 9) return null;
    return final || z.length > 9 ? CARD_MESSAGES.zipInvalid : null;
  }
  return /^[A-Za-z0-9][A-Za-z0-9 -]{1,8}[A-Za-z0-9]$/.test(z) || !final ? null : CARD_MESSAGES.zipInvalid;
}

/** A card that arrives in one go (a paste, a reader's swipe): its number, and its expiry as the field shows it when the tracks carry one. */
export interface WholeCard {
  number: string;
  expiry: string | null;
}

/**
 * The card in a paste or a swipe's text: the tracks when it has a track's marks, else its
 * digits (cut to the brand's length). Null when it holds no card (an unreadable swipe).
 */
export function cardFromText(text: string): WholeCard | null {
  if (/[%;^=?]/.test(text)) {
    const t = readTracks(text);
    return t ? { number: t.number, expiry: `${t.expDate.slice(0, 2)}/${t.expDate.slice(2)}` } : null;
  }
  const d = digitsOnly(text);
  return d ? { number: d.slice(0, maxLength(brandFromPrefix(d))), expiry: null } : null;
}
