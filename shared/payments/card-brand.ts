/**
 * Card brand from the leading digits (IIN ranges of the four networks the gateway
 * accepts). `account_type` on a cc account vault / transaction is the short code.
 * Simplification: co-badged and private-label ranges are not recognised.
 */
export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'unknown';

/** Card numbers the gateway accepts: 13 to 19 digits (and Luhn). */
export const CARD_NUMBER_DIGITS = { min: 13, max: 19 } as const;

/** Short code the v2 records carry in `account_type` for cards. */
export const CARD_BRAND_ACCOUNT_TYPE: Record<CardBrand, string> = {
  visa: 'visa',
  mastercard: 'mc',
  amex: 'amex',
  discover: 'disc',
  unknown: 'unknown',
};

export function detectCardBrand(accountNumber: string): CardBrand {
  const n = accountNumber;
  if (/^4\d{12}(\d{3}){0,2}$/.test(n)) return 'visa';
  const two = Number(n.slice(0, 2));
  const four = Number(n.slice(0, 4));
  if (n.length === 16 && ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720))) return 'mastercard';
  if (n.length === 15 && (two === 34 || two === 37)) return 'amex';
  const three = Number(n.slice(0, 3));
  if (n.length >= 16 && n.length <= 19 && (n.startsWith('6011') || n.startsWith('65') || (three >= 644 && three <= 649))) return 'discover';
  return 'unknown';
}

/** CVV length the brand expects: Amex uses 4 digits (CID), the others 3. */
export function cvvLength(brand: CardBrand): number {
  return brand === 'amex' ? 4 : 3;
}
