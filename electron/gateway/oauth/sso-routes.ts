/**
 * GET or POST /custom/sso and /custom/contactsso: a partner's link signs a user into the
 * engine's hosted pages. The link's JSON (see sso-link.ts for `data` / `e_data`) is
 * checked in this order, each failure answering an error page (never a 5xx, never a
 * session): developer-id, decoding, required fields, timestamp (15 minutes; up to 60 s in
 * the future is tolerated for clock skew), user + user api key, location visible to the
 * user, then replay (each sign-in — user, location, contact, timestamp — is accepted once,
 * whatever the link's bytes: sso-replay.ts; the guard rows expire with it).
 *
 * Two shapes, told apart by their keys:
 * - standard (contact_api_id, first_name, last_name…): the contact is created or updated
 *   through POST /v2/contacts with update_if_exists=1. With transaction data
 *   (transaction_amt, line_items, claim_id) the user lands on the charge page prefilled;
 *   without it on the contact page.
 * - virtual terminal (route_name or `route`, params): route_name picks the page
 *   (virtualterminal, contacts, transactions, dashboard, accounts); `params` prefill the
 *   charge page.
 * Simplifications: tags are not attached and line items are shown only as the
 * description; amount parts (subtotal, tax, tip) are not sent apart from the total.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { keepsDigits, maskCardNumbers } from '../framework/card-mask';
import type { EngineContext } from '../framework/context';
import { fmt } from '../framework/errors';
import { parseMoney, formatMoney } from '../../../shared/payments/money';
import { sendErrorPage } from './html-page';
import { type HostedSessions, type Prefill } from './hosted-sessions';
import { errorSentences, type InternalApi } from './internal-api';
import { OAUTH_MSG } from './oauth-messages';
import { paramsOf } from './form-params';
import { matchesHash, sameText } from './secrets';
import { decodeSsoPayload } from './sso-link';
import { claimSignIn } from './sso-replay';

export const SSO_TTL = 900;
export const SSO_SKEW = 60;
export const HOSTED_ROUTES = ['virtualterminal', 'contacts', 'transactions', 'dashboard', 'accounts'] as const;
export type HostedRoute = (typeof HOSTED_ROUTES)[number];

const CONTACT_FIELDS = ['account_number', 'address', 'cell_phone', 'city', 'company_name', 'email', 'home_phone', 'office_ext_phone', 'office_phone', 'state', 'zip'];
/** Virtual-terminal params passed to the sale as they are (text fields of the transaction). */
const PASS_PARAMS = ['account_holder_name', 'billing_city', 'billing_phone', 'billing_state', 'billing_street', 'billing_zip', 'clerk_number', 'order_num', 'product_transaction_id'];

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined);

export interface SsoDeps {
  ctx: EngineContext;
  api: InternalApi;
  sessions: HostedSessions;
  developerId: () => string;
  encryptionKey: () => string | undefined;
}

export function registerSsoRoutes(app: FastifyInstance, deps: SsoDeps): void {
  const { ctx, api, sessions } = deps;
  const refuse = (reply: FastifyReply, status: number, message: string) => sendErrorPage(reply, status, 'This link does not work', message);

  const handle = async (req: FastifyRequest, reply: FastifyReply) => {
    const p = paramsOf(req);
    const dev = p['developer-id'] ?? (typeof req.headers['developer-id'] === 'string' ? req.headers['developer-id'] : undefined);
    if (!dev || !sameText(dev, deps.developerId())) return refuse(reply, 403, OAUTH_MSG.SSO_DEVELOPER);
    const decoded = decodeSsoPayload(p.data, p.e_data, deps.encryptionKey());
    if (!decoded.ok) return refuse(reply, 400, decoded.message);
    const j = decoded.json;

    const isVt = 'route_name' in j || 'route' in j || 'params' in j;
    const missing: string[] = [];
    const need = (name: string, v: unknown, max: number): string => {
      const s = str(v);
      if (s === undefined || s === '' || s.length > max) missing.push(name);
      return s ?? '';
    };
    const tsText = str(j.timestamp);
    const ts = tsText !== undefined && /^\d{1,12}$/.test(tsText) ? Number(tsText) : NaN;
    if (Number.isNaN(ts)) missing.push('timestamp');
    const userId = need('user_id', j.user_id, 36);
    const apiKey = need('user_api_key', j.user_api_key ?? j['user-api-key'], 64);
    const locationId = need('location_id', j.location_id, 36);
    let route: HostedRoute = 'virtualterminal';
    const prefill: Prefill = {};
    let contactBody: Record<string, unknown> | undefined;
    if (isVt) {
      const r = str(j.route_name ?? j.route) ?? 'virtualterminal';
      if ((HOSTED_ROUTES as readonly string[]).includes(r)) route = r as HostedRoute;
      else missing.push('route_name');
      const params = j.params ?? {};
      if (!params || typeof params !== 'object' || Array.isArray(params)) missing.push('params');
      else {
        const q = params as Record<string, unknown>;
        if (q.transaction_amount !== undefined) {
          const cents = parseMoney(q.transaction_amount);
          if (cents === null) missing.push('params.transaction_amount');
          else prefill.transaction_amount = formatMoney(cents);
        }
        const d = str(q.description);
        // Prefilled values are shown on the page and kept in the session: masked like any free text (card-mask.ts).
        if (d !== undefined) prefill.description = maskCardNumbers(d.slice(0, 255));
        const extra: Record<string, string> = {};
        for (const k of PASS_PARAMS) {
          const v = str(q[k]);
          if (v !== undefined && v !== '') extra[k] = maskCardNumbers(v.slice(0, 255));
        }
        if (Object.keys(extra).length) prefill.extra = extra;
      }
    } else {
      contactBody = {
        location_id: locationId,
        contact_api_id: need('contact_api_id', j.contact_api_id, 64),
        first_name: need('first_name', j.first_name, 64),
        last_name: need('last_name', j.last_name, 64),
        update_if_exists: 1,
      };
      for (const k of CONTACT_FIELDS) {
        const v = str(j[k]);
        if (v !== undefined && v !== '') contactBody[k] = v;
      }
      const hasTxn = j.transaction_amt !== undefined || j.line_items !== undefined || j.claim_id !== undefined;
      route = hasTxn ? 'virtualterminal' : 'contacts';
      if (j.transaction_amt !== undefined) {
        const cents = parseMoney(j.transaction_amt);
        if (cents === null) missing.push('transaction_amt');
        else prefill.transaction_amount = formatMoney(cents);
      }
      const items = Array.isArray(j.line_items) ? (j.line_items as unknown[]) : [];
      const descriptions = items.map((li) => (li && typeof li === 'object' ? str((li as Record<string, unknown>).description) : undefined)).filter((d): d is string => !!d);
      const claim = str(j.claim_id);
      const description = [claim ? `Claim ${claim}` : '', ...descriptions].filter(Boolean).join('; ');
      if (description) prefill.description = maskCardNumbers(description.slice(0, 255));
    }
    if (missing.length) return refuse(reply, 400, fmt(OAUTH_MSG.SSO_FIELD, { fields: missing.join(', ') }));

    const now = ctx.clock.now();
    if (ts + SSO_TTL < now) return refuse(reply, 400, OAUTH_MSG.SSO_EXPIRED);
    if (ts > now + SSO_SKEW) return refuse(reply, 400, OAUTH_MSG.SSO_FUTURE);

    const user = ctx.stmt('SELECT status_id, user_api_key_hash FROM users WHERE id = ?').get(userId) as { status_id: number; user_api_key_hash: string | null } | undefined;
    // Keys are stored as SHA-256 hex (framework/auth.ts hashApiKey), the form matchesHash compares against.
    const keyOk = matchesHash(apiKey, user?.user_api_key_hash ?? '0'.repeat(64));
    if (!user || user.status_id !== 1 || !keyOk) return refuse(reply, 401, OAUTH_MSG.SSO_USER);
    const loc = await api.call(userId, 'GET', `/v2/locations/${encodeURIComponent(locationId)}`);
    if (loc.status !== 200) return refuse(reply, 403, OAUTH_MSG.SSO_LOCATION);

    // Once per sign-in (sso-replay.ts): the location as the engine knows it, not as the link spells it.
    const signedInLocation = String((loc.body.location as Record<string, unknown> | undefined)?.id ?? locationId);
    const signIn = { userId, locationId: signedInLocation, contactApiId: contactBody ? String(contactBody.contact_api_id) : null, timestamp: ts };
    if (!claimSignIn(ctx, signIn, ts + SSO_TTL + SSO_SKEW)) return refuse(reply, 409, OAUTH_MSG.SSO_REPLAYED);

    let contactId: string | null = null;
    if (contactBody) {
      const res = await api.call(userId, 'POST', '/v2/contacts', { contact: contactBody });
      if (res.status !== 200 && res.status !== 201) return refuse(reply, 422, fmt(OAUTH_MSG.SSO_CONTACT, { reasons: errorSentences(res.body) }));
      contactId = String((res.body.contact as Record<string, unknown>).id);
    }
    const opened = sessions.open({ user_id: userId, location_id: locationId, contact_id: contactId, route_name: route, prefill });
    reply.header('set-cookie', opened.cookie).header('cache-control', 'no-store');
    return reply.redirect(`/hosted/${route}`, 302);
  };

  // `data` / `e_data` are hex blobs: their digit runs can pass a Luhn check, and masking one
  // would break the link; they are read here, never stored. The developer id is an identifier.
  // The link's prefilled values are masked once decoded (above); its contact goes through /v2/contacts.
  const config = { keepsDigits: keepsDigits(undefined, { data: 'consumed', e_data: 'consumed', 'developer-id': 'identifier' }) };
  for (const path of ['/custom/sso', '/custom/contactsso']) {
    app.get(path, { config }, handle);
    app.post(path, { config }, handle);
  }
}
