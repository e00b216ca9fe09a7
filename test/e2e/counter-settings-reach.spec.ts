/**
 * Store settings reach the counter (issue 8 point 8), end to end against a node host of
 * its own (the settings saved here must not change other specs' sales): a manager saves
 * them in one window and a cashier already signed in at another window sells with them at
 * once — tax rate, tax on by default (still on after the sale), the store's tip percents,
 * the confirmation threshold, and the name, address and phone on the receipt. A window that
 * missed the news (its WebSocket drops the settings:changed event) is asked the core's
 * question in the dialog, never left with an error no button answers.
 */
import type { Page } from '@playwright/test';
import { expect, shot, startHostProcess, stopHostProcess, test, type HostInfo } from './fixtures';
import { CARDS, expectAccessible, openApp, signIn, USERS } from './helpers/counter';

async function saveSettings(page: Page, app: HostInfo, fields: Record<string, string>, taxOn?: boolean): Promise<void> {
  await openApp(page, app);
  await signIn(page, USERS.manager);
  await page.keyboard.press('F5');
  await page.getByRole('button', { name: /Store settings/ }).click();
  for (const [label, value] of Object.entries(fields)) await page.getByLabel(label, { exact: true }).fill(value);
  if (taxOn !== undefined) await page.getByRole('switch', { name: 'Tax is on when a sale starts' }).setChecked(taxOn);
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
}

async function keyCardAndCharge(page: Page): Promise<void> {
  await page.getByRole('radio', { name: 'Key card' }).click();
  await page.getByLabel('Card number').click();
  await page.keyboard.type(CARDS.visa);
  await page.getByLabel('Expiry').fill('12/30');
  await page.getByLabel('Security code').fill('999');
  await page.getByLabel('Billing ZIP').fill('32606');
  await page.getByLabel('Billing ZIP').press('Enter');
}

test('a manager saves the settings; a cashier already signed in sells with them and the receipt shows them', async ({ page, context }) => {
  const app = await startHostProcess();
  try {
    await openApp(page, app);
    await signIn(page, USERS.cashier);
    await expect(page.getByRole('heading', { name: 'New sale' })).toBeVisible();
    await expect(page.getByRole('radio', { name: /^15%/ })).toBeVisible();

    const manager = await context.newPage();
    await saveSettings(
      manager,
      app,
      { 'Store name': 'Corner Bakery', Address: '12 Main St, Springfield', Phone: '(555) 010-2000', 'Sales tax rate': '5', 'First tip': '10', 'Second tip': '12', 'Third tip': '25', 'Ask to confirm sales above ($)': '5.00' },
      true,
    );
    // The settings screen says which tip percents go where.
    await expect(manager.getByText('A payment terminal asks with its own three percents', { exact: false })).toBeVisible();
    await manager.close();

    // The cashier's screen follows without signing in again.
    await page.bringToFront();
    await expect(page.getByRole('radio', { name: /^12%/ })).toBeVisible();
    await expect(page.getByRole('radio', { name: /^15%/ })).toHaveCount(0);
    await expect(page.getByLabel(/Sales tax \(5%\)/)).toBeChecked();
    await page.keyboard.type('1000');
    await page.getByRole('radio', { name: /^10%/ }).click();
    await expect(page.getByTestId('sale-total')).toHaveText('$11.50'); // $10.00 + $0.50 tax + $1.00 tip
    await keyCardAndCharge(page);
    const dialog = page.getByRole('alertdialog');
    await expect(dialog.getByTestId('confirm-amount')).toHaveText('$11.50'); // above the new $5.00
    await expect(dialog).toContainText('it is above $5.00');
    await dialog.getByRole('button', { name: 'Yes, charge $11.50' }).click();
    await expect(page.getByTestId('result-title')).toHaveText('Approved');
    const receipt = page.getByTestId('receipt').first();
    await expect(receipt.locator('.receipt-merchant')).toHaveText('Corner Bakery');
    await expect(receipt).toContainText('12 Main St, Springfield');
    await expect(receipt).toContainText('(555) 010-2000');
    await expect(receipt).toContainText(/Tax\s*\$0\.50/);
    await shot(page, 'people-08-settings-at-the-counter');
    await expectAccessible(page, 'receipt with the saved header');

    // Tax on by default stays on for the next sale, after "New sale" and after F2.
    await page.getByRole('button', { name: /New sale/ }).click();
    await expect(page.getByLabel(/Sales tax \(5%\)/)).toBeChecked();
    await page.keyboard.press('F2');
    await expect(page.getByLabel(/Sales tax \(5%\)/)).toBeChecked();
  } finally {
    await stopHostProcess(app);
  }
});

test('a window that missed the settings news is asked the core\'s question, not left with an error', async ({ page, context }) => {
  const app = await startHostProcess();
  try {
    // This window's socket loses every settings:changed event (as a window reconnecting would).
    await page.routeWebSocket(/\/ipc$/, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((m) => server.send(m));
      server.onMessage((m) => {
        const msg = JSON.parse(String(m)) as { type: string; event?: string };
        if (!(msg.type === 'event' && msg.event === 'settings:changed')) ws.send(m);
      });
    });
    await openApp(page, app);
    await signIn(page, USERS.cashier);
    await expect(page.getByRole('heading', { name: 'New sale' })).toBeVisible();
    await saveSettings(await context.newPage(), app, { 'Ask to confirm sales above ($)': '5.00' });

    await page.bringToFront();
    await page.keyboard.type('1000'); // $10.00: under this window's $1,000.00, above the core's $5.00
    await keyCardAndCharge(page);
    const dialog = page.getByRole('alertdialog');
    await expect(dialog.getByTestId('confirm-amount')).toHaveText('$10.00');
    await expect(dialog).toContainText('it is above $5.00'); // the window caught up on the way
    await expect(page.getByTestId('sale-error')).toHaveCount(0);
    await shot(page, 'people-09-core-asks-the-question');
    await dialog.getByRole('button', { name: 'Yes, charge $10.00' }).click();
    await expect(page.getByTestId('result-title')).toHaveText('Approved');
  } finally {
    await stopHostProcess(app);
  }
});
