/**
 * Where the outbox's e-mail goes. In order: EngineOptions.smtp (the app, tests); the
 * standalone CLI's flags `--smtp-host H --smtp-port P [--smtp-secure] [--smtp-user U]
 * [--smtp-from "Shop <shop@example.com>"]` with the password only from the environment
 * (`RINGUP_SMTP_PASSWORD`, never a flag: flags show in the process list); or the
 * environment variable `RINGUP_SMTP_URL` (`smtp://user:pass@host:587`, `smtps://…:465`
 * for TLS from the start). Without any, e-mail stays queued in the outbox (readable,
 * sent_ts null) — the sandbox default, so no real customer is mailed by accident.
 */
import type { SmtpOptions } from '../framework/context';
import { argFlag, argValue } from '../../common/cli-args';

export const DEFAULT_FROM = 'Ringup <no-reply@ringup.localhost>';

export const SMTP_MSG = {
  BAD_URL: 'RINGUP_SMTP_URL must look like smtp://user:password@host:587 or smtps://host:465.',
  BAD_PORT: '--smtp-port must be a port number from 1 to 65535.',
} as const;

export function smtpFromUrl(raw: string): SmtpOptions {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new Error(SMTP_MSG.BAD_URL);
  }
  if ((u.protocol !== 'smtp:' && u.protocol !== 'smtps:') || !u.hostname) throw new Error(SMTP_MSG.BAD_URL);
  const secure = u.protocol === 'smtps:';
  return {
    host: u.hostname,
    port: u.port ? Number(u.port) : secure ? 465 : 587,
    secure,
    ...(u.username ? { user: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { pass: decodeURIComponent(u.password) } : {}),
    ...(u.searchParams.get('from') ? { from: u.searchParams.get('from') as string } : {}),
  };
}

/** The CLI's SMTP settings (flags, else RINGUP_SMTP_URL), or undefined. */
export function smtpFromCli(argv: readonly string[], env: NodeJS.ProcessEnv): SmtpOptions | undefined {
  const host = argValue(argv, 'smtp-host');
  if (host) {
    const port = Number(argValue(argv, 'smtp-port') ?? '587');
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(SMTP_MSG.BAD_PORT);
    const user = argValue(argv, 'smtp-user');
    const from = argValue(argv, 'smtp-from');
    return { host, port, secure: argFlag(argv, 'smtp-secure'), ...(user ? { user } : {}), ...(env.RINGUP_SMTP_PASSWORD ? { pass: env.RINGUP_SMTP_PASSWORD } : {}), ...(from ? { from } : {}) };
  }
  return env.RINGUP_SMTP_URL ? smtpFromUrl(env.RINGUP_SMTP_URL) : undefined;
}
