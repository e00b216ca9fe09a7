/** The `sale:*` channels: the counter's configuration and charging a sale. */
import { z } from 'zod';
import { approvalSchema, centsSchema, idSchema } from './common';
import type { TransactionView } from './transactions';
import type { TipRules } from '../payments/tip-suggestions';
import { COUNTER, audits, type ChannelDeclarations } from './channel-declaration';

/**
 * Card data for one keyed sale. It crosses the boundary exactly once, renderer → core,
 * and is never logged, stored or returned.
 */
export const keyedCardSchema = z.strictObject({
  number: z.string().regex(/^\d{13,19}$/, 'A card number is 13 to 19 digits.'),
  /** MMYY */
  expiry: z.string().regex(/^(0[1-9]|1[0-2])\d{2}$/, 'The expiry date is MMYY.'),
  cvv: z.string().regex(/^\d{3,4}$/, 'The security code is 3 or 4 digits.'),
  zip: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9 -]{1,8}[A-Za-z0-9]$/, 'The ZIP or postal code is 3 to 10 letters or digits.'),
});
export type KeyedCard = z.infer<typeof keyedCardSchema>;

/**
 * What the cashier confirmed on the large-amount and large-tip questions (shared/amount-guards.ts).
 * Every channel that takes money carries them; the core refuses an amount above the store's
 * threshold unless its total was confirmed, whatever screen sent it.
 */
export const guardConfirmationFields = {
  /** The total the cashier confirmed on the large-amount question (needed above the store's confirmation threshold). */
  confirmedCents: centsSchema.optional(),
  /** The custom tip the cashier confirmed (needed when the tip is above the store's share of the amount). */
  confirmedTipCents: centsSchema.optional(),
};

export const saleChargeArgsSchema = z.strictObject({
  subtotalCents: centsSchema.min(1),
  taxCents: centsSchema,
  tipCents: centsSchema,
  card: keyedCardSchema,
  /** The renderer's attempt id: groups the retries of this tender in this window; the core makes and binds the transaction_api_id (tender-refs.ts). */
  clientRef: idSchema,
  ...guardConfirmationFields,
  /** This sale collects the rest of a partial approval: the first sale's transaction id. */
  collectsRestOf: idSchema.optional(),
});
export type SaleChargeArgs = z.infer<typeof saleChargeArgsSchema>;

export interface SaleConfig {
  merchantName: string;
  /** The store's three percents offered on screen (plus custom); a terminal asks with its own (TerminalStatus.tipPercents). */
  tipPercents: number[];
  tipEnabled: boolean;
  /** The tip base and smart tips (the store settings'): what the three percents are taken of, or flat amounts instead. */
  tipRules: TipRules;
  /** Sales tax rate in basis points (825 = 8.25 %); 0 hides the tax option. */
  taxRateBasisPoints: number;
  /** A new sale starts with tax switched on. */
  taxOnByDefault: boolean;
  /** Totals above this ask for a second confirmation that shows the amount large. */
  confirmAboveCents: number;
  /** Totals above this are refused (by the screen and by the core). */
  hardCapCents: number;
  /** A tip above this percent of the amount asks for confirmation. */
  tipConfirmPercent: number;
  /** Receipt header lines under the store name (address, phone); empty when not set. */
  storeAddress: string;
  storePhone: string;
}

/** `sale:outcome`: what the gateway knows of the sale this window sent under this attempt id (null: it has no record, nothing was charged). */
export interface SaleLookup {
  outcome: SaleOutcome | null;
}

export const saleOutcomeArgsSchema = z.strictObject({ clientRef: idSchema });

export interface SaleOutcome {
  approved: boolean;
  message: string;
  transaction: TransactionView;
}

/** How a payment whose answer was lost was paid (lost-payments.ts). */
export type LostPaymentWay = 'keyed' | 'saved' | 'terminal' | 'check';
/** `checking`: not known yet; the rest is what the gateway's records (or their absence past its processing bound) said. */
export type LostPaymentState = 'checking' | 'approved' | 'declined' | 'not_charged' | 'not_counted';

/**
 * A payment whose answer was lost, as the counter's banner shows it until someone has seen what
 * it became: after a restart, an idle lock or another sign-in too (issue 20, point 3).
 */
export interface LostPaymentView {
  /** Names it for `sale:lost-seen` (the core's reference; never a way to pay). */
  id: string;
  way: LostPaymentWay;
  /** What was asked, tip included when it was fixed. */
  amountCents: number;
  /** Who rang it up. */
  cashierName: string;
  /** Unix milliseconds of the first attempt. */
  sentAt: number;
  state: LostPaymentState;
  /** What the banner says, in words. */
  message: string;
  /** The gateway's record, once found. */
  transactionId: string | null;
}

export const salesHandlers = {
  'sale:config': { args: z.void(), access: COUNTER, effect: 'read', audit: 'none' },
  'sale:charge': { args: saleChargeArgsSchema, access: COUNTER, effect: 'money', audit: audits(['sale'], ['amount', 'transaction', 'detail']) },
  'sale:outcome': { args: saleOutcomeArgsSchema, access: COUNTER, effect: 'read', audit: 'none' },
  /**
   * Any signed-in user may void a partial approval (to start over); other voids need a manager. A
   * card payment of a paid cart is a cart return (issue 20): a manager signed in, or their PIN as `approval`.
   */
  'sale:void-partial': { args: z.strictObject({ id: idSchema, approval: approvalSchema.optional() }), access: COUNTER, effect: 'money', audit: audits(['void'], ['amount', 'transaction', 'detail', 'approver']) },
  /** Payments whose answer was lost, unknown or concluded and not yet seen at this counter (any counter user). */
  'sale:lost-list': { args: z.void(), access: COUNTER, effect: 'read', audit: 'none' },
  /** Someone at the counter saw what a lost payment became: it leaves the banner (audited). */
  'sale:lost-seen': { args: z.strictObject({ id: z.string().regex(/^rr-[A-Za-z0-9_-]{16,64}$/, 'Not a payment of this register.') }), access: COUNTER, effect: 'records', audit: 'none' },
} as const satisfies ChannelDeclarations;

export interface SalesResults {
  'sale:config': SaleConfig;
  'sale:charge': SaleOutcome;
  'sale:outcome': SaleLookup;
  'sale:void-partial': TransactionView;
  'sale:lost-list': LostPaymentView[];
  'sale:lost-seen': LostPaymentView[];
}

export interface SalesEventPayloads {
  /** The lost payments changed (one was sent, found, concluded or seen): the whole list, for every window. */
  'sale:lost': LostPaymentView[];
}
export const salesEventNames = ['sale:lost'] as const;
