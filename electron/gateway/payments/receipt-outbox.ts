/**
 * Receipts by e-mail: a receipt is a row in `notification_outbox` (to, subject, plain-text
 * body with the card masked, created_ts, sent_ts null), queued through `ctx.notify` like
 * every other message. The SMTP transport (../notifications/smtp-mailer.ts, when
 * configured) picks unsent rows up and sets sent_ts; the transaction's notification_email_sent is true once the receipt is queued.
 */
import { maskForReceipt } from '../../../shared/payments/masking';
import { reasonCodeSentence } from '../../../shared/payments/reason-codes';
import type { EngineContext } from '../framework/context';

const TYPE_LABEL: Record<number, string> = { 20: 'Sale', 21: 'AVS only', 30: 'Refund', 40: 'Credit', 50: 'Debit' };

export class ReceiptOutbox {
  constructor(private readonly ctx: EngineContext) {}

  /** Runs inside the transaction's write, so the receipt exists iff the transaction does. */
  recordReceipt(to: string, d: Record<string, unknown>, locationName: string, now: number): void {
    const type = TYPE_LABEL[Number(d.type_id)] ?? 'Transaction';
    const account = d.payment_method === 'ach' ? `Bank account ending ${String(d.last_four ?? '')}` : maskForReceipt(String(d.last_four ?? ''), String(d.account_type ?? ''));
    const when = new Date(Number(d.created_ts) * 1000).toISOString().replace('T', ' ').slice(0, 19) + ' UTC';
    const lines = [
      locationName || 'Receipt',
      '',
      `${type}: $${String(d.transaction_amount)}`,
      d.tip_amount ? `Tip included: $${String(d.tip_amount)}` : null,
      `Account: ${account}`,
      d.auth_code ? `Authorization: ${String(d.auth_code)}` : null,
      `Result: ${reasonCodeSentence(Number(d.reason_code_id))}`,
      `Date: ${when}`,
      `Transaction: ${String(d.id)}`,
      d.description ? `Description: ${String(d.description)}` : null,
    ].filter((l): l is string => l !== null);
    this.ctx.notify({
      locationId: String(d.location_id),
      channel: 'email',
      to,
      subject: `Your receipt from ${locationName || 'your merchant'}`,
      body: lines.join('\n') + '\n',
      kind: 'receipt',
      resourceType: 'transaction',
      resourceId: String(d.id),
      transactionId: String(d.id),
      createdTs: now,
    });
  }
}
