/** The `receipt:*` channels: print and e-mail a transaction's receipt. */
import { z } from 'zod';
import { idSchema } from './common';
import { transactionIdArgsSchema } from './transactions';
import { COUNTER, type ChannelDeclarations } from './channel-declaration';

export const receiptEmailArgsSchema = z.strictObject({ id: idSchema, email: z.email('Enter an e-mail address like name@example.com.').max(128) });

export const receiptsHandlers = {
  'receipt:print': { args: transactionIdArgsSchema, access: COUNTER, effect: 'transient', audit: 'none' },
  'receipt:email': { args: receiptEmailArgsSchema, access: COUNTER, effect: 'records', audit: 'none' },
} as const satisfies ChannelDeclarations;

export interface ReceiptsResults {
  /** In the node host this always fails with code `use_browser_print`: the renderer then calls window.print(). */
  'receipt:print': { savedTo: string | null };
  /** `delivery`: sent only when the mail server took it; otherwise waiting, and why (issue 21). */
  'receipt:email': { sentTo: string; delivery: ReceiptDelivery };
}

export type ReceiptDelivery = { state: 'sent'; why: null } | { state: 'waiting'; why: string };
