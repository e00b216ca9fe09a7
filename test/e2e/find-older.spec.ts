/**
 * Find older… (issue 21, point 13), end to end against the node host with the real engine and
 * SQLite: yesterday's sale (made through the v2 API, then dated the day before in the stopped
 * engine's file — never the real time of day) is not in today's list, and is found by its last
 * four; each result shows its date; the form keeps what was typed when it is opened again.
 * At 1280×800, 1024×768 and 800×480, light and dark.
 */
import { join } from 'node:path';
import { expect, shot, startHostProcess, stopHostProcess, test, type HostInfo } from './fixtures';
import { CARDS, expectAccessible, openApp, ringUpKeyedSale, signIn, USERS } from './helpers/counter';
import { engineCredentials, engineHeaders } from './helpers/engine-api';
import { redateTransaction } from './helpers/seed-engine';

test.describe.configure({ mode: 'serial' });

const DAY = 86_400;
let host: HostInfo;
let yesterdayTs = 0;

test.beforeAll(async () => {
  const first = await startHostProcess();
  const creds = engineCredentials(first.dataDir);
  const res = await fetch(`${creds.base_url}/transactions`, {
    method: 'POST',
    headers: engineHeaders(creds),
    body: JSON.stringify({ transaction: { action: 'sale', payment_method: 'cc', location_id: creds.location_id, account_number: CARDS.mastercard, exp_date: '1230', transaction_amount: '23.45' } }),
  });
  expect(res.status).toBe(201);
  const sale = ((await res.json()) as { transaction: { id: string } }).transaction;
  await stopHostProcess(first, { keepData: true });
  yesterdayTs = Math.floor(Date.now() / 1000) - DAY;
  redateTransaction(join(first.dataDir, 'gateway'), sale.id, yesterdayTs);
  host = await startHostProcess([], {}, first.dataDir);
});
test.afterAll(async () => {
  await stopHostProcess(host);
});

/** The date as the list shows it in the run's time zone (midday-zone.ts): "Nov 27" this year, "Nov 27, 2025" before. */
function shownDate(ts: number): string {
  const zone = process.env.RINGUP_E2E_TZ;
  const year = (ms: number) => new Intl.DateTimeFormat('en-US', { year: 'numeric', timeZone: zone }).format(ms);
  const thisYear = year(ts * 1000) === year(Date.now());
  return new Intl.DateTimeFormat('en-US', thisYear ? { month: 'short', day: 'numeric', timeZone: zone } : { dateStyle: 'medium', timeZone: zone }).format(ts * 1000);
}

const SIZES = [
  { width: 1280, height: 800, theme: 'light' },
  { width: 1024, height: 768, theme: 'dark' },
  { width: 800, height: 480, theme: 'light' },
] as const;

test("today's sale is rung up; yesterday's is not in today's list", async ({ page }) => {
  await openApp(page, host);
  await signIn(page, USERS.cashier);
  await ringUpKeyedSale(page, { amountDigits: '1111', card: CARDS.mastercard });
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
  await page.keyboard.press('F3');
  await expect(page.getByTestId('tx-row')).toHaveCount(1);
  await expect(page.getByTestId('tx-row')).toContainText('$11.11');
});

for (const size of SIZES) {
  test(`yesterday's sale is found by last four, with its date, and the form keeps its fields (${size.width}×${size.height}, ${size.theme})`, async ({ page }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await openApp(page, host, { theme: size.theme });
    await signIn(page, USERS.cashier);
    await page.keyboard.press('F3');
    await expect(page.getByRole('heading', { name: "Today's transactions" })).toBeVisible();

    await page.getByRole('button', { name: 'Find older…' }).click();
    await page.getByLabel('Card last four').fill('5454');
    await page.getByRole('button', { name: 'Find', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Search results' })).toBeVisible();
    const rows = page.getByTestId('tx-row');
    await expect(rows).toHaveCount(2);
    // Newest first: today's $11.11, then yesterday's $23.45 — each with its date.
    await expect(rows.nth(0)).toContainText(shownDate(yesterdayTs + DAY));
    await expect(rows.nth(1)).toContainText('$23.45');
    await expect(rows.nth(1)).toContainText(shownDate(yesterdayTs));
    await shot(page, `find-older-00-list-${size.width}-${size.theme}`);
    await rows.nth(1).getByRole('button').click();
    await expect(page.getByTestId('tx-detail')).toContainText('$23.45');
    await shot(page, `find-older-01-results-${size.width}-${size.theme}`);
    await expectAccessible(page, `find results (${size.width}, ${size.theme})`);

    // Opened again, the form shows what was asked; a field added narrows it.
    await page.getByRole('button', { name: 'Find older…' }).click();
    await expect(page.getByLabel('Card last four')).toHaveValue('5454');
    await page.getByLabel('Amount ($)', { exact: true }).fill('23.45');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Find older…' }).click();
    await expect(page.getByLabel('Card last four')).toHaveValue('5454');
    await expect(page.getByLabel('Amount ($)', { exact: true })).toHaveValue('23.45');
    await shot(page, `find-older-02-reopened-${size.width}-${size.theme}`);
    await page.getByRole('button', { name: 'Find', exact: true }).click();
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(shownDate(yesterdayTs));

    // A new person starts with an empty form (switching user clears the last person's work).
    await page.keyboard.press('F8');
    await signIn(page, USERS.manager);
    await page.keyboard.press('F3');
    await page.getByRole('button', { name: 'Find older…' }).click();
    await expect(page.getByLabel('Card last four')).toHaveValue('');
  });
}
