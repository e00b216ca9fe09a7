/**
 * The SMTP transport of the notification outbox (nodemailer): sends unsent e-mail rows
 * oldest first and records sent_ts when the server accepted the message, or send_error
 * and one more send_attempts when it did not (tried again on the next round, at most
 * MAX_SEND_ATTEMPTS times). SMS rows have no transport here and stay queued (readable in
 * the outbox with their link). A row is marked sent only after the server's answer, so a
 * crash mid-send can send that one message twice, never lose it.
 *
 * Attachments: modules that store files (quick invoices) register a source that returns
 * the files a row refers to (`addAttachmentSource`); by default a message has none.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import type { EngineContext, SmtpOptions } from '../framework/context';
import { DEFAULT_FROM } from './smtp-settings';
import { CoalescedRun } from '../framework/coalesced-run';

export const MAX_SEND_ATTEMPTS = 5;
const ROUND = 100;

export interface OutboxRow {
  id: string;
  location_id: string;
  channel: string;
  kind: string;
  to_address: string;
  subject: string;
  body: string;
  link: string | null;
  resource_type: string | null;
  resource_id: string | null;
  send_attempts: number;
}

export interface MailAttachment {
  filename: string;
  /** A stored file's path, or its bytes. */
  path?: string;
  content?: Buffer | string;
  contentType?: string;
}

/** The files a queued message carries, read with the engine's own connection (a module's stored files). */
export type AttachmentSource = (row: OutboxRow, ctx: EngineContext) => MailAttachment[];

export class SmtpMailer {
  private readonly transport: Transporter;
  private readonly sources: AttachmentSource[] = [];
  private readonly rounds = new CoalescedRun(() => this.round());

  constructor(
    private readonly ctx: EngineContext,
    private readonly settings: SmtpOptions,
  ) {
    this.transport = nodemailer.createTransport({
      host: settings.host,
      port: settings.port,
      secure: settings.secure ?? false,
      ...(settings.user ? { auth: { user: settings.user, pass: settings.pass ?? '' } } : {}),
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
  }

  addAttachmentSource(source: AttachmentSource): void {
    this.sources.push(source);
  }

  /** Sends what is unsent; concurrent calls share one run. */
  deliver(): Promise<void> {
    return this.rounds.run();
  }

  private async round(): Promise<void> {
    const rows = this.ctx
      .stmt(`SELECT id, location_id, channel, kind, to_address, subject, body, link, resource_type, resource_id, send_attempts FROM notification_outbox
        WHERE sent_ts IS NULL AND channel = 'email' AND send_attempts < ? ORDER BY created_ts, rowid LIMIT ?`)
      .all(MAX_SEND_ATTEMPTS, ROUND) as OutboxRow[];
    for (const row of rows) {
      try {
        await this.transport.sendMail({
          from: this.settings.from ?? DEFAULT_FROM,
          to: row.to_address,
          subject: row.subject,
          text: row.body,
          attachments: this.sources.flatMap((s) => s(row, this.ctx)),
        });
        this.ctx.stmt('UPDATE notification_outbox SET sent_ts = ?, send_error = NULL, send_attempts = send_attempts + 1 WHERE id = ?').run(this.ctx.clock.now(), row.id);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        this.ctx.stmt('UPDATE notification_outbox SET send_error = ?, send_attempts = send_attempts + 1 WHERE id = ?').run(message.slice(0, 500), row.id);
      }
    }
  }

  close(): void {
    this.transport.close();
  }
}
