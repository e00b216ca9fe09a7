/**
 * ABA routing number check: 9 digits, weights 3-7-1 repeated, sum divisible by 10.
 * Used for ACH (typed routing numbers and MICR lines from check scanners).
 */
export function abaRoutingValid(routing: string): boolean {
  if (!/^\d{9}$/.test(routing)) return false;
  const w = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (routing.charCodeAt(i) - 48) * (w[i] ?? 0);
  return sum % 10 === 0;
}

/** ACH bank account numbers the gateway accepts: 4 to 17 digits (the family's test data). */
export const ACH_ACCOUNT_DIGITS = { min: 4, max: 17 } as const;

export function achAccountValid(account: string): boolean {
  return /^\d+$/.test(account) && account.length >= ACH_ACCOUNT_DIGITS.min && account.length <= ACH_ACCOUNT_DIGITS.max;
}
