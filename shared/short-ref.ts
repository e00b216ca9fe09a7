/**
 * The short reference printed on receipts as "Ref": the last 8 characters of the
 * gateway's transaction id (dashes dropped), upper case. Find accepts it; the core's
 * clerk records index the same expression (pos-database.ts).
 */
export function shortRefOf(transactionId: string): string {
  return transactionId.replace(/-/g, '').slice(-8).toUpperCase();
}
