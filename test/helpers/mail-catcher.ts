/**
 * A real local SMTP server on a free loopback port that keeps every message it is handed, as
 * raw text, for the specs that check what the engine e-mailed (no TLS, no sign-in: the
 * engine's SMTP URL for it is `url`).
 */
import { SMTPServer } from 'smtp-server';

export interface MailCatcher {
  /** Each message's raw text, in the order they arrived. */
  mails: string[];
  url: string;
  close(): Promise<void>;
}

export async function startMailCatcher(): Promise<MailCatcher> {
  const mails: string[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, _session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push(Buffer.concat(chunks).toString('utf8'));
        cb();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.server.address() as { port: number };
  return { mails, url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}
