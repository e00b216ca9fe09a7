/**
 * Recurring payments, end to end: a manager starts a weekly installment plan from a
 * customer's saved card (empty fields are caught first), sees it in the list and in the
 * next 30 days, then skips, defers, holds and activates it — each time reading what will
 * change before confirming. Light and dark, axe clean; only masked numbers show.
 */
import { expect, shot, test } from './fixtures';
import { expectAccessible, openApp, signIn, USERS } from './helpers/counter';
import { engineCredentials, engineHeaders } from './helpers/engine-api';
import { openManageTile } from './helpers/manager';

test.describe.configure({ mode: 'serial' });

const dayFromToday = (days: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

test('start a recurring payment from a saved card, then skip, defer, hold and activate it with the effect shown first', async ({ page, app }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // A customer with a saved card and bank account, as the Saved cards screen would leave them.
  const creds = engineCredentials(app.dataDir);
  const headers = engineHeaders(creds);
  const post = async (path: string, body: unknown) => (await fetch(`${creds.base_url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })).json() as Promise<Record<string, { id: string }>>;
  const contact = await post('/contacts', { contact: { location_id: creds.location_id, first_name: 'Robin', last_name: 'Recurring' } });
  await post('/accountvaults', { accountvault: { location_id: creds.location_id, contact_id: contact.contact!.id, payment_method: 'cc', account_number: '4111111111111111', exp_date: '1239' } });
  await post('/accountvaults', { accountvault: { location_id: creds.location_id, contact_id: contact.contact!.id, payment_method: 'ach', account_number: '123456789', routing: '072000326', account_type: 'checking', account_holder_name: 'Robin Recurring', is_company: 0 } });

  await openApp(page, app);
  await signIn(page, USERS.manager);
  await openManageTile(page, 'Recurring payments');
  await expect(page.getByRole('heading', { name: 'Recurring payments' })).toBeVisible();
  await page.getByRole('button', { name: 'New recurring payment' }).click();
  await page.getByRole('button', { name: 'Start recurring payment' }).click();
  await expect(page.getByText('Pick the saved card or bank account to charge.')).toBeVisible();
  await expect(page.getByText('Type an amount above $0.00.')).toBeVisible();

  await page.getByLabel('Charge').selectOption({ label: 'Robin Recurring — Visa •••• 1111' });
  await expect(page.getByText('Pick the saved card or bank account to charge.')).toHaveCount(0);
  await page.getByLabel('Amount each time').fill('25.00');
  await expect(page.getByText('Type an amount above $0.00.')).toHaveCount(0);
  await page.getByLabel('Every').fill('1');
  await page.getByLabel('Unit').selectOption('w');
  const start = dayFromToday(1);
  await page.getByLabel('First payment').fill(start);
  await page.getByLabel('Number of payments (optional)').fill('6');
  await page.getByLabel('Notify the customer (days before)').fill('2');
  await page.getByLabel('Description (optional)').fill('Swimming lessons');
  await shot(page, 'manager-recurring-01-new');
  await expectAccessible(page, 'new recurring payment');
  await page.getByRole('button', { name: 'Start recurring payment' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Recurring payment for Robin Recurring started: $25.00, every week' })).toBeVisible();
  await expect(page.getByTestId('recurring-row')).toHaveCount(1);
  await expect(page.getByTestId('recurring-row')).toContainText(`next ${start}`);
  await expect(page.getByTestId('detail-next')).toHaveText(start);
  const upcoming = page.getByTestId('upcoming-run');
  await expect(upcoming.first()).toContainText(start);
  expect(await upcoming.count()).toBeGreaterThanOrEqual(4);
  await expect(upcoming.first()).toContainText('Visa •••• 1111');
  await shot(page, 'manager-recurring-02-list');
  await expectAccessible(page, 'recurring list');
  await upcoming.last().scrollIntoViewIfNeeded();
  await shot(page, 'manager-recurring-02b-next-30-days');

  // Skip two: the dialog says which dates and what follows, before anything changes.
  await page.getByLabel('Payments to skip or defer').fill('2');
  await page.getByRole('button', { name: 'Skip payments…' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText(`The payments of ${start} and ${dayFromToday(8)} are not charged. The next payment is on ${dayFromToday(15)}.`);
  await expect(dialog.getByRole('row', { name: /Payments left/ })).toContainText('64');
  await shot(page, 'manager-recurring-03-skip-preview');
  await expectAccessible(page, 'skip preview');
  await expect(page.getByTestId('detail-next')).toHaveText(start);
  await dialog.getByRole('button', { name: 'Skip payments' }).click();
  await expect(page.getByTestId('detail-next')).toHaveText(dayFromToday(15));

  // Defer one: moved to the end, the end date later, nothing lost.
  await page.getByLabel('Payments to skip or defer').fill('1');
  await page.getByRole('button', { name: 'Defer payments…' }).click();
  await expect(dialog).toContainText(`The payment of ${dayFromToday(15)} moves to the end. The next payment is on ${dayFromToday(22)}`);
  await expect(dialog).toContainText('All payments are still collected.');
  await dialog.getByRole('button', { name: 'Defer payments' }).click();
  await expect(page.getByTestId('detail-next')).toHaveText(dayFromToday(22));

  await page.getByRole('button', { name: 'Put on hold…' }).click();
  await expect(dialog).toContainText('No payment runs while it is on hold.');
  await dialog.getByRole('button', { name: 'Put on hold' }).click();
  await expect(page.getByTestId('recurring-row')).toContainText('on hold');
  await expect(page.getByText('No payment is due in the next 30 days.')).toBeVisible();
  await page.getByRole('button', { name: 'Activate…' }).click();
  await expect(dialog).toContainText(`Payments start again on ${dayFromToday(22)}.`);
  await dialog.getByRole('button', { name: 'Activate' }).click();
  await expect(page.getByTestId('recurring-row')).toContainText('active');
  await expect(page.locator('body')).not.toContainText('4111111111111111');

  // The card a recurring payment uses cannot be deleted: the manager is told why, and it stays.
  await openManageTile(page, 'Saved cards');
  await page.getByLabel('Find a customer').fill('Robin');
  await page.getByRole('button', { name: /Robin Recurring/ }).click();
  await page.getByRole('button', { name: 'Delete Visa •••• 1111' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('The account vault is used by a recurring payment and cannot be deleted.')).toBeVisible();
  await expect(page.getByTestId('saved-method').filter({ hasText: 'Visa •••• 1111' })).toBeVisible();
  await shot(page, 'manager-recurring-05-vault-in-use');
  expect(errors).toEqual([]);
});

test('the recurring screen in the dark theme', async ({ page, app }) => {
  await openApp(page, app, { theme: 'dark' });
  await signIn(page, USERS.manager);
  await openManageTile(page, 'Recurring payments');
  await expect(page.getByTestId('recurring-row')).toHaveCount(1);
  await page.getByRole('button', { name: 'Skip payments…' }).click();
  await expect(page.getByRole('alertdialog')).toBeVisible();
  await shot(page, 'manager-recurring-04-dark-skip');
  await expectAccessible(page, 'recurring (dark)');
});
