/**
 * Batches, end to end against the real engine: a newcomer manager sees the open batch's
 * approved totals (a 2.01 sale counts 1.00), settles it, meets the 6.30 refusal in plain
 * words, retries, finds the batch in the history and exports it as CSV. Then a batch of
 * 100,000 transactions stays a small, smooth list.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, shot, startHostProcess, stopHostProcess, test, type HostInfo } from './fixtures';
import { CARDS, expectAccessible, openApp, ringUpKeyedSale, signIn, USERS } from './helpers/counter';
import { openManageTile } from './helpers/manager';
import { cloneTransactions } from './helpers/seed-engine';
import { engineCredentials, engineHeaders } from './helpers/engine-api';
import { startTcpProxy } from '../helpers/tcp-proxy';

test.describe.configure({ mode: 'serial' });

test('a manager settles the batch: the 6.30 refusal in plain words, then the retry, the history and the CSV', async ({ page }) => {
  // Its own engine: the worker's shared one holds other specs' sales in its open batch.
  const app = await startHostProcess();
  try {
    await settleStory(page, app);
  } finally {
    await stopHostProcess(app);
  }
});

async function settleStory(page: Page, app: HostInfo) {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await openApp(page, app);
  await signIn(page, USERS.manager);
  for (const sale of [
    { amountDigits: '1000' },
    { amountDigits: '201' }, // the sandbox approves $1.00 of $2.01
    { amountDigits: '630', card: CARDS.mastercard }, // approved; the batch's first settle fails
  ]) {
    await ringUpKeyedSale(page, sale);
    await expect(page.getByTestId('result-title')).toHaveText(/Approved|Partly approved|Partially approved/);
    if (sale.amountDigits === '201') {
      // A partial approval is not walked away from: its rest is collected in cash (the batch holds the card's $1.00).
      await page.getByRole('button', { name: 'Collect $1.01 in cash' }).click();
      await page.getByTestId('cash-exact').click();
      await page.getByRole('button', { name: 'New sale' }).click();
    }
  }

  await openManageTile(page, 'Batches');
  await expect(page.getByTestId('batch-title')).toHaveText(/Batch \d+ · Open/);
  await expect(page.getByTestId('batch-count')).toHaveText('3 transactions');
  await expect(page.getByTestId('batch-totals').getByTestId('total-sales')).toHaveText('$17.30');
  await expect(page.getByTestId('batch-by-brand')).toContainText('Visa');
  await expect(page.getByTestId('batch-by-brand')).toContainText('Mastercard');
  await expect(page.getByTestId('batch-by-entry')).toContainText('Keyed');
  await expect(page.getByTestId('batch-row').filter({ hasText: 'Part approved' })).toContainText('$1.00 of $2.01');
  await shot(page, 'manager-batches-01-open');
  await expectAccessible(page, 'batches (open)');

  await page.getByRole('button', { name: 'Settle batch' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('$17.30 net from 3 transactions');
  await page.getByRole('button', { name: 'Settle now' }).click();
  await expect(page.getByTestId('settle-result')).toContainText('The processor turned this batch down this time. Nothing was lost');
  await expect(page.getByTestId('batch-title')).toHaveText(/Settle refused/);
  await shot(page, 'manager-batches-02-refused');
  await expectAccessible(page, 'batches (refused)');

  await page.getByTestId('settle-result').getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('settle-result')).toContainText(/Batch \d+ settled: 3 transactions, \$17\.30 net sent for deposit\./);
  await expect(page.getByTestId('batch-title')).toHaveText(/· Settled/);
  await expect(page.getByRole('list', { name: 'Settled batches' }).getByRole('button')).toHaveCount(1);
  await expect(page.getByText('No open batch')).toBeVisible();
  await expect(page.getByText(/Settlement file settlement_/)).toBeVisible();
  await shot(page, 'manager-batches-03-settled');

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^batch-\d+\.csv$/);
  const csv = readFileSync(await download.path(), 'utf8');
  expect(csv.split('\r\n')[0]).toContain('transaction_id,created_utc,type,result');
  expect(csv.trim().split('\r\n')).toHaveLength(4);
  expect(csv).toContain(',1.00,2.01,');

  await page.keyboard.press('F9'); // dark theme
  await shot(page, 'manager-batches-04-settled-dark');
  await expectAccessible(page, 'batches (dark)');
  await page.keyboard.press('F9');
  expect(errors).toEqual([]);
}

test('settling says what goes to the processor and how long it has been asked (the engine\'s settle answer held at a TCP proxy)', async ({ page }) => {
  test.setTimeout(120_000);
  // An engine of its own, reached by a second host as a remote gateway through a real TCP proxy.
  const engineHost = await startHostProcess();
  const creds = engineCredentials(engineHost.dataDir);
  const proxy = await startTcpProxy(Number(new URL(creds.base_url!).port));
  let remote: HostInfo | undefined;
  try {
    for (const amount of ['12.34', '20.00']) {
      const res = await fetch(`${creds.base_url}/transactions`, {
        method: 'POST',
        headers: engineHeaders(creds),
        body: JSON.stringify({ transaction: { location_id: creds.location_id, product_transaction_id: creds.cc_product_transaction_id, action: 'sale', payment_method: 'cc', account_number: CARDS.visa, exp_date: '1230', transaction_amount: amount } }),
      });
      expect(res.status).toBe(201);
    }
    remote = await startHostProcess([], {
      RINGUP_GATEWAY_URL: `${proxy.origin}/v2`,
      RINGUP_DEVELOPER_ID: creds.developer_id!,
      RINGUP_USER_ID: creds.user_id!,
      RINGUP_USER_API_KEY: creds.user_api_key!,
      RINGUP_LOCATION_ID: creds.location_id!,
      RINGUP_PRODUCT_TRANSACTION_ID: creds.cc_product_transaction_id!,
    });
    await openApp(page, remote);
    await signIn(page, USERS.manager);
    await openManageTile(page, 'Batches');
    await expect(page.getByTestId('batch-count')).toHaveText('2 transactions');
    await expect(page.getByTestId('batch-totals').getByTestId('total-sales')).toHaveText('$32.34');

    // The processor takes its time: the settle reaches the engine, its answer waits at the proxy.
    const release = proxy.hold(/^POST \/v2\/transactionbatches\/[^/ ]+\/settle /);
    await page.getByRole('button', { name: 'Settle batch' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Settle now' }).click();
    const progress = page.getByTestId('settle-progress');
    await expect(progress.getByRole('status')).toHaveText(/^Sending batch \d+ to the processor: 2 transactions, \$32\.34 net\. Waiting for its answer; keep Ringup open\.$/);
    await expect(progress.getByRole('progressbar', { name: /^Settling batch \d+$/ })).toBeVisible();
    await expect(page.getByTestId('settle-seconds')).toHaveText(/^[1-9]\d* s so far$/);
    await expect(page.getByRole('button', { name: 'Settling…' })).toBeDisabled();
    expect(proxy.requests.filter((r) => r.includes('/settle'))).toHaveLength(1);
    await shot(page, 'manager-batches-06-settling');
    await expectAccessible(page, 'batches (settling)');

    release();
    await expect(page.getByTestId('settle-result')).toContainText(/Batch \d+ settled: 2 transactions, \$32\.34 net sent for deposit\./);
    await expect(progress).toHaveCount(0);
    expect(proxy.requests.filter((r) => r.includes('/settle'))).toHaveLength(1);
  } finally {
    if (remote) await stopHostProcess(remote);
    await proxy.close();
    await stopHostProcess(engineHost);
  }
});

test('a batch of 100,000 transactions keeps a small DOM while scrolling to the end', async ({ page }) => {
  test.setTimeout(240_000);
  const first = await startHostProcess();
  const creds = engineCredentials(first.dataDir);
  const headers = engineHeaders(creds);
  const res = await fetch(`${creds.base_url}/transactions`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ transaction: { location_id: creds.location_id, action: 'sale', payment_method: 'cc', account_number: CARDS.visa, exp_date: '1230', transaction_amount: '12.34' } }),
  });
  const sale = ((await res.json()) as { transaction: { id: string } }).transaction;
  await stopHostProcess(first, { keepData: true });
  const now = Math.floor(Date.now() / 1000);
  // The copies keep the sample's batch: one open batch of 100,000.
  cloneTransactions(join(first.dataDir, 'gateway'), { sampleId: sale.id, count: 99_999, since: now - 3600, until: now - 1 });

  const app = await startHostProcess([], {}, first.dataDir);
  try {
    await openApp(page, app);
    await signIn(page, USERS.manager);
    await openManageTile(page, 'Batches');
    // The first rows show while the rest (and the totals) still load: no waiting for 100,000.
    await expect(page.getByTestId('batch-row').first()).toBeVisible();
    await expect(page.getByTestId('batch-count')).toContainText('loading more…');
    await expect(page.getByTestId('batch-count')).toHaveText('100,000 transactions', { timeout: 120_000 });
    await expect(page.getByTestId('batch-totals').getByTestId('total-sales')).not.toHaveText('$0.00');
    // A small DOM at every point of the list. How fast it scrolls and how soon the first rows show is
    // measured by `npm run bench:ui` (test/bench/ui-bench.mjs), not timed here.
    const rowsDrawn = await page.getByTestId('batch-scroll').evaluate(async (el) => {
      const out: number[] = [];
      for (let i = 1; i <= 30; i++) {
        el.scrollTop = (el.scrollHeight * i) / 30;
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        out.push(el.querySelectorAll('[data-testid="batch-row"]').length);
      }
      return out;
    });
    for (const rows of rowsDrawn) {
      expect(rows).toBeGreaterThan(5);
      expect(rows).toBeLessThan(60);
    }
    await expect(page.locator('[data-testid="batch-row"][aria-posinset="100000"]')).toBeVisible();
    await shot(page, 'manager-batches-05-100k');
  } finally {
    await stopHostProcess(app);
  }
});
