/**
 * What a receipt must say beyond the amounts, declared once for the core, the screens and
 * the tests:
 * - a chip or contactless card: the application (AID and its label) and how the cardholder
 *   was verified (the card brands' EMV receipt rules);
 * - a check converted to an electronic debit at the counter (ACH, SEC code POP): the check
 *   number and the customer's authorization of the debit (NACHA's POP receipt and
 *   authorization; the merchant copy carries the customer's signature under it).
 */

/** How the cardholder was verified (the terminal's CVM). */
export type CardVerification = 'pin' | 'signature' | 'none';

export const CVM_WORDING: Record<CardVerification, string> = {
  pin: 'PIN verified',
  signature: 'Signature',
  none: 'No signature required',
};

/** Reads the CVM a terminal names in its EMV data ("PIN VERIFIED", "SIGNATURE", "NO CVM" …). */
export function cardVerificationOf(text: unknown): CardVerification {
  const t = typeof text === 'string' ? text.toUpperCase() : '';
  if (t.includes('PIN')) return 'pin';
  if (t.includes('SIGN')) return 'signature';
  return 'none';
}

/** The customer's authorization printed on a check receipt. */
export function checkAuthorization(merchant: string): string {
  const who = merchant.trim() || 'the merchant';
  return `I authorize ${who} to use the information from my check to make a one-time electronic debit of my account for the amount above. My check is returned to me void.`;
}
