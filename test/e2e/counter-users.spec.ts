/**
 * Counter users (issue 11, point 5), as a manager uses the screen: add a cashier, the
 * clear sentence for a taken name and a short PIN, a second window signed in as the new
 * cashier goes back to the sign-in screen when the manager removes them, a role change, a
 * PIN reset that lets the installer in with the new PIN (and the installer sees only
 * Devices). Its own host: it changes the users other tests sign in as.
 */
import type { Page } from '@playwright/test';
import { expect, shot, startHostProcess, stopHostProcess, test, type HostInfo } from './fixtures';
import { expectAccessible, openApp, signIn, USERS } from './helpers/counter';

let host: HostInfo;
test.beforeAll(async () => {
  host = await startHostProcess();
});
test.afterAll(async () => {
  await stopHostProcess(host);
});

async function openUsers(page: Page): Promise<void> {
  await page.keyboard.press('F5');
  await page.getByRole('button', { name: /Counter users/ }).click();
  await expect(page.getByRole('heading', { name: 'Counter users' })).toBeVisible();
}
const row = (page: Page, name: string) => page.getByTestId('counter-user').filter({ hasText: name });

test('a manager adds, re-roles, resets and removes counter users', async ({ browser }) => {
  const manager = await (await browser.newContext()).newPage();
  await manager.setViewportSize({ width: 1280, height: 900 });
  await openApp(manager, host);
  await signIn(manager, USERS.manager);
  await openUsers(manager);
  await expect(manager.getByTestId('counter-user')).toHaveCount(3);
  await expect(row(manager, 'Morgan')).toContainText('(you)');
  await expect(row(manager, 'Morgan').getByRole('button', { name: 'Remove…' })).toBeDisabled();

  // Add a cashier; a taken name and a short PIN are explained at their fields.
  await manager.getByLabel('Name').fill('casey');
  await manager.getByLabel('First PIN').fill('12');
  await manager.getByRole('button', { name: 'Add user' }).click();
  await expect(manager.getByText('A PIN is 4 to 8 digits.')).toBeVisible();
  await manager.getByLabel('First PIN').fill('5555');
  await manager.getByRole('button', { name: 'Add user' }).click();
  await expect(manager.getByText('Another counter user already has this name.')).toBeVisible();
  await shot(manager, 'users-01-add-errors');
  await manager.getByLabel('Name').fill('Riley');
  await manager.getByRole('button', { name: 'Add user' }).click();
  await expect(manager.getByRole('status').filter({ hasText: 'Riley can now sign in as cashier' })).toBeVisible();
  await expect(manager.getByTestId('counter-user')).toHaveCount(4);
  await shot(manager, 'users-02-list');
  await expectAccessible(manager, 'counter users');

  // Riley signs in at a second window; removing Riley sends that window to the sign-in screen.
  const riley = await (await browser.newContext()).newPage();
  await openApp(riley, host);
  await signIn(riley, { name: 'Riley', pin: '5555' });
  await expect(riley.getByRole('button', { name: /^Sale/ })).toBeVisible();
  await row(manager, 'Riley').getByRole('button', { name: 'Remove…' }).click();
  await expect(manager.getByRole('alertdialog')).toContainText('will no longer be able to sign in');
  await shot(manager, 'users-03-remove-confirm');
  await manager.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
  await expect(manager.getByTestId('counter-user')).toHaveCount(3);
  await expect(riley.getByRole('heading', { name: 'Who is at the counter?' })).toBeVisible();
  await expect(riley.getByRole('button', { name: /Riley/ })).toHaveCount(0);

  // A role change, and back.
  await row(manager, 'Casey').getByLabel('Role of Casey').selectOption('manager');
  await expect(row(manager, 'Casey').getByLabel('Role of Casey')).toHaveValue('manager');
  await row(manager, 'Casey').getByLabel('Role of Casey').selectOption('cashier');
  await expect(row(manager, 'Casey').getByLabel('Role of Casey')).toHaveValue('cashier');

  // Jordan forgot the PIN: a reset, and Jordan is in with the new one, on Devices only.
  await row(manager, 'Jordan').getByRole('button', { name: 'Reset PIN…' }).click();
  await manager.getByLabel('New PIN', { exact: true }).fill('1357');
  await shot(manager, 'users-04-reset-pin');
  await expectAccessible(manager, 'reset PIN dialog');
  await manager.getByRole('alertdialog').getByRole('button', { name: 'Set the PIN' }).click();
  await expect(manager.getByRole('alertdialog')).toHaveCount(0);
  await signIn(riley, { name: 'Jordan', pin: '1357' });
  await expect(riley.getByRole('button', { name: /^Devices/ })).toBeVisible();
  await expect(riley.getByRole('button', { name: /^Sale/ })).toHaveCount(0);
  await expect(riley.getByRole('button', { name: /^Transactions/ })).toHaveCount(0);
  await expect(riley.getByRole('button', { name: /^Manage/ })).toHaveCount(0);
  // Their function keys do nothing for an installer: Devices stays.
  await expect(riley.getByRole('heading', { name: 'Devices', exact: true })).toBeVisible();
  for (const key of ['F2', 'F3', 'F5']) {
    await riley.keyboard.press(key);
    await expect(riley.getByRole('heading', { name: 'Devices', exact: true })).toBeVisible();
    await expect(riley.getByRole('heading', { name: /^(New sale|Today's transactions|Manage)$/ })).toHaveCount(0);
  }

  await manager.keyboard.press('F9');
  await shot(manager, 'users-05-dark');
  await expectAccessible(manager, 'counter users, dark');
});
