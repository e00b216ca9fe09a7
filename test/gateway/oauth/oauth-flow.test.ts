/**
 * OAuth 2.0 authorization code, driven as a browser and a client application would:
 * login page → form post with its CSRF token → consent → 302 to a real redirect listener
 * → token exchange → /v2 with Bearer → refresh → revoke; and every way it must fail.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MSG, fmt } from '../../../electron/gateway/framework/errors';
import { OAUTH_MSG } from '../../../electron/gateway/oauth/oauth-messages';
import { ADMINS, describeTypes, PERMISSION_MSG } from '../../../electron/gateway/framework/permissions';
import { ACCESS_TTL, CODE_TTL, LOGIN_WINDOW } from '../../../electron/gateway/oauth/oauth-store';
import { TestEngine, errorsOf } from '../helpers/engine-fixture';
import { Browser, RedirectListener, field, html } from './browser';

let te: TestEngine;
let listener: RedirectListener;
let client: { client_id: string; client_secret: string };
let login: { domain: string; username: string; password: string };
let origin: string;

interface Creds {
  oauth: { client_id: string; client_secret: string; redirect_uri: string };
  login: { domain: string; username: string; password: string };
  developer_encryption_key: string;
  auth_url: string;
}

beforeAll(async () => {
  te = await TestEngine.start();
  listener = await RedirectListener.start();
  const c = te.engine.credentials as unknown as Creds;
  login = c.login;
  origin = c.auth_url;
  const reg = await te.post('/oauthclients', {
    oauthclient: { name: 'Books & <Co>', description: 'Accounting', homepage_url: 'https://books.example', redirect_uris: [listener.url] },
  });
  expect(reg.status).toBe(201);
  client = { client_id: reg.body.oauthclient.client_id, client_secret: reg.body.oauthclient.client_secret };
});

afterAll(async () => {
  await listener.close();
  await te.close();
});

beforeEach(() => {
  te.clock.release();
});

const STATE = '{"return_to":"/books?a=1&b=2","nonce":"ü 42"}';

function authorizeUrl(extra: Record<string, string> = {}): string {
  const q = new URLSearchParams({ response_type: 'code', client_id: client.client_id, redirect_uri: listener.url, scope: 'api', state: STATE, ...extra });
  return `${origin}/o/authrize?${q}`;
}

/** Login page → login → consent page; returns the browser and the consent form's fields. */
async function toConsent(extra: Record<string, string> = {}) {
  const b = new Browser();
  const page = await b.get(authorizeUrl(extra));
  expect(page.status).toBe(200);
  const signedIn = await b.post(`${origin}/o/authrize`, {
    request_id: field(page.text, 'request_id'),
    csrf_token: field(page.text, 'csrf_token'),
    domain: login.domain,
    username: login.username,
    password: login.password,
  });
  expect(signedIn.status).toBe(200);
  expect(signedIn.text).toMatch(/<h1>Allow .+\?<\/h1>/);
  return { b, request_id: field(signedIn.text, 'request_id'), csrf_token: field(signedIn.text, 'csrf_token'), page: signedIn };
}

/** The whole browser part; returns the code the redirect listener received. */
async function authorize(extra: Record<string, string> = {}): Promise<URLSearchParams> {
  const { b, request_id, csrf_token } = await toConsent(extra);
  const allowed = await b.post(`${origin}/o/authrize`, { request_id, csrf_token, decision: 'allow' });
  expect(allowed.status).toBe(302);
  expect(allowed.location?.startsWith(`${listener.url}?`)).toBe(true);
  const before = listener.hits.length;
  const landed = await b.get(allowed.location as string);
  expect(landed.status).toBe(200);
  expect(listener.hits.length).toBe(before + 1);
  return listener.hits[listener.hits.length - 1] as URLSearchParams;
}

async function token(form: Record<string, string>) {
  const res = await fetch(`${origin}/o/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: client.client_id, client_secret: client.client_secret, ...form }).toString(),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers, text };
}

async function revoke(tok: string) {
  const res = await fetch(`${origin}/o/revoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: tok, client_id: client.client_id, client_secret: client.client_secret }),
  });
  return { status: res.status, text: await res.text() };
}

function me(accessToken: string, developerId: string | null = te.creds.developerId) {
  const headers: Record<string, string> = { authorization: `Bearer ${accessToken}` };
  if (developerId !== null) headers['developer-id'] = developerId;
  return te.get('/users/me', { creds: null, headers });
}

describe('authorization code flow', () => {
  it('signs in, consents, redirects with code/state/user_id, exchanges, calls /v2 with Bearer, refreshes and revokes', async () => {
    const q = await authorize();
    expect(q.get('state')).toBe(STATE);
    expect(q.get('user_id')).toBe(te.creds.userId);
    const code = q.get('code') as string;
    expect(code.length).toBeGreaterThanOrEqual(40);

    const t = await token({ grant_type: 'authorization_code', code, state: STATE });
    expect(t.status).toBe(200);
    expect(t.headers.get('cache-control')).toBe('no-store');
    expect(t.body).toMatchObject({ token_type: 'bearer', expires_in: ACCESS_TTL, state: STATE, user_id: te.creds.userId });
    expect(typeof t.body.access_token).toBe('string');
    expect(typeof t.body.refresh_token).toBe('string');

    const ok = await me(t.body.access_token);
    expect(ok.status).toBe(200);
    expect(ok.body.user.id).toBe(te.creds.userId);
    // developer-id is still required, and must be the engine's.
    expect((await me(t.body.access_token, null)).status).toBe(401);
    expect((await me(t.body.access_token, '00000000-0000-4000-8000-000000000000')).status).toBe(401);

    const r = await token({ grant_type: 'refresh_token', refresh_token: t.body.refresh_token, state: 'again' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ token_type: 'bearer', state: 'again', refresh_token: t.body.refresh_token, user_id: te.creds.userId });
    expect(r.body.access_token).not.toBe(t.body.access_token);
    expect((await me(t.body.access_token)).status).toBe(401);
    expect((await me(r.body.access_token)).status).toBe(200);

    const rv = await revoke(t.body.refresh_token);
    expect(rv.status).toBe(204);
    expect(rv.text).toBe('');
    expect((await me(r.body.access_token)).status).toBe(401);
    const dead = await token({ grant_type: 'refresh_token', refresh_token: t.body.refresh_token });
    expect(dead.status).toBe(400);
    expect(dead.body.errors.refresh_token).toEqual([OAUTH_MSG.REFRESH_INVALID]);
  });

  it('a numeric state comes back exactly as sent; one that is a card number is refused, never kept or echoed (an identifier, card-mask.ts)', async () => {
    const numeric = '4111111111111112'; // 16 digits that fail Luhn: no card
    const q = await authorize({ state: numeric });
    expect(q.get('state')).toBe(numeric);
    const t = await token({ grant_type: 'authorization_code', code: q.get('code') as string, state: numeric });
    expect(t.status).toBe(200);
    expect(t.body.state).toBe(numeric);
    const card = await new Browser().get(authorizeUrl({ state: '4111111111111111' }));
    expect(card.status).toBe(422);
    expect(card.location).toBeNull();
    expect(card.text).not.toContain('4111111111111111');
    expect(card.text).toContain(JSON.stringify(fmt(MSG.CARD_NUMBER_IN_IDENTIFIER, { attribute: 'State' })));
  });

  it('keeps no secret in plaintext: codes, tokens and client secrets are stored as SHA-256', async () => {
    const q = await authorize();
    const t = await token({ grant_type: 'authorization_code', code: q.get('code') as string });
    te.engine.db.pragma('wal_checkpoint(TRUNCATE)');
    const file = readFileSync(join(te.dataDir, 'gateway.sqlite')).toString('latin1');
    for (const secret of [q.get('code') as string, t.body.access_token, t.body.refresh_token, client.client_secret]) {
      expect(file.includes(secret)).toBe(false);
      expect(file.includes(createHash('sha256').update(secret).digest('hex'))).toBe(true);
    }
  });

  it('answers 401 for an expired access token, and refresh still works', async () => {
    const q = await authorize();
    const t = await token({ grant_type: 'authorization_code', code: q.get('code') as string });
    te.clock.advance(ACCESS_TTL - 1);
    expect((await me(t.body.access_token)).status).toBe(200);
    te.clock.advance(1);
    const expired = await me(t.body.access_token);
    expect(expired.status).toBe(401);
    expect(errorsOf(expired)).toEqual([MSG.UNAUTHORIZED]);
    const r = await token({ grant_type: 'refresh_token', refresh_token: t.body.refresh_token });
    expect(r.status).toBe(200);
    expect((await me(r.body.access_token)).status).toBe(200);
  });
});

describe('authorization code failures', () => {
  it('never redirects to a redirect_uri that is not registered (nor to an unknown client)', async () => {
    const b = new Browser();
    const before = listener.hits.length;
    for (const foreign of [`${listener.url}/../evil`, listener.url.replace('/callback', '/callbackx'), 'https://evil.example/callback', `${listener.url}?x=1`]) {
      const page = await b.get(authorizeUrl({ redirect_uri: foreign }));
      expect(page.status).toBe(400);
      expect(page.location).toBeNull();
      expect(page.text).toContain(html(OAUTH_MSG.REDIRECT_NOT_REGISTERED));
    }
    const unknown = await b.get(authorizeUrl({ client_id: 'nope' }));
    expect(unknown.status).toBe(400);
    expect(unknown.location).toBeNull();
    expect(unknown.text).toContain(html(OAUTH_MSG.CLIENT_UNKNOWN));
    expect(listener.hits.length).toBe(before);
  });

  it('sends protocol errors back to a registered redirect_uri with the state', async () => {
    const b = new Browser();
    const bad = await b.get(authorizeUrl({ response_type: 'token' }));
    expect(bad.status).toBe(302);
    const u = new URL(bad.location as string);
    expect(u.searchParams.get('error')).toBe('unsupported_response_type');
    expect(u.searchParams.get('state')).toBe(STATE);
    const scope = await b.get(authorizeUrl({ scope: 'admin' }));
    expect(new URL(scope.location as string).searchParams.get('error')).toBe('invalid_scope');
    const long = await b.get(authorizeUrl({ state: 'x'.repeat(2049) }));
    expect(new URL(long.location as string).searchParams.get('error')).toBe('invalid_request');
    expect(new URL(long.location as string).searchParams.get('state')).toBeNull();
  });

  it('rejects a wrong client secret (401) and a missing one', async () => {
    const q = await authorize();
    const res = await fetch(`${origin}/o/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: client.client_id, client_secret: 'wrong', grant_type: 'authorization_code', code: q.get('code') as string }).toString(),
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { errors: Record<string, string[]> }).errors.client_secret).toEqual([OAUTH_MSG.CLIENT_AUTH_FAILED]);
    // The code was not spent by the failed attempt.
    expect((await token({ grant_type: 'authorization_code', code: q.get('code') as string })).status).toBe(200);
    const basicWrong = await fetch(`${origin}/o/revoke`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${client.client_id}:nope`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'token=x',
    });
    expect(basicWrong.status).toBe(401);
  });

  it('a code works once; reusing it fails and revokes the tokens it gave', async () => {
    const q = await authorize();
    const code = q.get('code') as string;
    const first = await token({ grant_type: 'authorization_code', code });
    expect(first.status).toBe(200);
    const again = await token({ grant_type: 'authorization_code', code });
    expect(again.status).toBe(400);
    expect(again.body.errors.code).toEqual([OAUTH_MSG.CODE_INVALID]);
    expect((await me(first.body.access_token)).status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token })).status).toBe(400);
  });

  it('a code expires after CODE_TTL seconds', async () => {
    const q = await authorize();
    te.clock.advance(CODE_TTL + 1);
    const late = await token({ grant_type: 'authorization_code', code: q.get('code') as string });
    expect(late.status).toBe(400);
    expect(late.body.errors.code).toEqual([OAUTH_MSG.CODE_INVALID]);
  });

  it('rejects unknown grant types, missing codes and a mismatched redirect_uri', async () => {
    expect((await token({ grant_type: 'password' })).body.errors.grant_type).toEqual([OAUTH_MSG.GRANT_TYPE_UNSUPPORTED]);
    expect((await token({ grant_type: 'authorization_code' })).status).toBe(400);
    const q = await authorize();
    const mism = await token({ grant_type: 'authorization_code', code: q.get('code') as string, redirect_uri: 'https://evil.example/cb' });
    expect(mism.status).toBe(400);
    expect(mism.body.errors.redirect_uri).toEqual([OAUTH_MSG.REDIRECT_MISMATCH]);
  });

  it('deny redirects with error=access_denied and the state, and no code', async () => {
    const { b, request_id, csrf_token } = await toConsent();
    const denied = await b.post(`${origin}/o/authrize`, { request_id, csrf_token, decision: 'deny' });
    expect(denied.status).toBe(302);
    const u = new URL(denied.location as string);
    expect(u.searchParams.get('error')).toBe('access_denied');
    expect(u.searchParams.get('state')).toBe(STATE);
    expect(u.searchParams.get('code')).toBeNull();
    // The request is closed: allowing afterwards does nothing.
    const late = await b.post(`${origin}/o/authrize`, { request_id, csrf_token, decision: 'allow' });
    expect(late.status).toBe(400);
    expect(late.location).toBeNull();
    expect(late.text).toContain(html(OAUTH_MSG.REQUEST_EXPIRED));
  });

  it('refuses a post without the CSRF token or the browser cookie of its request', async () => {
    const b = new Browser();
    const page = await b.get(authorizeUrl());
    const form = { request_id: field(page.text, 'request_id'), domain: login.domain, username: login.username, password: login.password };
    const noToken = await b.post(`${origin}/o/authrize`, { ...form, csrf_token: 'forged' });
    expect(noToken.status).toBe(403);
    expect(noToken.text).toContain(html(OAUTH_MSG.CSRF_MISMATCH));
    const otherBrowser = new Browser();
    const noCookie = await otherBrowser.post(`${origin}/o/authrize`, { ...form, csrf_token: field(page.text, 'csrf_token') });
    expect(noCookie.status).toBe(403);
    // The login page's token does not work on the consent step (it changes after login).
    const { b: b2, request_id } = await toConsent();
    const staleToken = await b2.post(`${origin}/o/authrize`, { request_id, csrf_token: field((await b2.get(authorizeUrl())).text, 'csrf_token'), decision: 'allow' });
    expect(staleToken.status).toBe(403);
  });

  it('two sign-ins started in the same browser (two tabs) both work', async () => {
    const b = new Browser();
    const tab1 = await b.get(authorizeUrl({ state: 'one' }));
    const tab2 = await b.get(authorizeUrl({ state: 'two' }));
    for (const [tab, state] of [[tab1, 'one'], [tab2, 'two']] as const) {
      const consent = await b.post(`${origin}/o/authrize`, {
        request_id: field(tab.text, 'request_id'), csrf_token: field(tab.text, 'csrf_token'), domain: login.domain, username: login.username, password: login.password,
      });
      expect(consent.status).toBe(200);
      const allowed = await b.post(`${origin}/o/authrize`, { request_id: field(consent.text, 'request_id'), csrf_token: field(consent.text, 'csrf_token'), decision: 'allow' });
      expect(new URL(allowed.location as string).searchParams.get('state')).toBe(state);
    }
  });

  it('an authorization request expires', async () => {
    const b = new Browser();
    const page = await b.get(authorizeUrl());
    te.clock.advance(601);
    const late = await b.post(`${origin}/o/authrize`, {
      request_id: field(page.text, 'request_id'), csrf_token: field(page.text, 'csrf_token'), domain: login.domain, username: login.username, password: login.password,
    });
    expect(late.status).toBe(400);
    expect(late.text).toContain(html(OAUTH_MSG.REQUEST_EXPIRED));
  });

  it('wrong passwords get a clear error, and after five the login is locked for the window', async () => {
    const b = new Browser();
    const page = await b.get(authorizeUrl());
    const base = { request_id: field(page.text, 'request_id'), csrf_token: field(page.text, 'csrf_token'), domain: login.domain, username: login.username };
    for (let i = 0; i < 5; i++) {
      const wrong = await b.post(`${origin}/o/authrize`, { ...base, password: `wrong${i}` });
      expect(wrong.status).toBe(401);
      expect(wrong.text).toContain(html(OAUTH_MSG.LOGIN_WRONG));
      expect(wrong.text).not.toContain(`wrong${i}`);
    }
    const locked = await b.post(`${origin}/o/authrize`, { ...base, password: login.password });
    expect(locked.status).toBe(429);
    expect(locked.text).toContain('Too many wrong passwords for this user. Try again in 15 minutes.');
    const unknownDomain = await b.post(`${origin}/o/authrize`, { ...base, domain: 'other.localhost', password: login.password });
    expect(unknownDomain.status).toBe(401);
    te.clock.advance(LOGIN_WINDOW);
    const b2 = new Browser();
    const fresh = await b2.get(authorizeUrl());
    const ok = await b2.post(`${origin}/o/authrize`, {
      request_id: field(fresh.text, 'request_id'), csrf_token: field(fresh.text, 'csrf_token'), domain: login.domain, username: login.username, password: login.password,
    });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('decision');
  });

  it('PKCE S256: the verifier is required and must match; the plain method is refused', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const q = await authorize({ code_challenge: challenge, code_challenge_method: 'S256' });
    const none = await token({ grant_type: 'authorization_code', code: q.get('code') as string });
    expect(none.status).toBe(400);
    expect(none.body.errors.code_verifier).toEqual([OAUTH_MSG.VERIFIER_INVALID]);
    const wrong = await token({ grant_type: 'authorization_code', code: q.get('code') as string, code_verifier: randomBytes(32).toString('base64url') });
    expect(wrong.status).toBe(400);
    const right = await token({ grant_type: 'authorization_code', code: q.get('code') as string, code_verifier: verifier });
    expect(right.status).toBe(200);
    const plain = await new Browser().get(authorizeUrl({ code_challenge: verifier, code_challenge_method: 'plain' }));
    expect(new URL(plain.location as string).searchParams.get('error')).toBe('invalid_request');
  });

  it('pages carry a strict CSP and no external assets; consent may only post to its own redirect origin', async () => {
    const { page } = await toConsent();
    expect(page.text).toContain('<h1>Allow Books &amp; &lt;Co&gt;?</h1>');
    const csp = page.headers.get('content-security-policy') as string;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain(`form-action 'self' ${new URL(listener.url).origin}`);
    expect(page.text).not.toMatch(/<script|https?:\/\/[^"]*\.(css|js)/);
  });
});

describe('client registration and credentials.json', () => {
  it('validates the registration and lists clients without secrets', async () => {
    const bad = await te.post('/oauthclients', { oauthclient: { name: '', redirect_uris: ['javascript:alert(1)'] } });
    expect(bad.status).toBe(422);
    expect(errorsOf(bad, 'name')).toEqual(['Name cannot be blank.']);
    expect(errorsOf(bad, 'redirect_uris')).toEqual([OAUTH_MSG.REDIRECT_INVALID]);
    expect(errorsOf(await te.post('/oauthclients', { oauthclient: { name: 'x' } }), 'redirect_uris')).toEqual([OAUTH_MSG.REDIRECTS_REQUIRED]);
    const list = await te.get('/oauthclients');
    expect(list.status).toBe(200);
    expect(list.body.oauthclients.map((c: { name: string }) => c.name)).toEqual(expect.arrayContaining(['Ringup Sandbox', 'Books & <Co>']));
    expect(list.text).not.toContain('secret');
    expect((await te.get('/oauthclients', { creds: null })).status).toBe(401);
  });

  it('credentials.json carries the sandbox client, the login and a 64-hex encryption key, and they work', async () => {
    const file = JSON.parse(readFileSync(join(te.dataDir, 'credentials.json'), 'utf8')) as Creds;
    expect(file.developer_encryption_key).toMatch(/^[0-9a-f]{64}$/);
    expect(file.login).toEqual({ domain: 'ringup.localhost', username: 'admin', password: expect.any(String) });
    const b = new Browser();
    const q = new URLSearchParams({ response_type: 'code', client_id: file.oauth.client_id, redirect_uri: file.oauth.redirect_uri, scope: 'api', state: 's' });
    const page = await b.get(`${origin}/o/authrize?${q}`);
    const consent = await b.post(`${origin}/o/authrize`, {
      request_id: field(page.text, 'request_id'), csrf_token: field(page.text, 'csrf_token'), ...file.login,
    });
    const allowed = await b.post(`${origin}/o/authrize`, { request_id: field(consent.text, 'request_id'), csrf_token: field(consent.text, 'csrf_token'), decision: 'allow' });
    expect(allowed.location?.startsWith(`${file.oauth.redirect_uri}?`)).toBe(true);
    const code = new URL(allowed.location as string).searchParams.get('code') as string;
    const res = await fetch(`${origin}/o/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'authorization_code', code, client_id: file.oauth.client_id, client_secret: file.oauth.client_secret, state: 's' }),
    });
    expect(res.status).toBe(200);
  });

  it('reset() keeps the sandbox client, login and key working', async () => {
    const before = te.engine.credentials as unknown as Creds;
    te.engine.reset();
    const list = await te.get('/oauthclients');
    expect(list.body.oauthclients.map((c: { client_id: string }) => c.client_id)).toEqual([before.oauth.client_id]);
    const b = new Browser();
    const q = new URLSearchParams({ response_type: 'code', client_id: before.oauth.client_id, redirect_uri: before.oauth.redirect_uri, scope: 'api' });
    const page = await b.get(`${origin}/o/authrize?${q}`);
    const consent = await b.post(`${origin}/o/authrize`, { request_id: field(page.text, 'request_id'), csrf_token: field(page.text, 'csrf_token'), ...before.login });
    expect(consent.status).toBe(200);
    // Re-register the test client for any later test.
    const reg = await te.post('/oauthclients', { oauthclient: { name: 'Books & <Co>', redirect_uris: [listener.url] } });
    client = { client_id: reg.body.oauthclient.client_id, client_secret: reg.body.oauthclient.client_secret };
  });
});

describe('other users, roles and client removal', () => {
  it('a clerk signs in with their own login; their token stops when they are deactivated; clerks cannot manage clients', async () => {
    const key = randomBytes(16).toString('hex');
    const made = await te.post('/users', {
      user: { username: 'clerk7', email: 'c@example.com', last_name: 'Clerk', user_type_id: 100, primary_location_id: te.locationId, user_api_key: key, password: 'counter123' },
    });
    expect(made.status).toBe(201);
    const clerk = { developerId: te.creds.developerId, userId: made.body.user.id as string, apiKey: key };
    const forbidden = await te.post('/oauthclients', { oauthclient: { name: 'Mine', redirect_uris: [listener.url] } }, { creds: clerk });
    expect(forbidden.status).toBe(403);
    expect(errorsOf(forbidden)).toEqual([fmt(PERMISSION_MSG.FORBIDDEN, { type: 100, what: 'call POST /v2/oauthclients', who: describeTypes(ADMINS) })]);

    const b = new Browser();
    const page = await b.get(authorizeUrl());
    const consent = await b.post(`${origin}/o/authrize`, {
      request_id: field(page.text, 'request_id'), csrf_token: field(page.text, 'csrf_token'), domain: login.domain, username: 'clerk7', password: 'counter123',
    });
    expect(consent.status).toBe(200);
    expect(consent.text).toContain('Signed in as <strong>clerk7</strong>');
    const allowed = await b.post(`${origin}/o/authrize`, { request_id: field(consent.text, 'request_id'), csrf_token: field(consent.text, 'csrf_token'), decision: 'allow' });
    const q = new URL(allowed.location as string).searchParams;
    expect(q.get('user_id')).toBe(clerk.userId);
    const t = await token({ grant_type: 'authorization_code', code: q.get('code') as string });
    const who = await me(t.body.access_token);
    expect(who.body.user.id).toBe(clerk.userId);
    expect(who.body.user.last_login_ts).toBe(te.clock.now());

    expect((await te.put(`/users/${clerk.userId}`, { user: { status_id: 0 } })).status).toBe(200);
    expect((await me(t.body.access_token)).status).toBe(401);
  });

  it('deleting a client revokes its tokens', async () => {
    const reg = await te.post('/oauthclients', { oauthclient: { name: 'Short-lived', redirect_uris: [listener.url] } });
    const tmp = { client_id: reg.body.oauthclient.client_id as string, client_secret: reg.body.oauthclient.client_secret as string };
    const saved = client;
    client = tmp;
    try {
      const q = await authorize();
      const t = await token({ grant_type: 'authorization_code', code: q.get('code') as string });
      expect((await me(t.body.access_token)).status).toBe(200);
      expect((await te.get(`/oauthclients/${tmp.client_id}`)).body.oauthclient.name).toBe('Short-lived');
      expect((await te.del(`/oauthclients/${tmp.client_id}`)).status).toBe(204);
      expect((await me(t.body.access_token)).status).toBe(401);
      expect((await te.get(`/oauthclients/${tmp.client_id}`)).status).toBe(404);
      expect((await token({ grant_type: 'refresh_token', refresh_token: t.body.refresh_token })).status).toBe(401);
    } finally {
      client = saved;
    }
  });
});
