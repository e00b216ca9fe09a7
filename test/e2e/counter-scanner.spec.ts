/**
 * A barcode scanner that types (issue 21, point 9), end to end against the node host, the
 * real engine and SQLite: a burst of keys and Enter, 5 ms apart by the scanner's clock, adds the item with that SKU or product code to the cart with no field focused
 * or with the search field focused, and clears what its keys typed (the amount, the search
 * text); a code no item has is said beside the search field; a person typing in the search
 * field still searches; a quick amount and Enter still goes to the card; a scan into another
 * field (a discount) adds nothing.
 */
import type { Page } from '@playwright/test';
import { expect, hostOfThisFile, shot, test } from './fixtures';
import { importCsv } from './helpers/catalogue';
import { scan } from './helpers/wedge-scanner';
import { expectAccessible, openApp, signIn, USERS } from './helpers/counter';
import { openManageTile } from './helpers/manager';

test.describe.configure({ mode: 'serial' });

/** Its catalogue must not reach the specs that share a worker's host. */
const own = hostOfThisFile();

const CSV = 'name,price,sku,product_code,quick_key\nLatte,4.20,4006381333931,LAT-12,yes\nCheese scone,3.10,SCN-0042,,yes\n';

const lines = (page: Page) => page.locator('[data-testid="cart-line"]');

test('a manager loads two items with barcodes', async ({ page }) => {
  await openApp(page, own.host);
  await signIn(page, USERS.manager);
  await openManageTile(page, 'Catalogue');
  await importCsv(page, CSV);
  await expect(page.getByTestId('csv-result')).toContainText('Imported 2 items.');
});

test('scans add items with no field focused and from the search field; their keys leave nothing typed; an unknown code is said', async ({ page }) => {
  await openApp(page, own.host);
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');
  await expect(page.locator('[data-screen-focus]')).toBeFocused();
  // The sale screen listens for scans once its catalogue is on screen (a scan before that has no item to find).
  await expect(page.getByTestId('quick-key-4006381333931')).toBeVisible();

  // No field focused: the EAN-13's digits must not stay in the amount, and its Enter must not go to the card.
  await scan(page, '4006381333931');
  await expect(lines(page)).toHaveCount(1);
  await expect(lines(page).first()).toContainText('Latte');
  await expect(page.getByTestId('scan-note')).toHaveText('Scanned: Latte added.');
  await expect(page.getByTestId('sale-amount')).toContainText('$0.00');
  await expect(page.getByLabel('Card number')).not.toBeFocused();
  // The product code: one more latte.
  await scan(page, 'LAT-12');
  await expect(page.getByRole('group', { name: 'Quantity of Latte' })).toContainText('2');
  await expect(page.getByTestId('sale-amount')).toContainText('$0.00');

  // The search field focused: the item goes in and the field is left as it was (empty).
  await page.getByLabel('Find an item').focus();
  await scan(page, 'SCN-0042');
  await expect(lines(page)).toHaveCount(2);
  await expect(lines(page).nth(1)).toContainText('Cheese scone');
  await expect(page.getByLabel('Find an item')).toHaveValue('');
  await expect(page.getByTestId('cart-total')).toHaveText('$12.45'); // 2 × 4.20 + 3.10 = 11.50 + 8.25 % tax 0.95

  // A code no item has: said beside the search field, and the cart is unchanged.
  await page.locator('[data-screen-focus]').focus();
  await scan(page, 'ZZZ-9999');
  await expect(page.getByTestId('scan-note')).toHaveText('No item has the code ZZZ-9999. Check the item in the catalogue, or find it by name.');
  await expect(page.getByTestId('scan-note')).toBeVisible();
  await expect(lines(page)).toHaveCount(2);
  await expect(page.getByTestId('sale-amount')).toContainText('$0.00');
  await page.getByTestId('scan-note').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test/output/screenshots/scanner-01-unknown-code.png' });
  await expectAccessible(page, 'sale screen after a scan of an unknown code');
  await page.keyboard.press('F9');
  await page.screenshot({ path: 'test/output/screenshots/scanner-02-unknown-code-dark.png' });
  await expectAccessible(page, 'sale screen after a scan of an unknown code, dark');
  await page.keyboard.press('F9');
  await page.getByRole('button', { name: 'Clear cart' }).click();
  await expect(lines(page)).toHaveCount(0);
});

test('a person typing in the search field searches; a quick amount and Enter goes to the card; a scan into the discount field adds nothing', async ({ page }) => {
  await openApp(page, own.host);
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');

  // A person: a key every 150 ms, then Enter. The search finds the scone; nothing is added.
  await page.getByLabel('Find an item').focus();
  await page.keyboard.type('SCN-0042', { delay: 150 });
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Find an item')).toHaveValue('SCN-0042');
  await expect(page.getByRole('group', { name: 'Items found' }).getByRole('button')).toHaveText([/Cheese scone/]);
  await expect(lines(page)).toHaveCount(0);
  await shot(page, 'scanner-03-person-searches');
  await page.getByLabel('Find an item').fill('');

  // Digits typed fast on the keypad and Enter: an amount (too short for a barcode), then the card.
  await page.locator('[data-screen-focus]').focus();
  await page.keyboard.type('1500');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('sale-amount')).toContainText('$15.00');
  await expect(page.getByLabel('Card number')).toBeFocused();
  await page.keyboard.press('Escape');
  await page.locator('[data-screen-focus]').focus();
  await page.keyboard.press('Delete');

  // A cart with a line, then a scan while the discount field has the focus: its keys are the field's.
  await page.getByTestId('quick-key-4006381333931').click();
  await expect(lines(page)).toHaveCount(1);
  await page.getByLabel('Percent off').focus();
  await scan(page, 'SCN-0042');
  await expect(page.getByLabel('Percent off')).toHaveValue('SCN-0042');
  await expect(page.getByLabel('Percent off')).toHaveAttribute('aria-invalid', 'true');
  await expect(lines(page)).toHaveCount(1);
  await page.getByLabel('Percent off').fill('');
  await page.getByRole('button', { name: 'Clear cart' }).click();
  await expect(lines(page)).toHaveCount(0);
});
