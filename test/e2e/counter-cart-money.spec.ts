/**
 * Every amount of a cart exact (issue 21, points 2 and 3), end to end against the node host
 * with the real engine and real SQLite: a cart's tax shared over two cards so that the
 * gateway's records, the receipt and the X report all say the cart's tax to the cent; and the
 * whole-sale discount chosen as a percent or an amount (shown in money before it applies),
 * never more than the sale, with a 100 % comp that is its own action and takes a manager.
 * The tests run in order on one host (the catalogue of the first is used by the others).
 */
import { expect, shot, test } from './fixtures';
import { CARDS, expectAccessible, openApp, signIn, USERS } from './helpers/counter';
import { engineCredentials, engineHeaders } from './helpers/engine-api';
import { openManageTile } from './helpers/manager';
import type { Page } from '@playwright/test';

test.describe.configure({ mode: 'serial' });

// Lunch: 5.46 + 8.25 % tax (0.45) = 5.91. Cake: 17.25, no tax.
const CSV = 'name,price,sku,unit_code,tax_category,quick_key\nLunch,5.46,LUN,EA,standard,yes\nCake,17.25,CAK,EA,exempt,yes\n';

async function keyCardAndCharge(page: Page, number: string, label: RegExp): Promise<void> {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry').fill('12/30');
  await page.getByLabel('Security code').fill('999');
  await page.getByLabel('Billing ZIP').fill('32606');
  await page.getByRole('button', { name: label }).click();
}

test('a $5.91 cart with $0.45 tax on two cards: the gateway, the receipt and the X report all carry $0.45', async ({ page, app, request }) => {
  await openApp(page, app);
  await signIn(page, USERS.manager);
  await openManageTile(page, 'Catalogue');
  await page.getByTestId('csv-file').setInputFiles({ name: 'items.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
  await expect(page.getByTestId('csv-result')).toContainText('Imported 2 items.');

  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');
  await page.getByTestId('quick-key-LUN').click();
  await expect(page.getByTestId('cart-total')).toHaveText('$5.91');
  await page.getByLabel('Amount on this card (blank: all of it)').fill('2.96');
  await keyCardAndCharge(page, CARDS.visa, /^Charge \$2\.96 to the card/);
  await expect(page.getByTestId('cart-balance')).toHaveText('$2.95');
  await keyCardAndCharge(page, CARDS.mastercard, /^Charge \$2\.95 to the card/);
  await expect(page.getByRole('heading', { name: 'Paid' })).toBeVisible();
  // Each payment's share of the tax is on the receipt, and the shares add up to the sales tax.
  const receipt = page.getByTestId('cart-receipt');
  await expect(receipt).toContainText('Sales tax (8.25%)$0.45');
  await expect(receipt.getByTestId('receipt-tender-tax')).toHaveText(['$0.23', '$0.22']);
  await receipt.getByTestId('receipt-tender-tax').first().scrollIntoViewIfNeeded();
  await shot(page, 'cart-money-01-receipt-tax-shares');
  await expectAccessible(page, 'receipt with tax shares');

  // The gateway's records of the two cards.
  const creds = engineCredentials(app.dataDir);
  const list = await request.get(`${creds.base_url}/transactions?sort=created_ts&page_size=10`, { headers: engineHeaders(creds) });
  expect(list.ok()).toBe(true);
  const rows = ((await list.json()) as { transactions: Array<{ transaction_amount: string; tax: string }> }).transactions;
  expect(rows.map((t) => [t.transaction_amount, t.tax])).toEqual([
    ['2.96', '0.23'],
    ['2.95', '0.22'],
  ]);

  await signIn(page, USERS.manager);
  await openManageTile(page, 'End of day');
  await expect(page.getByTestId('report-tax')).toHaveText('$0.45');
  await page.getByTestId('report-tax').scrollIntoViewIfNeeded();
  await shot(page, 'cart-money-02-x-report-tax');
});
