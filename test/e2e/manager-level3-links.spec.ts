/**
 * Level 3 and the transaction detail's links, end to end: a manager adds Level 3 data to
 * a corporate Visa sale (the engine's rules shown inline as typed), meets the Mastercard
 * 98-line limit, reads why a personal card takes no Level 3, and follows the links from a
 * refund to its original sale, and from a sale to its batch and receipt.
 */
import type { Page } from '@playwright/test';
import { expect, shot, test } from './fixtures';
import { CARDS, expectAccessible, openApp, ringUpKeyedSale, signIn, USERS } from './helpers/counter';
import { L3_ERRORS } from '../../shared/payments/level3-schema';

test.describe.configure({ mode: 'serial' });

async function sell(page: Page, amountDigits: string, card: string) {
  await ringUpKeyedSale(page, { amountDigits, card });
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
  await page.getByRole('button', { name: /^New sale/ }).click();
}

async function openRow(page: Page, amount: string, lastFour: string) {
  await page.keyboard.press('F3');
  await page.getByLabel('Filter').fill(lastFour);
  await page.getByTestId('tx-row').filter({ hasText: amount }).first().getByRole('button').click();
  await expect(page.getByTestId('tx-detail')).toContainText(amount);
}

test('Level 3 on a corporate card with inline rules and limits; links to the original sale, the batch and the receipt', async ({ page, app }) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await openApp(page, app);
  await signIn(page, USERS.manager);
  await sell(page, '12345', '4005562231212149'); // Visa corporate
  await sell(page, '6789', '5405222222222226'); // Mastercard corporate
  await sell(page, '1111', CARDS.visa); // personal

  await openRow(page, '$123.45', '2149');
  const links = page.getByTestId('tx-links');
  await expect(links).toContainText(/Batch \d+ \(open\)/);
  await expect(links.getByTestId('l3-summary')).toHaveText('1 line item');
  await links.getByRole('button', { name: 'Edit Level 3 data…' }).click();
  const form = page.getByRole('dialog', { name: 'Level 3 data · Visa •••• 2149' });
  await form.getByLabel('Tax amount', { exact: true }).fill('1.005');
  await expect(form.getByText(L3_ERRORS.number(9, 2))).toBeVisible();
  await form.getByLabel('Tax amount', { exact: true }).fill('8.25');
  await expect(form.getByText(L3_ERRORS.number(9, 2))).toHaveCount(0);
  await form.getByLabel('Order date').fill('261399');
  await expect(form.getByText(L3_ERRORS.orderDate)).toBeVisible();
  await form.getByLabel('Order date').fill('261121');
  await form.getByRole('button', { name: 'Add line item' }).click();
  await form.getByLabel('Description, line 2').fill('Steel bolts');
  await form.getByLabel('Product code, line 2').fill('B-100');
  await form.getByLabel('Unit, line 2').fill('B!');
  await expect(form.getByText(L3_ERRORS.unitCode)).toBeVisible();
  await form.getByLabel('Unit, line 2').fill('BX');
  await form.getByLabel('Unit cost, line 2').fill('2.5');
  // The fields the shared schema has beyond the basics: order sales and national tax, a line's discount.
  await form.getByLabel('Sales tax', { exact: true }).fill('8.25');
  await form.getByLabel('National tax', { exact: true }).fill('1.00');
  await form.getByLabel('Discount, line 2').fill('0.50');
  await form.getByRole('button', { name: 'Save Level 3 data' }).click();
  await expect(form.getByText('Some fields need attention')).toBeVisible(); // commodity code of line 2 is required for Visa
  // The sentence says what is missing (from the shared schema), not a length rule; the field takes the focus.
  await expect(form.getByText(L3_ERRORS.commodityCodeRequired)).toBeInViewport();
  await expect(form.getByText(L3_ERRORS.text(1, 12))).toHaveCount(0);
  await expect(form.getByLabel('Commodity code, line 2')).toBeFocused();
  // The title and the actions stay in view while the fields scroll; the descriptions are not cut off.
  await expect(form.getByRole('heading', { name: 'Level 3 data · Visa •••• 2149' })).toBeInViewport();
  await expect(form.getByRole('button', { name: 'Save Level 3 data' })).toBeInViewport();
  await expect(form.getByText('Some fields need attention')).toBeInViewport();
  expect(await form.getByLabel('Description, line 1').evaluate((el: HTMLInputElement) => el.value.length > 0 && el.scrollWidth <= el.clientWidth)).toBe(true);
  await shot(page, 'manager-l3-01-visa-form-errors');
  await expectAccessible(page, 'Level 3 form');
  await form.getByLabel('Commodity code, line 2').fill('3100');
  await form.getByRole('button', { name: 'Save Level 3 data' }).click();
  await expect(form).toHaveCount(0);
  await expect(links.getByTestId('l3-summary')).toHaveText('2 line items');
  // Read back from the engine: the new fields went with the data.
  await links.getByRole('button', { name: 'Edit Level 3 data…' }).click();
  await expect(form.getByLabel('Sales tax', { exact: true })).toHaveValue('8.25');
  await expect(form.getByLabel('National tax', { exact: true })).toHaveValue('1');
  await expect(form.getByLabel('Discount, line 2')).toHaveValue('0.5');
  await form.getByRole('button', { name: 'Cancel' }).click();

  // Refund $10 and follow the refund back to its sale.
  await page.getByLabel('Refund amount ($)').fill('10.00');
  await page.getByRole('button', { name: 'Refund…' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Refund $10.00' }).click();
  await expect(page.getByTestId('detail-done')).toBeVisible();
  await expect(links.getByRole('button', { name: /^\$10\.00 refund/ })).toBeVisible();
  await links.getByRole('button', { name: /^\$10\.00 refund/ }).click();
  await expect(page.getByTestId('tx-detail')).toContainText('$10.00');
  await links.getByRole('button', { name: /^\$123\.45 sale/ }).click();
  await expect(page.getByTestId('tx-detail').locator('.detail-amount')).toHaveText('$123.45');
  await expect(page.getByTestId('detail-remaining')).toHaveText('$113.45'); // the full view, refunds counted
  await links.scrollIntoViewIfNeeded();
  await shot(page, 'manager-links-01-sale-detail');
  await expectAccessible(page, 'transaction links');
  await links.getByRole('button', { name: 'Show receipt' }).click();
  await expect(page.getByRole('dialog', { name: 'Receipt' })).toContainText('Visa •••• 2149');
  await page.getByRole('dialog', { name: 'Receipt' }).getByRole('button', { name: 'Close' }).click();

  // A personal card says why Level 3 does not apply.
  await openRow(page, '$11.11', '1111');
  await expect(links.getByTestId('l3-reason')).toHaveText(/personal card, so its card network takes no Level 3 data/);
  await shot(page, 'manager-l3-02-personal');

  // Mastercard: at most 98 line items.
  await openRow(page, '$67.89', '2226');
  await links.getByRole('button', { name: 'Edit Level 3 data…' }).click();
  const mc = page.getByRole('dialog', { name: 'Level 3 data · Mastercard •••• 2226' });
  await expect(mc.getByLabel('Debit/credit, line 1')).toHaveValue('D');
  // Mastercard's own line fields, saved and read back.
  await mc.getByLabel('Discount rate (%), line 1').fill('2.5');
  await mc.getByLabel('Alternate tax ID, line 1').fill('ALT-77');
  await mc.getByLabel('Tax type applied, line 1').fill('VAT');
  await mc.getByRole('button', { name: 'Save Level 3 data' }).click();
  await expect(mc).toHaveCount(0);
  await links.getByRole('button', { name: 'Edit Level 3 data…' }).click();
  await expect(mc.getByLabel('Alternate tax ID, line 1')).toHaveValue('ALT-77');
  await expect(mc.getByLabel('Discount rate (%), line 1')).toHaveValue('2.5');
  await expect(mc.getByLabel('Tax type applied, line 1')).toHaveValue('VAT');
  const add = mc.getByRole('button', { name: 'Add line item' });
  for (let i = 1; i < 98; i++) await add.click();
  await expect(mc.getByTestId('l3-line-count')).toHaveText('(98 of 98)');
  await expect(add).toBeDisabled();
  await expect(mc.getByRole('status')).toHaveText(L3_ERRORS.tooManyLineItemsMastercard);
  await add.scrollIntoViewIfNeeded();
  await shot(page, 'manager-l3-03-mastercard-limit');
  await mc.getByRole('button', { name: 'Cancel' }).click();

  // The batch link opens the Batches screen on that batch.
  await links.getByRole('button', { name: /^Batch \d+ \(open\)/ }).click();
  await expect(page.getByTestId('batch-title')).toHaveText(/Batch \d+ · Open/);
  expect(errors).toEqual([]);
});
