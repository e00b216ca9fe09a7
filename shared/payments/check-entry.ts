/**
 * A check keyed from the numbers printed on it, when the scanner cannot read its MICR line
 * (GATEWAY-FACTS "Check scanners"): routing (9 digits, its 3-7-1 checksum checked as typed),
 * account and check number. The counter's form and the core's schema use the same rules.
 */
import { abaRoutingValid, ACH_ACCOUNT_DIGITS, achAccountValid } from './aba-routing';

export const KEYED_CHECK_MSG = {
  routingShort: 'A routing number is 9 digits.',
  routingInvalid: 'This routing number is not valid. Check the 9 digits.',
  account: `The account number is ${ACH_ACCOUNT_DIGITS.min} to ${ACH_ACCOUNT_DIGITS.max} digits.`,
  checkNumber: 'Type the check number (up to 15 digits).',
} as const;

/** Null when fine; while typing (final false) a short number is not an error yet, a wrong 9th digit is. */
export function routingError(routing: string, final: boolean): string | null {
  if (routing.length < 9) return final ? KEYED_CHECK_MSG.routingShort : null;
  return abaRoutingValid(routing) ? null : KEYED_CHECK_MSG.routingInvalid;
}

export function accountError(account: string, final: boolean): string | null {
  if (achAccountValid(account)) return null;
  return final || account.length > ACH_ACCOUNT_DIGITS.max ? KEYED_CHECK_MSG.account : null;
}

export function checkNumberError(checkNumber: string, final: boolean): string | null {
  return /^\d{1,15}$/.test(checkNumber) || (!final && checkNumber === '') ? null : KEYED_CHECK_MSG.checkNumber;
}
