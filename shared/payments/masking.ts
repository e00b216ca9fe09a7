/**
 * Masking of account numbers for display, receipts and storage. Only the first six
 * and last four digits ever leave the vault (PCI DSS allows at most these).
 */
export function firstSix(accountNumber: string): string {
  return accountNumber.slice(0, 6);
}

export function lastFour(accountNumber: string): string {
  return accountNumber.slice(-4);
}

/** "4111 11•• •••• 1111"-style mask without separators: 411111******1111. */
export function maskAccountNumber(accountNumber: string): string {
  if (accountNumber.length <= 10) return '*'.repeat(Math.max(0, accountNumber.length - 4)) + lastFour(accountNumber);
  return firstSix(accountNumber) + '*'.repeat(accountNumber.length - 10) + lastFour(accountNumber);
}

/** Receipt line: "VISA ************1111" style (brand label + last four). */
export function maskForReceipt(lastFourDigits: string, brandLabel = ''): string {
  return `${brandLabel ? brandLabel.toUpperCase() + ' ' : ''}************${lastFourDigits}`;
}
