/**
 * Every amount of a cart exact (issue 21, points 2 and 3), end to end against the node host
 * with the real engine and real SQLite: a cart's tax shared over two cards so that the
 * gateway's records, the receipt and the X report all say the cart's tax to the cent; and the
 * whole-sale discount chosen as a percent or an amount (shown in money before it applies),
 * never more than the sale, with a 100 % comp that is its own action and takes a manager.
 * The tests run in order on one host (the catalogue of the first is used by the others).
 */
import { expect, hostOfThisFile, shot, test } from './fixtures';
import { CARDS, countPrints, expectAccessible, keyCardAndCharge, openApp, signIn, USERS } from './helpers/counter';
import { engineCredentials, engineHeaders } from './helpers/engine-api';
import { openManageTile } from './helpers/manager';

test.describe.configure({ mode: 'serial' });

/** Its catalogue must not reach the specs that share a worker's host. */
const own = hostOfThisFile();

// Print is the browser's dialog: counted instead of opened.
test.beforeEach(({ page }) => countPrints(page));

// Lunch: 5.46 + 8.25 % tax (0.45) = 5.91. Cake: 17.25, no tax.
const CSV = 'name,price,sku,unit_code,tax_category,quick_key\nLunch,5.46,LUN,EA,standard,yes\nCake,17.25,CAK,EA,exempt,yes\n';

test('a $5.91 cart with $0.45 tax on two cards: the gateway, the receipt and the X report all carry $0.45', async ({ page, request }) => {
  await openApp(page, own.host);
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
  await page.setViewportSize({ width: 1024, height: 768 });
  await receipt.getByTestId('receipt-tender-tax').last().scrollIntoViewIfNeeded();
  await shot(page, 'cart-money-01b-receipt-tax-shares-1024');
  await page.setViewportSize({ width: 1280, height: 800 });

  // The gateway's records of the two cards.
  const creds = engineCredentials(own.host.dataDir);
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

test('"30" on a $17.25 sale: % off shows −$5.18 before it applies, $ off says it is more than the sale and cannot apply', async ({ page }) => {
  await openApp(page, own.host);
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');
  await page.getByTestId('quick-key-CAK').click();
  await expect(page.getByTestId('cart-total')).toHaveText('$17.25');
  const preview = page.getByTestId('discount-preview');
  const apply = page.getByRole('button', { name: 'Apply' });
  await expect(page.getByRole('radio', { name: '% off' })).toHaveAttribute('aria-checked', 'true');
  await page.getByLabel('Percent off').fill('30');
  await expect(preview).toHaveText('30% off the whole sale ($17.25): −$5.18');
  await expect(apply).toBeEnabled();
  await page.getByLabel('Percent off').scrollIntoViewIfNeeded();
  await shot(page, 'cart-money-03-discount-percent-preview');
  // The same "30" as dollars: more than the sale, refused before it is sent (and by the core: cart-discount-guard.test.ts).
  await page.getByRole('radio', { name: '$ off' }).click();
  await expect(page.getByLabel('Dollars off')).toHaveValue('30');
  await expect(preview).toHaveText('$30.00 off is more than the whole sale ($17.25). A discount is at most what it discounts; to give it free, use Comp.');
  await expect(apply).toBeDisabled();
  await shot(page, 'cart-money-04-discount-over-the-sale');
  await expectAccessible(page, 'discount more than the sale');
  // 100 % is a comp, not a discount.
  await page.getByRole('radio', { name: '% off' }).click();
  await page.getByLabel('Percent off').fill('100');
  await expect(preview).toHaveText('That takes all of the whole sale off: giving it free is a comp. Use Comp, which a manager approves.');
  await expect(apply).toBeDisabled();
  // 10 % applies: −$1.73 (172.5 rounded half-up).
  await page.getByLabel('Percent off').fill('10');
  await expect(preview).toHaveText('10% off the whole sale ($17.25): −$1.73');
  await apply.click();
  await expect(page.getByTestId('cart-discounts')).toHaveText('−$1.73');
  await expect(page.getByTestId('cart-total')).toHaveText('$15.52');
  // The counter's small screen: the control still fits.
  await page.setViewportSize({ width: 800, height: 480 });
  await page.getByLabel('Dollars off').or(page.getByLabel('Percent off')).scrollIntoViewIfNeeded();
  await shot(page, 'cart-money-05-discount-800x480');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('button', { name: 'Clear cart' }).click();
  await expect(page.getByTestId('cart-line')).toHaveCount(0);
});

test("Comp is its own action: a cashier's comp of the whole sale waits for a manager's PIN, then closes the sale at $0.00", async ({ page }) => {
  await openApp(page, own.host, { theme: 'dark' });
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');
  await page.getByTestId('quick-key-CAK').click();
  await page.getByTestId('quick-key-LUN').click();
  await expect(page.getByTestId('cart-total')).toHaveText('$23.16');
  await page.getByLabel('Percent off').fill('12.5');
  await expect(page.getByTestId('discount-preview')).toHaveText('12.5% off the whole sale ($22.71): −$2.84');
  await shot(page, 'cart-money-06a-discount-dark');
  await expectAccessible(page, 'discount control, dark theme');
  await page.getByLabel('Percent off').fill('');
  await page.getByRole('button', { name: 'Comp sale…' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Manager approval' });
  await expect(dialog).toContainText('A comp gives the whole sale away free: a manager enters their PIN.');
  await dialog.getByLabel('Manager PIN').fill('9999');
  await dialog.getByRole('button', { name: 'Approve the comp' }).click();
  await expect(dialog).toContainText('That is not a manager PIN. Nothing was given away.');
  await expect(page.getByTestId('cart-total')).toHaveText('$23.16');
  await shot(page, 'cart-money-06-comp-needs-manager');
  await expectAccessible(page, 'comp approval dialog');
  await dialog.getByLabel('Manager PIN').fill('1234');
  await dialog.getByLabel('Manager PIN').press('Enter');
  await expect(page.getByRole('heading', { name: 'Paid' })).toBeVisible();
  await expect(page.getByText('Comped: nothing to pay. Approved by Morgan.')).toBeVisible();
  const receipt = page.getByTestId('cart-receipt');
  await expect(receipt).toContainText('Comp (whole sale)−$22.71');
  await expect(page.getByTestId('receipt-total')).toHaveText('$0.00');
  await page.getByRole('button', { name: 'Print receipt' }).click();
  await expect(page.getByTestId('cart-receipt-merchant').getByTestId('receipt-comp-by')).toHaveText('Comp approved by Morgan');
  await receipt.scrollIntoViewIfNeeded();
  await shot(page, 'cart-money-07-comp-receipt');
  await expectAccessible(page, 'comp receipt');
});
