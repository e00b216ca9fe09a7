/**
 * The `reports:*` channels: the end-of-day X report (any time, changes nothing) and the
 * Z report (closes the day: numbered, and the next report starts after it), the list of
 * past Z reports, and printing (80 mm roll or A4; a PDF in the desktop app).
 * Card totals count approved money only, exactly as the batches do; cash comes from the
 * app's own drawer records; the all-tenders lines add the two.
 */
import { z } from 'zod';
import type { PrintOutcome } from './printers';
import type { BreakdownRow, MoneyLine, MoneyTotals } from './batches';
import { centsSchema } from './common';
import { MANAGER, audits, type ChannelDeclarations } from './channel-declaration';

export interface HourBucket {
  /** 0–23, local time of the till. */
  hour: number;
  count: number;
  /** Card sales (approved) and cash taken in that hour (cash since issue 14; card only in earlier Z reports). */
  cents: number;
}

/** The store as the report was made: the printed header. */
export interface ReportStoreHeader {
  name: string;
  address: string;
  phone: string;
}

/**
 * Money moved in this period that concerns a sale or refund of an earlier period: a void or
 * refund counts in the period in which it happens (the earlier report stays as printed),
 * and the report says so.
 */
export interface EarlierPeriodLines {
  /** Card sales made in an earlier period and voided in this one: the earlier report counted them; this one takes them back. */
  voidedSales: MoneyLine;
  /** The tax those voided sales carried: taken back from this period's tax. */
  voidedSalesTaxCents: number;
  /** Card refunds made in an earlier period and voided in this one: that money stays with the store after all. */
  voidedRefunds: MoneyLine;
  /** Of this period's refunds (card refunds and cash given back), those of a sale made in an earlier period; already in the refunds. */
  refunds: MoneyLine;
}

/** Cash tenders of cart sales in the period (the app's drawer records; cash never reaches the gateway). */
export interface CashTenderTotals {
  /** Cash taken by sales (tendered less change), one per cash tender. */
  sales: MoneyLine;
  /** Cash given back: returned lines and cancelled sales. */
  refunds: MoneyLine;
  /** The tax of the cart sales paid in the period that the cash paid: the cart's tax less its card tenders' tax. */
  taxCents: number;
}

/** Every tender together: what the store took in the period. */
export interface AllTenderTotals {
  /** Card sales + cash taken. */
  sales: MoneyLine;
  /** Card refunds + cash given back. */
  refunds: MoneyLine;
  /** sales − refunds − earlier sales voided now + earlier refunds voided now. */
  netCents: number;
  /** Tax collected on all tenders: card + cash − the tax of earlier sales voided now. */
  taxCents: number;
}

/** The cash a manager counted at the close, against what the drawer should hold. */
export interface CashCount {
  /** The opening float the drawer started with. */
  floatCents: number;
  countedCents: number;
  /** floatCents + the drawer's expected cash. */
  expectedCents: number;
  /** countedCents − expectedCents: over when positive, short when negative. */
  overShortCents: number;
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
  /** The store's name, address and phone when the report was made. Absent in reports closed before it existed. */
  store?: ReportStoreHeader;
  /** Card money at the gateway, by the transactions created in the period: reconciles with the engine's records. */
  totals: MoneyTotals;
  /** Voids and refunds in this period of earlier periods' sales. Absent in reports closed before it existed. */
  earlier?: EarlierPeriodLines;
  /** Cash tenders (count, given back, tax). Absent in reports closed before it existed. */
  cashTenders?: CashTenderTotals;
  /** Card + cash: the period's sales, refunds, net and tax collected. Absent in reports closed before it existed. */
  allTenders?: AllTenderTotals;
  /** ACH debits (saved bank accounts, checks) taken in the period and still pending at the bank: in no total above. */
  achPending?: MoneyLine;
  /** The cash counted at the close (a Z closed with a count). */
  cashCount?: CashCount;
  /** Tips and sales per clerk (the transactions' clerk_number); "Not recorded" when absent. */
  byEmployee: BreakdownRow[];
  /** Approved card sales and cash taken per hour, all 24 hours. */
  byHour: HourBucket[];
  /** Sales taken offline and forwarded later, when the app records them (null: nothing to report). */
  offlineCount: number | null;
  /** Forwarded offline sales the gateway then declined (null: nothing to report). */
  declinedAfterForwardCount: number | null;
  /** Cash through the drawer in the period (cart sales): the expected cash to compare with the counted cash. Absent in reports closed before it existed. */
  cash?: CashSummary;
  /** Items sold and discounts given in the cart sales paid in the period. Absent in reports closed before it existed. */
  cartSales?: CartSalesSummary;
  /** The store day this Z was closed for (issue 24: the store's Z closes every register's day); absent for a Z of this register alone. */
  storeDay?: number;
}

export interface CartSalesSummary {
  /** Paid cart sales in the period. */
  carts: number;
  /** Per catalogue item and variant (open amounts by name): quantity and amount after discounts, before tax; largest amount first. */
  items: Array<{ name: string; quantity: number; cents: number }>;
  /**
   * Modifier options sold (issue 23), e.g. Extra shot × 3: how many items carried each and what they added
   * (their price × quantity, before discounts: the discounts are the lines'); most sold first. Absent on reports
   * closed before modifiers existed.
   */
  modifiers?: Array<{ name: string; quantity: number; cents: number }>;
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
  /** The net of all tenders (card only in Z reports closed before cash was counted). */
  netCents: number;
  closedBy: string;
}

export const PAPER_SIZES = ['80mm', 'a4'] as const;
export type PaperSize = (typeof PAPER_SIZES)[number];

export const reportPrintArgsSchema = z.strictObject({ paper: z.enum(PAPER_SIZES), name: z.string().regex(/^[a-z0-9-]{1,40}$/, 'A file name is letters, digits and dashes.') });
export const zReportArgsSchema = z.strictObject({ number: z.number().int().min(1).max(1_000_000) });
/** Closing the day, optionally with the drawer counted (the report then says over or short). */
export const closeDayArgsSchema = z
  .strictObject({
    countedCashCents: centsSchema.optional(),
    floatCents: centsSchema.optional(),
  })
  .optional();

export const reportsHandlers = {
  'reports:x': { args: z.void(), access: MANAGER, effect: 'read', audit: audits(['x-report'], ['amount', 'detail']) },
  'reports:z': { args: closeDayArgsSchema, access: MANAGER, effect: 'close', audit: audits(['z-report'], ['amount', 'detail']) },
  'reports:z-list': { args: z.void(), access: MANAGER, effect: 'read', audit: 'none' },
  'reports:z-view': { args: zReportArgsSchema, access: MANAGER, effect: 'read', audit: 'none' },
  'reports:print': { args: reportPrintArgsSchema, access: MANAGER, effect: 'transient', audit: audits(['report-print'], ['detail']) },
} as const satisfies ChannelDeclarations;

export interface ReportsResults {
  'reports:x': DayReport;
  'reports:z': DayReport;
  'reports:z-list': ZReportEntry[];
  'reports:z-view': DayReport;
  /** `printer`: printed on (or waiting for) the receipt printer, for an 80 mm report when one is registered (issue 23). */
  'reports:print': { savedTo: string | null; printer?: PrintOutcome };
}
