/**
 * Issue 20, point 3, as a merchant meets it: a keyed sale is sent, the gateway charges the
 * card but its answer is held at a TCP proxy, and the app is killed. Started again on the same
 * data, the next person to sign in sees the payment on top of the screen — the amount, who rang
 * it up, "Checking…" while the gateway cannot be asked — then "Approved" with its Ref once it
 * can, and marks it seen. The gateway holds exactly one charge, and the sale is Casey's in the
 * transaction list. A real host process, a real standalone engine and a real proxy.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, shot, startHostProcess, stopHostProcess, test, type HostInfo } from './fixtures';
import { expectAccessible, openApp, ringUpKeyedSale, signIn, USERS } from './helpers/counter';
import { engineHeaders, type EngineCreds } from './helpers/engine-api';
import { startStandaloneEngine } from '../helpers/standalone-engine';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy';

let engine: ChildProcess | undefined;
let engineDir = '';
let host: HostInfo | undefined;
let proxy: TcpProxy | undefined;

test.afterEach(async () => {
  if (host) await stopHostProcess(host);
  host = undefined;
  await proxy?.close();
  engine?.kill('SIGTERM');
  if (engineDir) rmSync(engineDir, { recursive: true, force: true });
});

test('a sale whose answer was lost when the app was killed is found after the restart and shown to the next person, charged once', async ({ page }) => {
  test.setTimeout(120_000);
  engineDir = mkdtempSync(join(tmpdir(), 'ringup-e2e-lost-engine-'));
  const e = await startStandaloneEngine<EngineCreds>(engineDir);
  engine = e.child;
  const creds = e.creds;
  proxy = await startTcpProxy(Number(new URL(creds.base_url).port));
  const env = {
    RINGUP_GATEWAY_URL: `${proxy.origin}/v2`,
    RINGUP_DEVELOPER_ID: creds.developer_id,
    RINGUP_USER_ID: creds.user_id,
    RINGUP_USER_API_KEY: creds.user_api_key,
    RINGUP_LOCATION_ID: creds.location_id,
  };
  host = await startHostProcess([], env);
  const dataDir = host.dataDir;
  await openApp(page, host);
  await signIn(page, USERS.cashier);

  // The gateway charges the card; its answer never reaches the register, which is killed meanwhile.
  const release = proxy.hold(/^POST \/v2\/transactions /);
  await ringUpKeyedSale(page, { amountDigits: '4321' });
  await expect.poll(() => proxy!.heldAnswers).toBe(1);
  host.process.kill('SIGKILL');
  await new Promise((r) => host!.process.once('exit', r));
  release();

  // Started again while the gateway cannot be reached: the payment is shown, being checked.
  proxy.mode = 'drop';
  host = await startHostProcess([], env, dataDir);
  await page.goto(`${host.origin}#token=${host.token}`);
  await signIn(page, USERS.manager);
  const note = page.getByTestId('lost-payments');
  await expect(note.getByRole('heading', { name: 'A payment whose answer was lost' })).toBeVisible();
  const item = note.getByTestId('lost-payment');
  await expect(item).toHaveAttribute('data-state', 'checking');
  await expect(item).toContainText('$43.21');
  await expect(item).toContainText('Keyed card · Casey');
  await expect(item).toContainText('do not charge it again');
  await expect(item.getByRole('button', { name: 'Seen' })).toHaveCount(0);
  await shot(page, 'lost-answer-checking');
  await expectAccessible(page, 'a lost payment being checked');

  // The gateway answers again: the core's own lookups find the sale, approved, Casey's.
  proxy.mode = 'pass';
  await expect(item).toHaveAttribute('data-state', 'approved', { timeout: 15_000 });
  await expect(item).toContainText(/Approved: the gateway has this payment \(Ref [A-Z0-9]{8}\), rung up by Casey/);
  await shot(page, 'lost-answer-approved');
  await expectAccessible(page, 'a lost payment found approved');
  await page.keyboard.press('F9');
  await shot(page, 'lost-answer-approved-dark');
  await page.keyboard.press('F9');
  await item.getByRole('button', { name: 'Seen' }).click();
  await expect(note).toHaveCount(0);

  // Exactly one charge at the gateway, and in the app it is Casey's sale.
  const res = await fetch(`${creds.base_url}/transactions?transaction_amount=43.21`, { headers: engineHeaders(creds) });
  const body = (await res.json()) as { transactions: Array<{ id: string; transaction_amount: string; status_id: number }> };
  const charges = body.transactions.filter((t) => t.transaction_amount === '43.21' && Number(t.status_id) === 101);
  expect(charges).toHaveLength(1);
  await page.getByRole('button', { name: /^Transactions/ }).click();
  await expect(page.getByTestId('tx-row').filter({ hasText: '$43.21' })).toHaveCount(1);
  await expect(page.getByTestId('tx-row').filter({ hasText: '$43.21' })).toContainText('Casey');
});
