/**
 * Demo / performance data for the Transactions list: `?demo-rows=100000` in the
 * address fills today's list with generated rows instead of asking the core, and the
 * screen says so in a banner. It exists so the list can be shown (and tested) at a
 * size no sandbox day reaches; no generated row is ever sent to the gateway.
 */
import type { TransactionView } from '../../../shared/ipc/contract';

export const DEMO_ROWS_PARAM = 'demo-rows';
export const MAX_DEMO_ROWS = 200_000;

export function demoRowCount(search: string = window.location.search): number {
  const n = Number(new URLSearchParams(search).get(DEMO_ROWS_PARAM));
  return Number.isInteger(n) && n > 0 ? Math.min(n, MAX_DEMO_ROWS) : 0;
}

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
