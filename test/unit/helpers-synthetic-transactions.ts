/**
 * Generated transaction views for the list-filter unit tests (100,000 rows in a
 * millisecond). The end-to-end test of a busy day uses real engine transactions instead.
 */
import type { TransactionView } from '../../shared/ipc/contract';

const BRANDS = ['Visa', 'Mastercard', 'Amex', 'Discover'] as const;

/** Deterministic rows (a small LCG), newest first, spread over today. */
export function syntheticTransactions(count: number, since: number): TransactionView[] {
  let seed = 12345;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const rows: TransactionView[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const r = rnd();
    const kind = r < 0.9 ? 'sale' : 'refund';
    const state = kind === 'refund' ? 'approved' : r < 0.03 ? 'voided' : r < 0.06 ? 'declined' : 'approved';
    const amountCents = 100 + Math.floor(rnd() * 20000);
    const lastFour = String(1000 + Math.floor(rnd() * 9000));
    rows[i] = {
      id: `demo-${i}`,
      apiId: null,
      kind,
      state,
      statusId: state === 'voided' ? 201 : state === 'declined' ? 301 : 101,
      reasonCodeId: state === 'declined' ? 1500 : 1000,
      message: state === 'declined' ? 'Declined by the card issuer.' : 'Approved.',
      amountCents,
      requestedCents: amountCents,
      partial: false,
      ref: String(i).padStart(8, '0'),
      entryMode: 'keyed',
      signatureLine: true,
      clerkName: null,
      voidedBy: null,
      collectsRestOf: null,
      taxCents: 0,
      tipCents: 0,
      refundedCents: 0,
      refundableCents: 0,
      voidable: false,
      cardBrand: BRANDS[i % 4]!,
      lastFour,
      authCode: null,
      createdTs: since + 86_399 - Math.floor((i * 86_399) / Math.max(1, count)),
      settled: false,
      previousTransactionId: null,
      notificationEmail: null,
    };
  }
  return rows;
}
