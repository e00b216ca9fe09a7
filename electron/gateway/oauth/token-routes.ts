/**
 * POST /o/token (grant_type authorization_code or refresh_token) and POST /o/revoke.
 * Client credentials come as client_id/client_secret parameters or HTTP Basic. Errors use
 * the engine's envelope: 401 for client authentication, 400 for a bad grant. Token
 * responses carry `Cache-Control: no-store`; `state` is echoed exactly as sent (null
 * when none was sent).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, MSG, fmt, labelOf } from '../framework/errors';
import type { OAuthClients } from './oauth-clients';
import { OAUTH_MSG } from './oauth-messages';
import type { OAuthStore } from './oauth-store';
import { OAUTH_ROUTE_CONFIG, paramsOf, type Params } from './form-params';

const safeDecode = (v: string): string | undefined => {
  try {
    return decodeURIComponent(v);
  } catch {
    return undefined;
  }
};

function clientCredentials(req: FastifyRequest, p: Params): { id?: string; secret?: string } {
  const authz = req.headers.authorization;
  if (typeof authz === 'string' && authz.toLowerCase().startsWith('basic ')) {
    const decoded = Buffer.from(authz.slice(6).trim(), 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    if (i > 0) return { id: safeDecode(decoded.slice(0, i)), secret: safeDecode(decoded.slice(i + 1)) };
  }
  return { id: p.client_id, secret: p.client_secret };
}

const blank = (field: string) => new ApiError(400, { [field]: [fmt(MSG.BLANK, { attribute: labelOf(field) })] });

export function registerTokenRoutes(app: FastifyInstance, store: OAuthStore, clients: OAuthClients, developerId: () => string): void {
  const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store').header('pragma', 'no-cache');

  app.post('/o/token', { config: OAUTH_ROUTE_CONFIG }, async (req, reply) => {
    const p = paramsOf(req);
    const cred = clientCredentials(req, p);
    if (!cred.id) throw blank('client_id');
    const client = clients.authenticate(cred.id, cred.secret);
    store.sweep();
    const state = p.state ?? null;
    let pair;
    if (p.grant_type === 'authorization_code') {
      if (!p.code) throw blank('code');
      pair = store.exchangeCode(client.id, developerId(), p.code, p.redirect_uri, p.code_verifier);
    } else if (p.grant_type === 'refresh_token') {
      if (!p.refresh_token) throw blank('refresh_token');
      pair = store.refresh(client.id, p.refresh_token);
    } else {
      throw new ApiError(400, { grant_type: [OAUTH_MSG.GRANT_TYPE_UNSUPPORTED] });
    }
    noStore(reply);
    return { ...pair, state };
  });

  app.post('/o/revoke', { config: OAUTH_ROUTE_CONFIG }, async (req, reply) => {
    const p = paramsOf(req);
    const cred = clientCredentials(req, p);
    if (!cred.id) throw blank('client_id');
    const client = clients.authenticate(cred.id, cred.secret);
    if (!p.token) throw blank('token');
    store.revoke(client.id, p.token);
    return noStore(reply).code(204).send();
  });
}
