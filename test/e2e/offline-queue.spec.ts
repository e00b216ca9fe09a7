/**
 * Offline store-and-forward (issue 13), end to end: the counter uses a gateway (a real
 * standalone engine) behind a real TCP gate. Mid-day the gate stops listening (connection
 * refused, as when the gateway is down): the banner shows, keyed sales are approved
 * offline with receipts marked so, one over the cap is refused with a sentence. The app is
 * then killed (SIGKILL) and started again during the outage; the queue is still there. When
 * the gate listens again the queue drains by itself, exactly once per sale, and the one the
 * issuer declines is listed for the manager. Screenshots light and dark; axe on each screen.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, shot, startHostProcess, stopHostProcess, test, type HostInfo } from './fixtures';
import { expectAccessible, openApp, ringUpKeyedSale, signIn, USERS } from './helpers/counter';
import { engineHeaders, type EngineCreds } from './helpers/engine-api';
import { openManageTile } from './helpers/manager';
import { startStandaloneEngine } from '../helpers/standalone-engine';
import { Gate } from '../helpers/tcp-gate';


let engine: ChildProcess | undefined;
let engineDir = '';
let host: HostInfo | undefined;
let gate: Gate | undefined;

test.afterEach(async () => {
  if (host) await stopHostProcess(host);
  await gate?.down();
  engine?.kill('SIGTERM');
  if (engineDir) rmSync(engineDir, { recursive: true, force: true });
});

test('a gateway outage mid-day: sales approved offline, the app killed and restarted, the queue drains by itself exactly once', async ({ page }) => {
  test.setTimeout(120_000);
  engineDir = mkdtempSync(join(tmpdir(), 'ringup-e2e-offline-engine-'));
  const e = await startStandaloneEngine<EngineCreds>(engineDir);
  engine = e.child;
  const creds = e.creds;
  gate = new Gate(Number(new URL(creds.base_url).port));
  await gate.up();
  const env = {
    RINGUP_GATEWAY_URL: `http://127.0.0.1:${gate.port}/v2`,
    RINGUP_DEVELOPER_ID: creds.developer_id,
    RINGUP_USER_ID: creds.user_id,
    RINGUP_USER_API_KEY: creds.user_api_key,
    RINGUP_LOCATION_ID: creds.location_id,
  };
  host = await startHostProcess([], env);
  const dataDir = host.dataDir;

  // A manager allows keyed cards offline (the store's default is card-present only).
  await openApp(page, host);
  await signIn(page, USERS.manager);
  await openManageTile(page, 'Store settings');
  await page.getByRole('switch', { name: 'Take keyed cards offline' }).check();
  // A short expiry window with the alert as soon as a sale waits, so the alert shows in this test.
  await page.getByLabel('Expire unsent sales after').fill('2');
  await page.getByLabel('Alert before expiry').fill('2');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Saved. Every counter window uses the new settings now.')).toBeVisible();
  await page.getByRole('group', { name: 'Offline sales' }).scrollIntoViewIfNeeded();
  await shot(page, 'offline-settings');
  await expectAccessible(page, 'store settings with offline rules');

  await signIn(page, USERS.cashier);
  await ringUpKeyedSale(page, { amountDigits: '1850' });
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
  await expect(page.getByTestId('status-offline-queue')).toHaveText('Offline queue: empty');
  await page.keyboard.press('n');

  // Mid-day, the gateway goes away.
  await gate.down();
  await expect(page.getByTestId('gateway-banner')).toContainText('approved offline', { timeout: 15_000 });
  await ringUpKeyedSale(page, { amountDigits: '2450' });
  await expect(page.getByTestId('result-title')).toHaveText('Approved offline', { timeout: 15_000 });
  await expect(page.getByTestId('receipt').getByTestId('receipt-offline')).toBeVisible();
  await expect(page.getByTestId('receipt-merchant').getByTestId('receipt-offline')).toBeAttached(); // the printed merchant copy
  await expect(page.getByTestId('receipt').getByText('APPROVED OFFLINE', { exact: true })).toBeVisible();
  await expect(page.getByTestId('status-offline-queue')).toHaveText('Offline queue: 1 sale, $24.50 · 1 expiring soon');
  await shot(page, 'offline-sale-approved-offline');
  await expectAccessible(page, 'approved offline');
  await page.keyboard.press('n');

  await ringUpKeyedSale(page, { amountDigits: '601' }); // the issuer will decline this one once forwarded
  await expect(page.getByTestId('result-title')).toHaveText('Approved offline');
  await page.keyboard.press('n');
  await ringUpKeyedSale(page, { amountDigits: '15000' });
  await expect(page.getByText('a sale taken offline is at most $100.00')).toBeVisible();
  await expect(page.getByTestId('status-offline-queue')).toHaveText('Offline queue: 2 sales, $30.51 · 2 expiring soon');
  await shot(page, 'offline-sale-over-cap-refused');

  // The app is killed during the outage and started again on the same data.
  host.process.kill('SIGKILL');
  await new Promise((r) => host!.process.once('exit', r));
  host = await startHostProcess([], env, dataDir);
  await page.goto(`${host.origin}#token=${host.token}`);
  await signIn(page, USERS.manager);
  await expect(page.getByTestId('status-offline-queue')).toHaveText('Offline queue: 2 sales, $30.51 · 2 expiring soon');
  await openManageTile(page, 'Offline queue');
  await expect(page.getByTestId('queue-row')).toHaveCount(2);
  await expect(page.getByTestId('queue-row').getByTestId('queue-state')).toHaveText(['Waiting', 'Waiting']);
  await expect(page.getByTestId('queue-expiry-alert')).toContainText('2 offline sales expire within 2 hours');
  await expect(page.getByTestId('status-queue-expiring')).toHaveText('· 2 expiring soon');
  await shot(page, 'offline-queue-waiting');
  // The status bar keeps to one line at 1280 px even with its longest queue text (it wrapped the version onto a second line).
  const bar = await page.getByRole('contentinfo', { name: 'Status' }).boundingBox();
  expect(bar!.height).toBeLessThan(48);
  await expectAccessible(page, 'queue screen,');

  // The gateway answers again: the queue drains by itself.
  await gate.up();
  await expect(page.getByTestId('status-offline-queue')).toHaveText('Offline queue: empty', { timeout: 20_000 });
  await expect(page.getByTestId('queue-row').getByTestId('queue-state')).toHaveText(['Declined', 'Approved']);
  await expect(page.getByTestId('queue-problem-row')).toHaveCount(1);
  await expect(page.getByTestId('queue-problem-row')).toContainText('$6.01');
  await expect(page.getByTestId('queue-problem-row')).toContainText('32606');
  await expect(page.getByTestId('gateway-banner')).toBeHidden();
  await expect(page.getByTestId('queue-expiry-alert')).toBeHidden();
  await shot(page, 'offline-queue-drained');
  await expectAccessible(page, 'queue screen, drained');
  await page.getByRole('button', { name: 'Use the dark theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await shot(page, 'offline-queue-drained-dark');
  await expectAccessible(page, 'queue screen, dark');

  // Exactly once per sale at the gateway.
  const list = await fetch(`${creds.base_url}/transactions?page_size=100`, { headers: engineHeaders(creds) });
  const amounts = ((await list.json()) as { transactions: Array<{ transaction_amount: string }> }).transactions.map((t) => t.transaction_amount).sort();
  expect(amounts).toEqual(['18.50', '24.50', '6.01']);
});
