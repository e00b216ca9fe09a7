/**
 * Counter trust, the money path (issue 8), end to end against the node host with the
 * real embedded engine: a new sale is always new (the $5.67 → $567,890.56 report),
 * large amounts and tips need a confirmation and the hard cap refuses, a partial
 * approval is collected with a second card or voided, only approved money is counted
 * and refundable, and receipts carry what a merchant hands over.
 */
import { expect, shot, test } from './fixtures';
import { CARDS, expectAccessible, openApp, signIn, USERS } from './helpers/counter';
import type { Page } from '@playwright/test';

test.describe.configure({ mode: 'serial' });

async function keyCard(page: Page, card: string = CARDS.visa, opts: { tap?: boolean } = {}): Promise<void> {
  if (opts.tap) await page.getByLabel('Card number').click();
  else await page.keyboard.press('Enter'); // from the amount to the card number
  await expect(page.getByLabel('Card number')).toBeFocused();
  await page.keyboard.type(card);
  await page.getByLabel('Expiry').fill('12/30');
  await page.getByLabel('Security code').fill(card === CARDS.amex ? '1234' : '999');
  await page.getByLabel('Billing ZIP').fill('32606');
}

/** Types $2.01 and keys the card: the sandbox approves $1.00 of it, and the result says "Partly approved". */
async function partlyApprovedSale(page: Page, card: string = CARDS.visa): Promise<void> {
  await page.keyboard.type('201');
  await keyCard(page, card);
  await page.getByLabel('Billing ZIP').press('Enter');
  await expect(page.getByTestId('result-title')).toHaveText('Partly approved');
}

test('F2 and the Sale tab always start a new sale: digits never append to the last amount', async ({ page, app }) => {
  await openApp(page, app);
  await signIn(page, USERS.cashier);
  const tips = page.getByRole('radiogroup', { name: 'Tip' });
  /** Nothing of the last sale is left: no amount, no tip, no card. */
  const expectEmptySale = async () => {
    await expect(page.getByTestId('sale-amount')).toContainText('$0.00');
    await expect(tips.getByRole('radio', { name: /^No tip/ })).toHaveAttribute('aria-checked', 'true');
    await expect(page.getByLabel('Card number')).toHaveValue('');
    await expect(page.getByLabel('Expiry')).toHaveValue('');
  };
  await page.keyboard.press('F2');
  await page.keyboard.type('567');
  await expect(page.getByTestId('sale-amount')).toContainText('$5.67');
  await tips.getByRole('radio', { name: /^18%/ }).click();
  await page.getByLabel('Card number').fill(CARDS.visa);
  await page.getByLabel('Expiry').fill('12/30');
  await page.keyboard.press('F3'); // the cashier looks something up …
  await expect(page.getByRole('heading', { name: "Today's transactions" })).toBeVisible();
  await page.keyboard.press('F2'); // … and comes back for the next customer
  await expectEmptySale();
  await page.keyboard.type('89056');
  await expect(page.getByTestId('sale-amount')).toContainText('$890.56'); // not $567,890.56
  // F2 on the sale screen itself starts over too, and so does the Sale tab.
  await page.keyboard.press('F2');
  await expect(page.getByTestId('sale-amount')).toContainText('$0.00');
  await page.keyboard.type('1234');
  await tips.getByRole('radio', { name: /^20%/ }).click();
  await page.getByLabel('Card number').fill(CARDS.mastercard);
  await page.getByRole('button', { name: /^Sale/ }).click();
  await expectEmptySale();
  // The result's New sale button starts from empty too.
  await page.keyboard.type('1357');
  await tips.getByRole('radio', { name: /^15%/ }).click();
  await keyCard(page, CARDS.visa, { tap: true });
  await page.getByLabel('Billing ZIP').press('Enter');
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
  await page.getByRole('button', { name: /^New sale/ }).click();
  await expect(page.getByRole('heading', { name: 'New sale' })).toBeVisible();
  await expectEmptySale();
  await shot(page, 'trust-01-new-sale-is-empty');
});

test('a large amount needs a second confirmation showing it large; above the hard cap the sale is refused', async ({ page, app }) => {
  await openApp(page, app);
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');
  await page.keyboard.type('1000001'); // $10,000.01: above the $10,000 hard cap
  await expect(page.getByText('A sale can be at most $10,000.00.', { exact: false })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Charge \$/ })).toBeDisabled();
  await shot(page, 'trust-02-hard-cap');
  await expectAccessible(page, 'hard cap');

  await page.keyboard.press('Backspace'); // $1,000.00 → not above $1,000: no question
  await page.keyboard.press('Delete');
  await page.keyboard.type('123456'); // $1,234.56: above the $1,000 threshold
  await keyCard(page);
  await page.getByLabel('Billing ZIP').press('Enter');
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('Charge this large amount?');
  await expect(dialog.getByTestId('confirm-amount')).toHaveText('$1,234.56');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused(); // Enter again does not charge
  await shot(page, 'trust-03-large-amount-confirm');
  await expectAccessible(page, 'large amount confirmation');
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('sale-result')).toHaveCount(0); // nothing charged
  await page.getByRole('button', { name: 'Charge $1,234.56' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, charge $1,234.56' }).click();
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
  await expect(page.getByTestId('receipt')).toContainText('$1,234.56');
});

test('a custom tip above half the amount needs its own confirmation; tip choices work by keyboard', async ({ page, app }) => {
  await openApp(page, app);
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');
  await page.keyboard.type('1000');
  // Keyboard: Tab into the tip choices, arrows move, digits pick the choice marked on the button.
  const tips = page.getByRole('radiogroup', { name: 'Tip' });
  await tips.getByRole('radio', { name: 'No tip' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(tips.getByRole('radio', { name: /^15%/ })).toHaveAttribute('aria-checked', 'true');
  await expect(tips.getByRole('radio', { name: /^15%/ })).toBeFocused();
  await page.keyboard.press('3');
  await expect(tips.getByRole('radio', { name: /^20%/ })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByTestId('sale-total')).toHaveText('$12.00');
  await expect(page.getByTestId('sale-amount')).toContainText('$10.00'); // the digit chose a tip, it did not type
  await shot(page, 'trust-04-tip-keys');
  await page.keyboard.press('4');
  await expect(tips.getByRole('radio', { name: 'Custom' })).toHaveAttribute('aria-checked', 'true');
  await page.getByLabel('Custom tip ($)').fill('6.00');
  await expect(page.getByTestId('sale-total')).toHaveText('$16.00');
  await keyCard(page, CARDS.visa, { tap: true });
  await page.getByLabel('Billing ZIP').press('Enter');
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('Add this large tip?');
  await expect(dialog.getByTestId('confirm-amount')).toHaveText('$6.00');
  await expect(dialog).toContainText('more than 50% of the $10.00 amount');
  await shot(page, 'trust-05-large-tip-confirm');
  await expectAccessible(page, 'large tip confirmation');
  await dialog.getByRole('button', { name: 'Yes, tip $6.00' }).click();
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
  await expect(page.getByTestId('receipt')).toContainText('$16.00');
});

test('the tip buttons show only keys that do what they say: T goes to the tips, a digit there picks, a digit at the amount types', async ({ page, app }) => {
  await openApp(page, app);
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');
  await page.keyboard.type('1000');
  const tips = page.getByRole('radiogroup', { name: 'Tip' });
  const eighteen = tips.getByRole('radio', { name: /^18%/ });
  // The amount has the keyboard: "2" would type into it ($10.00 → $100.02), so no button shows "2".
  await expect(eighteen.locator('kbd')).toBeHidden();
  await expect(page.getByTestId('tip-key-hint')).toHaveText('T');
  await page.keyboard.press('t');
  await expect(tips.getByRole('radio', { name: 'No tip' })).toBeFocused();
  await expect(eighteen.locator('kbd')).toHaveText('2');
  await expect(eighteen.locator('kbd')).toBeVisible();
  await page.keyboard.press('2');
  await expect(eighteen).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByTestId('sale-amount')).toContainText('$10.00');
  await expect(page.getByTestId('sale-total')).toHaveText('$11.80');
  await shot(page, 'trust-04b-tip-key-hints');
  await expectAccessible(page, 'tip keys shown');
  // Esc gives the keyboard back to the amount; the hints go away with it.
  await page.keyboard.press('Escape');
  await expect(eighteen.locator('kbd')).toBeHidden();
  await page.keyboard.press('5');
  await expect(page.getByTestId('sale-amount')).toContainText('$100.05');
  await expect(eighteen).toHaveAttribute('aria-checked', 'true');
});

test('a partial approval says what is left, is collected with a second card, and only approved money counts', async ({ page, app }) => {
  await openApp(page, app);
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');
  await partlyApprovedSale(page);
  await expect(page.getByTestId('result-message')).toHaveText('Only $1.00 of $2.01 was approved. $1.01 remains to collect.');
  const receipt = page.getByTestId('receipt');
  await expect(receipt.getByTestId('receipt-partial')).toContainText('$1.00');
  await expect(receipt).toContainText(/Total due\s*\$2\.01/);
  await expect(receipt).toContainText(/Still to pay\s*\$1\.01/);
  await expect(receipt).toContainText('Cashier: Casey');
  await page.keyboard.press('n'); // a partial approval is not left with one key
  await expect(page.getByTestId('result-title')).toHaveText('Partly approved');
  await shot(page, 'trust-06-partial-approval');
  await expectAccessible(page, 'partial approval');

  await page.getByRole('button', { name: 'Collect $1.01 with another card' }).click();
  await expect(page.getByRole('heading', { name: 'Collect the rest' })).toBeVisible();
  await expect(page.getByTestId('collect-rest')).toContainText('$1.00 of the $2.01 sale was approved on Visa •••• 1111');
  await expect(page.getByTestId('sale-total')).toHaveText('$1.01');
  await page.keyboard.type('9'); // the rest is a fixed amount
  await expect(page.getByTestId('sale-total')).toHaveText('$1.01');
  await shot(page, 'trust-07-collect-rest');
  await expectAccessible(page, 'collect the rest');
  await keyCard(page, CARDS.mastercard);
  await page.getByLabel('Billing ZIP').press('Enter');
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
  await expect(page.getByTestId('result-linked')).toHaveText('Paid with two cards: $1.00 on Visa •••• 1111 and $1.01 on Mastercard •••• 5454.');
  await shot(page, 'trust-08-rest-collected');

  // The list counts $1.00 for the partial sale, never the $2.01 asked.
  await page.keyboard.press('F3');
  const partialRow = page.getByTestId('tx-row').filter({ hasText: 'Partly approved' }).first();
  await expect(partialRow).toContainText('$1.00');
  await expect(partialRow).toContainText('Casey');
  await expect(page.getByTestId('tx-row').filter({ hasText: '$2.01' })).toHaveCount(0);

  // A manager may refund only what was collected.
  await page.keyboard.press('F8');
  await signIn(page, USERS.manager);
  await page.keyboard.press('F3');
  await page.getByTestId('tx-row').filter({ hasText: 'Partly approved' }).first().getByRole('button').click();
  const detail = page.getByTestId('tx-detail');
  await expect(detail).toContainText('approved of $2.01 asked');
  await expect(detail.getByTestId('refund-limit')).toHaveText('Up to $1.00 can be refunded.');
  await expect(detail.getByTestId('detail-clerk')).toHaveText('Casey');
  await page.getByLabel('Refund amount ($)').fill('2.01');
  await detail.getByRole('button', { name: /^Refund…/ }).click();
  await expect(detail.getByText('That is more than is left to refund on this sale. Up to $1.00 can be refunded.')).toBeVisible();
  await page.getByLabel('Refund amount ($)').fill('0.40');
  await page.getByLabel('Refund amount ($)').blur();
  await page.keyboard.press('r'); // R: refund, from the keyboard
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('$0.40 goes back to Visa •••• 1111. $0.60 will be left to refund.');
  await dialog.getByRole('button', { name: 'Refund $0.40' }).click();
  await expect(detail.getByTestId('refund-limit')).toHaveText('Up to $0.60 can be refunded.');
  await shot(page, 'trust-09-refund-limit');
  await expectAccessible(page, 'partial sale detail');

  // The refund's receipt names the sale and shows the amount as a refund; Find takes the Ref and the auth code.
  await page.getByTestId('tx-row').filter({ hasText: '-$0.40' }).first().getByRole('button').click();
  const refundReceipt = detail.locator('.print-only').getByTestId('receipt');
  await expect(refundReceipt).toContainText('REFUND');
  await expect(refundReceipt).toContainText(/Refund of sale\s*Ref [0-9A-F]{8}/);
  await expect(refundReceipt).toContainText(/Refund\s*-\$0\.40/);
  await expect(refundReceipt).toContainText('Cashier: Morgan');
  const saleRow = page.getByTestId('tx-row').filter({ hasText: 'Mastercard' }).first();
  await saleRow.getByRole('button').click();
  const ref = (await detail.getByTestId('detail-ref').textContent())!;
  const authCode = (await detail.getByText(/^[A-Z0-9]{6}$/).first().textContent())!;
  for (const code of [ref, authCode]) {
    await page.getByRole('button', { name: 'Find older…' }).click();
    await page.getByLabel('Ref or auth code (from the receipt)').fill(code.toLowerCase());
    await page.getByRole('button', { name: 'Find', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Search results' })).toBeVisible();
    await expect(page.getByTestId('tx-row')).toHaveCount(1);
    await expect(page.getByTestId('tx-row')).toContainText('$1.01');
    await page.getByRole('button', { name: 'Back to today' }).click();
  }
});

test('a partial approval can be voided from the result by the cashier, to start over', async ({ page, app }) => {
  await openApp(page, app);
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');
  await partlyApprovedSale(page, CARDS.amex);
  await page.getByRole('button', { name: 'Void the $1.00 and start over' }).click();
  await expect(page.getByTestId('sale-notice')).toHaveText('The partial approval of $1.00 was voided; the customer is not charged. Start the sale again.');
  await expect(page.getByTestId('sale-amount')).toContainText('$0.00');
  await shot(page, 'trust-10-partial-voided');
  await page.keyboard.press('F3');
  await page.getByRole('radio', { name: 'Voids' }).click();
  const row = page.getByTestId('tx-row').filter({ hasText: 'Amex' }).first();
  await row.getByRole('button').click();
  await expect(page.getByTestId('tx-detail')).toContainText(/Voided by\s*Casey/);
});

test('a partial approval is never walked away from silently: F2, the Sale tab and Switch user ask to void the $1.00 or keep it and collect the rest; the rest is fixed', async ({ page, app }) => {
  await openApp(page, app);
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');
  await partlyApprovedSale(page);

  // F2 on the result asks; the safe answer has the focus, and Escape keeps everything as it was.
  await page.keyboard.press('F2');
  const question = page.getByRole('alertdialog', { name: 'Void the $1.00, or keep it and collect the rest?' });
  await expect(question).toContainText('$1.00 of the $2.01 sale was approved on Visa •••• 1111. $1.01 is still to collect.');
  await expect(question.getByRole('button', { name: 'Keep it and collect the rest' })).toBeFocused();
  await shot(page, 'trust-13-partial-leave-question');
  await expectAccessible(page, 'partial approval, leave question');
  await page.keyboard.press('Escape');
  await expect(question).toHaveCount(0);
  await expect(page.getByTestId('result-title')).toHaveText('Partly approved');

  // The Sale tab asks too; Enter keeps it and goes to collecting the rest, whose amount, tip and tax are fixed.
  await page.getByRole('button', { name: /^Sale/ }).click();
  await expect(question).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Collect the rest' })).toBeVisible();
  await expect(page.getByTestId('sale-total')).toHaveText('$1.01');
  await expect(page.getByRole('radiogroup', { name: 'Tip' }).getByRole('radio', { name: /^15%/ })).toBeDisabled();
  await expect(page.getByLabel(/Sales tax/)).toBeDisabled();
  await shot(page, 'trust-14-collect-rest-fixed');
  await expectAccessible(page, 'collect the rest, fixed');

  // F2 while collecting the rest asks again; this time the cashier voids by keyboard.
  await page.keyboard.press('F2');
  await expect(question).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(question.getByRole('button', { name: 'Void the $1.00' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(question).toHaveCount(0);
  await expect(page.getByTestId('sale-notice')).toHaveText('The partial approval of $1.00 was voided; the customer is not charged. Start the sale again.');
  await expect(page.getByRole('heading', { name: 'New sale' })).toBeVisible();
  await expect(page.getByTestId('sale-amount')).toContainText('$0.00');

  // Switch user with a partial approval open asks as well; leaving it keeps it findable as partly approved.
  await partlyApprovedSale(page);
  await page.keyboard.press('F3'); // looking something up first does not lose it either
  await page.getByRole('button', { name: 'Switch user' }).click();
  await expect(question).toBeVisible();
  await expect(question).toContainText('Switching user now leaves it partly approved in Transactions, where a manager can void it.');
  await shot(page, 'trust-15-partial-switch-user');
  await expectAccessible(page, 'partial approval, switch user question');
  await question.getByRole('button', { name: 'Switch user and leave it partly approved' }).click();
  await expect(page.getByRole('heading', { name: 'Who is at the counter?' })).toBeVisible();
  await signIn(page, USERS.manager);
  await page.keyboard.press('F3');
  const row = page.getByTestId('tx-row').filter({ hasText: 'Partly approved' }).first();
  await expect(row).toContainText('$1.00');
  await expect(row).toContainText('Casey');
});

test('the receipt carries the store header, cashier, entry mode, Ref, and both copies with a signature line on the merchant copy', async ({ page, app }) => {
  await openApp(page, app);
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');
  await page.keyboard.type('4200');
  await page.getByLabel(/Sales tax/).check();
  await page.getByRole('radio', { name: /^18%/ }).click();
  await keyCard(page);
  await page.getByLabel('Billing ZIP').press('Enter');
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
  const customer = page.getByTestId('receipt');
  await expect(customer.locator('.receipt-merchant')).toHaveText('Ringup Store'); // the store name on the settings screen (never the gateway location's)
  await expect(customer).toContainText('Cashier: Casey');
  await expect(customer).toContainText(/Entry\s*Keyed/);
  await expect(customer).toContainText(/Subtotal\s*\$42\.00/);
  await expect(customer).toContainText(/Tax\s*\$3\.47/);
  await expect(customer).toContainText(/Tip\s*\$7\.56/);
  await expect(customer).toContainText(/Total\s*\$53\.03/);
  await expect(customer).toContainText(/Auth code\s*\w{6}/);
  await expect(customer.getByTestId('receipt-ref')).toHaveText(/^[0-9A-F]{8}$/);
  await expect(customer).toContainText('Customer copy');
  await expect(customer.getByTestId('receipt-signature')).toHaveCount(0);
  await page.emulateMedia({ media: 'print' });
  const merchant = page.getByTestId('receipt-merchant');
  await expect(merchant).toBeVisible();
  await expect(merchant.getByTestId('receipt-signature')).toContainText('Signature');
  await expect(merchant).toContainText('Merchant copy');
  await shot(page, 'trust-11-receipt-print-two-copies');
  await page.emulateMedia({ media: 'screen' });
  await shot(page, 'trust-12-receipt');
  expect(await page.content()).not.toContain(CARDS.visa);
});
