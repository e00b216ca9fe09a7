/**
 * Tip adjust after the authorization (issue 21, point 10b), end to end against the node host
 * with the real engine and SQLite: a cashier rings up a $20.00 card sale with no tip, then in
 * Transactions adds the tip from the signed slip. Over the gateway's tolerance the refusal is
 * read out and nothing changes; $3.00 is taken (the sale, its receipt and the gateway say
 * $23.00); lowering it to $1.00 asks for a manager's PIN. The End of day report's tips and the
 * open batch's totals carry the adjusted tip, and the audit log has each adjust.
 */
import { expect, hostOfThisFile, shot, test } from './fixtures';
import { expectAccessible, openApp, openTransaction, ringUpKeyedSale, signIn, USERS } from './helpers/counter';
import { engineCredentials, engineHeaders } from './helpers/engine-api';
import { openManageTile } from './helpers/manager';

test.describe.configure({ mode: 'serial' });

const own = hostOfThisFile();

test('the tip from the signed slip is added within the tolerance, lowered with a manager PIN, and counted in the report and batch', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await openApp(page, own.host);
  await signIn(page, USERS.cashier);
  await ringUpKeyedSale(page, { amountDigits: '2000' });
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
  const detail = await openTransaction(page, '$20.00');
  const tip = detail.getByLabel('Tip ($)');
  await expect(tip).toHaveValue('0.00');

  // Over 20 % above the approved $20.00: the gateway's refusal, word for word, and nothing changes.
  await tip.fill('5.00');
  await tip.press('Enter');
  await expect(page.getByTestId('tip-adjust-error')).toContainText('at most');
  await expect(page.getByTestId('tip-adjust-error')).toContainText('24.00');
  await expect(detail.locator('.detail-amount')).toHaveText('$20.00');
  await shot(page, 'tip-adjust-01-over-tolerance');
  await expectAccessible(page, 'tip adjust refused');

  await tip.fill('3.00');
  await detail.getByRole('button', { name: 'Adjust tip' }).click();
  await expect(page.getByTestId('tip-adjust-done')).toHaveText('Tip $0.00 → $3.00: the sale is now $23.00.');
  await expect(detail.locator('.detail-amount')).toHaveText('$23.00');
  // The receipt (printed from this detail) carries the tip and the new total.
  const receipt = detail.locator('.print-only').first();
  await expect(receipt).toContainText('Tip');
  await expect(receipt).toContainText('$3.00');
  await expect(receipt).toContainText('$23.00');
  await shot(page, 'tip-adjust-02-added');
  await page.keyboard.press('F9'); // the dark theme too
  await shot(page, 'tip-adjust-02-added-dark');
  await expectAccessible(page, 'tip added (dark)');
  await page.keyboard.press('F9');

  // Lowering it is a manager's step: the cashier asks, the manager's PIN approves.
  await tip.fill('1.00');
  await tip.press('Enter');
  const prompt = page.getByRole('alertdialog', { name: 'Manager approval' });
  await expect(prompt).toContainText('lower the tip from $3.00 to $1.00');
  await shot(page, 'tip-adjust-03-lower-asks-manager');
  await expectAccessible(page, 'tip lowered: manager approval');
  await prompt.getByLabel('Manager PIN').fill(USERS.manager.pin);
  await prompt.getByLabel('Manager PIN').press('Enter');
  await expect(page.getByTestId('tip-adjust-done')).toHaveText('Tip $3.00 → $1.00: the sale is now $21.00.');

  // The gateway's own record says the same.
  const creds = engineCredentials(own.host.dataDir);
  const res = await fetch(`${creds.base_url}/transactions?transaction_amount=21.00`, { headers: engineHeaders(creds) });
  const rows = ((await res.json()) as { transactions: Array<{ tip_amount?: string; auth_amount?: string }> }).transactions;
  expect(rows.map((r) => [r.tip_amount, r.auth_amount])).toContainEqual(['1.00', '21.00']);

  // End of day and the open batch count the adjusted tip; the audit log has both adjusts.
  await page.keyboard.press('F8');
  await signIn(page, USERS.manager);
  await openManageTile(page, 'End of day');
  await expect(page.getByTestId('report-tips')).toContainText('$1.00');
  await shot(page, 'tip-adjust-04-report');
  await openManageTile(page, 'Batches');
  await expect(page.getByText('$21.00').first()).toBeVisible();
  await openManageTile(page, 'Audit log');
  await expect(page.getByRole('row').filter({ hasText: 'tip $0.00 → $3.00; the sale is now $23.00' })).toContainText('Casey');
  await expect(page.getByRole('row').filter({ hasText: 'tip $3.00 → $1.00; the sale is now $21.00, approved by Morgan with their PIN' })).toContainText('Casey');
  await shot(page, 'tip-adjust-05-audit');
});
