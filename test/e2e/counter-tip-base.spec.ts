/**
 * The tip base (issue 21, point 1), end to end: node host, real engine and SQLite, the terminal
 * simulator on a real TCP port with the terminal's own percents 15/18/20. A $10.00 sale with
 * 7.5 % tax tipped 15 % gets $1.50 — 15 % of the amount before tax, the store's default — on the
 * sale screen and on the terminal alike (today's terminal took it of the taxed $10.75: $1.61).
 * A manager flips the store setting to after tax: both show $1.61. Smart tips: below the
 * threshold the sale screen and the terminal offer flat amounts instead of percents.
 */
import type { Locator, Page } from '@playwright/test';
import { TerminalSimulator } from '../../electron/devices/sim/terminal-simulator';
import { expect, shot, startHostProcess, stopHostProcess, test, type HostInfo } from './fixtures';
import { engineCredentials, engineHeaders } from './helpers/engine-api';
import { CARDS, expectAccessible, openApp, signIn, USERS } from './helpers/counter';
import { openManageTile } from './helpers/manager';

let host: HostInfo;
let sim: TerminalSimulator;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  sim = new TerminalSimulator();
  sim.script.stepMs = 20;
  const port = await sim.listenTcp(0);
  host = await startHostProcess();
  // The demo terminal at the simulator, with its own tip percents (as an installer sets them on Devices).
  const c = engineCredentials(host.dataDir);
  const v2 = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${c.base_url}${path}`, { method, headers: engineHeaders(c), ...(body ? { body: JSON.stringify(body) } : {}) });
    if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
    return (await r.json()) as Record<string, unknown>;
  };
  const terminals = (await v2('GET', `/terminals?location_id=${c.location_id}`)).terminals as Array<{ id: string }>;
  await v2('PUT', `/terminals/${terminals[0]!.id}`, {
    terminal: { communication_type: 'tcp', local_ip_address: '127.0.0.1', port, tip_percents: { percent_1: 15, percent_2: 18, percent_3: 20 } },
  });
});
test.afterAll(async () => {
  await stopHostProcess(host);
  await sim.close();
});

/** The value of the receipt's Tip line. */
const receiptTip = (page: Page): Locator => page.locator('.receipt').first().locator('div', { has: page.locator('dt', { hasText: /^Tip$/ }) }).locator('dd');

/** The manager's Store settings: 7.5 % tax, on for every new sale, and whatever `more` changes. */
async function saveSettings(page: Page, more: (page: Page) => Promise<void> = async () => undefined): Promise<void> {
  await openManageTile(page, 'Store settings');
  await page.getByLabel('Sales tax rate').fill('7.5');
  const taxOn = page.getByRole('switch', { name: 'Tax is on when a sale starts' });
  if (!(await taxOn.isChecked())) await taxOn.check();
  await more(page);
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Saved. Every counter window uses the new settings now.')).toBeVisible();
}

/** $amount typed on the sale screen, the on-screen tip choice shown, then paid on the terminal with its first tip (percent_1 / first amount). */
async function saleScreenThenTerminal(page: Page, typed: string, screenTip: { name: RegExp; shows: string }, terminalTip: string): Promise<void> {
  await page.keyboard.press('F2');
  await page.keyboard.type(typed);
  await expect(page.getByRole('radio', { name: 'Terminal' })).toHaveAttribute('aria-checked', 'true');
  // The sale screen's own tip choices: shown when the customer does not pick on the terminal.
  const onTerminal = page.getByLabel(/Customer picks the tip on the terminal/);
  await onTerminal.uncheck();
  await expect(page.getByRole('radio', { name: screenTip.name })).toContainText(screenTip.shows);
  await onTerminal.check();
  sim.script = { ...sim.script, tip: 1 };
  await page.getByTestId('pay-terminal').click();
  await expect(page.getByTestId('result-title')).toHaveText('Approved', { timeout: 20_000 });
  await expect(receiptTip(page)).toHaveText(terminalTip);
}

test('tips are taken of the amount before tax by default — on the sale screen and on the terminal — and after tax once the manager says so', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openApp(page, host);
  await signIn(page, USERS.manager);
  await saveSettings(page);
  await expect(page.getByTestId('status-terminal')).toHaveText('Terminal: Demo Terminal, connected');

  // $10.00 + 7.5 % tax: 15 % is $1.50 on the screen and on the terminal (not 15 % of $10.75 = $1.61).
  await saleScreenThenTerminal(page, '1000', { name: /^15%/, shows: '$1.50' }, '$1.50');
  await expect(page.locator('.receipt').first()).toContainText('$12.25');
  await shot(page, 'tip-base-terminal-before-tax');

  // The manager says tips are taken of the amount with tax: $1.61 on both.
  await saveSettings(page, async (p) => {
    await expect(p.getByRole('radio', { name: 'The amount before tax' })).toBeChecked();
    await p.getByRole('radio', { name: 'The amount with tax' }).check();
  });
  await page.getByText('Tips are taken of').first().evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await expectAccessible(page, 'settings (tip base, light)');
  await shot(page, 'tip-base-settings-after-tax');
  await page.keyboard.press('F9');
  await expectAccessible(page, 'settings (tip base, dark)');
  await shot(page, 'tip-base-settings-after-tax-dark');
  await page.keyboard.press('F9');
  await saleScreenThenTerminal(page, '1000', { name: /^15%/, shows: '$1.61' }, '$1.61');
  await expect(page.locator('.receipt').first()).toContainText('$12.36');
});

test('smart tips: below the threshold the sale screen and the terminal offer flat amounts, above it the percents', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 480 });
  await openApp(page, host);
  await signIn(page, USERS.manager);
  await saveSettings(page, async (p) => {
    await p.getByRole('radio', { name: 'The amount before tax' }).check();
    await p.getByRole('switch', { name: 'Smart tips: flat amounts on small sales' }).check();
    await expect(p.getByLabel('Flat amounts below ($)')).toHaveValue('10.00');
  });
  // $5.00 + tax: under $10.00, so $1 / $2 / $3 on the screen; the terminal's first choice is $1.00.
  await saleScreenThenTerminal(page, '500', { name: /^\$2\.00/, shows: '$2.00' }, '$1.00');
  await page.getByRole('button', { name: /New sale/ }).click();
  await page.keyboard.type('500');
  // The switch says what the terminal will offer: the flat amounts, not its percents.
  await expect(page.getByText('Customer picks the tip on the terminal ($1.00, $2.00, $3.00)')).toBeVisible();
  await page.getByLabel(/Customer picks the tip on the terminal/).uncheck();
  await page.getByRole('radio', { name: /^\$3\.00/ }).click();
  await expect(page.getByTestId('sale-total')).toHaveText('$8.38');
  await expectAccessible(page, 'sale screen with smart tips');
  await shot(page, 'tip-base-smart-tips-800');
  // From the threshold on, the percents again: $20.00 → 15 % = $3.00.
  await page.keyboard.press('F2');
  await page.keyboard.type('2000');
  await expect(page.getByRole('radio', { name: /^15%/ })).toContainText('$3.00');
  // No tip picked on the terminal: the receipt suggests the same tips, on the same base ($20.00 before tax).
  await page.getByLabel(/Customer picks the tip on the terminal/).check();
  sim.script = { ...sim.script, tip: 0 };
  await page.getByTestId('pay-terminal').click();
  await expect(page.getByTestId('result-title')).toHaveText('Approved', { timeout: 20_000 });
  await expect(page.getByTestId('receipt-suggested-tips').first()).toHaveText('Suggested tips: 15% $3.00 · 18% $3.60 · 20% $4.00');
  await page.getByTestId('receipt-suggested-tips').first().scrollIntoViewIfNeeded();
  await shot(page, 'tip-base-receipt-suggested-800');
});

test('a cart sale takes a tip by the same base: $1.50 chosen on the cart for a keyed card, and picked on the terminal', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await openApp(page, host);
  // The cart comes with a catalogue (one item is enough; the sale is an open amount).
  await signIn(page, USERS.manager);
  await saveSettings(page, (p) => p.getByRole('radio', { name: 'The amount before tax' }).check());
  await openManageTile(page, 'Catalogue');
  await page.getByTestId('csv-file').setInputFiles({ name: 'items.csv', mimeType: 'text/csv', buffer: Buffer.from('name,price,sku,unit_code,tax_category,quick_key\nLatte,4.50,LAT,EA,standard,yes\n') });
  await expect(page.getByTestId('csv-result')).toContainText('Imported 1 item');
  await signIn(page, USERS.cashier);
  const addTen = async () => {
    await page.keyboard.press('F2');
    await page.keyboard.type('1000');
    await page.getByRole('button', { name: 'Add $10.00 to the cart' }).click();
    await expect(page.getByTestId('cart-total')).toHaveText('$10.75');
  };

  // On screen: the cart's 15 % is of the $10.00 before tax, and rides on the keyed card.
  await addTen();
  await page.getByRole('radio', { name: /^15%/ }).click();
  await expect(page.getByRole('radio', { name: /^15%/ })).toContainText('$1.50');
  await expectAccessible(page, 'cart with a tip');
  await page.locator('.tip-picker').evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await shot(page, 'tip-base-cart-tip-1024');
  await page.getByLabel('Card number').fill(CARDS.visa);
  await page.getByLabel('Expiry').fill('12/30');
  await page.getByLabel('Security code').fill('999');
  await page.getByLabel('Billing ZIP').fill('32606');
  await page.getByRole('button', { name: 'Charge $12.25 to the card' }).click();
  await expect(page.getByRole('heading', { name: 'Paid' })).toBeVisible();
  await expect(page.getByTestId('receipt-cart-tip').first()).toHaveText('$1.50');
  await shot(page, 'tip-base-cart-paid-keyed');
  await page.getByRole('button', { name: /New sale/ }).click();

  // On the terminal: the customer picks 15 % there, of the same $10.00.
  await addTen();
  await expect(page.getByRole('radio', { name: 'No tip' })).toHaveAttribute('aria-checked', 'true'); // the last cart's tip is not carried over
  await expect(page.getByRole('switch', { name: 'Customer picks the tip on the terminal' }).or(page.getByLabel('Customer picks the tip on the terminal'))).toBeChecked();
  sim.script = { ...sim.script, tip: 1 };
  await page.getByTestId('cart-pay-terminal').click();
  await expect(page.getByRole('heading', { name: 'Paid' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('receipt-cart-tip').first()).toHaveText('$1.50');
});
