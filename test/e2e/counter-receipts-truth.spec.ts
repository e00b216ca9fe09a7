/**
 * Receipts tell the truth (issue 21 point 5), end to end on the node host with the real
 * engine, a real local SMTP server and the terminal simulator on a real TCP port:
 * - a cart's receipt shows when it was paid, not when the cart was started;
 * - the receipt of "collect the rest" after a partial approval is of the whole sale, with
 *   every card and what each paid;
 * - the refund of a chip sale says Chip, not Keyed;
 * - "Receipt sent" is said once the mail server took the e-mail (and it arrived).
 * (Without a mail server the counter says the receipt waits and why: counter-sale.spec.ts.)
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { TerminalSimulator } from '../../electron/devices/sim/terminal-simulator';
import { startMailCatcher, type MailCatcher } from '../helpers/mail-catcher';
import { expect, shot, startHostProcess, stopHostProcess, test, type HostInfo } from './fixtures';
import { engineCredentials, engineHeaders } from './helpers/engine-api';
import { CARDS, expectAccessible, openApp, signIn, USERS } from './helpers/counter';
import { managerLoadsCatalogue } from './helpers/catalogue';

let host: HostInfo;
let sim: TerminalSimulator;
let smtp: MailCatcher;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  smtp = await startMailCatcher();
  sim = new TerminalSimulator();
  sim.script.stepMs = 40;
  const simPort = await sim.listenTcp(0);
  host = await startHostProcess([], { RINGUP_SMTP_URL: smtp.url });
  // The demo terminal at the simulator, as an integrator would set it through the v2 API.
  const c = engineCredentials(host.dataDir);
  const headers = engineHeaders(c);
  const terminals = (await (await fetch(`${c.base_url}/terminals?location_id=${c.location_id}`, { headers })).json()) as { terminals: Array<{ id: string }> };
  const put = await fetch(`${c.base_url}/terminals/${terminals.terminals[0]!.id}`, { method: 'PUT', headers, body: JSON.stringify({ terminal: { communication_type: 'tcp', local_ip_address: '127.0.0.1', port: simPort } }) });
  expect(put.status).toBe(200);
});
test.afterAll(async () => {
  await stopHostProcess(host);
  await sim.close();
  await smtp.close();
});

/** A date and time as the counter's browser writes it on a receipt (its locale and time zone). */
const asReceiptTime = (page: Page, ms: number) => page.evaluate((t) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(t), ms);

/** Keys the card (the terminal is this counter's first way to pay: the Key card tab first, when it is not open). */
async function keyCard(page: Page, card: string): Promise<void> {
  const keyTab = page.getByRole('radio', { name: 'Key card' });
  if (await keyTab.isVisible()) await keyTab.click();
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiry').fill('12/30');
  await page.getByLabel('Security code').fill('999');
  await page.getByLabel('Billing ZIP').fill('32606');
  await page.getByLabel('Billing ZIP').press('Enter');
}

test("a cart's receipt shows when it was paid, not when the cart was started", async ({ page }) => {
  await openApp(page, host);
  await managerLoadsCatalogue(page, 'name,price,sku,unit_code,tax_category,quick_key\nMug,8.00,MUG,EA,exempt,yes\n');
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');
  await page.getByTestId('quick-key-MUG').click();
  await expect(page.getByTestId('cart-line')).toHaveCount(1);
  // The cart was started three days ago (a tab left open): moved back in the app's own database.
  const db = new Database(join(host.dataDir, 'ringup.db'));
  try {
    expect(db.prepare("UPDATE carts SET created_ts = created_ts - 3 * 86400000 WHERE status = 'open' AND id IN (SELECT cart_id FROM cart_lines)").run().changes).toBe(1);
  } finally {
    db.close();
  }
  await page.getByLabel('Cash handed over').fill('8');
  await page.getByRole('button', { name: 'Take cash' }).click();
  const receipt = page.getByTestId('cart-receipt');
  await expect(receipt).toContainText('Mug');
  const times = new Database(join(host.dataDir, 'ringup.db'), { readonly: true });
  const row = times.prepare("SELECT created_ts, closed_ts FROM carts WHERE status = 'paid'").get() as { created_ts: number; closed_ts: number };
  times.close();
  const paid = await asReceiptTime(page, row.closed_ts);
  const started = await asReceiptTime(page, row.created_ts);
  expect(paid).not.toBe(started);
  await expect(receipt.locator('.receipt-head')).toContainText(paid);
  await expect(receipt.locator('.receipt-head')).not.toContainText(started);
  await shot(page, 'truth-03-cart-receipt-paid-time');
});

test('"collect the rest" after a partial approval: the receipt is of the whole sale, every card and what each paid', async ({ page }) => {
  await openApp(page, host);
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');
  await page.keyboard.type('201'); // the sandbox approves $1.00 of $2.01
  await keyCard(page, CARDS.visa);
  await expect(page.getByTestId('result-title')).toHaveText('Partly approved');
  await page.getByRole('button', { name: 'Collect $1.01 with another card' }).click();
  await keyCard(page, CARDS.mastercard);
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
  const receipt = page.getByTestId('receipt');
  await expect(receipt.getByTestId('receipt-sale-total')).toHaveText(/Total\s*\$2\.01/);
  const cards = receipt.getByTestId('receipt-card');
  await expect(cards).toHaveCount(2);
  await expect(cards.nth(0)).toHaveText(/Visa •••• 1111\s*\$1\.00/);
  await expect(cards.nth(1)).toHaveText(/Mastercard •••• 5454\s*\$1\.01/);
  await expect(receipt.getByTestId('receipt-ref')).toHaveCount(2); // each card's Ref, to find either
  await shot(page, 'truth-04-collect-rest-receipt');
  await expectAccessible(page, 'collect the rest receipt');
});

test('the refund of a chip sale says Chip, not Keyed', async ({ page }) => {
  await openApp(page, host);
  await signIn(page, USERS.manager);
  await expect(page.getByTestId('status-terminal')).toHaveText('Terminal: Demo Terminal, connected');
  await page.keyboard.press('F2');
  await page.keyboard.type('1734');
  const tipOnTerminal = page.getByLabel(/Customer picks the tip on the terminal/);
  if (await tipOnTerminal.isVisible()) await tipOnTerminal.uncheck();
  await page.getByTestId('pay-terminal').click();
  await expect(page.getByTestId('result-title')).toHaveText('Approved', { timeout: 20_000 });
  await expect(page.getByTestId('receipt')).toContainText(/Entry\s*Chip/);
  await page.keyboard.press('F3');
  await page.getByTestId('tx-row').filter({ hasText: '$17.34' }).getByRole('button').click();
  const detail = page.getByTestId('tx-detail');
  await detail.getByRole('button', { name: 'Refund…' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Refund $17.34' }).click();
  await expect(page.getByTestId('detail-done')).toContainText('Refunded $17.34');
  await page.getByTestId('tx-row').filter({ hasText: '-$17.34' }).getByRole('button').click();
  const refund = page.getByTestId('receipt');
  await expect(refund).toContainText('REFUND');
  await expect(refund).toContainText(/Entry\s*Chip/);
  // The detail keeps its receipt for print: looked at as printed.
  await page.emulateMedia({ media: 'print' });
  await shot(page, 'truth-05-chip-refund-receipt');
  await page.emulateMedia({ media: 'screen' });
});

test('"Receipt sent" is said once the mail server took the e-mail', async ({ page }) => {
  await openApp(page, host);
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');
  await page.keyboard.type('1250');
  await keyCard(page, CARDS.visa);
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
  const before = smtp.mails.length;
  await page.getByLabel('E-mail the receipt').fill('pat.customer@example.com');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('email-receipt-status')).toHaveText('Receipt sent to pat.customer@example.com.');
  expect(smtp.mails.length).toBe(before + 1); // it had arrived when the screen said so
  expect(smtp.mails.at(-1)).toContain('pat.customer@example.com');
  await shot(page, 'truth-06-receipt-sent');
});
