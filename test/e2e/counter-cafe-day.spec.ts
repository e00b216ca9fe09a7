/**
 * A café's day (issue 21), end to end on the node host with the real engine and real SQLite, once
 * at each counter screen size: 1280×800, 1024×768, 768×1024 and 800×480. The manager sets 7.5 %
 * tax (tips stay on the amount before tax, the default) and loads three items; the cashier scans
 * and taps items, gives 10 % off, takes a 15 % tip on a card, sells for cash with change, splits a
 * sale over two cards, collects the rest of a partial approval in cash, has a refund approved by
 * the manager's PIN at the counter and adds the tip from a signed slip; a customer pays a pay link;
 * the manager closes the day. The Z report is then summed three ways — against the receipts as
 * printed during the day, against the gateway's own records (its SQLite file) and the drawer's
 * (the app's database) — and every figure must agree to the cent. At each size the ticket's total
 * and its Charge button are in view without scrolling.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, shot, startHostProcess, stopHostProcess, test } from './fixtures';
import { importCsv } from './helpers/catalogue';
import { CARDS, COUNTER_SIZES, expectAccessible, keyCardAndCharge, openApp, openTransaction, ringUpKeyedSale, signIn, USERS } from './helpers/counter';
import { centsOf, recordSums, screenTotals } from './helpers/day-sums';
import { openManageTile } from './helpers/manager';
import { scan } from './helpers/wedge-scanner';

const STORE = 'Harbor Café';
const LATTE_BARCODE = '4006381333931';
const CSV = `name,price,sku,tax_category,quick_key
Latte,4.50,${LATTE_BARCODE},standard,yes
Muffin,2.99,MUF,standard,yes
"Beans, 1 lb",12.99,BEA,exempt,yes
`;

/** What the customers' receipts said, summed as an accountant would from the paper. */
interface Paper {
  sales: number;
  tax: number;
  tips: number;
  refunds: number;
}

/** The element's box lies inside the window: seen without scrolling. */
async function expectInView(page: Page, el: Locator, what: string): Promise<void> {
  const box = await el.boundingBox();
  const vp = page.viewportSize()!;
  expect(box, `${what} is on the screen`).not.toBeNull();
  expect(box!.y, `${what} starts inside the window`).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height, `${what} ends inside the window (${vp.width}×${vp.height})`).toBeLessThanOrEqual(vp.height);
}

/** The ticket's total and its Charge button, seen without scrolling, showing `total`. */
async function expectTicketInView(page: Page, total: string): Promise<void> {
  await expect(page.getByTestId('cart-total')).toHaveText(total);
  await expectInView(page, page.getByTestId('cart-total'), 'the total');
  await expectInView(page, page.getByRole('button', { name: `Charge ${total}`, exact: true }), 'Charge');
}

/** A dd beside a dt of this text, in `scope`. */
const valueOf = (scope: Locator, label: string | RegExp): Locator => scope.locator('div', { has: scope.page().locator('dt', { hasText: label }) }).locator('dd');

/** The paid cart's receipt, added to the paper: its total, its tax and the tips on its cards. */
async function addCartReceipt(page: Page, paper: Paper): Promise<void> {
  const receipt = page.getByTestId('cart-receipt');
  await expect(receipt).toBeVisible();
  paper.sales += centsOf(await receipt.getByTestId('receipt-total').textContent());
  const tax = valueOf(receipt, /^Sales tax/);
  if ((await tax.count()) > 0) paper.tax += centsOf(await tax.first().textContent());
  for (const tip of await receipt.getByTestId('receipt-cart-tip').all()) paper.tips += centsOf(await tip.textContent());
}

async function managerSetsUp(page: Page): Promise<void> {
  await signIn(page, USERS.manager);
  await openManageTile(page, 'Store settings');
  await page.getByLabel('Store name').fill(STORE);
  await page.getByLabel('Sales tax rate').fill('7.5');
  await expect(page.getByRole('radio', { name: 'The amount before tax' })).toBeChecked();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Saved. Every counter window uses the new settings now.')).toBeVisible();
  await openManageTile(page, 'Catalogue');
  await importCsv(page, CSV);
  await expect(page.getByTestId('csv-result')).toContainText('Imported 3 items.');
}

/** Two lattes scanned and a muffin tapped, 10 % off, 15 % tip before tax, on a keyed card. */
async function scannedDiscountedTipped(page: Page, paper: Paper, size: string): Promise<void> {
  await page.keyboard.press('F2');
  // The scanner listens once the catalogue is on the screen (its keys would otherwise be an amount typed).
  await expect(page.getByTestId('quick-key-' + LATTE_BARCODE)).toBeVisible();
  await scan(page, LATTE_BARCODE);
  await expect(page.getByTestId('scan-note')).toHaveText('Scanned: Latte added.');
  await scan(page, LATTE_BARCODE);
  await page.getByTestId('quick-key-MUF').click();
  // 2 × 4.50 + 2.99 = 11.99 → 7.5 % tax 0.90 (0.89925 rounds up) → 12.89
  await expectTicketInView(page, '$12.89');
  await page.getByRole('radio', { name: '% off' }).click();
  await page.getByLabel('Percent off').fill('10');
  await expect(page.getByText('10% off the whole sale ($11.99): −$1.20')).toBeVisible();
  await page.getByRole('button', { name: 'Apply' }).click();
  // 11.99 − 1.20 = 10.79; tax 7.5 % = 0.81 (0.80925); total 11.60
  await expectTicketInView(page, '$11.60');
  // The status bar says everything it has, nothing cut at the window's edge.
  expect(await page.getByRole('contentinfo', { name: 'Status' }).evaluate((el) => el.scrollWidth - el.clientWidth), 'the status bar is cut').toBeLessThanOrEqual(0);
  await shot(page, `cafe-01-ticket-${size}`);
  await expectAccessible(page, `the café's ticket at ${size}`);
  await page.getByRole('button', { name: 'Charge $11.60', exact: true }).click();
  // 15 % of the 10.79 before tax = 1.62 (1.6185), never of the 11.60 with it (1.74).
  await page.getByRole('radio', { name: /^15%/ }).click();
  await expect(page.getByRole('radio', { name: /^15%/ })).toContainText('$1.62');
  await keyCardAndCharge(page, CARDS.visa, 'Charge $13.22 to the card');
  await expect(page.getByRole('heading', { name: 'Paid' })).toBeVisible();
  await expect(page.getByTestId('cart-receipt').getByTestId('receipt-cart-tip')).toHaveText('$1.62');
  await expect(page.getByTestId('cart-receipt').getByTestId('receipt-cart-charged')).toHaveText('$13.22');
  await expect(valueOf(page.getByTestId('cart-receipt'), 'Sale discount')).toHaveText('−$1.20');
  await addCartReceipt(page, paper);
  await shot(page, `cafe-02-paid-tipped-${size}`);
  await page.getByRole('button', { name: /^New sale/ }).click();
}

/** A muffin (taxed) and beans (exempt) for a $20 note. */
async function cashWithChange(page: Page, paper: Paper): Promise<void> {
  await page.getByTestId('quick-key-MUF').click();
  await page.getByTestId('quick-key-BEA').click();
  // 2.99 + 12.99; tax only on the muffin: 0.22 (0.22425) → 16.20
  await expectTicketInView(page, '$16.20');
  await page.getByTestId('cash-note-20').click();
  await expect(page.getByTestId('change-due')).toContainText('$3.80');
  await addCartReceipt(page, paper);
  await page.getByRole('button', { name: /^New sale/ }).click();
}

/** Three lattes on two cards: the tax shares on the two receipts add up to the sale's tax. */
async function splitOverTwoCards(page: Page, paper: Paper): Promise<void> {
  for (let i = 0; i < 3; i++) await page.getByTestId('quick-key-' + LATTE_BARCODE).click();
  // 13.50 + 1.01 (1.0125) = 14.51
  await expectTicketInView(page, '$14.51');
  await page.getByRole('button', { name: 'Charge $14.51', exact: true }).click();
  await page.getByLabel('Amount on this card (blank: all of it)').fill('7');
  await keyCardAndCharge(page, CARDS.visa, 'Charge $7.00 to the card');
  await expect(page.getByTestId('cart-balance')).toHaveText('$7.51');
  await keyCardAndCharge(page, CARDS.visa, 'Charge $7.51 to the card');
  await expect(page.getByRole('heading', { name: 'Paid' })).toBeVisible();
  const shares = await page.getByTestId('cart-receipt').getByTestId('receipt-tender-tax').allTextContents();
  expect(shares).toHaveLength(2);
  expect(shares.map(centsOf).reduce((a, b) => a + b, 0)).toBe(101);
  await addCartReceipt(page, paper);
  await page.getByRole('button', { name: /^New sale/ }).click();
}

/** $2.01 keyed: the sandbox approves $1.00; the rest is collected in cash. */
async function partialThenCash(page: Page, paper: Paper): Promise<void> {
  await ringUpKeyedSale(page, { amountDigits: '201' });
  await expect(page.getByText('Only $1.00 of $2.01 was approved.', { exact: false })).toBeVisible();
  await page.getByRole('button', { name: 'Collect $1.01 in cash' }).click();
  await expect(page.getByTestId('cart-balance')).toHaveText('$1.01');
  await page.getByTestId('cash-note-5').click();
  await expect(page.getByTestId('change-due')).toContainText('$3.99');
  await addCartReceipt(page, paper);
  await page.getByRole('button', { name: /^New sale/ }).click();
}

/** The cashier refunds $2.00 of the $7.00 card; the manager approves it with their PIN at the counter. */
async function refundApprovedByManager(page: Page, paper: Paper): Promise<void> {
  const detail = await openTransaction(page, '$7.00');
  await page.getByLabel('Refund amount ($)').fill('2.00');
  await detail.getByRole('button', { name: /^Refund…/ }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Refund $2.00' }).click();
  const prompt = page.getByRole('alertdialog', { name: 'Manager approval' });
  await prompt.getByLabel('Manager PIN').fill(USERS.manager.pin);
  await prompt.getByRole('button', { name: 'Approve and refund $2.00' }).click();
  await expect(page.getByTestId('detail-done')).toHaveText('Refunded $2.00 to Visa •••• 1111.');
  paper.refunds += 200;
}

/** A $20.00 keyed sale, then the $3.00 from its signed slip added in Transactions. */
async function tipFromTheSlip(page: Page, paper: Paper): Promise<void> {
  await ringUpKeyedSale(page, { amountDigits: '2000', tip: 'No tip' });
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
  const detail = await openTransaction(page, '$20.00');
  await detail.getByLabel('Tip ($)').fill('3.00');
  await detail.getByRole('button', { name: 'Adjust tip' }).click();
  await expect(page.getByTestId('tip-adjust-done')).toHaveText('Tip $0.00 → $3.00: the sale is now $23.00.');
  await expect(detail.locator('.detail-amount')).toHaveText('$23.00');
  // The receipt printed from the detail carries the tip and the new total.
  const receipt = detail.locator('.print-only').getByTestId('receipt');
  await expect(valueOf(receipt, /^Tip$/)).toHaveText('$3.00');
  paper.sales += 2000;
  paper.tips += centsOf(await valueOf(receipt, /^Tip$/).textContent());
}

/** The manager sends a $18.75 pay link; the customer pays it on its page, which carries the store's name. */
async function payLinkPaid(page: Page, paper: Paper): Promise<void> {
  await signIn(page, USERS.manager);
  await page.keyboard.press('F7');
  await expect(page.getByRole('heading', { name: 'Pay links and invoices' })).toBeVisible();
  await page.getByLabel('Amount (empty: the customer types it)').fill('18.75');
  await page.getByLabel('What it is for').fill('Catering order 7');
  await page.getByLabel('Customer e-mail').fill('pat@example.com');
  await page.getByRole('button', { name: 'Send pay link' }).click();
  const row = page.getByTestId('paylink-row').filter({ hasText: 'Catering order 7' });
  const href = (await row.getByRole('link', { name: /^Payment page/ }).getAttribute('href'))!;
  const pay = await page.context().newPage();
  await pay.setViewportSize(page.viewportSize()!);
  await pay.goto(href);
  await expect(pay.locator('body')).toContainText(STORE);
  await expect(pay.getByText('Amount to pay: $18.75')).toBeVisible();
  await pay.getByLabel('Card number').fill(CARDS.visa);
  await pay.getByLabel('Expiry (MMYY)').fill('1230');
  await pay.getByLabel('Security code (CVV)').fill('999');
  await pay.getByRole('button', { name: 'Pay' }).click();
  await expect(pay.getByRole('status')).toContainText('Payment approved: $18.75 from your card •••• 1111.');
  await pay.close();
  paper.sales += 1875;
}

test.describe.configure({ mode: 'serial' });

for (const size of COUNTER_SIZES) {
  const label = `${size.width}x${size.height}`;
  test(`a café's day at ${label}: the Z report, the receipts and the records agree to the cent`, async ({ page }) => {
    test.setTimeout(240_000);
    const app = await startHostProcess();
    try {
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.setViewportSize(size);
      await openApp(page, app);
      const paper: Paper = { sales: 0, tax: 0, tips: 0, refunds: 0 };
      await managerSetsUp(page);

      await signIn(page, USERS.cashier);
      await scannedDiscountedTipped(page, paper, label);
      await cashWithChange(page, paper);
      await splitOverTwoCards(page, paper);
      await partialThenCash(page, paper);
      await refundApprovedByManager(page, paper);
      await tipFromTheSlip(page, paper);
      await payLinkPaid(page, paper);

      // The paper: 13.22 + 16.20 + 14.51 + 2.01 + 23.00 + 18.75 taken; tax 0.81 + 0.22 + 1.01; tips 1.62 + 3.00.
      expect(paper).toEqual({ sales: 1160 + 1620 + 1451 + 201 + 2000 + 1875, tax: 81 + 22 + 101, tips: 162 + 300, refunds: 200 });

      await openManageTile(page, 'End of day');
      await expect(page.getByRole('heading', { name: 'X report — the day so far' })).toBeVisible();
      // The Z report ends the second before it is taken: the day's last payment must be in an earlier second.
      await page.waitForTimeout(1100);
      await page.getByRole('button', { name: 'Close the day (Z report)' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Close the day' }).click();
      await expect(page.getByRole('heading', { name: 'Z report 1 — day closed' })).toBeVisible();
      // Closed: the report is what the manager sees next, whatever the screen's shape.
      await expect.poll(async () => (await page.getByRole('heading', { name: 'Z report 1 — day closed' }).boundingBox())?.y ?? -1).toBeLessThan(size.height * 0.6);
      await expectInView(page, page.getByRole('heading', { name: 'Z report 1 — day closed' }), 'the Z report');
      const z = await screenTotals(page);
      const rec = recordSums(app);
      // The Z against the paper: sales include the tips paid on cards.
      expect({ sales: z.sales, tax: z.tax, tips: z.tips, refunds: z.cardRefunds + z.cashRefunds, net: z.net }).toEqual({
        sales: paper.sales + paper.tips,
        tax: paper.tax,
        tips: paper.tips,
        refunds: paper.refunds,
        net: paper.sales + paper.tips - paper.refunds,
      });
      // The Z against the records: the gateway's approved card money and the drawer's cash.
      expect(z).toEqual({
        cardSales: rec.cardSales,
        cashSales: rec.cashIn,
        sales: rec.cardSales + rec.cashIn,
        cardRefunds: rec.cardRefunds,
        cashRefunds: rec.cashOut,
        net: rec.cardSales + rec.cashIn - rec.cardRefunds - rec.cashOut,
        tax: rec.cardTax + rec.cashTax,
        tips: rec.tips,
      });
      await shot(page, `cafe-03-z-report-${label}`);
      await expectAccessible(page, `the café's Z report at ${label}`);
      expect(errors).toEqual([]);
    } finally {
      await stopHostProcess(app);
    }
  });
}
