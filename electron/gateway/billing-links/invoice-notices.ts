/**
 * The invoice's messages, all through the one outbox (`ctx.notify`): the invoice itself
 * (on create and resend, e-mail and/or SMS, files attached when attach_files_to_email),
 * reminders before / on / after the due date as due work, and the thank-you once paid.
 * Reminders are recorded in quick_invoice_reminders in the same transaction as the
 * outbox row, so a rerun (scheduler tick, clock advance, restart) never sends one twice;
 * a reminder whose day passed while the engine was stopped is sent late rather than lost,
 * but only the latest one that fell due (a stopped week does not send three at once).
 */
import { formatMoneyDisplay, parseMoney } from '../../../shared/payments/money';
import type { EngineContext } from '../framework/context';
import type { DueWork } from '../framework/due-work';
import type { Row } from '../framework/resource';
import { addDays, invoiceUrl, locationName } from './billing-shared';
import { locationToday } from '../recurring/location-today';

const money = (v: unknown) => formatMoneyDisplay(parseMoney(v) ?? 0);

/** JSON for notification_outbox.attachments: the invoice's stored files. */
function attachmentsOf(ctx: EngineContext, invoiceId: unknown): string | null {
  const files = ctx.stmt('SELECT id AS file_id, file_name, content_type FROM quick_invoice_files WHERE quick_invoice_id = ? ORDER BY created_ts, id').all(invoiceId);
  return files.length ? JSON.stringify(files) : null;
}

function emailTo(row: Row): string | undefined {
  return typeof row.email === 'string' && row.email ? row.email : typeof row.notification_email === 'string' && row.notification_email ? row.notification_email : undefined;
}

function queue(ctx: EngineContext, row: Row, kind: string, channels: { email: boolean; sms: boolean }, subject: string, text: string, withFiles: boolean): number {
  const link = invoiceUrl(ctx, row);
  const base = { locationId: String(row.location_id), kind, link, resourceType: 'quickinvoice', resourceId: String(row.id) };
  let sent = 0;
  const to = emailTo(row);
  if (channels.email && to) {
    const id = ctx.notify({ ...base, channel: 'email', to, subject, body: `${text}\n\nView and pay: ${link}\n` });
    const files = withFiles && row.attach_files_to_email === 1 ? attachmentsOf(ctx, row.id) : null;
    if (files) ctx.stmt('UPDATE notification_outbox SET attachments = ? WHERE id = ?').run(files, id);
    sent++;
  }
  if (channels.sms && typeof row.cell_phone === 'string' && row.cell_phone) {
    ctx.notify({ ...base, channel: 'sms', to: row.cell_phone, subject, body: `${subject}: ${link}` });
    sent++;
  }
  return sent;
}

/** The invoice message (create, resend). Returns how many messages were queued. */
export function sendInvoice(ctx: EngineContext, row: Row, channels: { email: boolean; sms: boolean }): number {
  const merchant = locationName(ctx, row.location_id);
  const subject = `Invoice from ${merchant}: ${String(row.title)}`;
  const text = `${merchant} sent you an invoice "${String(row.title)}" for ${money(row.amount_due)}, due ${String(row.due_date)}. Balance: ${money(row.remaining_balance)}.${row.note ? `\n\n${String(row.note)}` : ''}`;
  return queue(ctx, row, 'quick_invoice', channels, subject, text, true);
}

export function sendThankYou(ctx: EngineContext, row: Row): void {
  const merchant = locationName(ctx, row.location_id);
  queue(ctx, row, 'thank_you', { email: true, sms: false }, `Thank you for your payment to ${merchant}`, `We received your payment for "${String(row.title)}". Thank you.`, false);
}

type ReminderKind = 'before' | 'on' | 'after';

/** The reminder that is due at `today` for this invoice, with the day it fell due, if any. */
export function reminderDue(row: Row, today: string): { kind: ReminderKind; date: string } | undefined {
  const due = String(row.due_date);
  const cands: { kind: ReminderKind; date: string }[] = [];
  // 0 days (or none) before or after: no reminder of that kind (the due date's own is notification_on_due_date).
  if (typeof row.notification_days_before_due_date === 'number' && row.notification_days_before_due_date > 0) cands.push({ kind: 'before', date: addDays(due, -row.notification_days_before_due_date) });
  if (row.notification_on_due_date === 1) cands.push({ kind: 'on', date: due });
  if (typeof row.notification_days_after_due_date === 'number' && row.notification_days_after_due_date > 0) cands.push({ kind: 'after', date: addDays(due, row.notification_days_after_due_date) });
  return cands.filter((c) => c.date <= today).sort((a, b) => (a.date < b.date ? 1 : -1))[0];
}

const SUBJECT: Record<ReminderKind, string> = { before: 'Reminder: invoice due {date}', on: 'Invoice due today', after: 'Overdue invoice: was due {date}' };

export function reminderWork(ctx: EngineContext): DueWork {
  return {
    name: 'invoice-reminders',
    run(locationId?: string) {
      const rows = (locationId
        ? ctx.stmt('SELECT * FROM quick_invoices WHERE location_id = ? AND status_id = 1 AND payment_status_id <> 2').all(locationId)
        : ctx.stmt('SELECT * FROM quick_invoices WHERE status_id = 1 AND payment_status_id <> 2').all()) as Row[];
      const todayOf = new Map<string, string>();
      for (const row of rows) {
        const loc = String(row.location_id);
        let today = todayOf.get(loc);
        if (today === undefined) todayOf.set(loc, (today = locationToday(ctx, loc)));
        if (typeof row.expire_date === 'string' && row.expire_date < today) continue;
        const r = reminderDue(row, today);
        if (!r) continue;
        ctx.db.transaction(() => {
          // Any reminder of this kind for this due date, or a later kind already sent, ends it.
          const done = ctx.stmt('SELECT kind FROM quick_invoice_reminders WHERE quick_invoice_id = ? AND due_date = ?').all(row.id, row.due_date) as { kind: ReminderKind }[];
          const order: ReminderKind[] = ['before', 'on', 'after'];
          if (done.some((d) => order.indexOf(d.kind) >= order.indexOf(r.kind))) return;
          ctx.stmt('INSERT INTO quick_invoice_reminders (quick_invoice_id, kind, due_date, sent_ts) VALUES (?, ?, ?, ?)').run(row.id, r.kind, row.due_date, ctx.clock.now());
          const merchant = locationName(ctx, row.location_id);
          const subject = `${SUBJECT[r.kind].replace('{date}', String(row.due_date))} (${merchant})`;
          queue(ctx, row, 'invoice_reminder', { email: true, sms: row.send_text_to_pay === 1 }, subject, `"${String(row.title)}" from ${merchant}: ${money(row.remaining_balance)} to pay, due ${String(row.due_date)}.`, true);
        })();
      }
    },
  };
}

/**
 * The invoice files an outbox row refers to (its `attachments` column, set when the invoice
 * has attach_files_to_email), as the SMTP transport attaches them: read from the engine's
 * database at send time, so a file is stored once.
 */
export function invoiceFileAttachments(row: { id: string | number }, ctx: EngineContext): { filename: string; content: Buffer; contentType: string }[] {
  const r = ctx.stmt('SELECT attachments FROM notification_outbox WHERE id = ?').get(row.id) as { attachments: string | null } | undefined;
  if (!r?.attachments) return [];
  const refs = JSON.parse(r.attachments) as { file_id: string }[];
  return refs.flatMap((ref) => {
    const f = ctx.stmt('SELECT file_name, content_type, data FROM quick_invoice_files WHERE id = ?').get(ref.file_id) as { file_name: string; content_type: string; data: Buffer } | undefined;
    return f ? [{ filename: f.file_name, content: f.data, contentType: f.content_type }] : [];
  });
}
