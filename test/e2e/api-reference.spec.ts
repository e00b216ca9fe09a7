/**
 * The engine's API reference page (GET /docs): Scalar's bundle served by the engine
 * renders the engine's own /openapi.json in Chromium without a single request leaving
 * the engine (no CDN, no fonts, no telemetry).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEngine, type RunningEngine } from '../../electron/gateway/engine';
import { expect, SCREENSHOT_DIR, test } from './fixtures';

let engine: RunningEngine;
let dir: string;

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ringup-docs-'));
  engine = await startEngine({ dataDir: dir, port: 0 });
});

test.afterAll(async () => {
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the API reference renders offline from the engine alone', async ({ page }) => {
  const origin = new URL(engine.credentials.base_url).origin;
  const requests: string[] = [];
  const outside: string[] = [];
  page.on('request', (r) => {
    requests.push(r.url());
    if (!r.url().startsWith(`${origin}/`) && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) outside.push(r.url());
  });
  // Anything that tries to leave is refused, so a missed request would also show up as a broken page.
  await page.route((url) => !url.href.startsWith(`${origin}/`) && url.protocol !== 'data:' && url.protocol !== 'blob:', (route) => route.abort());
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));

  await page.goto(`${origin}/docs`);
  await expect(page.getByRole('heading', { name: 'Ringup embedded payment gateway' }).first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('List account vaults').first()).toBeVisible();
  await page.screenshot({ path: join(SCREENSHOT_DIR, 'api-reference-top.png') }); // the viewport: the full page is ~14,000 px

  // Open the transactions group in the sidebar and go to the POST operation.
  await page.getByText('transactions', { exact: true }).first().click();
  const run = page.getByText('Run a transaction (sale, authonly, avsonly, force, refund, debit, credit)');
  await run.first().click();
  await expect(page.getByText('TransactionCreate').or(page.getByText('transaction_amount')).first()).toBeVisible();
  await page.screenshot({ path: join(SCREENSHOT_DIR, 'api-reference-transactions.png') }); // the viewport: the page is very long

  expect(requests).toContain(`${origin}/openapi.json`);
  expect(requests).toContain(`${origin}/docs/scalar.js`);
  expect(outside).toEqual([]);
  expect(errors).toEqual([]);
});
