/**
 * Parameters of the OAuth, SSO and hosted routes: the query string plus a form body
 * (application/x-www-form-urlencoded, what an HTML form and most OAuth clients send) or
 * a JSON object. The form parser is registered only inside this module's plugin, so /v2
 * keeps answering 415 for anything but JSON. Only string values are kept; a repeated
 * form name keeps its first value.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { keepsDigits } from '../framework/card-mask';
import { BODY_LIMIT, acceptBody } from '../framework/http-plumbing';

export type Params = Record<string, string>;

/**
 * The OAuth routes' parameters (card-mask.ts) on /o/authrize, /o/token and /o/revoke. Values the
 * engine keeps and gives back exactly (a client's `state`, its redirect URL and id, a PKCE
 * challenge) are identifiers: a card number in one is refused. Secrets it only hashes or
 * compares (client secret, codes, tokens, the password, CSRF values, its own request id) are
 * consumed as sent. Everything else (the login domain and user name, which name no user if they
 * hold a card number: user names refuse them) is masked.
 */
export const OAUTH_ROUTE_CONFIG = {
  keepsDigits: keepsDigits(undefined, {
    client_id: 'identifier', redirect_uri: 'identifier', state: 'identifier', code_challenge: 'identifier',
    client_secret: 'consumed', request_id: 'consumed', csrf_token: 'consumed', password: 'consumed', code: 'consumed', code_verifier: 'consumed', refresh_token: 'consumed', token: 'consumed',
  }),
};

export function addFormParser(app: FastifyInstance): void {
  // A form body follows its route's card-number declaration like a JSON one (card-mask.ts).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (req, body, done) => {
    const out: Params = {};
    for (const [k, v] of new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))) if (!(k in out)) out[k] = v;
    try {
      done(null, acceptBody(out, req.routeOptions.config?.keepsDigits));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
}

function strings(src: unknown, into: Params): void {
  if (!src || typeof src !== 'object' || Array.isArray(src)) return;
  for (const [k, v] of Object.entries(src as Record<string, unknown>)) {
    if (k in into) continue;
    if (typeof v === 'string') into[k] = v;
    else if (Array.isArray(v) && typeof v[0] === 'string') into[k] = v[0];
    else if (typeof v === 'number' && Number.isFinite(v)) into[k] = String(v);
  }
}

/** Body first, then query (a posted form wins over the URL it was posted to). */
export function paramsOf(req: FastifyRequest): Params {
  const out: Params = {};
  strings(req.body, out);
  strings(req.query, out);
  return out;
}
