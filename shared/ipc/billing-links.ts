/**
 * The `paylinks:*` channels: pay links and quick invoices taken at the counter for phone
 * and mail orders (cashiers and managers): list them with paid / unpaid and the remaining
 * balance, create and send one, send it again. The payment page address (the engine's
 * own page) comes back so the counter can open it; nothing else of the gateway does.
 */
import { z } from 'zod';
import { centsSchema, idSchema } from './common';
import { COUNTER, audits, type ChannelDeclarations } from './channel-declaration';

export const BILLING_LINK_ERRORS = {
  amount: 'Type the amount to ask for, or leave it empty to let the customer type it.',
  email: 'This e-mail address does not look right.',
  phone: 'A cell phone number is 10 digits.',
  needRecipient: 'Type an e-mail address or a cell phone number to send it to.',
  title: 'Type what the invoice is for.',
  dueDate: 'Pick the date the invoice is due.',
  items: 'Add at least one line with a name and an amount.',
  itemName: 'Each line needs a name.',
} as const;

const emailSchema = z.union([z.literal(''), z.string().trim().email(BILLING_LINK_ERRORS.email).max(128)]);
const phoneSchema = z.union([z.literal(''), z.string().regex(/^\d{10}$/, BILLING_LINK_ERRORS.phone)]);

export const createPaylinkArgsSchema = z
  .strictObject({
    /** 0 = the customer types the amount on the page. */
    amountCents: centsSchema,
    description: z.string().trim().max(255),
    email: emailSchema,
    cellPhone: phoneSchema,
  })
  .refine((a) => a.email !== '' || a.cellPhone !== '', { message: BILLING_LINK_ERRORS.needRecipient, path: ['email'] });

export const invoiceItemSchema = z.strictObject({ name: z.string().trim().min(1, BILLING_LINK_ERRORS.itemName).max(128), amountCents: centsSchema });

export const createInvoiceArgsSchema = z
  .strictObject({
    title: z.string().trim().min(1, BILLING_LINK_ERRORS.title).max(64),
    dueDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, BILLING_LINK_ERRORS.dueDate),
    items: z.array(invoiceItemSchema).min(1, BILLING_LINK_ERRORS.items).max(50),
    email: emailSchema,
    cellPhone: phoneSchema,
    allowPartial: z.boolean(),
  })
  .refine((a) => a.email !== '' || a.cellPhone !== '', { message: BILLING_LINK_ERRORS.needRecipient, path: ['email'] });

export const resendArgsSchema = z.strictObject({ kind: z.enum(['paylink', 'invoice']), id: idSchema });

export interface PaylinkView {
  id: string;
  /** null: the customer types the amount. */
  amountCents: number | null;
  description: string | null;
  recipient: string;
  /** Only approved money counts: a partial approval leaves the link partly paid, the rest collectable on its page. */
  payment: BillingPayment;
  /** What is left to collect; null when the customer types the amount. */
  remainingCents: number | null;
  createdTs: number;
  pageUrl: string;
}

/** How much of a pay link or an invoice is collected. */
export type BillingPayment = 'unpaid' | 'partial' | 'paid';

export interface InvoiceView {
  id: string;
  title: string;
  amountDueCents: number;
  remainingCents: number;
  payment: BillingPayment;
  open: boolean;
  dueDate: string;
  recipient: string;
  createdTs: number;
  pageUrl: string;
}

export interface BillingLinksView {
  paylinks: PaylinkView[];
  invoices: InvoiceView[];
}

export const billingLinksHandlers = {
  'paylinks:list': { args: z.void(), access: COUNTER, effect: 'read', audit: 'none' },
  'paylinks:create-link': { args: createPaylinkArgsSchema, access: COUNTER, effect: 'records', audit: audits(['pay-link'], ['amount', 'detail']) },
  'paylinks:create-invoice': { args: createInvoiceArgsSchema, access: COUNTER, effect: 'records', audit: audits(['pay-link'], ['amount', 'detail']) },
  'paylinks:resend': { args: resendArgsSchema, access: COUNTER, effect: 'records', audit: audits(['pay-link'], ['detail']) },
} as const satisfies ChannelDeclarations;

export interface BillingLinksResults {
  'paylinks:list': BillingLinksView;
  'paylinks:create-link': PaylinkView;
  'paylinks:create-invoice': InvoiceView;
  'paylinks:resend': null;
}
