/**
 * The `paypages:*` channels (managers, Gateway screen): the public address the store's pay
 * links and invoices use, kept on the gateway's location (its pay_page_url), and whether a
 * customer's phone can open the links as they are now.
 */
import { z } from 'zod';
import { isPayAddress, PAY_ADDRESS_MAX, PAY_ADDRESS_TEXT } from '../pay-page-address';
import { MANAGER, audits, type ChannelDeclarations } from './channel-declaration';

export const payPagesSetArgsSchema = z.strictObject({
  /** '' clears it: the links go back to the gateway's own address. */
  address: z
    .string()
    .trim()
    .max(PAY_ADDRESS_MAX, PAY_ADDRESS_TEXT.tooLong)
    .refine((a) => a === '' || isPayAddress(a), PAY_ADDRESS_TEXT.invalid),
});

export interface PayPagesView {
  /** What the manager set ('' when none). */
  address: string;
  /** Where the links point now: the address, else the gateway's own. */
  linksAt: string;
  /** Why a customer's phone cannot open them, in words; null when it can. */
  unreachable: string | null;
}

export const payPagesHandlers = {
  'paypages:get': { args: z.void(), access: MANAGER, effect: 'read', audit: 'none' },
  'paypages:set': { args: payPagesSetArgsSchema, access: MANAGER, effect: 'settings', audit: audits(['settings-change'], ['detail']) },
} as const satisfies ChannelDeclarations;

export interface PayPagesResults {
  'paypages:get': PayPagesView;
  'paypages:set': PayPagesView;
}
