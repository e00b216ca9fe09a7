/**
 * Issue 23, points 1 and 2, end to end: the printer simulator runs in this process on a real
 * TCP port (port 0), the app in the node host. A manager registers the receipt printer on
 * Devices and prints a test page; a cashier's cash sale prints its receipt by itself and opens
 * the drawer (the status bar says so); out of paper the next receipt waits ("Waiting for the
 * printer: out of paper"), and prints once, by itself, when paper is in; a manager's "No sale"
 * opens the drawer, and a drawer left open past the store's setting is flagged in the status bar.
 * The simulator's PNG of the paper receipt is kept beside the screenshots (test/output/printer).
 * Every wait is on state (the screen's words, the simulator's paper and drawer); the watcher asks
 * the printer every 3 s, so those waits allow for a few of its rounds.
 */
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PrinterSimulator } from '../../electron/devices/sim/printer-simulator';
import { DEVICE_SIMULATOR_ENV, ROOT, SCREENSHOT_DIR, expect, shot, startHostProcess, stopHostProcess, test, type HostInfo } from './fixtures';
import { managerLoadsCatalogue } from './helpers/catalogue';
import { expectAccessible, openApp, openTransaction, ringUpKeyedSale, signIn, USERS } from './helpers/counter';
import { openManageTile } from './helpers/manager';

const PAPER_DIR = join(ROOT, 'test', 'output', 'printer');
const CSV = `name,price,sku,product_code,unit_code,commodity_code,tax_category,quick_key
Latte,4.50,LAT,LAT-1,EA,4410,standard,yes
"Water, bottle",1.75,WAT,WAT-1,EA,4410,exempt,yes
`;
/** A few rounds of the printer watcher (3 s each). */
const WATCH = { timeout: 12_000 };

let host: HostInfo;
let sim: PrinterSimulator;
let port = 0;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  rmSync(PAPER_DIR, { recursive: true, force: true });
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  sim = new PrinterSimulator({ outDir: PAPER_DIR });
  port = await sim.listenTcp(0);
  host = await startHostProcess([], DEVICE_SIMULATOR_ENV);
});
test.afterAll(async () => {
  await stopHostProcess(host);
  await sim.close();
});

const receiptCount = () => sim.receipts().length;
const lastPaper = () => sim.receipts().at(-1)?.text ?? '';

test('the manager registers the receipt printer on Devices and prints a test page', async ({ page }) => {
  await openApp(page, host);
  await managerLoadsCatalogue(page, CSV);
  await page.keyboard.press('F6');
  await expect(page.getByRole('heading', { name: 'Devices' })).toBeVisible();
  await page.getByTestId('add-printer').click();
  await expect(page.getByRole('heading', { name: 'Register a receipt printer' })).toBeVisible();
  await page.getByLabel('Name').fill('Counter printer');
  await page.getByTestId('printer-host').fill('127.0.0.1');
  // A port the shop network does not use for printers is refused in words before anything is sent.
  await page.getByTestId('printer-port').fill('80');
  await page.getByTestId('printer-test').click();
  await expect(page.getByTestId('printer-message')).toContainText('A receipt printer uses port 9100');
  expect(receiptCount()).toBe(0);
  await page.getByTestId('printer-port').fill(String(port));
  await page.getByTestId('printer-test').click();
  await expect(page.getByTestId('printer-message')).toHaveText('Test page printed. Ready. The cash drawer is closed.');
  expect(lastPaper()).toContain('TEST PRINT');
  expect(lastPaper()).toContain('Counter printer');
  await page.getByTestId('printer-save').click();
  await expect(page.getByTestId('printer-message')).toHaveText('Saved.');
  await expect(page.getByRole('heading', { name: 'Receipt printer: Counter printer' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Counter printer/ })).toContainText(`127.0.0.1:${port} · 80 mm`);
  await expect(page.getByTestId('status-printer')).toHaveText('Printer: ready', WATCH);
  await expect(page.getByTestId('printer-live-status')).toHaveText('Printer now: Ready. The cash drawer is closed.');
  await expectAccessible(page, 'devices (receipt printer, light)');
  // The editor's top (its name, the printer's state now, where it is) in the picture.
  await page.getByRole('heading', { name: 'Receipt printer: Counter printer' }).evaluate((h) => h.scrollIntoView({ block: 'center' }));
  await shot(page, 'printer-01-devices-light');
  await page.keyboard.press('F9');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expectAccessible(page, 'devices (receipt printer, dark)');
  await shot(page, 'printer-02-devices-dark');
  await page.keyboard.press('F9');
});

test('a cash sale prints its receipt by itself and opens the drawer', async ({ page }) => {
  await openApp(page, host);
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');
  const before = receiptCount();
  await page.getByTestId('quick-key-LAT').click();
  await page.getByTestId('quick-key-WAT').click();
  await expect(page.getByTestId('cart-line')).toHaveCount(2);
  await page.getByTestId('cash-note-10').click();
  await expect(page.getByRole('heading', { name: 'Paid' })).toBeVisible();
  await expect(page.getByTestId('print-note')).toHaveText('Printed.');
  expect(receiptCount()).toBe(before + 1);
  for (const text of ['Latte', 'Water, bottle', 'Cashier: Casey', 'Cash tendered $10.00', 'Change', 'Customer copy']) expect(lastPaper()).toContain(text);
  await expect.poll(() => sim.kicks.length).toBe(1);
  await expect(page.getByTestId('status-drawer')).toHaveText('Drawer open', WATCH);
  await expectAccessible(page, 'paid, printed, drawer open');
  await shot(page, 'printer-03-paid-printed-drawer-open');
  // The paper itself, as the simulator rendered it.
  copyFileSync(sim.receipts().at(-1)!.png!, join(SCREENSHOT_DIR, 'printer-04-paper-cash-receipt.png'));
  sim.closeDrawer();
  await expect(page.getByTestId('status-drawer')).toHaveCount(0, WATCH);
});

test('out of paper: the receipt waits, then prints once by itself when paper is in', async ({ page }) => {
  await openApp(page, host, { theme: 'dark' });
  await signIn(page, USERS.cashier);
  sim.paper = 'out';
  await expect(page.getByTestId('status-printer')).toHaveText('Printer: out of paper', WATCH);
  await page.keyboard.press('F2');
  const before = receiptCount();
  await page.getByTestId('quick-key-LAT').click();
  await page.getByTestId('cash-exact').click();
  await expect(page.getByRole('heading', { name: 'Paid' })).toBeVisible();
  await expect(page.getByTestId('print-note')).toHaveText('Waiting for the printer: out of paper. It prints by itself when the printer is ready.');
  await expect(page.getByTestId('status-printer')).toHaveText('Printer: out of paper · 1 waiting');
  expect(receiptCount()).toBe(before);
  await expectAccessible(page, 'paid, waiting for the printer (dark)');
  await shot(page, 'printer-05-waiting-out-of-paper-dark');
  sim.paper = 'ok';
  await expect.poll(receiptCount, WATCH).toBe(before + 1);
  expect(lastPaper()).toContain('Latte');
  await expect(page.getByTestId('status-printer')).toHaveText('Printer: ready', WATCH);
  // Later rounds of the watcher print nothing again.
  sim.paper = 'near-end';
  await expect(page.getByTestId('status-printer')).toHaveText('Printer: paper low', WATCH);
  sim.paper = 'ok';
  await expect(page.getByTestId('status-printer')).toHaveText('Printer: ready', WATCH);
  expect(receiptCount()).toBe(before + 1);
});

test('"No sale" opens the drawer for a manager; left open past the store setting it is flagged', async ({ page }) => {
  await openApp(page, host);
  await signIn(page, USERS.manager);
  await openManageTile(page, 'Store settings');
  await page.getByLabel('Flag a drawer left open after').fill('10');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Saved. Every counter window uses the new settings now.')).toBeVisible();
  await page.keyboard.press('F3');
  const kicks = sim.kicks.length;
  await page.getByTestId('no-sale').click();
  await expect(page.getByTestId('no-sale-note')).toHaveText('Drawer opened.');
  await expect.poll(() => sim.kicks.length).toBe(kicks + 1);
  await expect(page.getByTestId('status-drawer')).toHaveText('Drawer open', WATCH);
  // Past 10 s the status bar says how long, as a warning (the watcher's rounds: within a few seconds after).
  await expect(page.getByTestId('status-drawer')).toHaveText(/^Drawer open 1\d s$|^Drawer open 2\d s$/, { timeout: 25_000 });
  await expectAccessible(page, 'drawer left open');
  await shot(page, 'printer-06-drawer-left-open-light');
  await page.keyboard.press('F9');
  await shot(page, 'printer-07-drawer-left-open-dark');
  await page.keyboard.press('F9');
  // The smallest counter screen keeps the drawer's warning in view (the status bar does not wrap there).
  const size = page.viewportSize();
  await page.setViewportSize({ width: 800, height: 480 });
  await expect(page.getByTestId('status-drawer')).toBeInViewport({ ratio: 1 });
  await shot(page, 'printer-08-drawer-left-open-800x480');
  if (size) await page.setViewportSize(size);
  sim.closeDrawer();
  await expect(page.getByTestId('status-drawer')).toHaveCount(0, WATCH);
  // The audit log has the No sale and the drawer left open.
  await openManageTile(page, 'Audit log');
  await expect(page.getByText('cash drawer opened with no sale').first()).toBeVisible();
  await expect(page.getByText(/the cash drawer has been open longer than 10 s/).first()).toBeVisible();
});

test('Reprint in Transactions prints a keyed sale again, with the merchant copy its signature line calls for', async ({ page }) => {
  await openApp(page, host);
  await signIn(page, USERS.cashier);
  await ringUpKeyedSale(page, { amountDigits: '1234' });
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
  const detail = await openTransaction(page, '$12.34');
  const before = receiptCount();
  await detail.getByTestId('reprint-receipt').click();
  await expect(detail.getByTestId('print-note')).toHaveText('Printed (2 copies).');
  expect(receiptCount()).toBe(before + 2);
  const [customer, merchant] = sim.receipts().slice(before).map((r) => r.text);
  expect(customer).toContain('Customer copy');
  expect(customer).not.toContain('Signature');
  expect(merchant).toContain('Merchant copy');
  expect(merchant).toContain('Signature');
  // Asked for, the merchant's copy comes too (here it is due anyway: the same two copies).
  await expect(detail.getByTestId('reprint-both-copies')).toBeVisible();
  await expectAccessible(page, 'transactions, reprinted');
  await shot(page, 'printer-09-transactions-reprinted');
  copyFileSync(sim.receipts().at(-1)!.png!, join(SCREENSHOT_DIR, 'printer-10-paper-merchant-copy.png'));
});
