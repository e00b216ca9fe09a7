/**
 * The `reports:*` channels: the end-of-day X report (any time, changes nothing) and the
 * Z report (closes the day: numbered, and the next report starts after it), the list of
 * past Z reports, and printing (80 mm roll or A4; a PDF in the desktop app).
 * Totals count approved money only, exactly as the batches do.
 */
import { z } from 'zod';
import type { BreakdownRow, MoneyTotals } from './batches';

export interface HourBucket {
  /** 0–23, local time of the till. */
  hour: number;
  count: number;
  cents: number;
}

export interface DayReport {
  kind: 'x' | 'z';
  /** The Z number (null for an X report). */
  number: number | null;
  /** Unix seconds, inclusive: the period since the last Z (or since local midnight before the first Z). */
  from: number;
  to: number;
  /** Unix seconds. */
  generatedAt: number;
  generatedBy: string;
  totals: MoneyTotals;
  /** Tips and sales per clerk (the transactions' clerk_number); "Not recorded" when absent. */
  byEmployee: BreakdownRow[];
  /** Approved sales per hour, all 24 hours. */
  byHour: HourBucket[];
  /** Sales taken offline and forwarded later, when the app records them (null: nothing to report). */
  offlineCount: number | null;
  /** Forwarded offline sales the gateway then declined (null: nothing to report). */
  declinedAfterForwardCount: number | null;
  /** Cash through the drawer in the period (cart sales): the expected cash to compare with the counted cash. Absent in reports closed before it existed. */
  cash?: CashSummary;
  /** Items sold and discounts given in the cart sales paid in the period. Absent in reports closed before it existed. */
  cartSales?: CartSalesSummary;
}

export interface CartSalesSummary {
  /** Paid cart sales in the period. */
  carts: number;
  /** Per catalogue item (open amounts by name): quantity and amount after discounts, before tax; largest amount first. */
  items: Array<{ name: string; quantity: number; cents: number }>;
  /** Line and whole-sale discounts given. */
  discountsCents: number;
}

export interface CashSummary {
  /** Cash collected by sales (tendered less change). */
  salesCents: number;
  /** Cash given back: returned lines and cancelled sales. */
  refundsCents: number;
  /** salesCents − refundsCents: what the drawer should hold above its opening float. */
  expectedCents: number;
}

export interface ZReportEntry {
  number: number;
  from: number;
  to: number;
  netCents: number;
  closedBy: string;
}

export const PAPER_SIZES = ['80mm', 'a4'] as const;
export type PaperSize = (typeof PAPER_SIZES)[number];

export const reportPrintArgsSchema = z.strictObject({ paper: z.enum(PAPER_SIZES), name: z.string().regex(/^[a-z0-9-]{1,40}$/, 'A file name is letters, digits and dashes.') });
export const zReportArgsSchema = z.strictObject({ number: z.number().int().min(1).max(1_000_000) });

export const reportsHandlers = {
  'reports:x': z.void(),
  'reports:z': z.void(),
  'reports:z-list': z.void(),
  'reports:z-view': zReportArgsSchema,
  'reports:print': reportPrintArgsSchema,
} as const;

export interface ReportsResults {
  'reports:x': DayReport;
  'reports:z': DayReport;
  'reports:z-list': ZReportEntry[];
  'reports:z-view': DayReport;
  'reports:print': { savedTo: string | null };
}
