/** The `transactions:*` channels: today's list, search, detail, refund, void and tip adjust. */
import { z } from 'zod';
import type { CardVerification } from '../payments/receipt-wording';
import { approvalSchema, centsSchema, idSchema } from './common';
import { COUNTER, audits, type ChannelDeclarations } from './channel-declaration';

export type TransactionKind = 'sale' | 'refund' | 'other';
export type TransactionState = 'approved' | 'declined' | 'voided' | 'refunded' | 'partially_refunded' | 'pending' | 'other';

/** A transaction as the screens see it: amounts in cents, card masked, sentences ready to read out. */
export interface TransactionView {
  id: string;
  apiId: string | null;
  kind: TransactionKind;
  state: TransactionState;
  statusId: number;
  reasonCodeId: number | null;
  /** Plain sentence for the cashier (e.g. "Declined: the card has insufficient funds."). */
  message: string;
  /**
   * The money this record actually moved: the approved amount (auth_amount after any
   * authcomplete, partial reversal or tip edit) — what totals, refunds and receipts
   * count. For a declined sale nothing moved; it carries the amount asked, for display.
   */
  amountCents: number;
  /** The amount asked (transaction_amount). Above amountCents on a partial approval. */
  requestedCents: number;
  /** The issuer approved less than was asked (reason 1201): requestedCents − amountCents is still to collect. */
  partial: boolean;
  taxCents: number;
  tipCents: number;
  /** Sum of approved refunds against this sale. */
  refundedCents: number;
  /** What may still be refunded (0 unless an approved, unvoided sale). */
  refundableCents: number;
  voidable: boolean;
  cardBrand: string;
  lastFour: string;
  authCode: string | null;
  /** Unix seconds. */
  createdTs: number;
  settled: boolean;
  previousTransactionId: string | null;
  notificationEmail: string | null;
  /** The short reference printed on receipts as "Ref" (last 8 characters of the id, upper case); Find accepts it. */
  ref: string;
  /** How the payment was presented (terminal entry modes and checks); absent means keyed. */
  entryMode?: EntryMode;
  /** A chip or contactless read: what its receipt must print (null or absent otherwise). */
  emv?: EmvReceipt | null;
  /** A check paid by electronic debit: its number (null or absent otherwise). */
  checkNumber?: string | null;
  /** Taken while the gateway could not be reached: approved offline, waiting in the offline queue (issue 13). */
  offline?: boolean;
  /** The receipt carries a signature line (credit, keyed or swiped, or a signature CVM). */
  signatureLine: boolean;
  /** The counter user who rang it up or refunded it (this app's own record); null for transactions made elsewhere. */
  clerkName: string | null;
  /** The counter user who voided it, when voided here. */
  voidedBy: string | null;
  /** A sale that collects the rest of a partial approval: the first sale's id. */
  collectsRestOf: string | null;
}

export type EntryMode = 'keyed' | 'swiped' | 'chip' | 'contactless' | 'check';

/** The EMV data of a chip or contactless receipt (the gateway's emv_receipt_data). */
export interface EmvReceipt {
  aid: string;
  /** The application's preferred name, else its label. */
  label: string;
  cvm: CardVerification;
  tvr: string | null;
  tsi: string | null;
}

export interface RefundOutcome {
  approved: boolean;
  message: string;
  refund: TransactionView;
  original: TransactionView;
}

export interface TransactionTotals {
  salesCount: number;
  salesCents: number;
  refundsCount: number;
  refundsCents: number;
  voidsCount: number;
  voidsCents: number;
  declinedCount: number;
  /** Sales minus refunds (voids and declines excluded). */
  netCents: number;
}

/** One page of today's transactions; the renderer asks page after page and shows rows as they come. */
export interface TodayTransactions {
  rows: TransactionView[];
  /** Totals of this page's rows. */
  totals: TransactionTotals;
  /** Unix seconds of local midnight the list starts at. */
  since: number;
  /** Unix seconds the snapshot ends at: pass it back for the next pages so they do not shift. */
  until: number;
  page: number;
  pageCount: number;
}

export const TODAY_PAGE_SIZE = 5000;

export const todayArgsSchema = z.strictObject({
  page: z.number().int().min(1).max(1000),
  until: z.number().int().min(0).max(4_102_444_800).optional(),
});

export const transactionIdArgsSchema = z.strictObject({ id: idSchema });

export const transactionSearchArgsSchema = z
  .strictObject({
    lastFour: z.string().regex(/^\d{4}$/, 'The last four are 4 digits.').optional(),
    amountCents: centsSchema.min(1).optional(),
    /** Unix seconds, inclusive. */
    from: z.number().int().min(0).max(4_102_444_800).optional(),
    to: z.number().int().min(0).max(4_102_444_800).optional(),
    transactionApiId: z.string().min(1).max(64).regex(/^\S+$/, 'A transaction ID has no spaces.').optional(),
    /** The 6-character approval code printed on the receipt. */
    authCode: z.string().regex(/^[A-Za-z0-9]{1,12}$/, 'An auth code is letters and digits.').optional(),
    /** The receipt's short "Ref". */
    ref: z.string().regex(/^[A-Za-z0-9]{8}$/, 'The Ref on the receipt is 8 letters and digits.').optional(),
  })
  .refine((a) => a.from === undefined || a.to === undefined || a.from <= a.to, {
    message: 'The start date must be before the end date.',
    path: ['from'],
  });
export type TransactionSearchArgs = z.infer<typeof transactionSearchArgsSchema>;

/** A cashier's refund or void runs with a manager's PIN as `approval` (issue 21, point 12); a manager signed in needs none. */
export const refundArgsSchema = z.strictObject({ id: idSchema, amountCents: centsSchema.min(1), approval: approvalSchema.optional() });
export const voidArgsSchema = z.strictObject({ id: idSchema, approval: approvalSchema.optional() });
/** Issue 21, point 10b: the tip from the signed slip, before the batch settles; lowering one is a manager's (a cashier's with `approval`). */
export const adjustTipArgsSchema = z.strictObject({ id: idSchema, tipCents: centsSchema, approval: approvalSchema.optional() });

export interface TipAdjustOutcome {
  transaction: TransactionView;
  previousTipCents: number;
  /** The counter user the adjust ran as: the manager who approved a cashier's lowered tip. */
  adjustedBy: string;
}

export const transactionsHandlers = {
  'transactions:today': { args: todayArgsSchema, access: COUNTER, effect: 'read', audit: 'none' },
  'transactions:search': { args: transactionSearchArgsSchema, access: COUNTER, effect: 'read', audit: 'none' },
  'transactions:view': { args: transactionIdArgsSchema, access: COUNTER, effect: 'read', audit: 'none' },
  'transactions:refund': { args: refundArgsSchema, access: COUNTER, effect: 'money', audit: audits(['refund'], ['amount', 'transaction', 'detail', 'approver']) },
  'transactions:void': { args: voidArgsSchema, access: COUNTER, effect: 'money', audit: audits(['void'], ['amount', 'transaction', 'detail', 'approver']) },
  'transactions:adjust-tip': { args: adjustTipArgsSchema, access: COUNTER, effect: 'money', audit: audits(['tip-adjust'], ['amount', 'transaction', 'detail', 'approver']) },
} as const satisfies ChannelDeclarations;

export interface TransactionsResults {
  'transactions:today': TodayTransactions;
  'transactions:search': TransactionView[];
  'transactions:view': TransactionView;
  'transactions:refund': RefundOutcome;
  'transactions:void': TransactionView;
  'transactions:adjust-tip': TipAdjustOutcome;
}
