/**
 * A real sale (issue 15), end to end against the node host with the real embedded engine
 * and real SQLite: a CSV import with two bad rows (nothing imported), three items with a
 * discount paid $20 cash + the rest by card with a receipt that shows it all, a partial
 * approval followed by cash with change, a corporate card whose Level 3 line items the
 * engine returns, and a line refund split across the sale's tenders.
 */
import type { Page } from '@playwright/test';
import { expect, shot, test } from './fixtures';
import { CARDS, expectAccessible, openApp, signIn, USERS } from './helpers/counter';
import { engineCredentials, engineHeaders } from './helpers/engine-api';
import { openManageTile } from './helpers/manager';

test.describe.configure({ mode: 'serial' });

const CSV_BAD = 'name,price,sku,unit_code,tax_category\nTea,2.50,TEA,EA,standard\nScone,two dollars,SCO,EA,standard\nJam,4.00,JAM,XX!,standard\nHoney,5.25,HON,EA,exempt\n';
const CSV_GOOD = `name,price,sku,product_code,unit_code,commodity_code,tax_category,quick_key
Coffee,3.50,COF,COF-1,EA,4410,standard,yes
Muffin,2.99,MUF,MUF-1,EA,4410,standard,yes
"Beans, 1 lb",12.99,BEA,BEA-1,LBR,4410,exempt,yes
Small thing,1.86,SMA,SMA-1,EA,4410,standard,yes
`;

async function importCsv(page: Page, csv: string): Promise<void> {
  await page.getByTestId('csv-file').setInputFiles({ name: 'items.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
}

async function keyCardAndCharge(page: Page, number: string, label: RegExp): Promise<void> {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry').fill('12/30');
  await page.getByLabel('Security code').fill('999');
  await page.getByLabel('Billing ZIP').fill('32606');
  await page.getByRole('button', { name: label }).click();
}

test('a manager imports the catalogue: a CSV with two bad rows imports nothing and names both lines', async ({ page, app }) => {
  await openApp(page, app);
  await signIn(page, USERS.manager);
  await openManageTile(page, 'Catalogue');
  await expect(page.getByRole('heading', { name: 'Catalogue' })).toBeVisible();
  await importCsv(page, CSV_BAD);
  const result = page.getByTestId('csv-result');
  await expect(result).toContainText('Nothing was imported');
  await expect(result).toContainText('Line 3: The price is a dollar amount');
  await expect(result).toContainText('Line 4: Use a unit of measure code');
  await expect(page.getByRole('heading', { name: 'Items (0)' })).toBeVisible();
  await shot(page, 'cart-01-csv-two-bad-rows');
  await expectAccessible(page, 'catalogue with import errors');
  await importCsv(page, CSV_GOOD);
  await expect(result).toContainText('Imported 4 items.');
  await expect(page.getByTestId('catalogue-table')).toContainText('Beans, 1 lb');
  await expect(page.getByLabel("A cashier's discount above this percent needs a manager's PIN")).toHaveValue('20');
  await page.getByLabel("A cashier's discount above this percent needs a manager's PIN").fill('25');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved: discounts above 25 % need a manager.')).toBeVisible();
  await shot(page, 'cart-02-catalogue');
  await expectAccessible(page, 'catalogue');
});

test('three items with a discount: $20 cash and the rest on a card; the receipt shows it all', async ({ page, app }) => {
  await openApp(page, app);
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');
  await page.getByTestId('quick-key-COF').click();
  await page.getByTestId('quick-key-MUF').click();
  await page.getByTestId('quick-key-BEA').click();
  await page.getByRole('button', { name: 'One more Coffee' }).click();
  await expect(page.getByTestId('cart-line')).toHaveCount(3);
  await page.getByLabel('Discount (10% or 2.50)').fill('10%');
  await page.getByRole('button', { name: 'Apply' }).click();
  // 2 × 3.50 + 2.99 + 12.99 = 22.98; −2.30; tax 8.25 % on 8.99 = 0.74 → 21.42
  await expect(page.getByTestId('cart-discounts')).toHaveText('−$2.30');
  await expect(page.getByTestId('cart-total')).toHaveText('$21.42');
  await shot(page, 'cart-03-three-items-discount');
  await expectAccessible(page, 'cart with a discount');
  await page.getByTestId('cash-note-20').click();
  await expect(page.getByTestId('cart-balance')).toHaveText('$1.42');
  await keyCardAndCharge(page, CARDS.visa, /^Charge \$1\.42 to the card/);
  await expect(page.getByRole('heading', { name: 'Paid' })).toBeVisible();
  const receipt = page.getByTestId('cart-receipt');
  for (const text of ['Coffee', 'Muffin', 'Beans, 1 lb', 'Sale discount', '−$2.30', 'Sales tax (8.25%)', '$21.42', 'Cash tendered $20.00', '$1.42']) await expect(receipt).toContainText(text);
  await expect(page.getByTestId('change-due')).toHaveCount(0); // $20 cash was less than the total: no change
  await shot(page, 'cart-04-paid-receipt');
  await expectAccessible(page, 'paid cart receipt');
});

test('a partial approval leaves the rest as the balance; cash collects it with change shown large', async ({ page, app }) => {
  await openApp(page, app, { theme: 'dark' });
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');
  await page.getByTestId('quick-key-SMA').click(); // 1.86 + 0.15 tax = 2.01: the sandbox approves 1.00
  await expect(page.getByTestId('cart-total')).toHaveText('$2.01');
  await keyCardAndCharge(page, CARDS.visa, /^Charge \$2\.01 to the card/);
  await expect(page.getByTestId('cart-message')).toContainText('Only $1.00 of $2.01 was approved. $1.01 remains to collect');
  await expect(page.getByTestId('cart-balance')).toHaveText('$1.01');
  await shot(page, 'cart-05-partial-then-cash-dark');
  await expectAccessible(page, 'partial approval balance');
  await page.getByTestId('cash-note-5').click();
  await expect(page.getByTestId('change-due')).toContainText('$3.99');
  await expect(page.getByTestId('receipt-change')).toHaveText('$3.99');
  await shot(page, 'cart-06-change-due-dark');
});

test('a keyed sale partly approved: the result offers the rest in cash, and the cart collects it', async ({ page, app }) => {
  await openApp(page, app);
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');
  await page.keyboard.type('201');
  await page.keyboard.press('Enter');
  await page.keyboard.type(CARDS.visa);
  await page.getByLabel('Expiry').fill('12/30');
  await page.getByLabel('Security code').fill('999');
  await page.getByLabel('Billing ZIP').fill('32606');
  await page.getByLabel('Billing ZIP').press('Enter');
  await expect(page.getByText('Only $1.00 of $2.01 was approved.', { exact: false })).toBeVisible();
  await page.getByRole('button', { name: 'Collect $1.01 in cash' }).click();
  await expect(page.getByTestId('cart-balance')).toHaveText('$1.01');
  await shot(page, 'cart-05b-keyed-partial-as-cart');
  await page.getByTestId('cash-note-5').click();
  await expect(page.getByTestId('change-due')).toContainText('$3.99');
});

test('a corporate card cart carries its items as Level 3 data, read back from the engine', async ({ page, app, request }) => {
  await openApp(page, app);
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');
  await page.getByTestId('quick-key-COF').click();
  await page.getByTestId('quick-key-MUF').click();
  await keyCardAndCharge(page, '4005562231212149', /^Charge \$7\.03 to the card/);
  await expect(page.getByRole('heading', { name: 'Paid' })).toBeVisible();
  await expect(page.getByTestId('receipt-level3')).toContainText('Level 3 sent: 2 line items');
  const creds = engineCredentials(app.dataDir);
  const list = await request.get(`${creds.base_url}/transactions?filter[last_four]=2149&sort=-created_ts&expand=transaction_level3`, { headers: engineHeaders(creds) });
  expect(list.ok()).toBe(true);
  const body = (await list.json()) as { transactions: Array<{ transaction_amount: string; transaction_level3: { level3_data: { line_items: Array<Record<string, unknown>> } } }> };
  const sale = body.transactions.find((t) => t.transaction_amount === '7.03')!;
  expect(sale.transaction_level3.level3_data.line_items.map((l) => [l.description, l.product_code, l.unit_code, Number(l.unit_cost), Number(l.quantity)])).toEqual([
    ['Coffee', 'COF-1', 'EA', 3.5, 1],
    ['Muffin', 'MUF-1', 'EA', 2.99, 1],
  ]);
  await shot(page, 'cart-07-level3-receipt');
});

test('a manager returns one line: its share goes back to the card and to the cash', async ({ page, app }) => {
  await openApp(page, app);
  await signIn(page, USERS.manager);
  await page.keyboard.press('F3');
  // The $1.42 card tender of the three-item sale
  await page.getByTestId('tx-row').filter({ hasText: '$1.42' }).first().getByRole('button').click();
  const ret = page.getByTestId('cart-return');
  await expect(ret).toContainText('Beans, 1 lb');
  await ret.getByLabel(/Beans, 1 lb/).check();
  await ret.getByRole('button', { name: /Return chosen items \$11\.69/ }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, return $11.69' }).click();
  // 11.69 over $20.00 cash and $1.42 card → $10.92 cash, $0.77 card
  await expect(page.getByTestId('cart-return-done')).toHaveText('Returned 1 line: $11.69, of which $10.92 in cash from the drawer.');
  await expect(ret).toContainText('(returned)');
  await shot(page, 'cart-08-line-returned');
  await expectAccessible(page, 'line return');

  // The end-of-day report: cash taken $20.00 + $1.01 + $1.01, given back $10.92 → $11.10 expected in the drawer
  await openManageTile(page, 'End of day');
  await expect(page.getByTestId('report-cash-expected')).toHaveText('$11.10');
  await expect(page.getByTestId('report-cash-sales')).toHaveText('$22.02');
  await shot(page, 'cart-09-expected-cash');

  // Items sold and discounts given, from this spec's paid carts: Coffee 2 + 1, Muffin 1 + 1, the 10 % (2.30) off the three-item sale.
  const items = page.getByTestId('report-items');
  const qty = (name: string) => items.getByRole('row', { name: new RegExp(`^${name}`) }).getByRole('cell').first();
  await expect(qty('Coffee')).toHaveText('3');
  await expect(qty('Muffin')).toHaveText('2');
  await expect(qty('Beans, 1 lb')).toHaveText('1');
  await expect(page.getByTestId('report-discounts')).toHaveText('-$2.30');
  await page.getByTestId('report-items').scrollIntoViewIfNeeded();
  await shot(page, 'cart-10-report-items');
  await expectAccessible(page, 'report with items sold');
  await page.getByRole('radio', { name: '80 mm roll' }).click();
  await page.emulateMedia({ media: 'print' });
  await expect(items).toBeVisible();
  await shot(page, 'cart-11-report-items-print-80mm');
  await page.emulateMedia({ media: 'screen' });
});
