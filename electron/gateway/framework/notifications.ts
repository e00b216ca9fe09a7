/**
 * Outgoing e-mail and SMS. Every message is a row in `notification_outbox` first (the
 * persisted outbox, readable by the app and through the engine); a transport (SMTP for
 * e-mail) picks unsent rows up and sets sent_ts. Receipts, recurring notices, pay links,
 * invoices and reminders all go through `ctx.notify`, so there is one outbox.
 */
export type NotificationChannel = 'email' | 'sms';

export interface NotificationInput {
  locationId: string;
  channel: NotificationChannel;
  /** E-mail address or phone number. */
  to: string;
  /** E-mail subject (SMS: a short title for the outbox list). */
  subject: string;
  /** Plain text; card numbers masked by the caller. */
  body: string;
  /** What the message is about: receipt, recurring_notice, paylink, quick_invoice, invoice_reminder, thank_you… */
  kind: string;
  /** The link the message carries (payment page, invoice page), if any. */
  link?: string;
  /** The record it concerns (resource name and id), if any. */
  resourceType?: string;
  resourceId?: string;
  transactionId?: string;
  /** When it was queued (default: the engine clock's now). */
  createdTs?: number;
}
