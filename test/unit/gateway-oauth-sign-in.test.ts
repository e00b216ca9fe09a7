/**
 * The app's OAuth 2.0 sign-in (issue 11, point 4), over real HTTP: the loopback redirect
 * listener; the token source behind the gateway client against a real engine on port 0
 * (refresh before expiry and once on a 401, then the retry); and the whole sign-in through
 * the core's IPC against the embedded engine's own login page, then a start that sells with
 * the Bearer token, and sign-out revoking it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enterAccount } from '../../electron/core/gateway/account-records';
import { OAUTH_UI } from '../../electron/core/gateway/gateway-oauth';
import { openPosDatabase } from '../../electron/core/platform/pos-database';
import { GatewayClient, GatewayError } from '../../electron/client/gateway-client';
import { CALLBACK_PATH, LOOPBACK_PAGES, LoopbackError, startLoopbackListener } from '../../electron/core/gateway/oauth-loopback';
import { authorizeUrl, exchangeCode, newState, OAUTH_SESSION_SECRET, OAuthSession, REFRESH_MARGIN_MS, revokeToken } from '../../electron/core/gateway/oauth-session';
import { ACCESS_TTL } from '../../electron/gateway/oauth/oauth-store';
import { openNodeHostSecretStore } from '../../electron/core/keys/node-host-keys';
import { FileSecretStore } from '../../electron/secrets/file-secret-store';
import { Browser, field } from '../gateway/oauth/browser';
import { TestEngine } from '../gateway/helpers/engine-fixture';
import { openCore, value, type OpenCore } from '../helpers/core-harness';
import { embeddedCredentials } from '../helpers/embedded-credentials';

interface Creds {
  base_url: string;
  developer_id: string;
  auth_url: string;
  oauth: { client_id: string; client_secret: string };
  login: { domain: string; username: string; password: string };
}

/** A raw GET with a chosen Host header (fetch does not let a test forge it). */
function rawGet(port: number, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The gateway's login and consent pages, as the person in the browser would; answers the consent page's redirect. */
async function loginAndAllow(url: string, login: Creds['login'], decision: 'allow' | 'deny' = 'allow'): Promise<string> {
  const b = new Browser();
  const page = await b.get(url);
  expect(page.status).toBe(200);
  const origin = new URL(url).origin;
  const consent = await b.post(`${origin}/o/authrize`, { request_id: field(page.text, 'request_id'), csrf_token: field(page.text, 'csrf_token'), ...login });
  expect(consent.status).toBe(200);
  const done = await b.post(`${origin}/o/authrize`, { request_id: field(consent.text, 'request_id'), csrf_token: field(consent.text, 'csrf_token'), decision });
  expect(done.status).toBe(302);
  return done.location as string;
}

describe('the loopback redirect listener', () => {
  it('answers only its own state, keeps waiting after a wrong one, then closes itself', async () => {
    const l = await startLoopbackListener({ state: 'right-state' });
    const port = Number(new URL(l.redirectUri).port);
    expect(l.redirectUri).toBe(`http://127.0.0.1:${port}${CALLBACK_PATH}`);
    let settled = false;
    void l.result.then(() => (settled = true));

    const wrong = await fetch(`${l.redirectUri}?code=stolen&state=other-state`);
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain(LOOPBACK_PAGES.wrongState);
    const missing = await fetch(`${l.redirectUri}?code=stolen`);
    expect(missing.status).toBe(400);
    expect((await fetch(`http://127.0.0.1:${port}/elsewhere?code=x&state=right-state`)).status).toBe(404);
    expect(settled).toBe(false);
    expect(l.listening).toBe(true);

    const right = await fetch(`${l.redirectUri}?code=the-code&state=right-state&user_id=u1`);
    expect(right.status).toBe(200);
    expect(await right.text()).toContain(LOOPBACK_PAGES.done);
    await expect(l.result).resolves.toEqual({ code: 'the-code', userId: 'u1' });
    expect(l.listening).toBe(false);
    // Closed: nothing answers on that port any more.
    await expect(fetch(`${l.redirectUri}?code=again&state=right-state`)).rejects.toThrow();
  });

  it('refuses a request addressed to another host (DNS rebinding)', async () => {
    const l = await startLoopbackListener({ state: 's1' });
    const port = Number(new URL(l.redirectUri).port);
    const foreign = await rawGet(port, `${CALLBACK_PATH}?code=c&state=s1`, `evil.example:${port}`);
    expect(foreign.status).toBe(400);
    const localhostName = await rawGet(port, `${CALLBACK_PATH}?code=c&state=s1`, `localhost:${port}`);
    expect(localhostName.status).toBe(400);
    expect(l.listening).toBe(true);
    const own = await rawGet(port, `${CALLBACK_PATH}?code=c&state=s1`, `127.0.0.1:${port}`);
    expect(own.status).toBe(200);
    await expect(l.result).resolves.toMatchObject({ code: 'c' });
  });

  it('gives up after its timeout and closes; a denial ends it too', async () => {
    const l = await startLoopbackListener({ state: 's2', timeoutMs: 150 });
    const err = await l.result.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LoopbackError);
    expect((err as LoopbackError).reason).toBe('timeout');
    expect(l.listening).toBe(false);

    const d = await startLoopbackListener({ state: 's3' });
    const denied = await fetch(`${d.redirectUri}?error=access_denied&state=s3`);
    expect(await denied.text()).toContain(LOOPBACK_PAGES.denied);
    await expect(d.result).rejects.toMatchObject({ reason: 'denied' });
    expect(d.listening).toBe(false);
  });
});

describe('tokens against a real engine', () => {
  let te: TestEngine;
  let creds: Creds;
  let memoryStore: FileSecretStore;
  let storeDir: string;

  beforeAll(async () => {
    te = await TestEngine.start();
    creds = te.engine.credentials as unknown as Creds;
    storeDir = mkdtempSync(join(tmpdir(), 'ringup-oauth-store-'));
    memoryStore = new FileSecretStore(storeDir);
  });
  afterAll(async () => {
    await te.close();
    rmSync(storeDir, { recursive: true, force: true });
  });

  /** A fresh sign-in with the engine's sandbox client through a real loopback listener. */
  async function signIn(now: () => number = Date.now): Promise<OAuthSession> {
    te.clock.release();
    const state = newState();
    const l = await startLoopbackListener({ state });
    const config = { authUrl: creds.auth_url, clientId: creds.oauth.client_id, clientSecret: creds.oauth.client_secret };
    const back = await loginAndAllow(authorizeUrl(config, l.redirectUri, state), creds.login);
    expect(back.startsWith(`${l.redirectUri}?`)).toBe(true);
    await fetch(back);
    const { code } = await l.result;
    return new OAuthSession(config, await exchangeCode(config, code, state, l.redirectUri), memoryStore, now);
  }

  const meWith = (token: string) => fetch(`${creds.base_url}/users/me`, { headers: { authorization: `Bearer ${token}`, 'developer-id': creds.developer_id } });

  it('the engine takes a loopback redirect on any port (RFC 8252), and nothing else beyond the registered URL', async () => {
    const ask = (redirectUri: string) => fetch(authorizeUrl({ authUrl: creds.auth_url, clientId: creds.oauth.client_id }, redirectUri, 's'), { redirect: 'manual' }).then((r) => r.status);
    expect(await ask('http://127.0.0.1:8765/oauth/callback')).toBe(200);
    expect(await ask('http://127.0.0.1:40123/oauth/callback')).toBe(200);
    for (const foreign of ['http://127.0.0.1:40123/oauth/callbackx', 'http://localhost:40123/oauth/callback', 'https://127.0.0.1:40123/oauth/callback', 'http://127.0.0.1.evil.example:40123/oauth/callback', 'http://127.0.0.1:40123/oauth/callback?x=1']) {
      expect(await ask(foreign)).toBe(400);
    }
  });

  it('the client sends the Bearer token with developer-id, and refreshes it shortly before it expires', async () => {
    let appNow = Date.now();
    const session = await signIn(() => appNow);
    const client = new GatewayClient({ baseUrl: creds.base_url, auth: { developerId: creds.developer_id, userId: session.userId, userApiKey: '', tokens: session } });
    const first = await session.accessToken();
    expect((await client.me()).id).toBe(session.userId);
    expect(await session.accessToken()).toBe(first);
    // The app's clock reaches the margin before expiry: the next request refreshes first.
    appNow += ACCESS_TTL * 1000 - REFRESH_MARGIN_MS + 1_000;
    expect((await client.me()).id).toBe(session.userId);
    const second = await session.accessToken();
    expect(second).not.toBe(first);
    expect((await meWith(second)).status).toBe(200);
  });

  it('on a 401 it refreshes once and retries; when the refresh is refused it answers the 401 (no loop)', async () => {
    const session = await signIn();
    const client = new GatewayClient({ baseUrl: creds.base_url, auth: { developerId: creds.developer_id, userId: session.userId, userApiKey: '', tokens: session } });
    const old = await session.accessToken();
    // The engine's clock passes the access token's life; the app's clock does not know.
    te.clock.advance(ACCESS_TTL + 5);
    expect((await meWith(old)).status).toBe(401);
    expect((await client.me()).id).toBe(session.userId);
    const fresh = await session.accessToken();
    expect(fresh).not.toBe(old);
    const health = await client.health();
    expect(health.health).toBe('ok');

    // Revoked: the 401 stands, after exactly one refresh attempt.
    await session.revoke();
    expect(await session.accessToken()).toBe('');
    const err = await client.me().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as GatewayError).status).toBe(401);
    expect((await meWith(fresh)).status).toBe(401);
    expect((await client.health()).health).toBe('refused');
  });

  it('requests that all meet an expired token share one refresh', async () => {
    const session = await signIn();
    const client = new GatewayClient({ baseUrl: creds.base_url, auth: { developerId: creds.developer_id, userId: session.userId, userApiKey: '', tokens: session } });
    await session.accessToken();
    te.clock.advance(ACCESS_TTL + 5);
    // Count the token calls on the wire (fetch itself still does the real HTTP).
    const realFetch = globalThis.fetch;
    let tokenCalls = 0;
    globalThis.fetch = (input: string | URL | Request, init?: RequestInit) => {
      if (String(input instanceof Request ? input.url : input).endsWith('/o/token')) tokenCalls++;
      return realFetch(input, init);
    };
    try {
      const answers = await Promise.all(Array.from({ length: 6 }, () => client.me()));
      expect(answers.every((u) => u.id === session.userId)).toBe(true);
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(tokenCalls).toBe(1);
  });

  it('a refresh token the gateway refuses is not tried again (no /o/token storm from the health probe)', async () => {
    const session = await signIn();
    const client = new GatewayClient({ baseUrl: creds.base_url, auth: { developerId: creds.developer_id, userId: session.userId, userApiKey: '', tokens: session } });
    // Revoked at the gateway behind the app's back (another device, an admin).
    await revokeToken(session.config, await session.accessToken());
    expect(session.refreshRefused).toBe(false);
    expect((await client.health()).health).toBe('refused');
    expect(session.refreshRefused).toBe(true);
    expect(await session.refreshNow()).toBe(false);
    expect((await client.me().catch((e: GatewayError) => e)).status).toBe(401);
  });

  it('keeps the tokens only in the secret store, and revoke deletes them there', async () => {
    const session = await signIn();
    await session.save();
    const raw = (await memoryStore.get(OAUTH_SESSION_SECRET))!.toString('utf8');
    expect(raw).toContain(await session.accessToken());
    const loaded = await OAuthSession.load(memoryStore);
    expect(loaded?.userId).toBe(session.userId);
    expect(await loaded!.revoke()).toEqual({ revoked: true });
    expect(await memoryStore.get(OAUTH_SESSION_SECRET)).toBeNull();
    expect((await meWith(await session.accessToken())).status).toBe(401);
  });
});

describe('signing the counter in with OAuth through the core (embedded engine)', () => {
  let dir: string;
  let open: OpenCore | undefined;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ringup-oauth-core-'));
  });
  afterAll(async () => {
    await open?.core.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('signs in on the engine’s login page, sells with the Bearer token after a restart, and sign-out revokes it', async () => {
    open = await openCore(dir);
    const creds = embeddedCredentials(dir) as unknown as Creds;
    expect(value(await open.call('gateway:first-run'))).toEqual({ needed: true, pendingRemote: null });
    // Before anyone signs in: a remote gateway picked at first run, for a manager to finish.
    const bad = await open.call('gateway:first-run-choose', { kind: 'remote', environment: 'sandbox', baseUrl: 'not a url', developerId: '' });
    expect(bad.ok ? null : bad.error.fields).toMatchObject({ baseUrl: [expect.any(String)], developerId: ['Enter the developer id the gateway gave you.'] });
    const chosen = value(await open.call('gateway:first-run-choose', { kind: 'remote', environment: 'sandbox', baseUrl: 'https://api.sandbox.example.com/v2/', developerId: 'dev-1' }));
    expect(chosen).toEqual({ needed: false, pendingRemote: { environment: 'sandbox', baseUrl: 'https://api.sandbox.example.com/v2', developerId: 'dev-1' } });
    expect(value(await open.call('gateway:first-run'))).toEqual(chosen);
    // Not before a manager signs in.
    expect((await open.call('gateway:oauth-start', { kind: 'embedded' })).ok).toBe(false);
    await open.signInAs('Morgan', '1234');
    const started = value(await open.call('gateway:oauth-start', { kind: 'embedded' }));
    expect(started.openedInBrowser).toBe(false); // the node host: the renderer opens it
    const redirectUri = new URL(started.authorizeUrl).searchParams.get('redirect_uri')!;
    expect(redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/callback$/);
    const finishing = open.call('gateway:oauth-finish', { attemptId: started.attemptId });
    // A second finish of the same sign-in is refused (a second code exchange would kill the first pair).
    expect(await open.call('gateway:oauth-finish', { attemptId: started.attemptId })).toMatchObject({ ok: false, error: { message: OAUTH_UI.finishing } });
    const back = await loginAndAllow(started.authorizeUrl, creds.login);
    expect((await fetch(back)).status).toBe(200);
    const view = value(await finishing);
    expect(view.saved).toMatchObject({ kind: 'embedded', auth: 'oauth', userId: expect.any(String) });
    expect(view.restartNeeded).toBe(true);
    // No token in the answer.
    const stored = JSON.parse((await openNodeHostSecretStore(dir).get(OAUTH_SESSION_SECRET))!.toString('utf8')) as { accessToken: string; refreshToken: string };
    expect(JSON.stringify(view)).not.toContain(stored.accessToken);

    // The next start signs in to the engine with the Bearer token and sells.
    await open.core.close();
    open = await openCore(dir);
    await open.signInAs('Morgan', '1234');
    const now = value(await open.call('gateway:connection'));
    expect(now.authMethod).toBe('oauth');
    expect(value(await open.call('gateway:check')).health).toBe('ok');
    const sale = value(await open.call('sale:charge', { subtotalCents: 1234, taxCents: 0, tipCents: 0, card: { number: '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' }, clientRef: 'oauth-sale-1' }));
    expect(sale.approved).toBe(true);

    // Sign-out revokes: the stored pair is dead at the engine and gone from the store.
    const base = (embeddedCredentials(dir) as unknown as Creds).base_url;
    const token = JSON.parse((await openNodeHostSecretStore(dir).get(OAUTH_SESSION_SECRET))!.toString('utf8')) as { accessToken: string };
    const me = () => fetch(`${base}/users/me`, { headers: { authorization: `Bearer ${token.accessToken}`, 'developer-id': creds.developer_id } });
    expect((await me()).status).toBe(200);
    const clerkRows = () => {
      const db = new Database(join(dir, 'ringup.db'), { readonly: true });
      try {
        return (db.prepare('SELECT COUNT(*) AS n FROM clerk_records').get() as { n: number }).n;
      } finally {
        db.close();
      }
    };
    expect(clerkRows()).toBeGreaterThan(0);
    const out = value(await open.call('gateway:sign-out'));
    // The previous account's records go with it.
    expect(clerkRows()).toBe(0);
    expect(out.saved).toMatchObject({ kind: 'embedded', auth: 'engine-keys' });
    expect((await me()).status).toBe(401);
    expect(await openNodeHostSecretStore(dir).get(OAUTH_SESSION_SECRET)).toBeNull();
    expect(value(await open.call('gateway:check')).health).toBe('refused');
    // This run's sign-in ended at once, and says so: a cashier's sale (the cashier's engine user went with it) is refused too.
    expect(out.signedOut).toBe(true);
    expect(value(await open.call('core:status')).gateway).toMatchObject({ auth: 'oauth', signedOut: true, health: 'refused' });
    await open.signInAs('Casey', '0000');
    expect((await open.call('sale:charge', { subtotalCents: 1500, taxCents: 0, tipCents: 0, card: { number: '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' }, clientRef: 'oauth-after-out' })).ok).toBe(false);
  });
});

describe('signing out of a remote gateway signed in with an API key', () => {
  it('ends this run’s sign-in at once: nothing more is charged with the forgotten key, and the status says signed out', async () => {
    const engineDir = mkdtempSync(join(tmpdir(), 'ringup-apikey-engine-'));
    const dir = mkdtempSync(join(tmpdir(), 'ringup-apikey-counter-'));
    const engineSide = await openCore(engineDir);
    let open: OpenCore | undefined;
    try {
      const creds = embeddedCredentials(engineDir) as unknown as Creds & { user_id: string; user_api_key: string };
      open = await openCore(dir);
      await open.signInAs('Morgan', '1234');
      value(await open.call('gateway:save', { kind: 'remote', baseUrl: creds.base_url, developerId: creds.developer_id, userId: creds.user_id, userApiKey: creds.user_api_key }));
      await open.core.close();
      open = await openCore(dir);
      await open.signInAs('Morgan', '1234');
      expect(value(await open.call('core:status')).gateway).toMatchObject({ mode: 'remote', auth: 'api-key', signedOut: false });
      const card = { number: '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' };
      expect(value(await open.call('sale:charge', { subtotalCents: 1500, taxCents: 0, tipCents: 0, card, clientRef: 'apikey-before' })).approved).toBe(true);

      const out = value(await open.call('gateway:sign-out'));
      expect(out).toMatchObject({ signedOut: true, saved: { kind: 'embedded' } });
      expect((await open.call('sale:charge', { subtotalCents: 1600, taxCents: 0, tipCents: 0, card, clientRef: 'apikey-after' })).ok).toBe(false);
      expect(value(await open.call('gateway:check')).health).toBe('refused');
      expect(value(await open.call('core:status')).gateway).toMatchObject({ auth: 'api-key', signedOut: true });
      // The key still works at the gateway (an API key cannot be revoked from here): only this counter forgot it.
      const me = await fetch(`${creds.base_url}/users/me`, { headers: { 'developer-id': creds.developer_id, 'user-id': creds.user_id, 'user-api-key': creds.user_api_key } });
      expect(me.status).toBe(200);
    } finally {
      await open?.core.close();
      await engineSide.core.close();
      rmSync(dir, { recursive: true, force: true });
      rmSync(engineDir, { recursive: true, force: true });
    }
  });
});

describe('switching accounts', () => {
  it('a start on another account than the last run clears the previous account’s records; the same account keeps them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ringup-account-'));
    const db = openPosDatabase(dir);
    try {
      const rows = () => (db.prepare('SELECT (SELECT COUNT(*) FROM clerk_records) + (SELECT COUNT(*) FROM refund_ledger) AS n').get() as { n: number }).n;
      const add = (id: string) => {
        db.prepare("INSERT INTO clerk_records (transaction_id, action, user_id, user_name, created_ts) VALUES (?, 'sale', 'u', 'Casey', 1)").run(id);
        db.prepare('INSERT INTO refund_ledger (refund_id, original_id, cents, created_ts) VALUES (?, ?, 100, 1)').run(`r-${id}`, id);
      };
      expect(enterAccount(db, 'remote|https://a.example/v2|dev|u1')).toBe(false);
      add('t1');
      expect(enterAccount(db, 'remote|https://a.example/v2|dev|u1')).toBe(false);
      expect(rows()).toBe(2);
      expect(enterAccount(db, 'remote|https://a.example/v2|dev|u2')).toBe(true);
      expect(rows()).toBe(0);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('saving another gateway revokes the OAuth sign-in; the first-run choice is taken once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ringup-oauth-switch-'));
    const open = await openCore(dir);
    try {
      const creds = embeddedCredentials(dir) as unknown as Creds;
      expect(value(await open.call('gateway:first-run-choose', { kind: 'embedded' }))).toEqual({ needed: false, pendingRemote: null });
      const again = await open.call('gateway:first-run-choose', { kind: 'embedded' });
      expect(again.ok).toBe(false);
      await open.signInAs('Morgan', '1234');
      const started = value(await open.call('gateway:oauth-start', { kind: 'embedded' }));
      const finishing = open.call('gateway:oauth-finish', { attemptId: started.attemptId });
      await fetch(await loginAndAllow(started.authorizeUrl, creds.login));
      value(await finishing);
      const { accessToken } = JSON.parse((await openNodeHostSecretStore(dir).get(OAUTH_SESSION_SECRET))!.toString('utf8')) as { accessToken: string };
      const me = () => fetch(`${creds.base_url}/users/me`, { headers: { authorization: `Bearer ${accessToken}`, 'developer-id': creds.developer_id } });
      expect((await me()).status).toBe(200);
      value(await open.call('gateway:save', { kind: 'embedded' }));
      expect((await me()).status).toBe(401);
      expect(await openNodeHostSecretStore(dir).get(OAUTH_SESSION_SECRET)).toBeNull();

      // A denied consent and a cancelled sign-in end the attempt with a sentence, not a hang.
      const denied = value(await open.call('gateway:oauth-start', { kind: 'embedded' }));
      const deniedFinish = open.call('gateway:oauth-finish', { attemptId: denied.attemptId });
      await fetch(await loginAndAllow(denied.authorizeUrl, creds.login, 'deny'));
      expect(await deniedFinish).toMatchObject({ ok: false, error: { message: 'Access was not allowed on the gateway’s page.' } });
      const cancelled = value(await open.call('gateway:oauth-start', { kind: 'embedded' }));
      const cancelledFinish = open.call('gateway:oauth-finish', { attemptId: cancelled.attemptId });
      value(await open.call('gateway:oauth-cancel', { attemptId: cancelled.attemptId }));
      expect(await cancelledFinish).toMatchObject({ ok: false, error: { message: 'The sign-in was cancelled.' } });
    } finally {
      await open.core.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
