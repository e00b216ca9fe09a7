/**
 * Sign-in in the app (issue 11, point 4): a fresh data folder shows the first-run choice
 * (the embedded engine on Enter, asked once); a manager signs the counter in with OAuth
 * 2.0 to a standalone engine — its login and consent pages driven in a second page that
 * stands in for the system browser, landing on the app's loopback listener; after a
 * restart a sale goes through with the Bearer token (the app holds no API key of that
 * gateway); sign-out revokes the token (it then answers 401).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openNodeHostSecretStore } from '../../electron/core/keys/node-host-keys';
import { expect, shot, startHostProcess, stopHostProcess, test, type HostInfo } from './fixtures';
import { expectAccessible, openApp, ringUpKeyedSale, signIn, USERS } from './helpers/counter';
import { engineCredentials, engineHeaders } from './helpers/engine-api';
import { allowOnEngineLoginPage, openGatewayScreen, startOAuthSignIn, type EngineLogin } from './helpers/gateway-oauth';
import { startStandaloneEngine } from '../helpers/standalone-engine';

interface Creds {
  base_url: string;
  auth_url: string;
  developer_id: string;
  user_id: string;
  user_api_key: string;
  login: EngineLogin;
  oauth: { client_id: string; client_secret: string };
}

let remote: ChildProcess;
let remoteDir: string;
let creds: Creds;
let host: HostInfo | undefined;

test.beforeAll(async () => {
  remoteDir = mkdtempSync(join(tmpdir(), 'ringup-oauth-gw-'));
  ({ child: remote, creds } = await startStandaloneEngine<Creds>(remoteDir));
});
test.afterAll(async () => {
  if (host) await stopHostProcess(host);
  const exited = new Promise((r) => remote.once('exit', r));
  remote.kill('SIGTERM');
  await exited;
  rmSync(remoteDir, { recursive: true, force: true });
});

const bearerMe = (token: string) => fetch(`${creds.base_url}/users/me`, { headers: { authorization: `Bearer ${token}`, 'developer-id': creds.developer_id } });

test('first run, OAuth sign-in to a gateway, a sale with the Bearer token, sign-out revokes it', async ({ page, context }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 1000 });

  // A fresh data folder: the first-run choice comes before anything else; Enter takes the embedded engine.
  host = await startHostProcess(['--ask-first-run']);
  await openApp(page, host);
  await expect(page.getByRole('heading', { name: 'Welcome to Ringup' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Use the built-in gateway engine/ })).toBeFocused();
  await shot(page, 'signin-01-first-run');
  await expectAccessible(page, 'first-run choice');
  // Still asked until answered (here in the dark theme): the remote form, then back to the default.
  await openApp(page, host, { theme: 'dark' });
  await page.reload();
  await page.getByRole('button', { name: /^Connect to a payment gateway/ }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Enter the gateway’s base URL, like https://api.sandbox.example.com/v2.')).toBeVisible();
  await expect(page.getByText('Enter the developer id the gateway gave you.')).toBeVisible();
  // The field messages say it all: no generic sentence beside them.
  await expect(page.getByText('The request was not in the expected form.')).toHaveCount(0);
  await shot(page, 'signin-02-first-run-remote-dark');
  await expectAccessible(page, 'first-run remote form, dark');
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('button', { name: /^Use the built-in gateway engine/ })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Who is at the counter?' })).toBeVisible();
  // Asked once: the next visit goes straight to sign-in.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Who is at the counter?' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Welcome to Ringup' })).toHaveCount(0);

  // A manager signs the counter in to the remote gateway with OAuth.
  await signIn(page, USERS.manager);
  await openGatewayScreen(page);
  await expect(page.getByTestId('gateway-now')).toContainText('Embedded gateway engine');
  await page.getByRole('radio', { name: /Remote gateway/ }).click();
  await page.getByRole('radio', { name: /OAuth 2\.0/ }).click();
  await page.getByLabel('Base URL').fill(creds.base_url);
  await page.getByLabel('Developer id').fill(creds.developer_id);
  await page.getByLabel('Client id').fill(creds.oauth.client_id);
  await page.getByLabel('Client secret').fill(creds.oauth.client_secret);
  const browser = await startOAuthSignIn(page, context);
  await expect(page.getByRole('status').filter({ hasText: 'Finish signing in on the gateway’s page' })).toBeVisible();
  await shot(page, 'signin-03-waiting-for-browser');

  // The "system browser": the engine's login and consent pages, then the app's loopback listener.
  expect(new URL(browser.url()).origin).toBe(creds.auth_url);
  await allowOnEngineLoginPage(browser, creds.login);
  await expect(browser.getByText('You are signed in. You can close this tab and go back to Ringup.')).toBeVisible();
  expect(browser.url()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/callback\?/);
  await shot(browser, 'signin-04-loopback-page');
  await expectAccessible(browser, 'loopback answer page');
  await browser.close();

  await expect(page.getByRole('status').filter({ hasText: `Signed in with OAuth as gateway user ${creds.user_id}` })).toBeVisible();
  await expect(page.getByLabel('Client secret')).toHaveValue('');
  await shot(page, 'signin-05-signed-in');
  await expectAccessible(page, 'gateway screen after OAuth sign-in');

  // The next start signs in with the Bearer token: the app holds no API key of this gateway.
  await stopHostProcess(host, { keepData: true });
  host = await startHostProcess([], {}, host.dataDir);
  await openApp(page, host);
  await signIn(page, USERS.cashier);
  await expect(page.getByTestId('status-gateway')).toContainText('Gateway: remote, reachable');
  await ringUpKeyedSale(page, { amountDigits: '4120' });
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
  const list = (await (await fetch(`${creds.base_url}/transactions?transaction_amount=41.20`, { headers: engineHeaders(creds) })).json()) as { transactions: unknown[] };
  expect(list.transactions).toHaveLength(1);

  await page.keyboard.press('F8');
  await signIn(page, USERS.manager);
  await openGatewayScreen(page);
  await expect(page.getByTestId('gateway-now')).toContainText('OAuth 2.0');
  await expect(page.getByTestId('gateway-now')).toContainText(creds.base_url);
  await page.getByRole('button', { name: 'Test the connection' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Connected: the gateway answered in' })).toBeVisible();
  await page.keyboard.press('F9');
  await shot(page, 'signin-06-oauth-in-use-dark');
  await expectAccessible(page, 'gateway screen with OAuth in use, dark');
  await page.keyboard.press('F9');

  // Sign-out revokes: the token the app held answers 401 afterwards.
  const stored = await openNodeHostSecretStore(host.dataDir).get('oauth-session');
  const token = (JSON.parse(stored!.toString('utf8')) as { accessToken: string }).accessToken;
  expect((await bearerMe(token)).status).toBe(200);
  await page.getByRole('button', { name: 'Sign out of the gateway' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Signed out: the gateway’s tokens are revoked' })).toBeVisible();
  expect((await bearerMe(token)).status).toBe(401);
  expect(await openNodeHostSecretStore(host.dataDir).get('oauth-session')).toBeNull();
  // One story on the whole screen, told by how this counter signed in: signed out of OAuth, cards refused until a restart.
  const banner = page.getByTestId('gateway-banner');
  await expect(banner).toContainText('This counter signed out of the payment gateway, so cards cannot be charged. Close Ringup and start it again: it then uses the embedded engine.');
  await expect(page.getByTestId('gateway-now')).toContainText('OAuth 2.0, signed out');
  await expect(page.getByTestId('gateway-signed-out')).toHaveText('Signed out of this gateway: cards cannot be charged until Ringup is started again. It then uses the embedded engine.');
  await expect(page.getByText('A saved change applies at the next start of Ringup.')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Sign out of the gateway' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Test the connection' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Signed out: the gateway refuses this counter until Ringup is started again.' })).toBeVisible();
  await expect(page.getByText(/API key/)).toHaveCount(0);
  await shot(page, 'signin-07-signed-out');
  await expectAccessible(page, 'gateway screen after sign-out');
});

test('a manager signs the counter in to the embedded engine with OAuth, on the engine’s own login page', async ({ page, context }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 1000 });
  let own = await startHostProcess();
  try {
    const engine = engineCredentials(own.dataDir) as unknown as { login: Creds['login']; base_url: string };
    await openApp(page, own);
    await signIn(page, USERS.manager);
    await openGatewayScreen(page);
    await expect(page.getByTestId('gateway-now')).toContainText('Its own keys');
    const browser = await startOAuthSignIn(page, context);
    expect(browser.url().startsWith(new URL(engine.base_url).origin)).toBe(true);
    await allowOnEngineLoginPage(browser, engine.login);
    await browser.close();
    await expect(page.getByRole('status').filter({ hasText: 'Signed in with OAuth as gateway user' })).toBeVisible();

    await stopHostProcess(own, { keepData: true });
    own = await startHostProcess([], {}, own.dataDir);
    await openApp(page, own);
    await signIn(page, USERS.manager);
    await ringUpKeyedSale(page, { amountDigits: '1875' });
    await expect(page.getByTestId('result-title')).toHaveText('Approved');
    await openGatewayScreen(page);
    await expect(page.getByTestId('gateway-now')).toContainText('Embedded gateway engine');
    await expect(page.getByTestId('gateway-now')).toContainText('OAuth 2.0');
    await shot(page, 'signin-08-embedded-oauth-in-use');
    await expectAccessible(page, 'gateway screen, embedded engine over OAuth');
  } finally {
    await stopHostProcess(own);
  }
});
