/**
 * GET/POST /o/authrize (the seed's spelling): the login page, then the consent page,
 * then a 302 to the client's registered redirect_uri with code, state and user_id.
 *
 * - The client and redirect_uri are checked first: an unknown client or a redirect_uri
 *   that is not exactly one of the registered URLs gets an error page, never a redirect.
 * - Each visit opens an authorization request (10 min) with a CSRF token carried by the
 *   form and a browser binding in an HttpOnly, SameSite=Strict cookie named after the
 *   request; a post must present both. The token changes after login; the request is closed by the decision.
 * - The login domain is the user's branding domain, or else that of their primary location.
 * - Wrong passwords are counted per login (domain + username): after 5 within 15 min the
 *   login refuses even the right password until the window ends.
 * - PKCE: `code_challenge` with `code_challenge_method=S256` binds the code to a verifier.
 *   The plain method is refused (invalid_request), so a client cannot downgrade it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EngineContext } from '../framework/context';
import { fmt } from '../framework/errors';
import type { Row } from '../framework/resource';
import { verifyPassword } from '../merchant/passwords';
import { cookie, esc, sendErrorPage, sendPage } from './html-page';
import { OAuthClients, type ClientRow } from './oauth-clients';
import { OAUTH_MSG } from './oauth-messages';
import { REQUEST_TTL, type AuthRequestRow, type OAuthStore } from './oauth-store';
import { sha256Hex } from './secrets';
import { OAUTH_ROUTE_CONFIG, paramsOf, type Params } from './form-params';

export const BROWSER_COOKIE = 'ringup_oauth';
/** One cookie per authorization request, so two sign-ins in two tabs do not break each other. */
export const browserCookieName = (requestId: string): string => `${BROWSER_COOKIE}_${sha256Hex(requestId).slice(0, 16)}`;
export const AUTHORIZE_PATH = '/o/authrize';
/** A longer state would not be echoed exactly, so it is refused rather than cut. */
export const STATE_MAX = 2048;

function redirectWith(uri: string, params: Record<string, string | null>): string {
  const u = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== null) u.searchParams.set(k, v);
  return u.toString();
}

function loginForm(client: ClientRow, requestId: string, csrf: string, error?: string, values: Params = {}): string {
  return `<h1>Sign in to allow ${esc(client.name)}</h1>
<p class="muted">${esc(client.name)} asks to use your gateway account. Sign in with your login domain, username and password.</p>
${error ? `<p class="alert" role="alert" id="login-error">${esc(error)}</p>` : ''}
<form method="post" action="${AUTHORIZE_PATH}" ${error ? 'aria-describedby="login-error"' : ''}>
<input type="hidden" name="request_id" value="${esc(requestId)}"><input type="hidden" name="csrf_token" value="${esc(csrf)}">
<label for="domain">Login domain</label><input id="domain" name="domain" required autocomplete="url" value="${esc(values.domain ?? '')}"${error ? '' : ' autofocus'}>
<label for="username">Username</label><input id="username" name="username" required autocomplete="username" value="${esc(values.username ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" required autocomplete="current-password"${error ? ' autofocus' : ''}>
<div class="row"><button type="submit">Sign in</button></div></form>`;
}

function consentForm(client: ClientRow, user: Row, requestId: string, csrf: string): string {
  return `<h1>Allow ${esc(client.name)}?</h1>
<p>Signed in as <strong>${esc(user.username)}</strong>.</p>
<p>${esc(client.name)} will be able to do everything you can do in the gateway’s interface and API, until you revoke its access.</p>
<dl>${client.description ? `<dt>About</dt><dd>${esc(client.description)}</dd>` : ''}
${client.homepage_url ? `<dt>Homepage</dt><dd>${esc(client.homepage_url)}</dd>` : ''}</dl>
<form method="post" action="${AUTHORIZE_PATH}">
<input type="hidden" name="request_id" value="${esc(requestId)}"><input type="hidden" name="csrf_token" value="${esc(csrf)}">
<div class="row"><button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button></div></form>`;
}

export function registerAuthorizeRoutes(app: FastifyInstance, ctx: EngineContext, store: OAuthStore, clients: OAuthClients, developerId: () => string): void {
  const findUser = (domain: string, username: string): Row | undefined =>
    ctx
      .stmt(`SELECT u.* FROM users u
             LEFT JOIN branding_domains d ON d.id = u.domain_id
             LEFT JOIN locations l ON l.id = u.primary_location_id
             WHERE lower(u.username) = lower(?)
               AND lower(?) IN (lower(d.url), lower(u.branding_domain_url), lower(l.branding_domain_url)) LIMIT 1`)
      .get(username, domain) as Row | undefined;

  const targetOrigin = (uri: string): string => new URL(uri).origin;

  app.get(AUTHORIZE_PATH, { config: OAUTH_ROUTE_CONFIG }, async (req, reply) => {
    store.sweep();
    const p = paramsOf(req);
    const client = clients.get(p.client_id);
    if (!client || client.developer_company_id !== developerId()) return sendErrorPage(reply, 400, 'Unknown application', OAUTH_MSG.CLIENT_UNKNOWN);
    if (!OAuthClients.allows(client, p.redirect_uri)) return sendErrorPage(reply, 400, 'Wrong return address', OAUTH_MSG.REDIRECT_NOT_REGISTERED);
    const state = p.state !== undefined && p.state.length <= STATE_MAX ? p.state : null;
    // From here the redirect_uri is trusted: protocol errors go back to the client (RFC 6749 §4.1.2.1).
    const fail = (error: string, description: string) => reply.redirect(redirectWith(p.redirect_uri as string, { error, error_description: description, state }), 302);
    if (p.response_type !== 'code') return fail('unsupported_response_type', 'response_type must be code');
    if (p.state !== undefined && p.state.length > STATE_MAX) return fail('invalid_request', `state may have at most ${STATE_MAX} characters`);
    if (p.scope !== undefined && p.scope !== '' && p.scope !== 'api') return fail('invalid_scope', 'scope must be api');
    let challenge: string | null = null;
    // A method without a challenge is a request the document refuses, not one to ignore.
    if (p.code_challenge_method !== undefined && p.code_challenge_method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256');
    if (p.code_challenge !== undefined) {
      if ((p.code_challenge_method ?? 'plain') !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(p.code_challenge)) {
        return fail('invalid_request', 'code_challenge must be an S256 challenge (code_challenge_method=S256)');
      }
      challenge = p.code_challenge;
    }
    const opened = store.openRequest(client.id, p.redirect_uri as string, state, challenge);
    reply.header('set-cookie', `${browserCookieName(opened.id)}=${opened.browser}; Path=/o/; HttpOnly; SameSite=Strict; Max-Age=${REQUEST_TTL}`);
    return sendPage(reply, 200, { title: 'Sign in', body: loginForm(client, opened.id, opened.csrf) });
  });

  app.post(AUTHORIZE_PATH, { config: OAUTH_ROUTE_CONFIG }, async (req: FastifyRequest, reply: FastifyReply) => {
    const p = paramsOf(req);
    const requestCookie = typeof p.request_id === 'string' ? cookie(req.headers.cookie, browserCookieName(p.request_id)) : undefined;
    const found = store.findRequest(p.request_id, p.csrf_token, requestCookie);
    if ('error' in found) {
      return found.error === 'csrf'
        ? sendErrorPage(reply, 403, 'Form not accepted', OAUTH_MSG.CSRF_MISMATCH)
        : sendErrorPage(reply, 400, 'Sign-in expired', OAUTH_MSG.REQUEST_EXPIRED);
    }
    const row: AuthRequestRow = found.row;
    const client = clients.get(row.client_id);
    if (!client) return sendErrorPage(reply, 400, 'Unknown application', OAUTH_MSG.CLIENT_UNKNOWN);
    const requestId = p.request_id as string;

    if (row.stage === 'login') {
      const domain = (p.domain ?? '').trim();
      const username = (p.username ?? '').trim();
      const password = p.password ?? '';
      const again = (status: number, message: string) =>
        sendPage(reply, status, { title: 'Sign in', error: message, body: loginForm(client, requestId, p.csrf_token as string, message, { domain, username }) });
      if (!domain || !username || !password || domain.length > 255 || username.length > 255 || password.length > 256) return again(400, OAUTH_MSG.LOGIN_MISSING);
      const loginKey = `${domain.toLowerCase()}\0${username.toLowerCase()}`;
      const locked = store.lockedFor(loginKey);
      if (locked > 0) return again(429, fmt(OAUTH_MSG.LOGIN_LOCKED, { minutes: Math.ceil(locked / 60) }));
      const user = findUser(domain, username);
      // An unknown user costs the same scrypt as a known one (dummy hash), so timing does not tell which names exist.
      const good = verifyPassword(password, user?.password_hash ?? 'scrypt$00$00') && user !== undefined && user.status_id === 1;
      if (!good || !user) {
        store.recordFailure(loginKey);
        return again(401, OAUTH_MSG.LOGIN_WRONG);
      }
      store.clearFailures(loginKey);
      ctx.stmt('UPDATE users SET last_login_ts = ?, current_login = ? WHERE id = ?').run(ctx.clock.now(), String(ctx.clock.now()), user.id);
      ctx.invalidateAuth(); // cached /v2 callers hold the user row; /users/me should show the login
      const csrf = store.toConsent(row, String(user.id));
      return sendPage(reply, 200, { title: 'Allow access', body: consentForm(client, user, requestId, csrf), formTargets: [targetOrigin(row.redirect_uri)] });
    }

    // Consent stage.
    if (p.decision !== 'allow' && p.decision !== 'deny') {
      const user = ctx.stmt('SELECT * FROM users WHERE id = ?').get(row.user_id) as Row;
      return sendPage(reply, 400, {
        title: 'Allow access',
        error: OAUTH_MSG.DECISION_MISSING,
        body: `<p class="alert" role="alert">${esc(OAUTH_MSG.DECISION_MISSING)}</p>` + consentForm(client, user, requestId, p.csrf_token as string),
        formTargets: [targetOrigin(row.redirect_uri)],
      });
    }
    if (!store.closeRequest(row)) return sendErrorPage(reply, 400, 'Sign-in expired', OAUTH_MSG.REQUEST_EXPIRED);
    reply.header('set-cookie', `${browserCookieName(requestId)}=; Path=/o/; HttpOnly; SameSite=Strict; Max-Age=0`);
    if (p.decision === 'deny') return reply.redirect(redirectWith(row.redirect_uri, { error: 'access_denied', state: row.state }), 302);
    const code = store.issueCode(row, row.user_id as string);
    return reply.redirect(redirectWith(row.redirect_uri, { code, state: row.state, user_id: row.user_id }), 302);
  });
}
