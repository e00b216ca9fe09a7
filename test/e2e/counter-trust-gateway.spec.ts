/**
 * Counter trust when the gateway misbehaves (issue 8, points 6 and 7): a second node
 * host uses this worker's engine as a remote gateway through a real TCP proxy, so the
 * test can make the gateway accept a sale and never answer, or go away, and come back.
 */
import { expect, shot, startHostProcess, stopHostProcess, test, type HostInfo } from './fixtures';
import { CARDS, expectAccessible, openApp, signIn, USERS } from './helpers/counter';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy';
import { engineCredentials, engineHeaders, type EngineCreds } from './helpers/engine-api';

test.describe.configure({ mode: 'serial' });

let proxy: TcpProxy;
let remote: HostInfo;
let creds: EngineCreds;
/** Sales of 43.21 other specs of this worker made at the shared engine before this one. */
let before = 0;

function remoteEnv(apiKey: string): NodeJS.ProcessEnv {
  return {
    RINGUP_GATEWAY_URL: `${proxy.origin}/v2`,
    RINGUP_DEVELOPER_ID: creds.developer_id!,
    RINGUP_USER_ID: creds.user_id!,
    RINGUP_USER_API_KEY: apiKey,
    RINGUP_LOCATION_ID: creds.location_id!,
    RINGUP_PRODUCT_TRANSACTION_ID: creds.cc_product_transaction_id!,
    RINGUP_GATEWAY_TIMEOUT_MS: '1500',
  };
}

test.beforeAll(async ({ workerHost }) => {
  creds = engineCredentials(workerHost.dataDir);
  proxy = await startTcpProxy(Number(new URL(creds.base_url!).port));
  remote = await startHostProcess([], remoteEnv(creds.user_api_key!));
});

test.afterAll(async () => {
  if (remote) await stopHostProcess(remote);
  await proxy?.close();
});

/** Sales with this amount at the engine itself (not through the proxy). */
async function salesAtEngine(amount: string): Promise<number> {
  const headers = engineHeaders(creds);
  const r = await fetch(`${creds.base_url}/transactions?transaction_amount=${amount}&type_id=20&page_size=50`, { headers });
  const body = (await r.json()) as { transactions: Array<{ transaction_amount: string }> };
  return body.transactions.filter((t) => t.transaction_amount === amount).length;
}

test('a sale whose answer never comes is looked up by its transaction_api_id: Charge waits, then shows the one real outcome', async ({ page }) => {
  proxy.mode = 'pass';
  await openApp(page, remote);
  await signIn(page, USERS.cashier);
  await expect(page.getByTestId('status-gateway')).toHaveText(/remote, reachable/);
  await page.keyboard.press('F2');
  await page.keyboard.type('4321');
  await page.keyboard.press('Enter');
  await page.keyboard.type(CARDS.visa);
  await page.getByLabel('Expiry').fill('12/30');
  await page.getByLabel('Security code').fill('999');
  await page.getByLabel('Billing ZIP').fill('32606');
  before = await salesAtEngine('43.21');

  proxy.mode = 'swallow'; // the gateway gets the sale and charges the card, but its answer is lost
  await page.getByLabel('Billing ZIP').press('Enter');
  const charge = page.getByRole('button', { name: 'Checking with the gateway…' });
  await expect(charge).toBeVisible();
  await expect(charge).toBeDisabled();
  await expect(page.getByTestId('sale-error')).toHaveText('The payment gateway did not answer. Checking whether the card was charged — do not charge again.');
  await expect(page.getByTestId('gateway-banner')).toBeVisible(); // the health probe is swallowed too
  await shot(page, 'trust-20-outcome-unknown');
  await expectAccessible(page, 'outcome unknown');
  expect(await salesAtEngine('43.21')).toBe(before + 1);
  await expect(charge).toBeDisabled(); // still asking: no second charge is possible

  proxy.mode = 'pass'; // the gateway answers again
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
  await expect(page.getByTestId('receipt')).toContainText('$43.21');
  await expect(page.getByTestId('gateway-banner')).toHaveCount(0); // gone by itself
  await shot(page, 'trust-21-outcome-found');
  expect(await salesAtEngine('43.21')).toBe(before + 1);
  expect(proxy.requests.filter((l) => l.startsWith('POST /v2/transactions'))).toHaveLength(1);
});

test('gateway trouble shows a banner on every screen and clears by itself; the list says it cannot load instead of $0.00', async ({ page }) => {
  proxy.mode = 'pass';
  await openApp(page, remote);
  await signIn(page, USERS.manager);
  await page.keyboard.press('F3');
  await expect(page.getByTestId('tx-totals')).toBeVisible();
  await expect(page.getByTestId('gateway-banner')).toHaveCount(0);

  proxy.mode = 'drop';
  const banner = page.getByTestId('gateway-banner');
  await expect(banner).toHaveText('!The payment gateway cannot be reached. Cards cannot be charged until it answers again; this message goes away by itself.');
  await page.reload(); // a fresh Transactions screen while the gateway is away
  await signIn(page, USERS.manager); // each window signs in on its own: a reload starts at the sign-in screen
  await page.keyboard.press('F3');
  await expect(page.getByTestId('tx-load-failed')).toContainText("Today's list cannot be loaded");
  await expect(page.getByTestId('tx-load-failed')).toContainText('The connection to the payment gateway broke before it answered.');
  await expect(page.getByText('No transactions match.')).toHaveCount(0);
  await expect(page.getByTestId('tx-totals')).toHaveCount(0);
  await expect(page.getByText('$0.00')).toHaveCount(0);
  await shot(page, 'trust-22-gateway-down-transactions');
  await expectAccessible(page, 'gateway down, transactions');
  for (const key of ['F2', 'F4', 'F5']) {
    await page.keyboard.press(key);
    await expect(banner).toBeVisible();
  }
  await page.keyboard.press('F2');
  await shot(page, 'trust-23-gateway-down-sale');

  proxy.mode = 'pass';
  await expect(banner).toHaveCount(0);
  await page.keyboard.press('F3');
  await expect(page.getByTestId('tx-totals')).toBeVisible();
  await expect(page.getByTestId('tx-load-failed')).toHaveCount(0);
});

test('refused credentials are reported as refused, not as unreachable', async ({ page }) => {
  proxy.mode = 'pass';
  const wrong = await startHostProcess([], remoteEnv('not-the-key'));
  try {
    await openApp(page, wrong);
    await expect(page.getByTestId('status-gateway')).toHaveText(/remote, refusing our credentials/);
    await expect(page.getByTestId('gateway-banner')).toHaveText(/refuses Ringup’s credentials/);
    await expect(page.getByTestId('gateway-banner')).not.toContainText('cannot be reached');
    await shot(page, 'trust-24-refused-credentials');
    await expectAccessible(page, 'refused credentials');
  } finally {
    await stopHostProcess(wrong);
  }
});
