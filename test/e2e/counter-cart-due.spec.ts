/**
 * Managers approve what moves money back, and what is due is collected (issue 20, point 4), end
 * to end against the node host with the real engine and SQLite: a cashier's cart is paid part
 * on a card (partly approved) and the rest in cash; the cashier voids the card part from
 * Transactions, and because the sale is already paid the core asks for a manager: the PIN
 * prompt opens, a wrong PIN is refused in the core's words, the manager's PIN voids it. Cart
 * sales lists the sale with what is due; "Collect the rest" makes it the cashier's cart, cash
 * pays it, and it is paid again. Once in the light theme, once in the dark one.
 */
import type { Page } from '@playwright/test';
import { expect, hostOfThisFile, shot, test } from './fixtures';
import { CARDS, expectAccessible, openApp, signIn, USERS } from './helpers/counter';
import { openManageTile } from './helpers/manager';

test.describe.configure({ mode: 'serial' });

/** A host of its own: its catalogue and carts must not reach the specs that share a worker's host (they sell without a catalogue). */
const own = hostOfThisFile();

const CSV = 'name,price,sku,unit_code,tax_category,quick_key\nTen thing,10.00,TEN,EA,standard,yes\n';

test('setup: a manager imports an item', async ({ page }) => {
  await openApp(page, own.host);
  await signIn(page, USERS.manager);
  await openManageTile(page, 'Catalogue');
  await page.getByTestId('csv-file').setInputFiles({ name: 'items.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
  await expect(page.getByTestId('csv-result')).toContainText('Imported 1 item.');
});

/** A $10.83 cart: $2.01 on a card (the sandbox approves $1.00), $9.83 in cash; paid. */
async function paidSplitCart(page: Page): Promise<void> {
  await page.keyboard.press('F2');
  await page.getByTestId('quick-key-TEN').click();
  await expect(page.getByTestId('cart-total')).toHaveText('$10.83');
  await page.getByLabel('Amount on this card (blank: all of it)').fill('2.01');
  await page.getByLabel('Card number').fill(CARDS.visa);
  await page.getByLabel('Expiry').fill('12/30');
  await page.getByLabel('Security code').fill('999');
  await page.getByLabel('Billing ZIP').fill('32606');
  await page.getByRole('button', { name: /^Charge \$2\.01 to the card/ }).click();
  await expect(page.getByTestId('cart-balance')).toHaveText('$9.83');
  await page.getByRole('button', { name: 'Exact $9.83' }).click();
  await expect(page.getByRole('heading', { name: 'Paid' })).toBeVisible();
  await page.getByRole('button', { name: 'New sale' }).click();
}

for (const theme of ['light', 'dark'] as const) {
  test(`a cashier voids the card part of a paid cart with a manager's PIN; the sale is due and collected in cash (${theme})`, async ({ page }) => {
    await openApp(page, own.host, { theme });
    await signIn(page, USERS.cashier);
    await paidSplitCart(page);

    // Transactions: the partly approved $1.00 card sale; a cashier may void a partial approval, but this one paid part of a paid sale.
    await page.keyboard.press('F3');
    await page.getByTestId('tx-row').filter({ hasText: '$1.00' }).first().getByRole('button').first().click();
    const detail = page.getByTestId('tx-detail');
    await expect(detail).toContainText('approved of $2.01 asked');
    await detail.getByRole('button', { name: 'Void sale…' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Void sale' }).click();

    const prompt = page.getByRole('alertdialog', { name: 'Manager approval' });
    await expect(prompt).toContainText('voiding it is a return: a manager approves it with their PIN');
    // The same focus as the other approvals: the safe answer first; the PIN field approves with Enter.
    await expect(prompt.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await prompt.getByLabel('Manager PIN').fill('9999');
    await prompt.getByLabel('Manager PIN').press('Enter');
    await expect(prompt).toContainText('That is not a manager PIN. The card payment was not voided.');
    await expect(prompt.getByLabel('Manager', { exact: true })).toHaveValue(/.+/);
    await shot(page, `cart-due-01-pin-prompt-${theme}`);
    await expectAccessible(page, `manager PIN prompt for a cart return (${theme})`);
    await prompt.getByLabel('Manager PIN').fill(USERS.manager.pin);
    await prompt.getByLabel('Manager PIN').press('Enter');
    await expect(prompt).toHaveCount(0);
    await expect(page.getByTestId('tx-detail').getByTestId('detail-done')).toHaveText('The partial approval of $1.00 was voided; the customer is not charged.');

    // Cart sales: the sale is due by what the card paid.
    await page.getByRole('button', { name: 'Cart sales…' }).click();
    await expect(page.getByRole('heading', { name: 'Cart sales' })).toBeVisible();
    const row = page.getByTestId('cart-sale-row').filter({ has: page.getByTestId('cart-sale-due') }).first();
    await expect(row.getByTestId('cart-sale-due')).toHaveText('$1.00 due');
    await expect(row).toContainText('$10.83');
    await shot(page, `cart-due-02-cart-sales-due-${theme}`);
    await expectAccessible(page, `cart sales with a due sale (${theme})`);

    await row.getByRole('button', { name: /^Collect the rest: \$1\.00 due/ }).click();
    await expect(page.getByRole('heading', { name: 'Collect the rest' })).toBeVisible();
    await expect(page.getByTestId('cart-due-note')).toContainText('Collect the $1.00 due');
    await expect(page.getByTestId('cart-balance')).toHaveText('$1.00');
    await shot(page, `cart-due-03-collecting-${theme}`);
    await expectAccessible(page, `collecting a due sale (${theme})`);
    await page.getByTestId('cash-note-5').click();
    await expect(page.getByRole('heading', { name: 'Paid' })).toBeVisible();
    await expect(page.getByTestId('change-due')).toContainText('$4.00');
    await page.getByRole('button', { name: 'New sale' }).click();

    // Paid again: no longer due in Cart sales.
    await page.keyboard.press('F3');
    await page.getByRole('button', { name: 'Cart sales…' }).click();
    await expect(page.getByTestId('cart-sale-row').first()).toContainText('$10.83');
    await expect(page.getByTestId('cart-sale-due')).toHaveCount(0);
  });
}

test("collecting while one's own cart holds a sale is refused in a sentence", async ({ page }) => {
  await openApp(page, own.host);
  await signIn(page, USERS.manager);
  await paidSplitCart(page);
  // A manager voids the card part without a PIN (signed in).
  await page.keyboard.press('F3');
  await page.getByTestId('tx-row').filter({ hasText: '$1.00' }).first().getByRole('button').first().click();
  await page.getByTestId('tx-detail').getByRole('button', { name: 'Void sale…' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Void sale' }).click();
  await expect(page.getByTestId('detail-done')).toBeVisible();
  // Something in the manager's own cart.
  await page.keyboard.press('F2');
  await page.getByTestId('quick-key-TEN').click();
  await openManageTile(page, 'Cart sales');
  await page.getByTestId('cart-sale-row').filter({ has: page.getByTestId('cart-sale-due') }).first().getByRole('button', { name: /^Collect the rest/ }).click();
  await expect(page.getByText('Finish or clear the sale in your cart first, then collect the rest of this one.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Cart sales' })).toBeVisible();
});
