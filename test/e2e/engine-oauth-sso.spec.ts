/**
 * The engine's own pages in Chromium, against the standalone engine (build/node/
 * gateway-cli.mjs, real SQLite in a fresh folder): OAuth sign-in → consent → redirect to
 * a real local listener; and an SSO link → hosted charge page → approved sale. axe runs
 * on every page, in light and dark.
 */
import { test, expect, type Page } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import { createCipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shot } from './fixtures';
import { expectAccessible } from './helpers/counter';
import { RedirectListener } from '../gateway/oauth/browser';
import { startStandaloneEngine } from '../helpers/standalone-engine';

interface Creds {
  base_url: string;
  auth_url: string;
  developer_id: string;
  user_id: string;
  user_api_key: string;
  location_id: string;
  login: { domain: string; username: string; password: string };
  oauth: { client_id: string; client_secret: string; redirect_uri: string };
  developer_encryption_key: string;
}

let child: ChildProcess;
let creds: Creds;
let dataDir: string;

test.beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'ringup-e2e-oauth-'));
  ({ child: child, creds } = await startStandaloneEngine<Creds>(dataDir));
});

test.afterAll(async () => {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
});

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${creds.base_url}${path}`, {
    ...init,
    headers: { 'developer-id': creds.developer_id, 'user-id': creds.user_id, 'user-api-key': creds.user_api_key, 'content-type': 'application/json', ...(init.headers ?? {}) },
  });

async function bothThemes(page: Page, name: string, label: string): Promise<void> {
  await expectAccessible(page, `${label} (light)`);
  await shot(page, `${name}-light`);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectAccessible(page, `${label} (dark)`);
  await shot(page, `${name}-dark`);
  await page.emulateMedia({ colorScheme: 'light' });
}

test('OAuth: open /o/authrize, sign in, allow, land on the redirect with code, state and user_id', async ({ page }) => {
  const listener = await RedirectListener.start('/oauth/done');
  try {
    const reg = await api('/oauthclients', {
      method: 'POST',
      body: JSON.stringify({ oauthclient: { name: 'Bookkeeper', description: 'Keeps the books of Demo Store.', homepage_url: 'https://bookkeeper.example', redirect_uris: [listener.url] } }),
    });
    expect(reg.status).toBe(201);
    const client = ((await reg.json()) as { oauthclient: { client_id: string; client_secret: string } }).oauthclient;
    const state = '{"step":"connect"}';
    const q = new URLSearchParams({ response_type: 'code', client_id: client.client_id, redirect_uri: listener.url, scope: 'api', state });
    await page.goto(`${creds.auth_url}/o/authrize?${q}`);
    await expect(page.getByRole('heading', { name: 'Sign in to allow Bookkeeper' })).toBeVisible();
    await bothThemes(page, 'oauth-01-login', 'login page');

    await page.getByLabel('Login domain').fill(creds.login.domain);
    await page.getByLabel('Username').fill(creds.login.username);
    await page.getByLabel('Password').fill('not-the-password1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText('The login domain, username or password is wrong.');
    await bothThemes(page, 'oauth-02-wrong-password', 'wrong password');

    await page.getByLabel('Password').fill(creds.login.password);
    await page.getByLabel('Password').press('Enter');
    await expect(page.getByRole('heading', { name: 'Allow Bookkeeper?' })).toBeVisible();
    await bothThemes(page, 'oauth-03-consent', 'consent page');

    await page.getByRole('button', { name: 'Allow' }).click();
    await expect(page.getByRole('heading', { name: 'Back in the application' })).toBeVisible();
    const landed = new URL(page.url());
    expect(landed.origin + landed.pathname).toBe(listener.url);
    expect(landed.searchParams.get('state')).toBe(state);
    expect(landed.searchParams.get('user_id')).toBe(creds.user_id);
    // (Chromium may also ask the listener for /favicon.ico; only the redirect carries a code.)
    expect(listener.hits.filter((h) => h.has('code')).map((h) => h.get('code'))).toEqual([landed.searchParams.get('code')]);
    const code = landed.searchParams.get('code') as string;

    const tok = await fetch(`${creds.auth_url}/o/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, state, client_id: client.client_id, client_secret: client.client_secret }).toString(),
    });
    expect(tok.status).toBe(200);
    const t = (await tok.json()) as { access_token: string };
    const me = await fetch(`${creds.base_url}/users/me`, { headers: { authorization: `Bearer ${t.access_token}`, 'developer-id': creds.developer_id } });
    expect(me.status).toBe(200);
  } finally {
    await listener.close();
  }
});

test('OAuth: a foreign redirect_uri gets an error page, not a redirect', async ({ page }) => {
  const q = new URLSearchParams({ response_type: 'code', client_id: creds.oauth.client_id, redirect_uri: 'https://evil.example/callback', scope: 'api' });
  await page.goto(`${creds.auth_url}/o/authrize?${q}`);
  await expect(page.getByRole('alert')).toHaveText(
    'The return address (redirect_uri) is not one registered for this application, so you were not sent there.',
  );
  expect(new URL(page.url()).origin).toBe(creds.auth_url);
  await bothThemes(page, 'oauth-04-foreign-redirect', 'foreign redirect_uri');
});

function encrypt(json: unknown): string {
  const iv = randomBytes(16);
  const c = createCipheriv('aes-256-cbc', Buffer.from(creds.developer_encryption_key, 'hex'), iv);
  return Buffer.concat([iv, c.update(JSON.stringify(json), 'utf8'), c.final()]).toString('hex');
}

test('SSO: a link lands signed in on the hosted charge page, prefilled, and charges the card', async ({ page }) => {
  const link = {
    location_id: creds.location_id,
    route_name: 'virtualterminal',
    params: { transaction_amount: '42.50', description: 'Invoice 1007 — garden service' },
    timestamp: Math.floor(Date.now() / 1000),
    user_id: creds.user_id,
    user_api_key: creds.user_api_key,
  };
  const url = `${creds.auth_url}/custom/sso?${new URLSearchParams({ 'developer-id': creds.developer_id, e_data: encrypt(link) })}`;
  await page.goto(url);
  await expect(page.getByRole('heading', { name: 'Charge a card' })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/hosted/virtualterminal');
  await expect(page.getByLabel('Amount (USD)')).toHaveValue('42.50');
  await expect(page.getByLabel('Description')).toHaveValue('Invoice 1007 — garden service');
  await bothThemes(page, 'sso-01-charge-page', 'hosted charge page');

  await page.getByLabel('Name on card').fill('Pat Garden');
  await page.getByLabel('Card number').fill('4111111111111111');
  await page.getByLabel('Expiry (MMYY)').fill('1230');
  await page.getByLabel('Security code (CVV)').fill('999');
  await page.getByLabel('Billing street').fill('5800 NW 39th AVE');
  await page.getByLabel('Billing ZIP').fill('32606');
  await page.getByRole('button', { name: 'Charge' }).click();
  await expect(page.getByRole('status')).toHaveText('Approved: $42.50 on •••• 1111.');
  await expect(page.getByText('4111111111111111')).toHaveCount(0);
  await bothThemes(page, 'sso-02-approved', 'approved');

  const list = await api(`/transactions?location_id=${creds.location_id}&description=Invoice%201007`);
  const body = (await list.json()) as { transactions: Array<{ transaction_amount: string; status_id: number }> };
  expect(body.transactions).toHaveLength(1);
  expect(body.transactions[0]).toMatchObject({ transaction_amount: '42.50', status_id: 101 });

  // The same link again: refused with a plain sentence.
  await page.goto(url);
  await expect(page.getByRole('alert')).toHaveText('This link was already used. Ask for a new one.');
  await bothThemes(page, 'sso-03-replayed', 'replayed link');
});
