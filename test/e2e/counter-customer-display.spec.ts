/**
 * The customer display end to end (issue 23, point 4): one node host started with `--display`
 * (real core, engine and SQLite), the counter in one page and the customer display in others —
 * the address the host printed (`#token=…&view=display`), never signed in — at the customer
 * screen sizes (1024×600 light, 800×480 dark, 1920×1080 dark). The store's name idle (and its
 * change followed live); a cash sale: each line as it is added, the total, the change due, thank
 * you, then idle; a card sale: declined, the tip the customer taps on the display showing on the
 * counter, approved, thank you, idle — and never a card number or the cashier's name on the
 * display. Screenshots of each step under test/output/screenshots/display-*.png; axe at each.
 */
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { expect, shot, startHostProcess, stopHostProcess, test, type HostInfo } from './fixtures';
import { CARDS, expectAccessible, keyCardAndCharge, openApp, signIn, USERS } from './helpers/counter';
import { importCsv } from './helpers/catalogue';
import { openManageTile } from './helpers/manager';

test.describe.configure({ mode: 'serial' });

const STORE = 'Corner Café';
const CSV = 'name,price,sku,unit_code,tax_category,quick_key\nCoffee,3.50,COF,EA,standard,yes\nMuffin,2.99,MUF,EA,standard,yes\nGift card,5.00,GIF,EA,exempt,yes\n';

/** The customer screens the display is held to, each in its own browser (its own tab's token, its own theme). */
const SCREENS = [
  { name: '1024x600-light', viewport: { width: 1024, height: 600 }, theme: 'light' },
  { name: '800x480-dark', viewport: { width: 800, height: 480 }, theme: 'dark' },
  { name: '1920x1080-dark', viewport: { width: 1920, height: 1080 }, theme: 'dark' },
] as const;

let host: HostInfo & { displayUrl?: string };
let contexts: BrowserContext[] = [];
let displays: Page[] = [];
/** Script errors on the display pages: none is allowed (a crash leaves the customer a blank screen). */
const pageErrors: string[] = [];

async function openDisplays(browser: Browser): Promise<void> {
  for (const s of SCREENS) {
    const ctx = await browser.newContext({ viewport: s.viewport, colorScheme: s.theme });
    const page = await ctx.newPage();
    await page.addInitScript((t) => window.localStorage.setItem('ringup.theme', t), s.theme);
    page.on('pageerror', (e) => pageErrors.push(`${s.name}: ${e.message}`));
    await page.goto(host.displayUrl!);
    contexts.push(ctx);
    displays.push(page);
  }
}

/** Screenshots every display as it is now (`display-<step>-<screen>.png`) and runs axe on each. */
async function shootDisplays(step: string): Promise<void> {
  for (const [i, page] of displays.entries()) {
    await shot(page, `display-${step}-${SCREENS[i]!.name}`);
    await expectAccessible(page, `customer display, ${step}, ${SCREENS[i]!.name}`);
  }
}

/** Every display shows `testId` (and `text` in it, when given). */
async function allShow(testId: string, text?: string | RegExp, timeout = 5_000): Promise<void> {
  for (const page of displays) {
    const el = page.getByTestId(testId);
    await expect(el).toBeVisible({ timeout });
    if (text) await expect(el).toContainText(text);
  }
}

test.beforeAll(async ({ browser }) => {
  host = await startHostProcess(['--display']);
  await openDisplays(browser);
});
test.afterEach(() => {
  expect(pageErrors).toEqual([]);
});
test.afterAll(async () => {
  for (const c of contexts) await c.close();
  contexts = [];
  displays = [];
  await stopHostProcess(host);
});

test('the host prints the display address beside the app; idle, it shows the store name and follows its change live', async ({ page }) => {
  expect(host.displayUrl).toBe(`${host.url}&view=display`);
  await allShow('display-idle', 'Ringup Store');
  // The page never signed in: it shows no sign-in screen and no navigation.
  for (const d of displays) {
    await expect(d.getByRole('heading', { name: 'Who is at the counter?' })).toHaveCount(0);
    await expect(d.getByRole('navigation')).toHaveCount(0);
  }

  await openApp(page, host);
  await signIn(page, USERS.manager);
  await openManageTile(page, 'Store settings');
  await page.getByLabel('Store name').fill(STORE);
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Saved. Every counter window uses the new settings now.')).toBeVisible();
  await allShow('display-idle', STORE);
  await openManageTile(page, 'Catalogue');
  await importCsv(page, CSV);
  await expect(page.getByTestId('csv-result')).toContainText('Imported 3 items.');
  await shootDisplays('01-idle');
});

test('a cash sale: each line as it is added, the total, the change due, thank you, then idle', async ({ page }) => {
  await openApp(page, host);
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');
  await page.getByTestId('quick-key-COF').click();
  for (const d of displays) {
    await expect(d.getByTestId('display-line')).toHaveCount(1);
    await expect(d.getByTestId('display-line')).toContainText('Coffee');
    await expect(d.getByTestId('display-total')).toHaveText('$3.79');
  }
  await shootDisplays('02-one-line');
  await page.getByTestId('quick-key-MUF').click();
  await expect(page.getByTestId('cart-total')).toHaveText('$7.03');
  for (const d of displays) {
    await expect(d.getByTestId('display-line')).toHaveCount(2);
    await expect(d.getByTestId('display-line').nth(1)).toContainText('Muffin');
    await expect(d.getByTestId('display-line').nth(1)).toContainText('$2.99');
    await expect(d.getByTestId('display-total')).toHaveText('$7.03');
    await expect(d.getByTestId('display-with-tip')).toHaveCount(0);
    // The store asks for tips and no terminal is set up: the customer may pick one here.
    await expect(d.getByRole('group', { name: 'Add a tip?' })).toBeVisible();
  }
  await shootDisplays('03-two-lines-total');

  await page.getByLabel('Cash handed over').fill('20');
  await page.getByRole('button', { name: 'Take cash' }).click();
  await allShow('display-change', 'Change due $12.97');
  await shootDisplays('04-change-due');
  await allShow('display-thanks', 'Thank you', 10_000);
  await shootDisplays('05-thank-you');
  await allShow('display-idle', STORE, 10_000);
});

test("a card sale: declined, the customer's tip on the counter, approved, thank you, idle — no card number, no cashier on the display", async ({ page }) => {
  await openApp(page, host);
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');
  await page.getByTestId('quick-key-GIF').click(); // $5.00: the sandbox declines it
  await expect(page.getByTestId('cart-total')).toHaveText('$5.00');
  await keyCardAndCharge(page, CARDS.visa, /^Charge \$5\.00 to the card/);
  await allShow('display-declined', 'Please try another card');
  await shootDisplays('06-declined');
  await expect(page.getByTestId('cart-error').or(page.getByTestId('cart-message'))).toContainText(/declined/i);

  await page.getByTestId('quick-key-COF').click();
  await expect(page.getByTestId('cart-total')).toHaveText('$8.79', { timeout: 10_000 });
  const [first] = displays;
  await expect(first!.getByTestId('display-total')).toHaveText('$8.79', { timeout: 10_000 });
  // The customer taps 18 % (of the $8.50 before tax) on the display: the counter's tip follows, and says so.
  await first!.getByRole('button', { name: /^18%/ }).click();
  for (const d of displays) await expect(d.getByRole('button', { name: /^18%/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('cart-customer-tip')).toHaveText('The customer chose a $1.53 tip on the display.');
  await expect(page.getByRole('radio', { name: /^18%/ })).toBeChecked();
  for (const d of displays) await expect(d.getByTestId('display-with-tip')).toHaveText('$10.32');
  await shootDisplays('07-tip-picked');
  await shot(page, 'display-07-counter-sees-tip');
  await expectAccessible(page, 'counter with the customer tip');

  await keyCardAndCharge(page, CARDS.visa, /^Charge \$10\.32 to the card/);
  await allShow('display-approved', '$10.32 on your card');
  await shootDisplays('08-approved');
  for (const d of displays) {
    const text = await d.locator('body').innerText();
    expect(text).not.toMatch(/4111|1111|Casey|Morgan/);
  }
  await allShow('display-thanks', 'Thank you', 10_000);
  await allShow('display-idle', STORE, 10_000);
});
