/** The `receipt:*` channels: print and e-mail a transaction's receipt. */
import { z } from 'zod';
import { idSchema } from './common';
import { COUNTER, type ChannelDeclarations } from './channel-declaration';
import type { PrintOutcome } from './printers';

/** `merchantCopy`: print the merchant's copy too, though no signature line is due (issue 23). */
export const receiptPrintArgsSchema = z.strictObject({ id: idSchema, merchantCopy: z.boolean().optional() });
export const receiptEmailArgsSchema = z.strictObject({ id: idSchema, email: z.email('Enter an e-mail address like name@example.com.').max(128) });

export const receiptsHandlers = {
  'receipt:print': { args: receiptPrintArgsSchema, access: COUNTER, effect: 'transient', audit: 'none' },
  'receipt:email': { args: receiptEmailArgsSchema, access: COUNTER, effect: 'records', audit: 'none' },
} as const satisfies ChannelDeclarations;

export interface ReceiptsResults {
  /**
   * With a receipt printer registered: `printer`, what became of the print there. Without one, in
   * the node host this fails with code `use_browser_print`: the renderer then calls window.print().
   */
  'receipt:print': { savedTo: string | null; printer?: PrintOutcome };
  /** `delivery`: sent only when the mail server took it; otherwise waiting, and why (issue 21). */
  'receipt:email': { sentTo: string; delivery: ReceiptDelivery };
}

export type ReceiptDelivery = { state: 'sent'; why: null } | { state: 'waiting'; why: string };
