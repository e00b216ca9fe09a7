/**
 * Secrets never leave the main process (issue 11, point 6): every frame the node host's
 * WebSocket carries during a sign-in, a sale, a refund, a key backup and sign-out is
 * recorded and searched for every secret of the data folder (the vault key, the engine's
 * admin and cashier keys, the OAuth client secret, the SSO key, the seeded password).
 * Then the Key backup section as a manager uses it: a mismatch, a backup, a wrong
 * passphrase on restore, and the restore; and a replacement register, whose copied engine
 * data (sealed under the old register's keys) waits aside until the backup is restored.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeHostKeysFolder } from '../../electron/core/node-host-keys';
import { expect, shot, startHostProcess, stopHostProcess, test } from './fixtures';
import { expectAccessible, openApp, ringUpKeyedSale, signIn, USERS } from './helpers/counter';
import { engineCredentials, engineHeaders, type EngineCreds } from './helpers/engine-api';

function secretsOf(dataDir: string): Record<string, string> {
  const creds = engineCredentials(dataDir) as unknown as Record<string, unknown> & { oauth: { client_secret: string }; login: { password: string } };
  const keys = nodeHostKeysFolder(dataDir);
  const vaultB64 = readFileSync(join(keys, 'vault-key'), 'utf8').trim();
  const cashier = JSON.parse(Buffer.from(readFileSync(join(keys, 'engine-cashier-user'), 'utf8').trim(), 'base64').toString('utf8')) as { userApiKey: string };
  return {
    'vault key (base64)': vaultB64,
    'vault key (hex)': Buffer.from(vaultB64, 'base64').toString('hex'),
    'engine admin API key': String(creds.user_api_key),
    'engine cashier API key': cashier.userApiKey,
    'OAuth client secret': creds.oauth.client_secret,
    'SSO encryption key': String(creds.developer_encryption_key),
    'seeded user password': creds.login.password,
  };
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
  await page.keyboard.press('F3');
  await page.getByTestId('tx-row').filter({ hasText: '$22.00' }).first().getByRole('button').click();
  const detail = page.getByTestId('tx-detail');
  await detail.getByRole('button', { name: 'Half' }).click();
  await detail.getByRole('button', { name: 'Refund…' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: /^Refund \$/ }).click();
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
