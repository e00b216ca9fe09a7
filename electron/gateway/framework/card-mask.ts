/**
 * Card numbers typed where they do not belong (a description, a custom field, a note,
 * a query string) are masked before they are stored or echoed: every run of 13–19
 * digits (single spaces or hyphens between them allowed) that passes Luhn becomes
 * asterisks plus its last four digits ("************1111").
 *
 * Fields that legitimately hold long numbers are exempt by name (the card/bank number
 * itself, ids and api ids, keys, passwords, phones, serials, track data): masking a
 * merchant's numeric api id or a password would silently change it. Simplification: the
 * exemption is by key name across every resource, not per declaration.
 */
import { luhnValid } from '../../../shared/payments/luhn';

const CARD_RUN = /\d(?:[ -]?\d){12,18}/g;
const EXEMPT_KEY = /(^|_)(id|ids|number|routing|password|key|phone|serial|track|token|zip|signature)(_|$)|_id$|password|_key$/;

export function maskCardNumbers(text: string): string {
  if (text.length < 13 || !/\d{4}/.test(text)) return text;
  return text.replace(CARD_RUN, (run) => {
    const digits = run.replace(/[ -]/g, '');
    return luhnValid(digits) ? '*'.repeat(digits.length - 4) + digits.slice(-4) : run;
  });
}

export function isExemptKey(key: string): boolean {
  return EXEMPT_KEY.test(key);
}

/** Masks card numbers in every string of a parsed body, in place, except under exempt keys. */
export function maskCardsDeep(value: unknown): unknown {
  if (typeof value === 'string') return maskCardNumbers(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = maskCardsDeep(value[i]);
    return value;
  }
  const obj = value as Record<string, unknown>;
  for (const k of Object.keys(obj)) {
    if (isExemptKey(k)) continue;
    obj[k] = maskCardsDeep(obj[k]);
  }
  return value;
}
