/**
 * What the payment bodies' own readers share (vault-fields.ts, card-source.ts, the router's
 * fields): "sent" (null or "" is not) and the strict text form of account data that the
 * OpenAPI document states too. A value of another JSON type (a number for an account
 * number) is refused, never converted. The per-value rules (money, MMYY, booleans…) are the
 * framework's one reader's (framework/validate.ts readValue).
 */

export type Body = Record<string, unknown>;

export function present(v: unknown): boolean {
  return v !== undefined && v !== null && v !== '';
}

/**
 * An account number as typed: digits, with spaces or dashes between groups allowed
 * (4111 1111 1111 1111), 4 to 40 characters; the OpenAPI document says the same pattern.
 */
export const ACCOUNT_NUMBER_TEXT = /^[0-9 -]{4,40}$/;

/** The digits of an account number sent as ACCOUNT_NUMBER_TEXT, or null for anything else (numbers, other characters). */
export function accountDigits(v: unknown): string | null {
  if (typeof v !== 'string' || !ACCOUNT_NUMBER_TEXT.test(v)) return null;
  const s = v.replace(/[ -]/g, '');
  return /^\d+$/.test(s) ? s : null;
}

/** A string of digits only (routing numbers, CVVs): exactly as sent, or null. */
export function digitsText(v: unknown): string | null {
  return typeof v === 'string' && /^\d+$/.test(v) ? v : null;
}

export function flag(v: unknown): boolean {
  return v === true || v === 1 || v === '1' || v === 'true';
}

