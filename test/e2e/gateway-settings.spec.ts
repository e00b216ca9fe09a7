/**
 * The Gateway screen (issue 11, point 4, API-key part): a manager points the counter at a
 * remote gateway — here a standalone engine started by the test, as a merchant's sandbox
 * would be — with a refused key first, then the right one; after a restart the counter
 * sells through that gateway, and its status bar says so.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, shot, startHostProcess, stopHostProcess, test, type HostInfo } from './fixtures';
import { expectAccessible, openApp, ringUpKeyedSale, signIn, USERS } from './helpers/counter';
import { engineHeaders, type EngineCreds } from './helpers/engine-api';
import { openGatewayScreen } from './helpers/gateway-oauth';
import { startStandaloneEngine } from '../helpers/standalone-engine';

let remote: ChildProcess;
let remoteDir: string;
let creds: Record<string, string>;
let host: HostInfo;

test.beforeAll(async () => {
  remoteDir = mkdtempSync(join(tmpdir(), 'ringup-remote-gw-'));
  ({ child: remote, creds } = await startStandaloneEngine<Record<string, string>>(remoteDir));
  host = await startHostProcess();
});
test.afterAll(async () => {
  await stopHostProcess(host);
  remote.kill('SIGTERM');
  rmSync(remoteDir, { recursive: true, force: true });
});

test('a manager points the counter at a remote gateway; after a restart it sells through it', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 1000 });
  await openApp(page, host);
  await signIn(page, USERS.manager);
  await openGatewayScreen(page);
  await expect(page.getByTestId('gateway-now')).toContainText('Embedded gateway engine');
  await page.getByRole('radio', { name: /Remote gateway/ }).click();
  await page.getByLabel('Base URL').fill('not a url');
  await page.getByLabel('Developer id').fill(creds.developer_id!);
  await page.getByLabel('User id').fill(creds.user_id!);
  await page.getByLabel('API key').fill('wrong-key-0123456789');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByText('Enter the gateway’s base URL, like https://api.sandbox.example.com/v2.')).toBeVisible();
  await page.getByLabel('Base URL').fill(creds.base_url!);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByRole('alert')).toHaveText('The gateway answered but refused these credentials: check the developer id, user id and API key.');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert')).toContainText('refused these credentials');
  await page.getByLabel('API key').fill(creds.user_api_key!);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Connected: the gateway answered in' })).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved. Close Ringup and start it again' })).toBeVisible();
  await expect(page.getByLabel('API key')).toHaveValue('');
  await shot(page, 'gateway-01-saved-remote');
  await expectAccessible(page, 'gateway settings');

  // The next start uses it.
  await stopHostProcess(host, { keepData: true });
  host = await startHostProcess([], {}, host.dataDir);
  await openApp(page, host);
  await signIn(page, USERS.cashier);
  await expect(page.getByTestId('status-gateway')).toContainText('Gateway: remote, reachable');
  await ringUpKeyedSale(page, { amountDigits: '3300' });
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
  const headers = engineHeaders(creds as EngineCreds);
  const list = (await (await fetch(`${creds.base_url}/transactions?transaction_amount=33.00`, { headers })).json()) as { transactions: unknown[] };
  expect(list.transactions).toHaveLength(1);
  await page.keyboard.press('F8');
  await signIn(page, USERS.manager);
  await openGatewayScreen(page);
  await expect(page.getByTestId('gateway-now')).toContainText('Remote gateway');
  await expect(page.getByTestId('gateway-now')).toContainText(creds.base_url!);
  await expect(page.getByTestId('gateway-now')).not.toContainText(creds.user_api_key!);
  await page.keyboard.press('F9');
  await shot(page, 'gateway-02-remote-in-use-dark');
  await expectAccessible(page, 'gateway settings, dark');
});
