/**
 * The `batches:*` channels: the open batch and its totals, its transactions page by page,
 * settle (and retry after a refused settle), the settled history and a CSV export.
 * Every total counts approved money only (auth_amount, not the amount asked).
 */
import { z } from 'zod';
import { idSchema } from './common';
import { MANAGER, audits, type ChannelDeclarations } from './channel-declaration';

/** A count and the approved cents it carries. */
export interface MoneyLine {
  count: number;
  cents: number;
}

/** One line of a breakdown (a card brand, an entry mode, an employee). */
export interface BreakdownRow {
  key: string;
  label: string;
  sales: MoneyLine;
  refunds: MoneyLine;
  tipsCents: number;
}

/** Totals of a set of transactions as a manager reads them; declared once for batches and day reports. */
export interface MoneyTotals {
  sales: MoneyLine;
  refunds: MoneyLine;
  /** Voided sales: not charged, listed for the record. */
  voids: MoneyLine;
  declinedCount: number;
  /** Approved sales minus approved refunds. */
  netCents: number;
  tipsCents: number;
  taxCents: number;
  byBrand: BreakdownRow[];
  byEntryMode: BreakdownRow[];
}

export type BatchState = 'open' | 'settled' | 'failed' | 'processing';

export interface BatchInfo {
  id: string;
  number: number;
  state: BatchState;
  /** Unix seconds. */
  createdTs: number;
  closedTs: number | null;
  fileName: string | null;
}

/** One transaction of a batch, lean enough for 100,000 rows. */
export interface BatchRow {
  id: string;
  createdTs: number;
  kind: 'sale' | 'refund' | 'other';
  /** "Approved", "Refund", "Voided", "Declined" … */
  stateLabel: string;
  cardBrand: string;
  lastFour: string;
  entryMode: string;
  /** What was approved (counted); 0 for voids and declines. */
  approvedCents: number;
  /** What was asked, shown beside a partial approval. */
  askedCents: number;
}

export interface BatchSummary {
  batch: BatchInfo;
  totals: MoneyTotals;
}

export interface BatchRowsPage {
  rows: BatchRow[];
  page: number;
  pageCount: number;
}

export interface SettleOutcome {
  settled: boolean;
  /** Plain sentence: what happened and what to do next. */
  message: string;
  batch: BatchInfo;
}

export interface BatchList {
  open: BatchInfo | null;
  /** Settled and refused batches, newest first. */
  history: BatchInfo[];
}

export const BATCH_PAGE_SIZE = 5000;

export const batchIdArgsSchema = z.strictObject({ batchId: idSchema });
/** A first page can be small (the first rows show at once); later pages are BATCH_PAGE_SIZE. */
export const batchRowsArgsSchema = z.strictObject({ batchId: idSchema, page: z.number().int().min(1).max(1000), pageSize: z.number().int().min(1).max(BATCH_PAGE_SIZE).optional() });

export const batchesHandlers = {
  'batches:list': { args: z.void(), access: MANAGER, effect: 'read', audit: 'none' },
  'batches:summary': { args: batchIdArgsSchema, access: MANAGER, effect: 'read', audit: 'none' },
  'batches:rows': { args: batchRowsArgsSchema, access: MANAGER, effect: 'read', audit: 'none' },
  'batches:settle': { args: batchIdArgsSchema, access: MANAGER, effect: 'close', audit: audits(['settle'], ['detail']) },
  'batches:csv': { args: batchIdArgsSchema, access: MANAGER, effect: 'read', audit: 'none' },
} as const satisfies ChannelDeclarations;

export interface BatchesResults {
  'batches:list': BatchList;
  'batches:summary': BatchSummary;
  'batches:rows': BatchRowsPage;
  'batches:settle': SettleOutcome;
  'batches:csv': { fileName: string; csv: string };
}
