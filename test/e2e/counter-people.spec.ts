/**
 * Counter trust, the people side, end to end in Chromium against the node host (real
 * core, real engine, real SQLite): switching user clears the last person's work, the
 * idle lock (core-enforced, a short idle time), the audit log and the store settings
 * screens (managers only, light and dark, axe clean).
 */
import { expect, shot, startHostProcess, stopHostProcess, test } from './fixtures';
import { CARDS, expectAccessible, openApp, ringUpKeyedSale, signIn, USERS } from './helpers/counter';
import { engineCredentials, engineHeaders } from './helpers/engine-api';
import type { Page } from '@playwright/test';

test.describe.configure({ mode: 'serial' });

test("Switch user clears the last person's sale, result and filters; F8 and sign-out both do", async ({ page, app }) => {
  await openApp(page, app);
  await signIn(page, USERS.cashier);
  // A result on screen: the next person must not see it.
  await ringUpKeyedSale(page, { amountDigits: '1234' });
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
  await page.getByRole('button', { name: 'Switch user' }).click();
  await signIn(page, USERS.manager);
  await expect(page.getByRole('heading', { name: 'New sale' })).toBeVisible();
  await expect(page.getByTestId('sale-result')).toHaveCount(0);
  await expect(page.getByTestId('sale-amount')).toContainText('$0.00');

  // A half-entered sale with tax on, then F8.
  await page.keyboard.type('987');
  await page.getByLabel(/Sales tax/).check();
  await expect(page.getByTestId('sale-amount')).toContainText('$9.87');
  await page.keyboard.press('F8');
  await expect(page.getByRole('heading', { name: 'Who is at the counter?' })).toBeVisible();
  await signIn(page, USERS.cashier);
  await expect(page.getByTestId('sale-amount')).toContainText('$0.00');
  await expect(page.getByLabel(/Sales tax/)).not.toBeChecked();

  // A filter typed on the transactions screen, then Switch user: the next person starts unfiltered on the sale screen.
  await page.getByRole('button', { name: /^Transactions/ }).click();
  await page.getByLabel('Filter').fill('1111');
  await page.getByRole('button', { name: 'Switch user' }).click();
  await signIn(page, USERS.manager);
  await expect(page.getByRole('heading', { name: 'New sale' })).toBeVisible();
  await page.getByRole('button', { name: /^Transactions/ }).click();
  await expect(page.getByLabel('Filter')).toHaveValue('');

  // An open refund confirmation, then F8: the dialog and the selection go with the person.
  await page.getByTestId('tx-row').filter({ hasText: '$12.34' }).first().getByRole('button').click();
  await page.getByTestId('tx-detail').getByRole('button', { name: 'Refund…' }).click();
  await expect(page.getByRole('alertdialog')).toBeVisible();
  await page.keyboard.press('F8');
  await expect(page.getByRole('heading', { name: 'Who is at the counter?' })).toBeVisible();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await signIn(page, USERS.manager);
  await expect(page.getByRole('heading', { name: 'New sale' })).toBeVisible();
  await page.keyboard.press('F3');
  await expect(page.getByRole('heading', { name: 'No transaction selected' })).toBeVisible();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await shot(page, 'people-01-switch-user-cleared');
});

/** Types the amount where the sale screen opens (no F2, no Sale tab: the landing screen as it is), then keys the card and charges. */
async function chargeOnLanding(page: Page, digits: string, card: string): Promise<void> {
  await expect(page.getByRole('heading', { name: 'New sale' })).toBeVisible();
  await expect(page.getByTestId('sale-amount')).toContainText('$0.00');
  await page.keyboard.type(digits);
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Card number')).toBeFocused();
  await page.keyboard.type(card);
  await page.getByLabel('Expiry').fill('12/30');
  await page.getByLabel('Security code').fill('999');
  await page.getByLabel('Billing ZIP').fill('32606');
  await page.getByLabel('Billing ZIP').press('Enter');
}

test("after Switch user the next person's first sale is their own: a new transaction_api_id, their amount and card", async ({ page, app }) => {
  await openApp(page, app);
  await signIn(page, USERS.cashier);
  await chargeOnLanding(page, '3117', CARDS.visa);
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
  await expect(page.getByTestId('receipt')).toContainText('$31.17');

  await page.getByRole('button', { name: 'Switch user' }).click();
  await signIn(page, USERS.manager);
  await chargeOnLanding(page, '4228', CARDS.mastercard);
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
  const receipt = page.getByTestId('receipt');
  await expect(receipt).toContainText('$42.28');
  await expect(receipt).toContainText('5454');
  await expect(receipt).toContainText('Morgan');
  await expect(receipt).not.toContainText('$31.17');
  await expect(receipt).not.toContainText('Casey');

  // At the engine: two sales, each under its own transaction_api_id, each on its own card.
  const creds = engineCredentials(app.dataDir);
  const r = await fetch(`${creds.base_url}/transactions?type_id=20&page_size=500`, { headers: engineHeaders(creds) });
  const body = (await r.json()) as { transactions: Array<{ transaction_amount: string; last_four: string; transaction_api_id: string | null }> };
  const casey = body.transactions.filter((t) => t.transaction_amount === '31.17');
  const morgan = body.transactions.filter((t) => t.transaction_amount === '42.28');
  expect(casey.map((t) => t.last_four)).toEqual(['1111']);
  expect(morgan.map((t) => t.last_four)).toEqual(['5454']);
  expect(morgan[0]!.transaction_api_id).not.toBe(casey[0]!.transaction_api_id);
  await shot(page, 'people-08-next-user-own-sale');
});

test('the counter locks back to the sign-in screen after the idle time, enforced by the core, and says why', async ({ page }) => {
  const host = await startHostProcess(['--idle-lock-seconds', '3']);
  try {
    await openApp(page, host);
    await signIn(page, USERS.cashier);
    await page.keyboard.type('555');
    // Nobody touches the counter: the core ends the session and the window shows sign-in.
    await expect(page.getByRole('heading', { name: 'Who is at the counter?' })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId('idle-lock-notice')).toContainText('locked itself after');
    await expect(page.getByTestId('status-user')).toHaveText('Nobody signed in');
    await shot(page, 'people-02-idle-locked');
    await expectAccessible(page, 'idle lock notice');
    // The renderer keeps no idle timer of its own: the screen changed because the core
    // ended the session and told this window. The core's audit log has it too.
    await signIn(page, USERS.manager);
    await expect(page.getByTestId('sale-amount')).toContainText('$0.00');
    await page.keyboard.press('F5');
    await page.getByRole('button', { name: /Audit log/ }).click();
    const lock = page.getByTestId('audit-row').filter({ hasText: 'Idle lock' });
    await expect(lock).toHaveCount(1);
    await expect(lock).toContainText('Casey');
  } finally {
    await stopHostProcess(host);
  }
});

test('managers read the audit log: sign-ins, wrong PINs, sales with who, amount and id; filters by kind and user; a cashier cannot open it', async ({ page, app }) => {
  await openApp(page, app);
  // A wrong PIN for Casey first, then a sale as Casey.
  const switchBtn = page.getByRole('button', { name: 'Switch user' });
  await expect(page.getByRole('heading', { name: 'Who is at the counter?' }).or(switchBtn)).toBeVisible();
  if (await switchBtn.isVisible()) await switchBtn.click();
  await page.getByRole('button', { name: /Casey/ }).click();
  await page.keyboard.type('9999');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toHaveText('That PIN is not right. Try again.');
  await page.keyboard.type(USERS.cashier.pin);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('status-user')).toContainText('Casey');
  await ringUpKeyedSale(page, { amountDigits: '4321' });
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
  // The cashier has no Manage tab, and F5 does nothing.
  await expect(page.getByRole('button', { name: /^Manage/ })).toHaveCount(0);
  await page.keyboard.press('F5');
  await expect(page.getByRole('heading', { name: 'Audit log' })).toHaveCount(0);
  // …and F5 is not left to the browser either (a reload would sign this window out and lose the sale).
  const f5Kept = await page.evaluate(() => {
    const ev = new KeyboardEvent('keydown', { key: 'F5', cancelable: true, bubbles: true });
    window.dispatchEvent(ev);
    return ev.defaultPrevented;
  });
  expect(f5Kept).toBe(true);

  await page.getByRole('button', { name: 'Switch user' }).click();
  await signIn(page, USERS.manager);
  await page.keyboard.press('F5');
  await page.getByRole('button', { name: /Audit log/ }).click();
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
  const rows = page.getByTestId('audit-row');
  await expect(rows.first()).toContainText('Morgan');
  await expect(rows.first()).toContainText('Signed in');
  const saleRow = rows.filter({ hasText: '$43.21' });
  await expect(saleRow).toHaveCount(1);
  await expect(saleRow).toContainText('Casey');
  await expect(saleRow).toContainText('Sale');
  await expect(saleRow).toContainText('approved');
  await expect(rows.filter({ hasText: 'Wrong PIN' }).filter({ hasText: 'Casey' }).first()).toBeVisible();
  await expect(rows.filter({ hasText: 'Signed out' }).filter({ hasText: 'Casey' }).first()).toBeVisible();
  await shot(page, 'people-03-audit-light');
  await expectAccessible(page, 'audit log, light');

  await page.getByLabel('What happened').selectOption('sale');
  await expect(rows.first()).toContainText('Sale');
  for (const text of await rows.allInnerTexts()) expect(text).toContain('Sale');
  // Jordan (the installer) cannot make sales, whatever other tests on this host did.
  await page.getByLabel('User').selectOption({ label: 'Jordan' });
  await expect(page.getByText('Nothing in the audit log matches these filters.')).toBeVisible();
  await page.getByLabel('User').selectOption({ label: 'Casey' });
  await expect(saleRow).toHaveCount(1);
  // A date range that ends before it starts is explained, not sent.
  await page.getByLabel('From date').fill('2030-01-02');
  await page.getByLabel('To date').fill('2030-01-01');
  await expect(page.getByRole('alert')).toHaveText('The start date must be before the end date.');
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page.getByLabel('What happened')).toHaveValue('');

  await page.getByRole('button', { name: /Use the dark theme/ }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await shot(page, 'people-04-audit-dark');
  await expectAccessible(page, 'audit log, dark');
  await page.getByRole('button', { name: /Use the light theme/ }).click();
});

test('a manager changes the store settings with inline messages from the shared schema; a cashier cannot; every window follows', async ({ page, context }) => {
  // Its own host: the settings saved here must not change the sales of other specs in this worker.
  const app = await startHostProcess();
  try {
    await openApp(page, app);
    await signIn(page, USERS.manager);
    await page.keyboard.press('F5');
    await expect(page.getByRole('button', { name: /Store settings/ })).toBeVisible();
    await page.getByRole('button', { name: /Store settings/ }).click();
    await expect(page.getByRole('heading', { name: 'Store settings' })).toBeVisible();
    await expect(page.getByLabel('Store name')).toHaveValue('Ringup Store');
    await expect(page.getByLabel('Sales tax rate')).toHaveValue('8.25');
    await shot(page, 'people-05-settings-light');
    await expectAccessible(page, 'store settings, light');

    // Bad values: a message beside each field as it is typed, and Save refuses.
    await page.getByLabel('Store name').fill('');
    await page.getByLabel('Sales tax rate').fill('45');
    await page.getByLabel('Second tip').fill('150');
    await page.getByLabel('Refuse sales above ($)').fill('10.00');
    await page.getByLabel('Lock the counter after').fill('0');
    await expect(page.getByText('Enter the store name.')).toBeVisible();
    await expect(page.getByText('A sales tax rate is at most 30 %.')).toBeVisible();
    await expect(page.getByText('A tip percent is at most 100.')).toBeVisible();
    await expect(page.getByText('The idle lock is at least 1 minute.')).toBeVisible();
    await expect(page.getByLabel('Store name')).toHaveAttribute('aria-invalid', 'true');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByRole('alert')).toContainText('need a fix');
    await expect(page.getByText('The confirmation threshold must not be above the hard cap.')).toBeVisible();
    // Save with errors takes the cashier to the first field in red (the form is longer than the window).
    await expect(page.getByLabel('Store name')).toBeFocused();
    await expect(page.getByText('Enter the store name.')).toBeInViewport();
    await shot(page, 'people-06-settings-errors');
    await expectAccessible(page, 'store settings with errors');

    // Another manager window has the settings open, unedited: it follows the save.
    const other = await context.newPage();
    await openApp(other, app, { theme: 'dark' });
    await signIn(other, USERS.manager);
    await other.keyboard.press('F5');
    await other.getByRole('button', { name: /Store settings/ }).click();
    await expect(other.getByLabel('Store name')).toHaveValue('Ringup Store');

    // Fixed and saved.
    await page.getByLabel('Store name').fill('Corner Bakery');
    await page.getByLabel('Address').fill('12 Main St, Springfield');
    await page.getByLabel('Phone').fill('(555) 010-2000');
    await page.getByLabel('Sales tax rate').fill('7.5');
    await page.getByLabel('Second tip').fill('18');
    await page.getByLabel('Refuse sales above ($)').fill('10000.00');
    await page.getByLabel('Lock the counter after').fill('10');
    await page.getByRole('switch', { name: 'Tax is on when a sale starts' }).check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();

    await expect(other.getByLabel('Store name')).toHaveValue('Corner Bakery');
    await expect(other.getByLabel('Sales tax rate')).toHaveValue('7.5');
    await expect(other.getByRole('switch', { name: 'Tax is on when a sale starts' })).toBeChecked();
    await shot(other, 'people-07-settings-dark');
    await expectAccessible(other, 'store settings, dark');
    // The change is in the audit log, with who made it.
    await other.keyboard.press('F5');
    await other.getByRole('button', { name: /Audit log/ }).click();
    await other.getByLabel('What happened').selectOption('settings-change');
    await expect(other.getByTestId('audit-row').first()).toContainText('Morgan');
    await expect(other.getByTestId('audit-row').first()).toContainText('Corner Bakery');
    await other.close();

    // A cashier sees no Manage tab and no settings tile.
    await page.getByRole('button', { name: 'Switch user' }).click();
    await signIn(page, USERS.cashier);
    await expect(page.getByRole('button', { name: /^Manage/ })).toHaveCount(0);
    await page.keyboard.press('F5');
    await expect(page.getByRole('heading', { name: 'Store settings' })).toHaveCount(0);

    // Saved in the core's database: a restarted host reads them back.
    await stopHostProcess(app, { keepData: true });
    const again = await startHostProcess([], {}, app.dataDir);
    try {
      await openApp(page, again);
      await signIn(page, USERS.manager);
      await page.keyboard.press('F5');
      await page.getByRole('button', { name: /Store settings/ }).click();
      await expect(page.getByLabel('Store name')).toHaveValue('Corner Bakery');
      await expect(page.getByLabel('Phone')).toHaveValue('(555) 010-2000');
    } finally {
      await stopHostProcess(again);
    }
  } finally {
    await stopHostProcess(app);
  }
});

