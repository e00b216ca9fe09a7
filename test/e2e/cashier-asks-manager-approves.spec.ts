/**
 * Cashiers ask, managers approve (issue 21, point 12), end to end against the node host with
 * the real engine and SQLite. A cashier refunds part of a sale and voids another from
 * Transactions: after the confirmation the Manager approval dialog asks for a manager's PIN
 * (a wrong one is refused in the core's words, nothing moves), the manager's PIN does it, and
 * the audit log names the cashier who asked and the manager who approved. F5 and F6 say why
 * they do nothing for a cashier, and Help lists every function key with who may use it.
 */
import type { Page } from '@playwright/test';
import { expect, hostOfThisFile, shot, test } from './fixtures';
import { expectAccessible, openApp, openTransaction, ringUpKeyedSale, signIn, USERS } from './helpers/counter';
import { openManageTile } from './helpers/manager';

test.describe.configure({ mode: 'serial' });

const own = hostOfThisFile();

/** Rings up a keyed sale as the signed-in cashier and opens it in Transactions. */
async function saleInTransactions(page: Page, digits: string, shown: string): Promise<void> {
  await ringUpKeyedSale(page, { amountDigits: digits });
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
  await openTransaction(page, shown);
}

for (const theme of ['light', 'dark'] as const) {
  test(`a cashier's refund and void are approved by a manager's PIN at the counter (${theme})`, async ({ page }) => {
    await page.setViewportSize({ width: 1024, height: 768 });
    await openApp(page, own.host, { theme });
    await signIn(page, USERS.cashier);
    const cents = theme === 'light' ? ['1840', '1620'] : ['1760', '1530'];
    const shown = cents.map((c) => `$${c.slice(0, -2)}.${c.slice(-2)}`);

    // Refund $5.00 of the first sale: the cashier confirms, the manager approves with their PIN.
    await saleInTransactions(page, cents[0]!, shown[0]!);
    const detail = page.getByTestId('tx-detail');
    await expect(detail).toContainText('A manager approves refunds and voids');
    await page.getByLabel('Refund amount ($)').fill('5.00');
    await detail.getByRole('button', { name: /^Refund…/ }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Refund $5.00' }).click();
    const prompt = page.getByRole('alertdialog', { name: 'Manager approval' });
    await expect(prompt).toContainText('The cashier asks to refund $5.00 to Visa •••• 1111.');
    await prompt.getByLabel('Manager PIN').fill('9999');
    await prompt.getByLabel('Manager PIN').press('Enter');
    await expect(prompt).toContainText('That is not a manager PIN. Nothing was refunded.');
    await expect(page.getByTestId('detail-refunded')).toHaveText('$0.00');
    await shot(page, `approvals-01-refund-pin-${theme}`);
    await expectAccessible(page, `manager PIN for a cashier's refund (${theme})`);
    await prompt.getByLabel('Manager PIN').fill(USERS.manager.pin);
    await prompt.getByRole('button', { name: 'Approve and refund $5.00' }).click();
    await expect(prompt).toHaveCount(0);
    await expect(page.getByTestId('detail-done')).toHaveText('Refunded $5.00 to Visa •••• 1111.');
    await expect(page.getByTestId('detail-refunded')).toHaveText('$5.00');

    // Void the second sale the same way.
    await page.keyboard.press('F2');
    await saleInTransactions(page, cents[1]!, shown[1]!);
    await detail.getByRole('button', { name: 'Void sale…' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Void sale' }).click();
    await expect(prompt).toContainText(`The cashier asks to void this ${shown[1]} sale on Visa •••• 1111.`);
    await prompt.getByLabel('Manager PIN').fill(USERS.manager.pin);
    await prompt.getByLabel('Manager PIN').press('Enter');
    await expect(page.getByTestId('detail-done')).toHaveText('The sale was voided; the customer will not be charged.');
    await expect(detail).toContainText('Voided by');
    await expect(detail).toContainText('Morgan');
    await shot(page, `approvals-02-voided-${theme}`);
    // The window is still the cashier's.
    await expect(page.getByTestId('status-user')).toContainText('Casey');

    // Keys that do nothing for a cashier say why.
    await page.keyboard.press('F5');
    await expect(page.getByTestId('key-note')).toHaveText('Manage (F5) is for managers. Press Switch user (F8) to sign in as one.');
    await page.keyboard.press('F6');
    await expect(page.getByTestId('key-note')).toHaveText('Devices (F6) is for installers and managers. Press Switch user (F8) to sign in as one.');
    await shot(page, `approvals-03-key-note-${theme}`);
    await expectAccessible(page, `key note (${theme})`);
    await page.keyboard.press('F2');
    await expect(page.getByTestId('key-note')).toHaveCount(0);

    // Help lists every function key, each with who may use it.
    await page.keyboard.press('F1');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    for (const key of ['F1', 'F2', 'F3', 'F4', 'F5', 'F6', 'F7', 'F8', 'F9']) await expect(help.getByText(key, { exact: true })).toBeVisible();
    await expect(help).toContainText('Devices: payment terminals and check scanners (installers and managers)');
    await expect(help).toContainText('Manage: settings and back-office screens (managers)');
    await shot(page, `approvals-04-help-${theme}`);
    await expectAccessible(page, `help (${theme})`);
    await page.keyboard.press('Escape');

    // The audit log names both: the cashier who asked, the manager who approved.
    await page.keyboard.press('F8');
    await signIn(page, USERS.manager);
    await openManageTile(page, 'Audit log');
    const rows = page.getByRole('row').filter({ hasText: 'approved by Morgan with their PIN' });
    await expect(rows.filter({ hasText: 'refund of sale' }).first()).toContainText('Casey');
    await expect(rows.filter({ hasText: 'voided before settlement' }).first()).toContainText('Casey');
    await expect(rows.filter({ hasText: shown[1]! })).toHaveCount(1);
    await shot(page, `approvals-05-audit-${theme}`);
  });
}
