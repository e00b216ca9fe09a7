/**
 * Counter trust when the gateway misbehaves (issue 8, points 6 and 7): a second node
 * host uses this worker's engine as a remote gateway through a real TCP proxy, so the
 * test can make the gateway accept a sale and never answer, or go away, and come back.
 */
import { expect, shot, startHostProcess, stopHostProcess, test, type HostInfo } from './fixtures';
import { CARDS, expectAccessible, openApp, signIn, USERS } from './helpers/counter';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy';
import { engineCredentials, engineHeaders, type EngineCreds } from './helpers/engine-api';
import { openManageTile } from './helpers/manager';
import type { Page } from '@playwright/test';

const TEA_CSV = 'name,price,sku,product_code,unit_code,commodity_code,tax_category,quick_key\nTea,2.50,TEA,TEA-1,EA,4410,standard,yes\n';

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

/** Types the amount on a new sale and keys a Visa, without pressing Charge. */
async function keySale(page: Page, digits: string): Promise<void> {
  await page.keyboard.press('F2');
  await expect(page.getByTestId('sale-amount')).toContainText('$0.00');
  await page.keyboard.type(digits);
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Card number')).toBeFocused();
  await page.keyboard.type(CARDS.visa);
  await page.getByLabel('Expiry').fill('12/30');
  await page.getByLabel('Security code').fill('999');
  await page.getByLabel('Billing ZIP').fill('32606');
}

test('a sale whose POST lands after the timeout is never called "not charged": F2 waits, and the screen ends with the one real charge', async ({ page }) => {
  proxy.mode = 'pass';
  await openApp(page, remote);
  await signIn(page, USERS.cashier);
  await keySale(page, '3567');
  const before3567 = await salesAtEngine('35.67');
  proxy.postDelayMs = 8_000; // a slow hop: the POST reaches the gateway 8 s late, after the app's 1.5 s timeout; lookups pass at once
  try {
    await page.getByLabel('Billing ZIP').press('Enter');
    const checking = page.getByRole('button', { name: 'Checking with the gateway…' });
    await expect(checking).toBeDisabled();
    await expect(page.getByTestId('sale-error')).toHaveText('The payment gateway did not answer. Checking whether the card was charged — do not charge again.');
    // A new sale cannot start while this one's outcome is unknown: F2 and the Sale tab keep it, and say why.
    await page.keyboard.press('F2');
    await expect(page.getByTestId('sale-amount')).toContainText('$35.67');
    await expect(page.getByTestId('sale-error')).toHaveText('This sale is still being checked with the payment gateway. Nothing else can start until its outcome is known.');
    await page.getByRole('button', { name: /^Sale/ }).click();
    await expect(page.getByTestId('sale-amount')).toContainText('$35.67');
    await shot(page, 'trust-25-late-post-checking');
    await expectAccessible(page, 'late POST, checking');
    // Never "not charged": the screen waits for the gateway's record and shows it.
    await expect(page.getByTestId('result-title')).toHaveText('Approved', { timeout: 30_000 });
    await expect(page.getByTestId('receipt')).toContainText('$35.67');
    await expect(page.getByText('the card was not charged', { exact: false })).toHaveCount(0);
    await shot(page, 'trust-26-late-post-approved');
  } finally {
    proxy.postDelayMs = 0;
  }
  // Every late POST (the first and any re-send under the same transaction_api_id) has landed: one charge.
  await expect.poll(() => proxy.delayedPending, { timeout: 20_000 }).toBe(0);
  await page.waitForTimeout(500);
  expect(await salesAtEngine('35.67')).toBe(before3567 + 1);
});

test('while a sale is "Checking with the gateway…", no other way to take money is open: Terminal, Check, saved card, catalogue and cart', async ({ page }) => {
  proxy.mode = 'pass';
  await openApp(page, remote);
  // A catalogue with a quick key, so the cart's way in is on the screen too.
  await signIn(page, USERS.manager);
  await openManageTile(page, 'Catalogue');
  await page.getByTestId('csv-file').setInputFiles({ name: 'items.csv', mimeType: 'text/csv', buffer: Buffer.from(TEA_CSV) });
  await expect(page.getByTestId('csv-result')).toContainText('Imported 1 item');
  await signIn(page, USERS.cashier);
  await keySale(page, '4444');
  await expect(page.getByTestId('quick-key-TEA')).toBeEnabled();
  proxy.mode = 'swallow'; // the answer (and every lookup's) is lost: the outcome stays unknown
  try {
    await page.getByLabel('Billing ZIP').press('Enter');
    await expect(page.getByRole('button', { name: 'Checking with the gateway…' })).toBeDisabled();
    const methods = page.getByRole('radiogroup', { name: 'How the customer pays' });
    for (const name of ['Terminal', 'Key card', 'Check']) await expect(methods.getByRole('radio', { name })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Charge a saved card…' })).toBeDisabled();
    await expect(page.getByTestId('pay-terminal')).toHaveCount(0);
    await expect(page.getByTestId('pay-check')).toHaveCount(0);
    await expect(page.getByRole('radiogroup', { name: 'Tip' }).getByRole('radio').first()).toBeDisabled();
    await expect(page.getByTestId('quick-key-TEA')).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Add $44.44 to the cart' })).toBeDisabled();
    await shot(page, 'trust-27-checking-other-tenders-closed');
    await expectAccessible(page, 'checking, other tenders closed');
  } finally {
    proxy.mode = 'pass';
  }
  await expect(page.getByTestId('result-title')).toHaveText('Approved', { timeout: 20_000 });
});

test('a saved-card charge whose answer is lost is charged once, however often the cashier tries again', async ({ page }) => {
  proxy.mode = 'pass';
  const headers = engineHeaders(creds);
  const contact = (await (await fetch(`${creds.base_url}/contacts`, { method: 'POST', headers, body: JSON.stringify({ contact: { location_id: creds.location_id, first_name: 'Lost', last_name: 'Answer' } }) })).json()) as { contact: { id: string } };
  const vault = await fetch(`${creds.base_url}/accountvaults`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ accountvault: { location_id: creds.location_id, contact_id: contact.contact.id, payment_method: 'cc', account_number: '4111111111111111', exp_date: '1230' } }),
  });
  expect(vault.status).toBe(201);
  await openApp(page, remote);
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');
  await page.keyboard.type('2468');
  const before2468 = await salesAtEngine('24.68');
  const picker = page.getByRole('dialog', { name: 'Charge $24.68 to a saved card' });
  /** Picks the card and says yes on the question that follows. */
  const chargeLost = async () => {
    await picker.getByRole('button', { name: /Lost Answer/ }).click();
    await page.getByRole('alertdialog', { name: 'Charge this saved card?' }).getByRole('button', { name: 'Yes, charge $24.68' }).click();
  };
  proxy.postDelayMs = 4_000; // the POST reaches the gateway after the app gave up on it (1.5 s)
  try {
    await page.getByRole('button', { name: 'Charge a saved card…' }).click();
    await chargeLost();
    await expect(picker.getByRole('alert')).toContainText('did not answer', { timeout: 15_000 });
    // The cashier tries again at once, and again after the first POST has landed.
    await chargeLost();
    await expect.poll(() => proxy.delayedPending, { timeout: 20_000 }).toBe(0);
  } finally {
    proxy.postDelayMs = 0;
  }
  if (await picker.isVisible()) await chargeLost();
  await expect(page.getByTestId('result-title')).toHaveText('Approved', { timeout: 20_000 });
  await expect(page.getByTestId('receipt').first()).toContainText('$24.68');
  expect(await salesAtEngine('24.68')).toBe(before2468 + 1);
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
  await expect(banner, 'the banner shows within 5 seconds of the gateway going away').toBeVisible({ timeout: 5_000 });
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
  await expect(banner, 'the banner goes by itself within 5 seconds of the gateway answering again').toHaveCount(0, { timeout: 5_000 });
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
