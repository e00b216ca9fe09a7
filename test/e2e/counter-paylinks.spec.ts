/**
 * Pay links and invoices, end to end: a cashier takes a phone order (F7), sends a pay
 * link (a mistyped e-mail is caught as typed), opens its payment page, where a bad card
 * number is answered in words and a good card pays it; the list then shows it Paid.
 * Then an invoice of two lines that may be paid in part: paid in part on its page, the
 * list shows "Partly paid" and the remaining balance, and it is sent again. Screenshots
 * of the screen (light and dark) and of both payment pages; axe on each.
 */
import { expect, shot, test } from './fixtures';
import { CARDS, expectAccessible, openApp, signIn, USERS } from './helpers/counter';
import { engineCredentials, engineHeaders } from './helpers/engine-api';

test.describe.configure({ mode: 'serial' });

test('send a pay link and an invoice from the counter, pay them on their pages, see paid and the remaining balance', async ({ page, app, context }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await openApp(page, app);
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F7');
  await expect(page.getByRole('heading', { name: 'Pay links and invoices' })).toBeVisible();

  // Pay link: the recipient rules in words, then sent.
  await page.getByLabel('Amount (empty: the customer types it)').fill('18.75');
  await page.getByLabel('What it is for').fill('Phone order 1042');
  await page.getByRole('button', { name: 'Send pay link' }).click();
  await expect(page.getByText('Type an e-mail address or a cell phone number to send it to.')).toBeVisible();
  await page.getByLabel('Customer e-mail').fill('pat@example');
  await page.getByRole('button', { name: 'Send pay link' }).click();
  await expect(page.getByText('This e-mail address does not look right.')).toBeVisible();
  await page.getByLabel('Customer e-mail').fill('pat@example.com');
  await page.getByLabel('Customer cell phone (SMS)').fill('555 555 0123');
  await page.getByRole('button', { name: 'Send pay link' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Pay link for $18.75 sent to pat@example.com · 5555550123.' })).toBeVisible();
  const row = page.getByTestId('paylink-row').filter({ hasText: 'Phone order 1042' });
  await expect(row).toContainText('Unpaid');
  await shot(page, 'counter-paylinks-01-sent');
  await expectAccessible(page, 'pay links (sent)');

  // Its payment page, in a new tab: a bad card number in words, then paid.
  const [pay] = await Promise.all([context.waitForEvent('page'), row.getByRole('link', { name: /^Payment page/ }).click()]);
  await pay.waitForLoadState();
  await expect(pay.getByText('Amount to pay: $18.75')).toBeVisible();
  await pay.getByLabel('Card number').fill(CARDS.badLuhn);
  await pay.getByLabel('Expiry (MMYY)').fill('1230');
  await pay.getByRole('button', { name: 'Pay' }).click();
  await expect(pay.getByRole('alert')).toContainText('The payment could not be made:');
  await expect(pay.locator('body')).not.toContainText(CARDS.badLuhn);
  await shot(pay, 'counter-paylinks-02-page-bad-card');
  await expectAccessible(pay, 'pay link page (bad card)');
  await pay.getByLabel('Card number').fill(CARDS.visa);
  await pay.getByLabel('Expiry (MMYY)').fill('1230');
  await pay.getByLabel('Security code (CVV)').fill('999');
  await pay.getByRole('button', { name: 'Pay' }).click();
  await expect(pay.getByRole('status')).toContainText('Payment approved: $18.75 from your card •••• 1111.');
  await shot(pay, 'counter-paylinks-03-page-paid');
  await pay.close();

  // Back at the counter: the list shows it paid.
  await page.keyboard.press('F2');
  await page.keyboard.press('F7');
  await expect(page.getByTestId('paylink-row').filter({ hasText: 'Phone order 1042' })).toContainText('Paid');
  await expect(page.getByTestId('paylink-row').filter({ hasText: 'Phone order 1042' })).not.toContainText('Unpaid');
  // A paid link is not sent again (the customer would be asked to pay twice).
  await expect(page.getByTestId('paylink-row').filter({ hasText: 'Phone order 1042' }).getByRole('button', { name: /^Send again/ })).toHaveCount(0);
  await expect(page.getByTestId('paylink-row').filter({ hasText: 'Phone order 1042' })).toContainText('Paid: nothing to send');

  // Invoice: two lines, may be paid in part.
  await page.getByRole('radio', { name: 'Invoice' }).click();
  await page.getByLabel('Invoice for').fill('Bike repair');
  await page.getByLabel('Line 1').fill('Labour');
  await page.getByLabel('Amount 1').fill('40');
  await page.getByRole('button', { name: 'Add a line' }).click();
  await page.getByLabel('Line 2').fill('Parts');
  await page.getByLabel('Amount 2').fill('12.50');
  await expect(page.getByTestId('invoice-total')).toHaveText('$52.50');
  await page.getByLabel('Customer e-mail').fill('pat@example.com');
  await page.getByText('The customer may pay part of it').click();
  await shot(page, 'counter-paylinks-04-invoice-form');
  await expectAccessible(page, 'invoice form');
  await page.getByRole('button', { name: 'Send invoice' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Invoice "Bike repair" for $52.50 sent to pat@example.com.' })).toBeVisible();
  const inv = page.getByTestId('invoice-row').filter({ hasText: 'Bike repair' });
  await expect(inv).toContainText('Unpaid');
  await expect(inv).toContainText('remaining $52.50');

  const [ipage] = await Promise.all([context.waitForEvent('page'), inv.getByRole('link', { name: /^Payment page/ }).click()]);
  await ipage.waitForLoadState();
  await expect(ipage.getByRole('heading', { name: 'Bike repair' })).toBeVisible();
  await ipage.getByLabel('Amount to pay (USD)').fill('60.00');
  await ipage.getByLabel('Card number').fill(CARDS.visa);
  await ipage.getByLabel('Expiry (MMYY)').fill('1230');
  await ipage.getByRole('button', { name: 'Pay' }).click();
  await expect(ipage.getByRole('alert')).toContainText('The amount is more than the remaining balance of $52.50.');
  await ipage.getByLabel('Amount to pay (USD)').fill('20.00');
  await ipage.getByLabel('Card number').fill(CARDS.visa);
  await ipage.getByLabel('Expiry (MMYY)').fill('1230');
  await shot(ipage, 'counter-paylinks-05-invoice-page');
  await expectAccessible(ipage, 'invoice page');
  await ipage.getByRole('button', { name: 'Pay' }).click();
  await expect(ipage.getByRole('status')).toContainText('Payment approved: $20.00');
  await expect(ipage.locator('#remaining')).toHaveText('$32.50');
  await ipage.close();

  await page.keyboard.press('F2');
  await page.keyboard.press('F7');
  const after = page.getByTestId('invoice-row').filter({ hasText: 'Bike repair' });
  await expect(after).toContainText('Partly paid');
  await expect(after).toContainText('remaining $32.50');
  await after.getByRole('button', { name: 'Send again: invoice "Bike repair"' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Invoice "Bike repair" sent again.' })).toBeVisible();
  await shot(page, 'counter-paylinks-06-list');
  await page.keyboard.press('F9');
  await shot(page, 'counter-paylinks-07-list-dark');
  await expectAccessible(page, 'pay links (dark)');
  expect(errors).toEqual([]);
});

test('a pay link that takes card or bank account: pay by bank account on its page (dark theme)', async ({ app, browser }) => {
  const c = engineCredentials(app.dataDir);
  const res = await fetch(`${c.base_url}/paylinks?expand=payment_url`, {
    method: 'POST',
    headers: engineHeaders(c),
    body: JSON.stringify({ paylink: { location_id: c.location_id, delivery_method: 0, cc_product_transaction_id: c.cc_product_transaction_id, ach_product_transaction_id: c.ach_product_transaction_id, description: 'Deposit' } }),
  });
  const pl = (await res.json()).paylink;
  const ctx = await browser.newContext({ colorScheme: 'dark' });
  const pay = await ctx.newPage();
  await pay.goto(pl.payment_url);
  await pay.getByRole('radio', { name: 'Bank account' }).check();
  await pay.getByLabel('Amount to pay (USD)').fill('35.00');
  await pay.getByLabel('Account holder name').fill('Pat Doe');
  await pay.getByLabel('Routing number').fill('072000326');
  await pay.getByLabel('Account number').fill('123456789');
  await shot(pay, 'counter-paylinks-08-page-bank-dark');
  await expectAccessible(pay, 'pay link page (card or bank, dark)');
  await pay.getByRole('button', { name: 'Pay' }).click();
  await expect(pay.getByRole('status')).toContainText('Payment approved: $35.00 from your bank account •••• 6789.');
  await ctx.close();
});

test('a pay link approved in part (1.00 of 2.01) reads "Partly paid" with the rest to collect, and can still be sent', async ({ page, app, context }) => {
  await openApp(page, app);
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F7');
  await page.getByLabel('Amount (empty: the customer types it)').fill('2.01');
  await page.getByLabel('What it is for').fill('Deposit 77');
  await page.getByLabel('Customer e-mail').fill('pat@example.com');
  await page.getByRole('button', { name: 'Send pay link' }).click();
  const row = page.getByTestId('paylink-row').filter({ hasText: 'Deposit 77' });
  await expect(row).toContainText('Unpaid');

  // The sandbox approves 1.00 of 2.01; the page says what is left and keeps asking for it.
  const [pay] = await Promise.all([context.waitForEvent('page'), row.getByRole('link', { name: /^Payment page/ }).click()]);
  await pay.waitForLoadState();
  await pay.getByLabel('Card number').fill(CARDS.visa);
  await pay.getByLabel('Expiry (MMYY)').fill('1230');
  await pay.getByLabel('Security code (CVV)').fill('999');
  await pay.getByRole('button', { name: 'Pay' }).click();
  await expect(pay.locator('body')).toContainText('$1.01 remains to be paid');
  await pay.close();

  await page.keyboard.press('F2');
  await page.keyboard.press('F7');
  const after = page.getByTestId('paylink-row').filter({ hasText: 'Deposit 77' });
  await expect(after).toContainText('Partly paid');
  await expect(after).toContainText('remaining $1.01');
  // The rest is still to be collected, so the link may be sent again.
  await expect(after.getByRole('button', { name: /^Send again/ })).toHaveCount(1);
  await shot(page, 'counter-paylinks-09-partly-paid');
  await expectAccessible(page, 'pay links (partly paid)');
});
