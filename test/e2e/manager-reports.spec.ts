/**
 * End of day, end to end, on its own host: a manager names the store, rings up card
 * sales (one a 2.01 partial approval that counts 1.00) and a cash cart sale, reads the X
 * report (card and cash apart and together, the store's header), prints it (80 mm and
 * A4), closes the day with a Z report and the drawer's count (over or short), and the
 * screen's totals are summed against the engine's own records (its SQLite file) and the
 * drawer's (the app's). A void after the close then shows in the next report as a void of
 * an earlier day's sale.
 */
import type { Page } from '@playwright/test';
import { expect, shot, startHostProcess, stopHostProcess, test, type HostInfo } from './fixtures';
import { countPrints, expectAccessible, openApp, printCount, ringUpKeyedSale, signIn, USERS } from './helpers/counter';
import { openManageTile } from './helpers/manager';
import { recordSums, screenTotals } from './helpers/day-sums';

test.describe.configure({ mode: 'serial' });

test('X report with card and cash, print on 80 mm and A4, Z report with the drawer counted; the screen sums to the engine', async ({ page }) => {
  test.setTimeout(180_000);
  const app = await startHostProcess();
  try {
    await endOfDayStory(page, app);
  } finally {
    await stopHostProcess(app);
  }
});

async function endOfDayStory(page: Page, app: HostInfo) {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await countPrints(page);
  await openApp(page, app);
  await signIn(page, USERS.manager);

  // The store's header for the printed report.
  await openManageTile(page, 'Store settings');
  await page.getByLabel('Store name').fill('Corner Bakery');
  await page.getByLabel('Address').fill('12 Main St, Springfield');
  await page.getByLabel('Phone').fill('(555) 010-2000');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await openManageTile(page, 'Catalogue');
  await page.getByTestId('csv-file').setInputFiles({ name: 'items.csv', mimeType: 'text/csv', buffer: Buffer.from('name,price,sku,quick_key\nCoffee,3.50,COF,yes\n') });
  await expect(page.getByTestId('csv-result')).toContainText('Imported 1 item.');

  await ringUpKeyedSale(page, { amountDigits: '2000', tip: /15%/ });
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
  await page.getByRole('button', { name: /^New sale/ }).click();
  await ringUpKeyedSale(page, { amountDigits: '201' });
  await expect(page.getByTestId('result-title')).toHaveText('Partly approved');
  // The customer leaves with only $1.00 approved: Switch user leaves it partly approved (a partial is never walked away from silently).
  await page.getByRole('button', { name: 'Switch user' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Switch user and leave it partly approved' }).click();
  await signIn(page, USERS.manager);
  // A cash cart sale: $3.50 + 8.25 % tax = $3.79, paid exactly.
  await page.getByRole('button', { name: /^Sale/ }).click();
  await page.getByTestId('quick-key-COF').click();
  await expect(page.getByTestId('cart-total')).toHaveText('$3.79');
  await page.getByTestId('cash-exact').click();
  await expect(page.getByRole('heading', { name: 'Paid' })).toBeVisible();

  await openManageTile(page, 'End of day');
  await expect(page.getByRole('heading', { name: 'X report — the day so far' })).toBeVisible();
  await expect(page.getByTestId('report-store')).toContainText('Corner Bakery');
  await expect(page.getByTestId('report-store')).toContainText('12 Main St, Springfield');
  await expect(page.getByTestId('report-card-sales')).toHaveText('$24.00');
  await expect(page.getByTestId('report-cash-sales')).toHaveText('$3.79');
  await expect(page.getByTestId('report-sales')).toHaveText('$27.79');
  await expect(page.getByTestId('report-tips')).toHaveText('$3.00');
  await expect(page.getByTestId('report-tax')).toHaveText('$0.29'); // the cash sale's tax: collected, so reported
  expect(recordSums(app).cashTax).toBe(29);
  await expect(page.getByTestId('report-net')).toHaveText('$27.79');
  await expect(page.getByTestId('report-by-employee')).toContainText('Morgan');
  await expect(page.getByTestId('report-by-brand')).toContainText('Visa');
  await expect(page.getByTestId('hour-chart')).toHaveAttribute('aria-label', /card \+ cash\); busiest \d+:00 with \$27\.79/);
  // The screen against the records: every figure is the engine's sum (card) plus the drawer's (cash).
  const sums = recordSums(app);
  const x = await screenTotals(page);
  expect(x).toEqual({
    cardSales: sums.cardSales,
    cashSales: sums.cashIn,
    sales: sums.cardSales + sums.cashIn,
    cardRefunds: sums.cardRefunds,
    cashRefunds: sums.cashOut,
    net: sums.cardSales + sums.cashIn - sums.cardRefunds - sums.cashOut,
    tax: sums.cardTax + sums.cashTax,
    tips: sums.tips,
  });
  await shot(page, 'manager-reports-01-x');
  // The report scrolls inside the screen: the page itself is no taller than the window (the chart's
  // visually hidden table used to stretch it, leaving a blank area below the status bar).
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBe(page.viewportSize()!.height);
  await expectAccessible(page, 'X report');

  await page.getByRole('radio', { name: 'A4 page' }).click();
  await page.getByRole('button', { name: 'Print or save as PDF' }).click();
  await expect.poll(() => printCount(page)).toBe(1);
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByTestId('report-store')).toBeVisible();
  await shot(page, 'manager-reports-05-x-print-a4');
  await page.emulateMedia({ media: 'screen' });
  await page.getByRole('radio', { name: '80 mm roll' }).click();
  await page.emulateMedia({ media: 'print' });
  // The hour labels print at a readable size on the roll (about 8 pt), not the 5 px they scaled down to.
  const labelPx = await page.locator('.hour-label').first().evaluate((el) => el.getBoundingClientRect().height);
  expect(labelPx).toBeGreaterThanOrEqual(9);
  await shot(page, 'manager-reports-02-x-print-80mm');
  await page.emulateMedia({ media: 'screen' });

  // Close the day with the drawer counted: $10.00 counted, a $5.00 float; $3.79 taken → $1.21 over.
  await page.waitForTimeout(1100); // the Z ends the second before it is taken: let the last sale's second pass
  await page.getByRole('button', { name: 'Close the day (Z report)' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('It cannot be undone');
  await dialog.getByLabel('Cash counted (optional)').fill('10.00');
  await dialog.getByLabel('Opening float').fill('5.00');
  await shot(page, 'manager-reports-06-z-count');
  await expectAccessible(page, 'Z report dialog with the count');
  await dialog.getByRole('button', { name: 'Close the day' }).click();
  await expect(page.getByRole('heading', { name: 'Z report 1 — day closed' })).toBeVisible();
  await expect(page.getByTestId('report-cash-counted')).toHaveText('$10.00');
  await expect(page.getByTestId('report-cash-over-short')).toHaveText('$1.21');
  await expect(page.getByText('Over', { exact: true })).toBeVisible();
  expect(await screenTotals(page)).toEqual(x);
  const zList = page.getByRole('list', { name: 'Past Z reports' });
  await expect(zList.getByRole('button')).toHaveCount(1);
  await expect(zList.getByRole('button').first()).toContainText('$27.79');
  await shot(page, 'manager-reports-03-z');
  await expectAccessible(page, 'Z report');
  await page.keyboard.press('F9');
  await shot(page, 'manager-reports-04-z-dark');
  await expectAccessible(page, 'Z report (dark)');
  await page.keyboard.press('F9');

  // After the close, the $1.00 sale is voided: the closed day stays as printed, the next report takes it back.
  await page.keyboard.press('F3');
  await page.getByTestId('tx-row').filter({ hasText: '$1.00' }).first().getByRole('button').click();
  const detail = page.getByTestId('tx-detail');
  await detail.getByRole('button', { name: 'Void sale…' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Void sale' }).click();
  await expect(page.getByTestId('detail-done')).toHaveText('The sale was voided; the customer will not be charged.');
  await openManageTile(page, 'End of day');
  await expect(page.getByRole('heading', { name: 'X report — the day so far' })).toBeVisible();
  await expect(page.getByTestId('report-earlier-voids')).toHaveText('-$1.00');
  await expect(page.getByTestId('report-net')).toHaveText('-$1.00');
  await expect(page.getByTestId('report-earlier-note')).toContainText('the earlier day’s Z report stays as it was printed');
  await shot(page, 'manager-reports-07-void-after-close');
  // The closed day and the day so far add up to what the records hold now.
  const now = recordSums(app);
  expect(2779 - 100).toBe(now.cardSales + now.cashIn - now.cardRefunds - now.cashOut);
  await zList.getByRole('button', { name: /^Z 1\b/ }).click();
  await expect(page.getByTestId('report-net')).toHaveText('$27.79');
  expect(errors).toEqual([]);
}
