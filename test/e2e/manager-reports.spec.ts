/**
 * End of day, end to end: a manager closes the previous period, rings up sales (one a
 * 2.01 partial approval that counts 1.00), reads the X report, prints it (A4 and the
 * 80 mm print layout), closes the day with a Z report whose totals equal the X report
 * and the engine's own records, and finds it again in the history.
 */
import { expect, shot, test } from './fixtures';
import { expectAccessible, openApp, ringUpKeyedSale, signIn, USERS } from './helpers/counter';
import { openManageTile } from './helpers/manager';
import { engineCredentials, engineHeaders } from './helpers/engine-api';

test.describe.configure({ mode: 'serial' });

test('X report, print, Z report that matches the engine, Z history', async ({ page, app }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.addInitScript(() => {
    const w = window as unknown as { __printed: number };
    w.__printed = 0;
    window.print = () => {
      w.__printed++;
    };
  });
  await openApp(page, app);
  await signIn(page, USERS.manager);

  // This worker's engine may hold other specs' sales: close that period first.
  await openManageTile(page, 'End of day');
  await expect(page.getByTestId('day-report')).toBeVisible();
  await page.getByRole('button', { name: 'Close the day (Z report)' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Close the day' }).click();
  await expect(page.getByRole('heading', { name: /^Z report \d+ — day closed$/ })).toBeVisible();
  const firstZ = Number((await page.getByRole('heading', { name: /^Z report/ }).textContent())!.match(/\d+/)![0]);
  await page.waitForTimeout(1100); // the Z ends the second before it was taken: new sales start after it

  await ringUpKeyedSale(page, { amountDigits: '2000', tip: /15%/ });
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
  await page.getByRole('button', { name: /^New sale/ }).click();
  await ringUpKeyedSale(page, { amountDigits: '201' });
  await expect(page.getByTestId('result-title')).toBeVisible();

  await openManageTile(page, 'End of day');
  await expect(page.getByRole('heading', { name: 'X report — the day so far' })).toBeVisible();
  await expect(page.getByTestId('report-sales')).toHaveText('$24.00');
  await expect(page.getByTestId('report-tips')).toHaveText('$3.00');
  await expect(page.getByTestId('report-net')).toHaveText('$24.00');
  await expect(page.getByTestId('report-by-employee')).toContainText('Morgan');
  await expect(page.getByTestId('report-by-brand')).toContainText('Visa');
  await expect(page.getByTestId('hour-chart')).toHaveAttribute('aria-label', /busiest \d+:00 with \$24\.00/);
  await shot(page, 'manager-reports-01-x');
  // The report scrolls inside the screen: the page itself is no taller than the window (the chart's
  // visually hidden table used to stretch it, leaving a blank area below the status bar).
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBe(page.viewportSize()!.height);
  await expectAccessible(page, 'X report');

  await page.getByRole('radio', { name: 'A4 page' }).click();
  await page.getByRole('button', { name: 'Print or save as PDF' }).click();
  await expect.poll(() => page.evaluate(() => (window as unknown as { __printed: number }).__printed)).toBe(1);
  await page.getByRole('radio', { name: '80 mm roll' }).click();
  await page.emulateMedia({ media: 'print' });
  await shot(page, 'manager-reports-02-x-print-80mm');
  await page.emulateMedia({ media: 'screen' });

  await page.getByRole('button', { name: 'Close the day (Z report)' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('It cannot be undone');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Close the day' }).click();
  await expect(page.getByRole('heading', { name: `Z report ${firstZ + 1} — day closed` })).toBeVisible();
  await expect(page.getByTestId('report-sales')).toHaveText('$24.00');
  await expect(page.getByTestId('report-net')).toHaveText('$24.00');

  // The engine's own records for the period agree: sum its approved sales since the first Z.
  const creds = engineCredentials(app.dataDir);
  const headers = engineHeaders(creds);
  const since = Math.floor(Date.now() / 1000) - 600;
  const res = await fetch(`${creds.base_url}/transactions?created_ts=${since}|${Math.floor(Date.now() / 1000)}&type_id=20&status_id=101&page_size=5000`, { headers });
  const rows = ((await res.json()) as { transactions: Array<{ auth_amount: string; created_ts: number }> }).transactions;
  const zList = page.getByRole('list', { name: 'Past Z reports' });
  await expect(zList.getByRole('button')).toHaveCount(firstZ + 1);
  expect(rows.filter((r) => r.auth_amount === '1.00' || r.auth_amount === '23.00').length).toBeGreaterThanOrEqual(2);
  await shot(page, 'manager-reports-03-z');
  await expectAccessible(page, 'Z report');

  await zList.getByRole('button', { name: new RegExp(`^Z ${firstZ}\\b`) }).click();
  await expect(page.getByRole('heading', { name: `Z report ${firstZ} — day closed` })).toBeVisible();
  await zList.getByRole('button', { name: new RegExp(`^Z ${firstZ + 1}\\b`) }).click();
  await expect(page.getByTestId('report-sales')).toHaveText('$24.00');
  await page.keyboard.press('F9');
  await shot(page, 'manager-reports-04-z-dark');
  await expectAccessible(page, 'Z report (dark)');
  await page.keyboard.press('F9');
  expect(errors).toEqual([]);
});
