/**
 * Steps the gateway sign-in specs share: open the Gateway screen, start the OAuth sign-in
 * (its page stands in for the system browser), and sign in and allow on the engine's login
 * and consent pages, as a manager does.
 */
import { expect, type BrowserContext, type Page } from '@playwright/test';
import { openManageTile } from './manager';

/** The seeded login of the engine's login page (credentials.json's `login`). */
export interface EngineLogin {
  domain: string;
  username: string;
  password: string;
}

/** F5, then the Gateway tile, as a manager. */
export async function openGatewayScreen(page: Page): Promise<void> {
  await openManageTile(page, 'Gateway');
  await expect(page.getByRole('heading', { name: 'Gateway', exact: true })).toBeVisible();
}

/** Presses "Sign in with OAuth" on the Gateway screen; answers the page the app opened ("the system browser"), loaded. */
export async function startOAuthSignIn(page: Page, context: BrowserContext): Promise<Page> {
  const [browser] = await Promise.all([context.waitForEvent('page'), page.getByRole('button', { name: 'Sign in with OAuth' }).click()]);
  await browser.waitForLoadState();
  return browser;
}

/** On the engine's login page: signs in, allows the app on the consent page, and waits for the app's loopback answer. */
export async function allowOnEngineLoginPage(browser: Page, login: EngineLogin): Promise<void> {
  await browser.getByLabel('Login domain').fill(login.domain);
  await browser.getByLabel('Username').fill(login.username);
  await browser.getByLabel('Password').fill(login.password);
  await browser.getByRole('button', { name: 'Sign in' }).click();
  await browser.getByRole('button', { name: 'Allow' }).click();
  await expect(browser.getByText('You are signed in.')).toBeVisible();
}
