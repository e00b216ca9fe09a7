/**
 * The Outbox screen, end to end: the node host runs with its engine's SMTP transport
 * pointed (RINGUP_SMTP_URL) at a real local SMTP server started here. A sale with a
 * receipt e-mail is made through the v2 API; the mail goes out and the screen shows it
 * as sent; a pay link (e-mail and SMS) and a quick invoice made through the engine's API
 * show their real payment-page links (the SMS waits: there is no SMS service). A manager filters, opens a message's text, follows nothing blindly: the
 * link is shown in full. Light and dark, axe clean.
 */
import { startMailCatcher, type MailCatcher } from '../helpers/mail-catcher';
import { expect, shot, startHostProcess, stopHostProcess, test, type HostInfo } from './fixtures';
import { expectAccessible, openApp, signIn, USERS } from './helpers/counter';
import { engineCredentials, engineHeaders } from './helpers/engine-api';
import { openManageTile } from './helpers/manager';
import { OUTBOX_TEXT } from '../../shared/ipc/outbox';

test.describe.configure({ mode: 'serial' });

let host: HostInfo;
let smtp: MailCatcher;

test.beforeAll(async () => {
  smtp = await startMailCatcher();
  host = await startHostProcess([], { RINGUP_SMTP_URL: smtp.url });
});

test.afterAll(async () => {
  await stopHostProcess(host);
  await smtp.close();
});

test('a manager reads every e-mail and SMS with its link and whether it went out', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const c = engineCredentials(host.dataDir);
  const sale = await fetch(`${c.base_url}/transactions`, {
    method: 'POST',
    headers: engineHeaders(c),
    body: JSON.stringify({ transaction: { action: 'sale', account_number: '4111111111111111', exp_date: '1230', transaction_amount: '42.50', location_id: c.location_id, notification_email_address: 'pat.customer@example.com' } }),
  });
  expect(sale.status).toBe(201);
  await expect.poll(() => smtp.mails.length, { timeout: 15_000 }).toBe(1);
  expect(smtp.mails[0]).toContain('Sale: $42.50');

  // A pay link by e-mail and SMS, and a quick invoice by e-mail, made through the engine's API as an integrator would.
  const post = async (path: string, body: unknown) => {
    const r = await fetch(`${c.base_url}${path}`, { method: 'POST', headers: engineHeaders(c), body: JSON.stringify(body) });
    expect(r.status, await r.clone().text()).toBe(201);
    return (await r.json()) as Record<string, { id: string }>;
  };
  const link = (await post('/paylinks', { paylink: { location_id: c.location_id, delivery_method: 3, email: 'pat.customer@example.com', cell_phone: '5551234567', amount_due: '18.00' } })).paylink!;
  const invoice = (await post('/quickinvoices', { quickinvoice: { location_id: c.location_id, title: 'Framing', due_date: '2030-06-10', item_list: { Frame: 120 }, email: 'pat.customer@example.com' } })).quickinvoice!;
  const origin = new URL(c.base_url).origin;
  const linkUrl = `${origin}/paylink?paylink_id=${link.id}`;
  const invoiceUrl = `${origin}/quickinvoice/?id=${invoice.id}`;
  await expect.poll(() => smtp.mails.length, { timeout: 15_000 }).toBe(3);

  await openApp(page, host);
  await signIn(page, USERS.manager);
  await openManageTile(page, 'Outbox');
  await expect(page.getByRole('heading', { name: 'Outbox' })).toBeVisible();
  await expect(page.getByTestId('outbox-count')).toHaveText('4 messages · page 1 of 1');
  const rows = page.getByTestId('outbox-row');
  await expect(rows).toHaveCount(4);
  const smsRow = rows.filter({ hasText: '5551234567' });
  await expect(smsRow).toContainText('Pay link');
  await expect(smsRow.getByRole('link', { name: linkUrl })).toBeVisible();
  await expect(smsRow).toContainText(OUTBOX_TEXT.smsQueued);
  const linkMail = rows.filter({ hasText: 'Pay link' }).filter({ hasText: 'pat.customer@example.com' });
  await expect(linkMail.getByRole('link', { name: linkUrl })).toBeVisible();
  await expect(linkMail).toContainText(/Sent /);
  const invoiceRow = rows.filter({ hasText: 'Invoice' });
  await expect(invoiceRow.getByRole('link', { name: invoiceUrl })).toBeVisible();
  await expect(invoiceRow).toContainText(/Sent /);
  const mailRow = rows.filter({ hasText: 'Receipt' });
  await expect(mailRow).toContainText('pat.customer@example.com');
  await expect(mailRow).toContainText(/Sent /);
  await mailRow.getByText(/^Your receipt from/).click();
  await expect(mailRow.locator('.outbox-body')).toContainText('Sale: $42.50');
  await expect(mailRow.locator('.outbox-body')).not.toContainText('4111111111111111');
  await shot(page, 'manager-outbox-01-light');
  await expectAccessible(page, 'outbox');

  await page.getByRole('button', { name: 'SMS', exact: true }).click();
  await expect(rows).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'SMS', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'E-mail', exact: true }).click();
  await expect(rows).toHaveCount(3);
  for (const r of await rows.all()) await expect(r).toContainText('pat.customer@example.com');

  await page.getByRole('button', { name: 'All', exact: true }).click();
  await expect(rows).toHaveCount(4);
  await page.keyboard.press('F9'); // light or dark theme
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await rows.filter({ hasText: 'Receipt' }).getByText(/^Your receipt from/).click();
  await shot(page, 'manager-outbox-02-dark');
  await expectAccessible(page, 'outbox (dark)');
  expect(errors).toEqual([]);
});

test('a cashier has no Outbox', async ({ page }) => {
  await openApp(page, host);
  await signIn(page, USERS.cashier);
  await expect(page.getByRole('button', { name: 'Manage' })).toHaveCount(0);
  await page.keyboard.press('F5');
  await expect(page.getByRole('heading', { name: 'Outbox' })).toHaveCount(0);
});
