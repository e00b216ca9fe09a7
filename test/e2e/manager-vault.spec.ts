/**
 * Saved cards, end to end: a newcomer manager adds a customer, saves a corporate Visa
 * (a mistyped digit is caught as typed) and a bank account (the routing number is checked
 * as typed), updates the expiry, deletes the bank account, then charges the saved card
 * from the sale screen. Only masked numbers ever show.
 */
import { expect, shot, test } from './fixtures';
import { expectAccessible, openApp, signIn, USERS } from './helpers/counter';
import { openManageTile } from './helpers/manager';

test.describe.configure({ mode: 'serial' });

test('save a customer card and bank account, update, delete, and charge the saved card from the sale screen', async ({ page, app }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await openApp(page, app);
  await signIn(page, USERS.manager);
  await openManageTile(page, 'Saved cards');
  await expect(page.getByRole('heading', { name: 'Saved cards' })).toBeVisible();
  await page.getByRole('button', { name: 'New customer' }).click();
  await page.getByRole('button', { name: 'Add customer' }).click();
  await expect(page.getByText('Type the customer’s last name.')).toBeVisible();
  await page.getByLabel('First name').fill('Pat');
  await page.getByLabel('Last name').fill('Corporate');
  await page.getByLabel('E-mail (optional)').fill('pat@example.com');
  await page.getByRole('button', { name: 'Add customer' }).click();
  await expect(page.getByTestId('customer-name')).toHaveText('Pat Corporate');

  await page.getByLabel('Card number').fill('4005562231212148');
  await expect(page.getByText('This card number is not valid. Check the digits.')).toBeVisible();
  await page.getByLabel('Card number').fill('4005562231212149');
  await expect(page.getByText('This card number is not valid. Check the digits.')).toHaveCount(0);
  await page.getByLabel('Expiry').fill('1230');
  await expect(page.getByLabel('Expiry')).toHaveValue('12/30');
  await page.getByRole('button', { name: 'Save card' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Visa •••• 2149 saved for Pat Corporate.' })).toBeVisible();
  await expect(page.getByLabel('Card number')).toHaveValue('');

  await page.getByRole('radio', { name: 'Bank account' }).click();
  await page.getByLabel('Name on the account').fill('Pat Corporate');
  await page.getByLabel('Routing number').fill('123456789');
  await expect(page.getByText('This is not a valid routing number.')).toBeVisible();
  await page.getByLabel('Routing number').fill('072000326');
  await expect(page.getByText('Routing number checks out.')).toBeVisible();
  await page.getByLabel('Account number').fill('987654321');
  await page.getByRole('radio', { name: 'Savings' }).click();
  await shot(page, 'manager-vault-01-add-bank');
  await expectAccessible(page, 'saved cards (add bank)');
  await page.getByRole('button', { name: 'Save bank account' }).click();
  await expect(page.getByTestId('saved-method')).toHaveCount(2);
  await expect(page.getByTestId('saved-method').filter({ hasText: 'Savings •••• 4321' })).toBeVisible();
  await expect(page.locator('body')).not.toContainText('4005562231212149');
  await expect(page.locator('body')).not.toContainText('987654321');

  await page.getByRole('button', { name: 'Update expiry of Visa •••• 2149' }).click();
  await page.getByLabel('New expiry for Visa •••• 2149').fill('0131');
  await page.getByRole('button', { name: 'Save expiry' }).click();
  await expect(page.getByTestId('saved-method').filter({ hasText: 'Visa •••• 2149' })).toContainText('Expires 01/31');

  await page.getByRole('button', { name: 'Delete Savings •••• 4321' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('Delete Savings •••• 4321?');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId('saved-method')).toHaveCount(1);
  await shot(page, 'manager-vault-02-customer');
  await expectAccessible(page, 'saved cards (customer)');

  // The sale screen: type the amount, charge the saved card.
  await page.keyboard.press('F2');
  await expect(page.getByRole('heading', { name: 'New sale' })).toBeVisible();
  await page.keyboard.press('Delete');
  await page.keyboard.type('4200');
  await page.getByRole('button', { name: 'Charge a saved card…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Charge $42.00 to a saved card' });
  await dialog.getByLabel('Customer').fill('Pat');
  await expect(dialog.getByRole('button', { name: /Pat Corporate/ })).toContainText('Visa •••• 2149');
  await shot(page, 'manager-vault-03-charge-saved');
  await expectAccessible(page, 'charge a saved card');
  await dialog.getByRole('button', { name: /Pat Corporate/ }).click();
  await page.getByRole('alertdialog', { name: 'Charge this saved card?' }).getByRole('button', { name: 'Yes, charge $42.00' }).click();
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
  await expect(page.getByTestId('receipt')).toContainText('Visa •••• 2149');
  await expect(page.getByTestId('receipt')).toContainText('$42.00');
  await shot(page, 'manager-vault-04-charged');
  expect(errors).toEqual([]);
});
