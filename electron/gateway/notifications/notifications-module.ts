/**
 * Notifications: the outbox readable through the engine (notification-resource.ts) and
 * the SMTP transport for its e-mail (smtp-mailer.ts, settings in smtp-settings.ts). The
 * outbox itself (`ctx.notify`, table notification_outbox) is framework and payments code;
 * this module adds delivery state (send_attempts, send_error) and sends.
 */
import type { EngineContext, EngineModule } from '../framework/context';
import type { Migration } from '../framework/migrations';
import { notificationResource } from './notification-resource';
import { SmtpMailer, type AttachmentSource } from './smtp-mailer';
import { smtpFromUrl } from './smtp-settings';

/** How often unsent mail is looked for besides the scheduler's due work (ms). */
export const MAIL_POLL_MS = 1000;

/** send_error of an e-mail while the engine has no mail server: why it waits, for the outbox and the counter. */
export const NO_MAIL_SERVER = 'No mail server is set up, so e-mail waits in the outbox until one is.';

/**
 * Without a mail server, unsent e-mail says why it waits (send_error; nothing is tried, so
 * send_attempts stays 0 and a mail server set up later sends it, clearing the sentence). SMS
 * has no service here at all: its rows are left as they are.
 */
function markWaiting(ctx: EngineContext): void {
  ctx.stmt("UPDATE notification_outbox SET send_error = ? WHERE channel = 'email' AND sent_ts IS NULL AND send_error IS NULL").run(NO_MAIL_SERVER);
}

const MIGRATIONS: Migration[] = [
  {
    version: 620,
    module: 'notifications',
    name: 'outbox delivery state: attempts and the last error',
    up(db) {
      db.exec(`
        ALTER TABLE notification_outbox ADD COLUMN send_attempts INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE notification_outbox ADD COLUMN send_error TEXT;
      `);
    },
  },
];

export function createNotificationsModule(): EngineModule & { mailer(): SmtpMailer | undefined; addAttachmentSource(s: AttachmentSource): void } {
  let mailer: SmtpMailer | undefined;
  let timer: NodeJS.Timeout | undefined;
  /** Set when there is no mail server: says so on unsent e-mail. */
  let waiting: (() => void) | undefined;
  const pendingSources: AttachmentSource[] = [];
  return {
    name: 'notifications',
    migrations: MIGRATIONS,
    resources: [notificationResource],
    mailer: () => mailer,
    addAttachmentSource(s) {
      if (mailer) mailer.addAttachmentSource(s);
      else pendingSources.push(s);
    },
    init(ctx) {
      const settings = ctx.options.smtp ?? (process.env.RINGUP_SMTP_URL ? smtpFromUrl(process.env.RINGUP_SMTP_URL) : undefined);
      if (!settings) {
        // New e-mail is written with the reason (engine-context.ts notify); rows from before
        // this start, when a mail server may have been set, are marked once here. No timer:
        // a 1 Hz UPDATE would write to the outbox while nothing happens.
        ctx.emailWaitReason = NO_MAIL_SERVER;
        waiting = () => markWaiting(ctx);
        waiting();
        return;
      }
      const m = new SmtpMailer(ctx, settings);
      for (const s of pendingSources.splice(0)) m.addAttachmentSource(s);
      mailer = m;
      timer = setInterval(() => void m.deliver().catch((e: Error) => ctx.log(`mail delivery failed: ${e.message}`)), MAIL_POLL_MS);
      timer.unref();
    },
    dueWork: () => [{ name: 'mail-delivery', run: () => (mailer ? mailer.deliver() : waiting?.()) }],
    async close() {
      if (timer) clearInterval(timer);
      timer = undefined;
      const m = mailer;
      mailer = undefined;
      await m?.deliver().catch(() => {});
      m?.close();
    },
  };
}
