/**
 * A café's morning, end to end (issue 23, "Done when"): one node host started with `--display`
 * (real core, engine and SQLite), Chromium pages for the counter and for the customer display,
 * the receipt printer simulator on a real TCP port (port 0) in this process, and the serial
 * barcode scanner simulator on one end of a socat pseudo-terminal, the host's core on the other.
 *
 * 1. The manager names the store and imports the whole catalogue as ONE CSV in the export's own
 *    format (catalogue-csv.ts): categories Coffee and Drinks with colours; a latte in two sizes
 *    (each its own SKU) asking for a milk (required) and up to two extras; a bottle of water with
 *    a barcode, counted, 12 on hand — set by the import's `stock` cell (the format allows it:
 *    written to the stock ledger as a count, "CSV import"); a muffin. The installer registers
 *    the receipt printer (the simulator) and the serial barcode scanner on Devices.
 * 2. The cashier taps the Coffee tab, the latte, picks Large + Oat + Extra shot, Add, and scans
 *    the water on the serial scanner; the customer display shows each line and the total.
 * 3. Cash, a $20 note: the change on the counter and on the display, the drawer kicked open on
 *    the simulator (the status bar says so, and follows it closed again), the receipt printed by
 *    itself on the simulator (its text asserted, its PNG kept beside the screenshots).
 * 4. A card sale (the helpers' keyed test Visa) of a muffin and a small latte with whole milk,
 *    followed on the display to "Approved".
 * 5. The manager's stock: the water went from 12 to 11, once.
 *
 * Screenshots test/output/screenshots/cafe-morning-*.png; axe on the counter and the display,
 * light and dark. Every wait is on state (the screens' words, the simulator's paper and drawer);
 * the printer watcher asks the printer every 3 s, so those waits allow for a few of its rounds.
 */
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { BarcodeSimulator } from '../../electron/devices/sim/barcode-simulator';
import { PrinterSimulator } from '../../electron/devices/sim/printer-simulator';
import { socatPair, type PtyPair } from '../devices/helpers/socat-pair';
import { DEVICE_SIMULATOR_ENV, ROOT, SCREENSHOT_DIR, expect, shot, startHostProcess, stopHostProcess, test, type HostInfo } from './fixtures';
import { importCsv } from './helpers/catalogue';
import { CARDS, expectAccessible, keyCardAndCharge, openApp, signIn, USERS } from './helpers/counter';
import { openManageTile } from './helpers/manager';

const STORE = 'Harbor Café';
/** The water's barcode: a real UPC-A written as EAN-13 (check digit 6). */
const WATER_BARCODE = '0614141000036';
/**
 * The café's catalogue, one file in the export's format: the items table (the latte's item row
 * carries the groups and the category, its variant rows right under it with their own price and
 * SKU), the categories, the modifier groups (one row per choice).
 */
const CSV = `name,price,sku,product_code,unit_code,commodity_code,tax_category,quick_key,category,variant,modifier_groups,track_stock,stock,reorder_level,archived
Latte,3.80,,,EA,4410,standard,yes,Coffee,,Milk|Extras,no,,,no
Latte,3.80,LATTE-S,,,,,,,Small,,,,,
Latte,4.50,LATTE-L,,,,,,,Large,,,,,
Water 500 ml,1.99,${WATER_BARCODE},,EA,4410,exempt,yes,Drinks,,,yes,12,4,no
Muffin,3.25,MUF,,EA,4410,standard,yes,,,,no,,,no

category,colour,sort_order
Coffee,brown,1
Drinks,blue,2

modifier_group,min_choices,max_choices,choice,choice_price
Milk,1,1,Whole,0.00
Milk,1,1,Oat,0.60
Extras,0,2,Extra shot,0.50
Extras,0,2,Syrup,0.40
`;
/** A few rounds of the printer watcher (3 s each). */
const WATCH = { timeout: 12_000 };
const PAPER_DIR = join(ROOT, 'test', 'output', 'printer-cafe-morning');

let host: HostInfo & { displayUrl?: string };
let printer: PrinterSimulator;
let printerPort = 0;
let pty: PtyPair;
let scanner: BarcodeSimulator;
let displayContext: BrowserContext;
let display: Page;
/** Script errors on the display page: none is allowed (a crash leaves the customer a blank screen). */
const displayErrors: string[] = [];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  rmSync(PAPER_DIR, { recursive: true, force: true });
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  printer = new PrinterSimulator({ outDir: PAPER_DIR });
  printerPort = await printer.listenTcp(0);
  pty = await socatPair();
  scanner = new BarcodeSimulator('cr');
  await scanner.attachSerial(pty.b);
  host = await startHostProcess(['--display'], DEVICE_SIMULATOR_ENV);
  // The customer display: a small screen facing the customer, its own browser, never signed in.
  displayContext = await browser.newContext({ viewport: { width: 1024, height: 600 }, colorScheme: 'light' });
  display = await displayContext.newPage();
  await display.addInitScript(() => {
    if (window.localStorage.getItem('ringup.theme') === null) window.localStorage.setItem('ringup.theme', 'light');
  });
  display.on('pageerror', (e) => displayErrors.push(e.message));
  await display.goto(host.displayUrl!);
  await expect(display.getByTestId('display-idle')).toBeVisible();
});
test.afterEach(() => {
  expect(displayErrors).toEqual([]);
});
test.afterAll(async () => {
  await displayContext?.close();
  if (host) await stopHostProcess(host);
  await scanner?.close();
  await pty?.close();
  await printer?.close();
});

const lastPaper = () => printer.receipts().at(-1)?.text ?? '';
const displayLines = () => display.getByTestId('display-line');

test('the manager names the store and imports the café as one CSV; the installer registers the printer and the serial scanner', async ({ page }) => {
  await openApp(page, host);
  await signIn(page, USERS.manager);
  await openManageTile(page, 'Store settings');
  await page.getByLabel('Store name').fill(STORE);
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Saved. Every counter window uses the new settings now.')).toBeVisible();
  await expect(display.getByTestId('display-idle')).toContainText(STORE);

  await openManageTile(page, 'Catalogue');
  await importCsv(page, CSV);
  await expect(page.getByTestId('csv-result')).toContainText('Imported 3 items.');
  const stock = page.getByTestId('stock-panel');
  await expect(stock.getByTestId('stock-table').getByRole('row', { name: /^Water 500 ml 12 4/ })).toBeVisible();

  await signIn(page, USERS.installer);
  await page.keyboard.press('F6');
  await expect(page.getByRole('heading', { name: 'Devices' })).toBeVisible();
  await page.getByTestId('add-printer').click();
  await expect(page.getByRole('heading', { name: 'Register a receipt printer' })).toBeVisible();
  await page.getByLabel('Name').fill('Counter printer');
  await page.getByTestId('printer-host').fill('127.0.0.1');
  await page.getByTestId('printer-port').fill(String(printerPort));
  await page.getByTestId('printer-save').click();
  await expect(page.getByTestId('printer-message')).toHaveText('Saved.');
  await expect(page.getByTestId('status-printer')).toHaveText('Printer: ready', WATCH);

  await page.getByTestId('add-barcode-scanner').click();
  await expect(page.getByRole('heading', { name: 'Add a barcode scanner' })).toBeVisible();
  await page.getByLabel('Name').fill('Counter scanner');
  await page.getByLabel('Serial path').fill(pty.a);
  await page.getByTestId('barcode-save').click();
  await expect(page.getByTestId('barcode-message')).toHaveText('Saved. Ringup listens to this scanner now.');
  await expect(page.getByTestId('barcode-state')).toContainText('Listening');
});

test('the cashier rings up a Large latte with oat milk and an extra shot and scans a water; cash: drawer, change, the printed receipt', async ({ page }) => {
  await openApp(page, host);
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');
  const tabs = page.getByRole('tablist', { name: 'Categories' });
  await expect(tabs.getByRole('tab')).toHaveText(['All', 'Coffee', 'Drinks', 'Other']);
  await tabs.getByRole('tab', { name: 'Coffee' }).click();
  await expect(tabs.getByRole('tab', { name: 'Coffee' })).toHaveAttribute('aria-selected', 'true');
  const grid = page.getByRole('tabpanel');
  await expect(grid.locator('.quick-key-name')).toHaveText(['Latte']);
  await grid.getByRole('button', { name: /Latte/ }).click();

  const picker = page.getByRole('dialog', { name: 'Latte' });
  await expect(picker).toBeVisible();
  await picker.getByTestId('pick-variant-Large').click();
  await picker.getByTestId('pick-option-Oat').click();
  await picker.getByTestId('pick-option-Extra shot').click();
  await expect(picker.getByTestId('picker-price')).toHaveText('$5.60');
  await expect(picker.getByTestId('picker-add')).toHaveText('Add $5.60');
  await shot(page, 'cafe-morning-01-counter-picker');
  await expectAccessible(page, 'the counter with the picker (light)');
  await picker.getByTestId('picker-add').click();
  await expect(picker).toBeHidden();

  const line = page.getByTestId('cart-line');
  await expect(line).toHaveCount(1);
  await expect(line.first().locator('.cart-line-name')).toContainText('Latte Large');
  await expect(line.first().getByTestId('line-modifiers')).toHaveText(['+ Oat$0.60+ Extra shot$0.50']);
  await expect(line.first().locator('.cart-line-amount')).toHaveText('$5.60');
  // The customer sees the line as it goes in, with its choices.
  await expect(displayLines()).toHaveCount(1);
  await expect(displayLines().first()).toContainText('Latte Large');
  // Under it the choices with their prices; the size is in the line's name, not said again.
  await expect(displayLines().first().locator('.cd-detail')).toHaveText(['Oat +$0.60', 'Extra shot +$0.50']);
  await expect(displayLines().first()).toContainText('$5.60');

  // The bottle of water, scanned on the serial scanner (on any tab).
  scanner.scan(WATER_BARCODE);
  await expect(line).toHaveCount(2);
  await expect(page.getByTestId('scan-note')).toHaveText('Scanned: Water 500 ml added.');
  await expect(line.nth(1)).toContainText('Water 500 ml');
  await expect(line.nth(1).locator('.cart-line-amount')).toHaveText('$1.99');
  // 5.60 taxed at 8.25 % → 0.46 (0.462); the water is exempt; 5.60 + 1.99 + 0.46 = 8.05.
  await expect(page.getByTestId('cart-total')).toHaveText('$8.05');
  // 12 on hand: nothing to warn about.
  await expect(page.getByTestId('cart-stock-warning')).toHaveCount(0);
  await expect(displayLines()).toHaveCount(2);
  await expect(displayLines().nth(1)).toContainText('Water 500 ml');
  await expect(displayLines().nth(1)).toContainText('$1.99');
  await expect(display.getByTestId('display-total')).toHaveText('$8.05');
  await shot(page, 'cafe-morning-02-counter-ticket');
  await expectAccessible(page, 'the counter with the ticket (light)');
  await shot(display, 'cafe-morning-03-display-cash-sale');
  await expectAccessible(display, 'the customer display, two lines (light)');

  const kicks = printer.kicks.length;
  const printed = printer.receipts().length;
  await page.getByTestId('cash-note-20').click();
  await expect(page.getByRole('heading', { name: 'Paid' })).toBeVisible();
  await expect(page.getByTestId('change-due')).toContainText('$11.95');
  await expect(display.getByTestId('display-change')).toContainText('Change due $11.95');
  await shot(display, 'cafe-morning-04-display-change-due');
  await expect(page.getByTestId('print-note')).toHaveText('Printed.');
  expect(printer.receipts().length).toBe(printed + 1);
  await expect.poll(() => printer.kicks.length).toBe(kicks + 1);
  await expect(page.getByTestId('status-drawer')).toHaveText('Drawer open', WATCH);
  await shot(page, 'cafe-morning-05-counter-paid-drawer-open');

  const paper = lastPaper();
  for (const text of [STORE, 'Latte Large', '+ Oat', '+ Extra shot', 'Water 500 ml', 'Cash tendered $20.00', 'Customer copy']) expect(paper, paper).toContain(text);
  expect(paper).toMatch(/Sales tax \(8\.25\s?%\)\s+\$0\.46/);
  expect(paper).toMatch(/Total\s+\$8\.05/);
  expect(paper).toMatch(/Change\s+\$11\.95/);
  copyFileSync(printer.receipts().at(-1)!.png!, join(SCREENSHOT_DIR, 'cafe-morning-06-paper-receipt.png'));

  // The drawer pushed shut on the simulator: the status bar follows.
  printer.closeDrawer();
  await expect(page.getByTestId('status-drawer')).toHaveCount(0, WATCH);
});

test('a card sale of a muffin and a small latte with whole milk, followed on the customer display to Approved', async ({ page }) => {
  await openApp(page, host);
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');
  const tabs = page.getByRole('tablist', { name: 'Categories' });
  await tabs.getByRole('tab', { name: 'Other' }).click();
  await page.getByTestId('quick-key-MUF').click();
  await tabs.getByRole('tab', { name: 'Coffee' }).click();
  await page.getByRole('tabpanel').getByRole('button', { name: /Latte/ }).click();
  const picker = page.getByRole('dialog', { name: 'Latte' });
  await picker.getByTestId('pick-variant-Small').click();
  await picker.getByTestId('pick-option-Whole').click();
  await expect(picker.getByTestId('picker-add')).toHaveText('Add $3.80');
  await picker.getByTestId('picker-add').click();
  await expect(picker).toBeHidden();
  // 3.25 + 3.80 = 7.05, all taxed at 8.25 % → 0.58 (0.581625); 7.63.
  await expect(page.getByTestId('cart-total')).toHaveText('$7.63');
  await expect(displayLines()).toHaveCount(2);
  await expect(displayLines().nth(1)).toContainText('Latte Small');
  await expect(displayLines().nth(1).locator('.cd-detail')).toHaveText(['Whole']);
  await expect(display.getByTestId('display-total')).toHaveText('$7.63');
  await shot(display, 'cafe-morning-07-display-card-sale');

  // Dark, once, on both screens (the display follows its own saved theme, as at a real second screen).
  await page.keyboard.press('F9');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expectAccessible(page, 'the counter with the ticket (dark)');
  await shot(page, 'cafe-morning-08-counter-ticket-dark');
  await display.evaluate(() => window.localStorage.setItem('ringup.theme', 'dark'));
  await display.reload();
  await expect(display.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(displayLines()).toHaveCount(2);
  await expectAccessible(display, 'the customer display, card sale (dark)');
  await shot(display, 'cafe-morning-09-display-card-sale-dark');
  await page.keyboard.press('F9');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');

  await keyCardAndCharge(page, CARDS.visa, /^Charge \$7\.63 to the card/);
  await expect(display.getByTestId('display-approved')).toContainText('$7.63 on your card');
  await shot(display, 'cafe-morning-10-display-approved');
  await expect(page.getByRole('heading', { name: 'Paid' })).toBeVisible();
  // No card number on the customer's screen, ever.
  expect(await display.locator('body').innerText()).not.toMatch(/4111|1111/);
  await expect(display.getByTestId('display-thanks')).toContainText(STORE, { timeout: 10_000 });
});

test("the manager's stock: the water went down once, 12 to 11", async ({ page }) => {
  await openApp(page, host);
  await signIn(page, USERS.manager);
  await openManageTile(page, 'Catalogue');
  const stock = page.getByTestId('stock-panel');
  await expect(stock.getByTestId('stock-table').getByRole('row', { name: /^Water 500 ml 11 4/ })).toBeVisible();
  await stock.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot(page, 'cafe-morning-11-manager-stock');
  await expectAccessible(page, "the manager's stock");
});
