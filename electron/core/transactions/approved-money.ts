/**
 * What a transaction counts for in a manager's totals (batches, X and Z reports): only
 * money actually approved. A sale counts its `auth_amount` (what the processor approved
 * after any authcomplete, partial reversal or tip edit: a 2.01 sandbox sale counts 1.00),
 * a refund its approved amount; voids and declines count nothing. One definition, used by
 * every total so they reconcile with the engine's records.
 *
 * Simplification: an authorisation not yet captured (status 102) is not counted — it has
 * not been collected and does not settle.
 */
import type { BatchRow, BreakdownRow, MoneyTotals } from '../../../shared/ipc/batches';
import { parseMoney } from '../../../shared/payments/money';
import type { V2Transaction } from '../../client/v2-types';
import { brandLabel } from '../sales/card-brand';
import { STATUS, TYPE } from './transaction-view';

export type CountedAs = 'sale' | 'refund' | 'void' | 'declined' | 'other';

export interface CountedTransaction {
  id: string;
  as: CountedAs;
  /** Approved cents (0 unless a counted sale or refund). */
  approvedCents: number;
  askedCents: number;
  tipCents: number;
  taxCents: number;
  brand: string;
  entryModeKey: string;
  /** The clerk who rang it up, when the transaction carries one. */
  clerk: string | null;
  createdTs: number;
}

export const ENTRY_MODES: Readonly<Record<string, string>> = {
  K: 'Keyed',
  S: 'Swiped',
  C: 'Chip',
  P: 'Contactless',
  F: 'Fallback',
  B: 'Barcode',
};
export const UNKNOWN_ENTRY_MODE = 'Not recorded';

export function entryModeLabel(key: string): string {
  return ENTRY_MODES[key] ?? UNKNOWN_ENTRY_MODE;
}

/** The approved amount: auth_amount when the gateway sends it, else the amount (a gateway that approves in full). */
function approvedOf(t: V2Transaction): number {
  return parseMoney(t.auth_amount) ?? parseMoney(t.transaction_amount) ?? 0;
}

export function countedAs(t: V2Transaction): CountedAs {
  const status = Number(t.status_id ?? 0);
  const type = Number(t.type_id ?? 0);
  if (status === STATUS.declined) return 'declined';
  if (status === STATUS.voided) return 'void';
  if (type === TYPE.sale && (status === STATUS.approved || status === STATUS.settled)) return 'sale';
  if (type === TYPE.refund && (status === STATUS.refunded || status === STATUS.approved || status === STATUS.settled)) return 'refund';
  return 'other';
}

export function counted(t: V2Transaction): CountedTransaction {
  const as = countedAs(t);
  const money = as === 'sale' || as === 'refund';
  const clerk = typeof t.clerk_number === 'string' && t.clerk_number.trim() ? t.clerk_number.trim() : null;
  return {
    id: t.id,
    as,
    approvedCents: money ? approvedOf(t) : 0,
    askedCents: parseMoney(t.transaction_amount) ?? 0,
    tipCents: as === 'sale' ? (parseMoney(t.tip_amount) ?? 0) : 0,
    taxCents: as === 'sale' ? (parseMoney(t.tax) ?? 0) : 0,
    brand: brandLabel(t.account_type, t.first_six),
    entryModeKey: typeof t.entry_mode_id === 'string' ? t.entry_mode_id : '',
    clerk,
    createdTs: Number(t.created_ts ?? 0),
  };
}

function emptyBreakdown(key: string, label: string): BreakdownRow {
  return { key, label, sales: { count: 0, cents: 0 }, refunds: { count: 0, cents: 0 }, tipsCents: 0 };
}

/** Adds one counted transaction to a breakdown map (sales and refunds only). */
export function addToBreakdown(map: Map<string, BreakdownRow>, key: string, label: string, c: CountedTransaction): void {
  if (c.as !== 'sale' && c.as !== 'refund') return;
  let row = map.get(key);
  if (!row) map.set(key, (row = emptyBreakdown(key, label)));
  const line = c.as === 'sale' ? row.sales : row.refunds;
  line.count++;
  line.cents += c.approvedCents;
  row.tipsCents += c.tipCents;
}

export function sortedBreakdown(map: Map<string, BreakdownRow>): BreakdownRow[] {
  return [...map.values()].sort((a, b) => b.sales.cents - a.sales.cents || a.label.localeCompare(b.label));
}

export function totalsOfCounted(list: readonly CountedTransaction[]): MoneyTotals {
  const t: MoneyTotals = {
    sales: { count: 0, cents: 0 },
    refunds: { count: 0, cents: 0 },
    voids: { count: 0, cents: 0 },
    declinedCount: 0,
    netCents: 0,
    tipsCents: 0,
    taxCents: 0,
    byBrand: [],
    byEntryMode: [],
  };
  const brands = new Map<string, BreakdownRow>();
  const modes = new Map<string, BreakdownRow>();
  for (const c of list) {
    if (c.as === 'sale') {
      t.sales.count++;
      t.sales.cents += c.approvedCents;
      t.tipsCents += c.tipCents;
      t.taxCents += c.taxCents;
    } else if (c.as === 'refund') {
      t.refunds.count++;
      t.refunds.cents += c.approvedCents;
    } else if (c.as === 'void') {
      t.voids.count++;
      t.voids.cents += c.askedCents;
    } else if (c.as === 'declined') t.declinedCount++;
    addToBreakdown(brands, c.brand, c.brand, c);
    addToBreakdown(modes, c.entryModeKey || '?', entryModeLabel(c.entryModeKey), c);
  }
  t.netCents = t.sales.cents - t.refunds.cents;
  t.byBrand = sortedBreakdown(brands);
  t.byEntryMode = sortedBreakdown(modes);
  return t;
}

const ROW_LABELS: Readonly<Record<CountedAs, string>> = { sale: 'Approved', refund: 'Refund', void: 'Voided', declined: 'Declined', other: 'Other' };

export function batchRowOf(t: V2Transaction): BatchRow {
  const c = counted(t);
  const type = Number(t.type_id ?? 0);
  return {
    id: t.id,
    createdTs: c.createdTs,
    kind: type === TYPE.sale ? 'sale' : type === TYPE.refund ? 'refund' : 'other',
    stateLabel: c.as === 'sale' && c.approvedCents < c.askedCents ? 'Part approved' : ROW_LABELS[c.as],
    cardBrand: c.brand,
    lastFour: (t.last_four ?? '').slice(-4),
    entryMode: entryModeLabel(c.entryModeKey),
    approvedCents: c.approvedCents,
    askedCents: c.askedCents,
  };
}
