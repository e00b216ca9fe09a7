/**
 * Secrets never leave the main process (issue 11, point 6): every frame the node host's
 * WebSocket carries during a sign-in, a sale, a refund, a key backup and sign-out is
 * recorded and searched for every secret of the data folder (the vault key, the engine's
 * admin, cashier and installer keys, the OAuth client secret, the SSO key, the seeded
 * password). Then the gateway's own sign-in: an OAuth sign-in to the embedded engine on its
 * login page, a sale and a refund with the Bearer token, Sign out of the gateway and a
 * remote gateway's API key typed on the Gateway screen — no access or refresh token, client
 * secret or API key in any result or event (the typed key goes one way, in its own request).
 * Then the Key backup section as a manager uses it: a mismatch, a backup, a wrong
 * passphrase on restore, and the restore; and a replacement register, whose copied engine
 * data (sealed under the old register's keys) waits aside until the backup is restored.
 * Last, a copy of a data folder on the same computer (issue 20, point 8): its banner and its
 * refused sale say it is a copy and how to move a register; the original still sells.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeHostKeysFolder } from '../../electron/core/keys/node-host-keys';
import { REGISTER_COPY_MESSAGE } from '../../electron/core/queue/register-binding';
import { expect, shot, startHostProcess, stopHostProcess, test } from './fixtures';
import { openNodeHostSecretStore } from '../../electron/core/keys/node-host-keys';
import type { Page } from '@playwright/test';
import { expectAccessible, openApp, ringUpKeyedSale, signIn, USERS } from './helpers/counter';
import { engineCredentials, engineHeaders, type EngineCreds } from './helpers/engine-api';
import { allowOnEngineLoginPage, openGatewayScreen, startOAuthSignIn, type EngineLogin } from './helpers/gateway-oauth';

function secretsOf(dataDir: string): Record<string, string> {
  const creds = engineCredentials(dataDir) as unknown as Record<string, unknown> & { oauth: { client_secret: string }; login: { password: string } };
  const keys = nodeHostKeysFolder(dataDir);
  const vaultB64 = readFileSync(join(keys, 'vault-key'), 'utf8').trim();
  const roleUser = (name: string) => JSON.parse(Buffer.from(readFileSync(join(keys, name), 'utf8').trim(), 'base64').toString('utf8')) as { userApiKey: string };
  return {
    'vault key (base64)': vaultB64,
    'vault key (hex)': Buffer.from(vaultB64, 'base64').toString('hex'),
    'engine admin API key': String(creds.user_api_key),
    'engine cashier API key': roleUser('engine-cashier-user').userApiKey,
    'engine installer API key': roleUser('engine-installer-user').userApiKey,
    'OAuth client secret': creds.oauth.client_secret,
    'SSO encryption key': String(creds.developer_encryption_key),
    'seeded user password': creds.login.password,
  };
}

/** A manager's half refund of the first row at `amount` on the Transactions screen. */
async function refundHalf(page: Page, amount: string): Promise<void> {
  await page.keyboard.press('F3');
  await page.getByTestId('tx-row').filter({ hasText: amount }).first().getByRole('button').click();
  const detail = page.getByTestId('tx-detail');
  await detail.getByRole('button', { name: 'Half' }).click();
  await detail.getByRole('button', { name: 'Refund…' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: /^Refund \$/ }).click();
}

test('no secret crosses the IPC bridge during sign-in, a sale, a refund, a key backup and sign-out', async ({ page, app }) => {
  const frames: string[] = [];
  page.on('websocket', (ws) => {
    ws.on('framereceived', (f) => frames.push(String(f.payload)));
    ws.on('framesent', (f) => frames.push(String(f.payload)));
  });
  await openApp(page, app);
  await signIn(page, USERS.cashier);
  await ringUpKeyedSale(page, { amountDigits: '2200' });
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
  await page.keyboard.press('F8');
  await signIn(page, USERS.manager);
  await refundHalf(page, '$22.00');
  await expect(page.getByTestId('detail-done')).toContainText('Refunded $11.00');
  await page.keyboard.press('F4');
  await page.getByLabel('Passphrase', { exact: true }).fill('counter backup 2026');
  await page.getByLabel('Passphrase again').fill('counter backup 2026');
  await page.getByRole('button', { name: 'Back up the keys' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved as ringup-keys-' })).toBeVisible();
  await page.getByRole('button', { name: 'Switch user' }).click();
  await expect(page.getByRole('heading', { name: 'Who is at the counter?' })).toBeVisible();

  expect(frames.length).toBeGreaterThan(20);
  const all = frames.join('\n');
  const leaked = Object.entries(secretsOf(app.dataDir)).filter(([, value]) => value.length >= 8 && all.includes(value)).map(([name]) => name);
  expect(leaked, 'secrets seen on the IPC bridge').toEqual([]);
});

test('no gateway token, client secret or API key crosses the IPC bridge: OAuth sign-in, a sale, a refund, sign-out, an API key', async ({ page, context }) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1280, height: 1000 });
  // Results and events (received) and requests (sent), for every connection of the page, across restarts.
  const received: string[] = [];
  const sent: string[] = [];
  page.on('websocket', (ws) => {
    ws.on('framereceived', (f) => received.push(String(f.payload)));
    ws.on('framesent', (f) => sent.push(String(f.payload)));
  });
  let host = await startHostProcess();
  // Every access and refresh token this counter held, read from its secret store along the way.
  const tokens: Record<string, string> = {};
  const noteTokens = async (when: string) => {
    const stored = await openNodeHostSecretStore(host.dataDir).get('oauth-session');
    if (!stored) return;
    const t = JSON.parse(stored.toString('utf8')) as { accessToken: string; refreshToken: string };
    tokens[`OAuth access token (${when})`] = t.accessToken;
    tokens[`OAuth refresh token (${when})`] = t.refreshToken;
  };
  try {
    const engine = engineCredentials(host.dataDir) as EngineCreds & { login: EngineLogin; oauth: { client_secret: string } };
    await openApp(page, host);
    await signIn(page, USERS.manager);
    await openGatewayScreen(page);
    const browser = await startOAuthSignIn(page, context);
    await allowOnEngineLoginPage(browser, engine.login);
    await browser.close();
    await expect(page.getByRole('status').filter({ hasText: 'Signed in with OAuth as gateway user' })).toBeVisible();
    await noteTokens('after sign-in');

    // The next start signs in with the Bearer token: a cashier's sale, a manager's refund.
    await stopHostProcess(host, { keepData: true });
    host = await startHostProcess([], {}, host.dataDir);
    await openApp(page, host);
    await signIn(page, USERS.cashier);
    await ringUpKeyedSale(page, { amountDigits: '2600' });
    await expect(page.getByTestId('result-title')).toHaveText('Approved');
    await page.keyboard.press('F8');
    await signIn(page, USERS.manager);
    await refundHalf(page, '$26.00');
    await expect(page.getByTestId('detail-done')).toContainText('Refunded $13.00');
    await noteTokens('after the refund');
    await openGatewayScreen(page);
    await expect(page.getByTestId('gateway-now')).toContainText('OAuth 2.0');
    await page.getByRole('button', { name: 'Test the connection' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Connected' })).toBeVisible();
    await page.getByRole('button', { name: 'Sign out of the gateway' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Signed out: the gateway’s tokens are revoked' })).toBeVisible();
    await expect(page.getByTestId('gateway-banner')).toBeVisible();

    // A remote gateway's API key (a user of its own at the same engine), tested and saved on the Gateway screen.
    const now = engineCredentials(host.dataDir);
    const remoteKey = `remote-key-${Date.now().toString(36)}-0123456789`;
    const made = await fetch(`${now.base_url}/users`, {
      method: 'POST',
      headers: engineHeaders(now),
      body: JSON.stringify({ user: { username: `remote${Date.now().toString(36)}`, email: 'remote@example.com', last_name: 'Remote', user_type_id: 100, primary_location_id: now.location_id, password: 'Secret123', user_api_key: remoteKey } }),
    });
    expect(made.status).toBe(201);
    const remoteUser = ((await made.json()) as { user: { id: string } }).user.id;
    await page.getByRole('radio', { name: /Remote gateway/ }).click();
    await page.getByLabel('Base URL').fill(now.base_url);
    await page.getByLabel('Developer id').fill(now.developer_id);
    await page.getByLabel('User id').fill(remoteUser);
    await page.getByLabel('API key').fill(remoteKey);
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Connected: the gateway answered in' })).toBeVisible();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved. Close Ringup and start it again' })).toBeVisible();
    await openGatewayScreen(page);
    await expect(page.getByTestId('gateway-now')).toBeVisible();

    expect(Object.keys(tokens)).toHaveLength(4);
    const secrets: Record<string, string> = { ...secretsOf(host.dataDir), ...tokens, 'OAuth client secret': engine.oauth.client_secret, 'remote gateway API key': remoteKey };
    const found = (frames: string[]) => Object.entries(secrets).filter(([, v]) => v.length >= 8 && frames.some((f) => f.includes(v))).map(([name]) => name);
    expect(received.length).toBeGreaterThan(40);
    expect(found(received), 'secrets in IPC results and events').toEqual([]);
    // Requests: only the typed key, in the two requests that carry it to the core.
    const keyRequests = sent.filter((f) => f.includes(remoteKey)).map((f) => (JSON.parse(f) as { channel: string }).channel);
    expect(keyRequests.sort()).toEqual(['gateway:save', 'gateway:test']);
    expect(found(sent.filter((f) => !f.includes(remoteKey))), 'secrets in IPC requests').toEqual([]);
  } finally {
    await stopHostProcess(host);
  }
});

test('a manager backs up the keys and restores them; a wrong passphrase restores nothing', async ({ page, app }) => {
  await page.setViewportSize({ width: 1280, height: 1100 });
  await openApp(page, app);
  await signIn(page, USERS.manager);
  await page.keyboard.press('F4');
  const panel = page.getByRole('region', { name: 'Key backup' });
  await panel.getByLabel('Passphrase', { exact: true }).fill('the first passphrase');
  await panel.getByLabel('Passphrase again').fill('another passphrase!');
  await panel.getByRole('button', { name: 'Back up the keys' }).click();
  await expect(panel.getByRole('alert')).toHaveText('The two passphrases are not the same.');
  await panel.getByLabel('Passphrase', { exact: true }).fill('short');
  await panel.getByLabel('Passphrase again').fill('short');
  await panel.getByRole('button', { name: 'Back up the keys' }).click();
  await expect(panel.getByRole('alert')).toHaveText('Use a passphrase of at least 12 characters.');
  await panel.getByLabel('Passphrase', { exact: true }).fill('the first passphrase');
  await panel.getByLabel('Passphrase again').fill('the first passphrase');
  await panel.getByRole('button', { name: 'Back up the keys' }).click();
  await expect(panel.getByRole('status').filter({ hasText: 'Saved as ringup-keys-' })).toBeVisible();
  await expect(panel.getByLabel('Backup file')).toHaveValue(/^ringup-keys-/);

  await panel.getByLabel('Passphrase of the backup').fill('not the passphrase');
  await panel.getByRole('button', { name: 'Restore the keys' }).click();
  await expect(panel.getByRole('alert')).toHaveText('The passphrase is wrong, or the file was changed after it was made. Nothing was restored.');
  await shot(page, 'keys-01-wrong-passphrase');
  await expectAccessible(page, 'key backup, wrong passphrase');
  await panel.getByLabel('Passphrase of the backup').fill('the first passphrase');
  await panel.getByRole('button', { name: 'Restore the keys' }).click();
  await expect(panel.getByRole('status').filter({ hasText: 'The keys are restored.' })).toBeVisible();
  await page.keyboard.press('F9');
  await shot(page, 'keys-02-restored-dark');
  await expectAccessible(page, 'key backup, dark');
  await page.keyboard.press('F9');
});

test('a replacement register: the copied engine data waits for its keys, and the restore brings its saved card back', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 1100 });
  // The old register: a customer's saved card, and a key backup made on its System screen.
  const old = await startHostProcess();
  const oldCreds = engineCredentials(old.dataDir);
  const post = async (c: EngineCreds, path: string, body: unknown) =>
    (await fetch(`${c.base_url}${path}`, { method: 'POST', headers: engineHeaders(c), body: JSON.stringify(body) })).json() as Promise<Record<string, Record<string, unknown>>>;
  const contact = await post(oldCreds, '/contacts', { contact: { location_id: oldCreds.location_id, first_name: 'Pat', last_name: 'Moved' } });
  const vault = await post(oldCreds, '/accountvaults', { accountvault: { location_id: oldCreds.location_id, contact_id: contact.contact!.id, payment_method: 'cc', account_number: '4111111111111111', exp_date: '1239' } });
  await openApp(page, old);
  await signIn(page, USERS.manager);
  await page.keyboard.press('F4');
  const oldPanel = page.getByRole('region', { name: 'Key backup' });
  await oldPanel.getByLabel('Passphrase', { exact: true }).fill('moving registers 2026');
  await oldPanel.getByLabel('Passphrase again').fill('moving registers 2026');
  await oldPanel.getByRole('button', { name: 'Back up the keys' }).click();
  await expect(oldPanel.getByRole('status').filter({ hasText: 'Saved as ringup-keys-' })).toBeVisible();
  await stopHostProcess(old, { keepData: true });

  // The new register: the old engine folder and the backup file copied into a new data folder.
  const fresh = mkdtempSync(join(tmpdir(), 'ringup-e2e-new-'));
  cpSync(join(old.dataDir, 'gateway'), join(fresh, 'gateway'), { recursive: true });
  cpSync(join(old.dataDir, 'backups'), join(fresh, 'backups'), { recursive: true });
  rmSync(old.dataDir, { recursive: true, force: true });
  const first = await startHostProcess([], {}, fresh);
  await openApp(page, first);
  await signIn(page, USERS.manager);
  await page.keyboard.press('F4');
  const panel = page.getByRole('region', { name: 'Key backup' });
  await expect(panel.getByRole('status').filter({ hasText: 'waiting for its keys' })).toBeVisible();
  await panel.getByLabel('Passphrase of the backup').scrollIntoViewIfNeeded();
  await shot(page, 'keys-03-copied-data-waits-for-keys');
  await expectAccessible(page, 'key backup, copied data waiting');
  await panel.getByLabel('Passphrase of the backup').fill('moving registers 2026');
  await panel.getByRole('button', { name: 'Restore the keys' }).click();
  await expect(panel.getByRole('status').filter({ hasText: 'The keys are restored.' })).toBeVisible();
  await stopHostProcess(first, { keepData: true });

  // Started again: the old engine data is in place and its saved card charges with the restored key.
  const after = await startHostProcess([], {}, fresh);
  try {
    const creds = engineCredentials(after.dataDir);
    expect(creds.user_id).toBe(oldCreds.user_id);
    const sale = await post(creds, '/transactions', { transaction: { action: 'sale', payment_method: 'cc', account_vault_id: vault.accountvault!.id, transaction_amount: '7.00', location_id: creds.location_id } });
    expect(sale.transaction).toMatchObject({ status_id: 101, account_vault_id: vault.accountvault!.id });
    await openApp(page, after);
    await signIn(page, USERS.manager);
    await page.keyboard.press('F4');
    await expect(page.getByRole('region', { name: 'Key backup' }).getByText('waiting for its keys')).toHaveCount(0);
  } finally {
    await stopHostProcess(after);
  }
});

test('a copy of the data folder says it is a copy, refuses a sale in the same words, and the original still sells', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const original = await startHostProcess();
  await stopHostProcess(original, { keepData: true });
  // `cp -a` on the same computer: the copy finds the original's keys folder (same keys-id).
  const copyDir = join(mkdtempSync(join(tmpdir(), 'ringup-e2e-copy-')), 'Ringup');
  cpSync(original.dataDir, copyDir, { recursive: true, preserveTimestamps: true });
  const copy = await startHostProcess([], {}, copyDir);
  try {
    await openApp(page, copy);
    await signIn(page, USERS.manager);
    const banner = page.getByTestId('gateway-banner');
    await expect(banner).toContainText(REGISTER_COPY_MESSAGE);
    await expect(page.getByTestId('status-gateway')).toContainText('none (this data folder is a copy)');
    await ringUpKeyedSale(page, { amountDigits: '1234' });
    // The banner and the sale screen's own refusal: the same sentence twice.
    await expect(page.getByText(REGISTER_COPY_MESSAGE)).toHaveCount(2);
    await shot(page, 'keys-04-copied-data-folder');
    await expectAccessible(page, 'a copied data folder');
  } finally {
    await stopHostProcess(copy);
  }
  const again = await startHostProcess([], {}, original.dataDir);
  try {
    await openApp(page, again);
    await signIn(page, USERS.manager);
    await expect(page.getByTestId('gateway-banner')).toHaveCount(0);
    await ringUpKeyedSale(page, { amountDigits: '1234' });
    await expect(page.getByTestId('result-title')).toHaveText('Approved');
  } finally {
    await stopHostProcess(again);
  }
});
