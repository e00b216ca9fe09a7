import { describe, expect, it } from 'vitest';
import { syntheticTransactions } from './helpers-synthetic-transactions';
import { applyFilters, matchesKind, matchesText, totalsOfRows } from '../../renderer/src/transactions/transaction-filters';

const rows = syntheticTransactions(100_000, 1_700_000_000);

describe("today's list filters", () => {
  it('generates deterministic demo rows, newest first', () => {
    expect(rows).toHaveLength(100_000);
    expect(syntheticTransactions(3, 0)).toEqual(syntheticTransactions(3, 0));
    expect(rows[0]!.createdTs).toBeGreaterThanOrEqual(rows[99_999]!.createdTs);
  });

  it('match by kind, last four, exact amount, brand or transaction ID', () => {
    const r = { ...rows[0]!, kind: 'sale' as const, state: 'approved' as const, lastFour: '1111', amountCents: 1250, cardBrand: 'Visa', apiId: 'abc-1' };
    expect(matchesKind(r, 'sales')).toBe(true);
    expect(matchesKind(r, 'refunds')).toBe(false);
    expect(matchesKind({ ...r, state: 'voided' }, 'voids')).toBe(true);
    expect(matchesKind({ ...r, state: 'voided' }, 'sales')).toBe(false);
    expect(matchesText(r, '1111')).toBe(true);
    expect(matchesText(r, '11')).toBe(true);
    expect(matchesText(r, '2222')).toBe(false);
    expect(matchesText(r, '12.50')).toBe(true);
    expect(matchesText(r, '$12.5')).toBe(true);
    expect(matchesText(r, '12.51')).toBe(false);
    expect(matchesText(r, 'vis')).toBe(true);
    expect(matchesText(r, 'abc-1')).toBe(true);
    expect(matchesText(r, '  ')).toBe(true);
  });

  it('filter and total 100,000 rows', () => {
    const refunds = applyFilters(rows, 'refunds', '12');
    const totals = totalsOfRows(rows);
    expect(refunds.every((r) => r.kind === 'refund' && r.lastFour.endsWith('12'))).toBe(true);
    expect(applyFilters(rows, 'all', '')).toBe(rows); // no copy when nothing filters
    expect(totals.salesCount + totals.refundsCount + totals.voidsCount + totals.declinedCount).toBe(100_000);
    expect(totals.netCents).toBe(totals.salesCents - totals.refundsCents);
  });
});
