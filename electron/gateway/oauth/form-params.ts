/**
 * Parameters of the OAuth, SSO and hosted routes: the query string plus a form body
 * (application/x-www-form-urlencoded, what an HTML form and most OAuth clients send) or
 * a JSON object. The form parser is registered only inside this module's plugin, so /v2
 * keeps answering 415 for anything but JSON. Only string values are kept; a repeated
 * form name keeps its first value.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BODY_LIMIT } from '../framework/http-plumbing';

export type Params = Record<string, string>;

/**
 * The OAuth routes carry protocol values, never card data: a client's numeric `state` (or a
 * code, a key) must come back exactly as sent, so the card mask (card-mask.ts) leaves these
 * parameters alone on /o/authrize, /o/token and /o/revoke.
 */
export const OAUTH_ROUTE_CONFIG = {
  keepsDigits: {
    fields: new Set([
      'client_id', 'client_secret', 'redirect_uri', 'state', 'response_type', 'scope', 'code_challenge', 'code_challenge_method',
      'request_id', 'csrf_token', 'decision', 'domain', 'username', 'password', 'grant_type', 'code', 'code_verifier', 'refresh_token', 'token',
    ]),
  },
};

export function addFormParser(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_req, body, done) => {
    const out: Params = {};
    for (const [k, v] of new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))) if (!(k in out)) out[k] = v;
    done(null, out);
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
