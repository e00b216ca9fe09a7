/**
 * The `outbox:*` channels: every e-mail and SMS the gateway queued for this store
 * (receipts, pay links, invoices, reminders, recurring notices), newest first, with its
 * link and whether it was sent. Managers only. Read from the engine's
 * `GET /v2/notifications` (an engine extension; a remote gateway without it answers 404,
 * shown as a plain sentence).
 */
import { z } from 'zod';
import { MANAGER, type ChannelDeclarations } from './channel-declaration';

export const OUTBOX_CHANNELS = ['email', 'sms'] as const;
export type OutboxChannel = (typeof OUTBOX_CHANNELS)[number];

/** Plain words for the kinds the engine queues; an unknown kind is shown as sent. */
export const OUTBOX_KIND_LABELS: Record<string, string> = {
  receipt: 'Receipt',
  recurring_notice: 'Recurring notice',
  paylink: 'Pay link',
  quick_invoice: 'Invoice',
  invoice_reminder: 'Invoice reminder',
  thank_you: 'Thank you',
};

/** The screen's sentences (declared here so tests assert the same constants). */
export const OUTBOX_TEXT = {
  empty: 'No e-mail or SMS has been queued yet.',
  emptyFiltered: 'No message of this kind has been queued yet.',
  queued: 'Waiting to be sent',
  smsQueued: 'Queued (no SMS service connected)',
} as const;

export interface OutboxMessage {
  id: string;
  channel: OutboxChannel;
  kind: string;
  /** E-mail address or phone number. */
  to: string;
  subject: string;
  body: string;
  /** The payment page or invoice the message links to, if any. */
  link: string | null;
  /** Unix seconds. */
  createdTs: number;
  sentTs: number | null;
  /** Why the mail server refused it (last try), if it did. */
  error: string | null;
}

export const OUTBOX_PAGE_SIZE = 50;

export const outboxListArgsSchema = z.strictObject({
  channel: z.enum(OUTBOX_CHANNELS).optional(),
  page: z.number().int().min(1).max(100_000),
});
export type OutboxListArgs = z.infer<typeof outboxListArgsSchema>;

export interface OutboxPage {
  rows: OutboxMessage[];
  total: number;
  page: number;
  pageCount: number;
}

export const outboxHandlers = {
  'outbox:list': { args: outboxListArgsSchema, access: MANAGER, effect: 'read', audit: 'none' },
} as const satisfies ChannelDeclarations;

export interface OutboxResults {
  'outbox:list': OutboxPage;
}
