/**
 * Sessions of the hosted pages an SSO link signs a user into. The session id travels
 * only in an HttpOnly cookie (`ringup_hosted`, Path=/hosted/, SameSite=Lax so the
 * top-level navigation from the partner's link carries it) and is stored as SHA-256.
 * The form's CSRF token is derived from the session id (SHA-256 of "csrf:" + id): a page
 * that cannot read the cookie cannot forge it. Sessions last 30 minutes.
 */
import type { FastifyRequest } from 'fastify';
import type { EngineContext } from '../framework/context';
import { cookie } from './html-page';
import { matchesHash, newToken, sha256Hex } from './secrets';

export const HOSTED_COOKIE = 'ringup_hosted';
export const HOSTED_TTL = 1800;

/** What the page is prefilled with; money as a decimal string, as at the API edge. */
export interface Prefill {
  transaction_amount?: string;
  description?: string;
  /** Other `params` keys of a virtual-terminal link that are passed to the sale unchanged. */
  extra?: Record<string, string>;
}

export interface HostedSession {
  user_id: string;
  location_id: string;
  contact_id: string | null;
  route_name: string;
  prefill: Prefill;
  csrf: string;
}

export const csrfFor = (sessionId: string): string => sha256Hex(`csrf:${sessionId}`);

export class HostedSessions {
  constructor(private readonly ctx: EngineContext) {}

  open(s: Omit<HostedSession, 'csrf'>): { id: string; cookie: string } {
    const id = newToken();
    this.ctx.stmt('DELETE FROM hosted_sessions WHERE expires_ts < ?').run(this.ctx.clock.now());
    this.ctx
      .stmt('INSERT INTO hosted_sessions (id_hash, csrf_hash, user_id, location_id, contact_id, route_name, prefill, expires_ts) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(sha256Hex(id), sha256Hex(csrfFor(id)), s.user_id, s.location_id, s.contact_id, s.route_name, JSON.stringify(s.prefill), this.ctx.clock.now() + HOSTED_TTL);
    return { id, cookie: `${HOSTED_COOKIE}=${id}; Path=/hosted/; HttpOnly; SameSite=Lax; Max-Age=${HOSTED_TTL}` };
  }

  /** The live session of this browser (the user must still be active), or undefined. */
  of(req: FastifyRequest): HostedSession | undefined {
    const id = cookie(req.headers.cookie, HOSTED_COOKIE);
    if (!id || id.length > 100) return undefined;
    const row = this.ctx
      .stmt(`SELECT s.* FROM hosted_sessions s JOIN users u ON u.id = s.user_id AND u.status_id = 1 WHERE s.id_hash = ? AND s.expires_ts >= ?`)
      .get(sha256Hex(id), this.ctx.clock.now()) as
      | { user_id: string; location_id: string; contact_id: string | null; route_name: string; prefill: string }
      | undefined;
    if (!row) return undefined;
    return { user_id: row.user_id, location_id: row.location_id, contact_id: row.contact_id, route_name: row.route_name, prefill: JSON.parse(row.prefill) as Prefill, csrf: csrfFor(id) };
  }

  /** Constant-time check of a posted CSRF token against the session's. */
  static csrfOk(session: HostedSession, posted: unknown): boolean {
    return typeof posted === 'string' && matchesHash(posted, sha256Hex(session.csrf));
  }
}
