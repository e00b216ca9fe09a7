/**
 * Pay pages and their messages carry the store (issue 21 point 6), end to end on the node
 * host with the real engine: the store's name from Store settings is on the pay link's page
 * and in its e-mail (not the engine's "Demo Store"); the Gateway screen says in words that a
 * customer's phone cannot open links at 127.0.0.1 (or localhost), refuses an address that is
 * no web link, and once a public address is set the pay link the counter shows and the one
 * e-mailed use it. Light theme, axe clean.
 */
import type { Page } from '@playwright/test';
import { expect, shot, startHostProcess, stopHostProcess, test, type HostInfo } from './fixtures';
import { engineCredentials, engineHeaders } from './helpers/engine-api';
import { expectAccessible, openApp, signIn, USERS } from './helpers/counter';
import { openGatewayScreen } from './helpers/gateway-oauth';

let host: HostInfo;

test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  host = await startHostProcess();
});
test.afterAll(async () => stopHostProcess(host));

const STORE = 'Harbor Café';
const PUBLIC = 'https://pay.harbor-cafe.example';

/** The engine's outbox, newest first, as an integrator reads it (GET /v2/notifications). */
async function outbox(): Promise<Array<{ subject: string; body: string; link: string | null; kind: string }>> {
  const c = engineCredentials(host.dataDir);
  const r = await fetch(`${c.base_url}/notifications?location_id=${c.location_id}&sort=-created_ts`, { headers: engineHeaders(c) });
  expect(r.status).toBe(200);
  return ((await r.json()) as { notifications: Array<{ subject: string; body: string; link: string | null; kind: string }> }).notifications;
}

/** Sends a pay link from the counter (F7) and answers its payment page address as the screen shows it. */
async function sendPayLink(page: Page, what: string): Promise<string> {
  await page.keyboard.press('F7');
  await page.getByLabel('Amount (empty: the customer types it)').fill('18.75');
  await page.getByLabel('What it is for').fill(what);
  await page.getByLabel('Customer e-mail').fill('pat@example.com');
  await page.getByRole('button', { name: 'Send pay link' }).click();
  const row = page.getByTestId('paylink-row').filter({ hasText: what });
  return (await row.getByRole('link', { name: /^Payment page/ }).getAttribute('href'))!;
}

test("the store's name from Store settings is on the pay page and in its e-mail, not the engine's", async ({ page, context }) => {
  await openApp(page, host);
  await signIn(page, USERS.manager);
  await page.keyboard.press('F5');
  await page.getByRole('button', { name: /Store settings/ }).click();
  await page.getByLabel('Store name').fill(STORE);
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();

  const href = await sendPayLink(page, 'Phone order 76');
  const mail = (await outbox()).find((n) => n.kind === 'paylink')!;
  expect(`${mail.subject}\n${mail.body}`).toContain(STORE);
  expect(`${mail.subject}\n${mail.body}`).not.toContain('Demo Store');
  const pay = await context.newPage();
  await pay.goto(href);
  await expect(pay.locator('body')).toContainText(STORE);
  await expect(pay.locator('body')).not.toContainText('Demo Store');
  await shot(pay, 'truth-09-pay-page-store-name');
  await pay.close();
});

test('the Gateway screen flags links at 127.0.0.1 in words, refuses an address that is no web link, and the public address set there is what pay links use', async ({ page }) => {
  await openApp(page, host);
  await signIn(page, USERS.manager);
  await openGatewayScreen(page);
  const engineOrigin = new URL(engineCredentials(host.dataDir).base_url).origin;
  await expect(page.getByTestId('paypages-links-at')).toHaveText(engineOrigin);
  await expect(page.getByTestId('paypages-unreachable')).toHaveText(/^A customer's phone cannot open this link: 127\.0\.0\.1 is this computer itself\./);
  await page.getByTestId('paypages-unreachable').scrollIntoViewIfNeeded();
  await shot(page, 'truth-07-gateway-pay-links-loopback');
  await expectAccessible(page, 'gateway screen, pay links at 127.0.0.1');
  const address = page.getByLabel('Public address of the pay pages');
  const save = page.getByRole('button', { name: 'Use this address' });
  await address.fill('pay dot harbor');
  await save.click();
  await expect(page.getByText('Enter the address as a web link starting with http:// or https://, for example https://pay.yourstore.com.')).toBeVisible();
  await expect(address).toHaveAttribute('aria-invalid', 'true');
  await address.fill('http://localhost:8080');
  await save.click();
  await expect(page.getByTestId('paypages-unreachable')).toHaveText(/^A customer's phone cannot open this link: localhost is this computer itself\./);
  await address.fill(PUBLIC);
  await save.click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved: new pay links and invoices use this address.' })).toBeVisible();
  await expect(page.getByTestId('paypages-links-at')).toHaveText(PUBLIC);
  await expect(page.getByTestId('paypages-unreachable')).toHaveCount(0);
  await shot(page, 'truth-08-gateway-pay-links-public');
  await expectAccessible(page, 'gateway screen, public pay address');
  // The same part on a small counter screen in the dark theme, its flag included.
  await page.setViewportSize({ width: 800, height: 480 });
  await page.getByRole('button', { name: 'Use the dark theme' }).click();
  await address.fill('http://127.0.0.1:9000');
  await save.click();
  await expect(page.getByTestId('paypages-unreachable')).toBeVisible();
  await page.getByTestId('paypages-unreachable').scrollIntoViewIfNeeded();
  await shot(page, 'truth-10-gateway-pay-links-dark-800x480');
  await expectAccessible(page, 'gateway screen, pay links flagged (dark, 800×480)');
  await address.fill(PUBLIC);
  await save.click();
  await expect(page.getByTestId('paypages-unreachable')).toHaveCount(0);

  // A pay link from the counter: the address on screen and in the e-mail is the public one.
  await signIn(page, USERS.cashier);
  const href = await sendPayLink(page, 'Phone order 77');
  expect(href).toMatch(new RegExp(`^${PUBLIC.replace(/[.-]/g, '\\$&')}/paylink\\?paylink_id=`));
  const mail = (await outbox()).find((n) => n.kind === 'paylink' && n.link === href);
  expect(mail?.body).toContain(href);
});
