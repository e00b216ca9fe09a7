/**
 * The brand label a screen shows for a transaction. The gateway returns only
 * first_six / last_four (and usually `account_type`), so the label comes from
 * `account_type` first and otherwise from the leading digits' well-known prefixes
 * (shared/payments/card-brand.ts needs the full number, which never comes back).
 */
const ACCOUNT_TYPE_LABELS: Readonly<Record<string, string>> = {
  visa: 'Visa',
  mc: 'Mastercard',
  mastercard: 'Mastercard',
  amex: 'Amex',
  disc: 'Discover',
  discover: 'Discover',
  jcb: 'JCB',
  diners: 'Diners Club',
};

export function brandLabel(accountType: string | null | undefined, firstSix: string | null | undefined): string {
  const byType = ACCOUNT_TYPE_LABELS[(accountType ?? '').toLowerCase()];
  if (byType) return byType;
  const d = firstSix ?? '';
  if (/^4/.test(d)) return 'Visa';
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(d)) return 'Mastercard';
  if (/^3[47]/.test(d)) return 'Amex';
  if (/^(6011|65|64[4-9])/.test(d)) return 'Discover';
  return 'Card';
}
