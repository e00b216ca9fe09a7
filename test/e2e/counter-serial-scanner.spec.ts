/**
 * A serial barcode scanner end to end (issue 23, point 5): a node host (real core, engine and
 * SQLite) and the barcode scanner simulator on one end of a socat pseudo-terminal, the host's
 * core on the other. The installer adds the scanner on Devices (name, serial path, baud) and
 * test-scans a code; the core then keeps its port open, and two codes scanned on it go into a
 * cashier's cart exactly as the keyboard-wedge scanner's do (the same "Scanned: … added." and
 * an unknown code said beside the search); noise on the line is said in words; a code scanned
 * while another screen is open adds nothing. Axe and screenshots of the Devices section and
 * the sale screen, light and dark.
 */
import type { Page } from '@playwright/test';
import { DEVICE_BARCODE_MSG } from '../../electron/devices/barcode-lines';
import { BarcodeSimulator } from '../../electron/devices/sim/barcode-simulator';
import { socatPair, type PtyPair } from '../devices/helpers/socat-pair';
import { DEVICE_SIMULATOR_ENV, expect, shot, startHostProcess, stopHostProcess, test, type HostInfo } from './fixtures';
import { managerLoadsCatalogue } from './helpers/catalogue';
import { COUNTER_SIZES, expectAccessible, openApp, signIn, USERS } from './helpers/counter';
import { watchCoreEvents } from './helpers/core-events';

let host: HostInfo;
let pty: PtyPair;
let sim: BarcodeSimulator;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  pty = await socatPair();
  sim = new BarcodeSimulator('cr');
  await sim.attachSerial(pty.b);
  host = await startHostProcess([], DEVICE_SIMULATOR_ENV);
});
test.afterAll(async () => {
  await stopHostProcess(host);
  await sim.close();
  await pty.close();
});

const CSV = 'name,price,sku,product_code,quick_key\nLatte,4.20,4006381333931,LAT-12,yes\nBottle of water,1.50,SCN-0042,,yes\n';
const lines = (page: Page) => page.locator('[data-testid="cart-line"]');

/**
 * The test scan shows "Scan a barcode now" as it asks the core, which opens the port a moment
 * later; a code scanned before that is not heard (as at a real till, the installer scans again).
 */
async function scanUntilRead(page: Page, code: string): Promise<void> {
  await expect(async () => {
    sim.scan(code);
    await expect(page.getByTestId('barcode-test-result')).toContainText(code, { timeout: 1000 });
  }).toPass({ timeout: 14_000 });
}

test('installer: adds the barcode scanner on Devices and test-scans a code', async ({ page }) => {
  await openApp(page, host);
  await managerLoadsCatalogue(page, CSV);
  await signIn(page, USERS.installer);
  await expect(page.getByRole('heading', { name: 'Devices' })).toBeVisible();
  await page.getByTestId('add-barcode-scanner').click();
  await expect(page.getByRole('heading', { name: 'Add a barcode scanner' })).toBeVisible();

  // Save with no name: the focus goes to it, said in words.
  await page.getByTestId('barcode-save').click();
  await expect(page.getByLabel('Name')).toBeFocused();
  await expect(page.getByText('Give the scanner a name.')).toBeVisible();
  await page.keyboard.type('Front counter');
  await page.getByLabel('Serial path').fill(pty.a);
  await expect(page.getByLabel('Baud rate')).toHaveValue('9600');

  // Test before saving: the code scanned now is shown.
  await page.getByTestId('barcode-test').click();
  await expect(page.getByTestId('barcode-test-result')).toContainText('Scan a barcode now.');
  await scanUntilRead(page, 'LAT-12');

  await page.getByTestId('barcode-save').click();
  await expect(page.getByTestId('barcode-message')).toHaveText('Saved. Ringup listens to this scanner now.');
  await expect(page.getByTestId('barcode-state')).toContainText('Listening');
  await expect(page.getByRole('button', { name: /Front counter/ })).toContainText('listening');

  // A saved scanner's test borrows its port: the code is the test's.
  await page.getByTestId('barcode-test').click();
  await expect(page.getByTestId('barcode-test-result')).toContainText('Scan a barcode now.');
  await scanUntilRead(page, '4006381333931');
  await expectAccessible(page, 'devices (barcode scanner)');
  await shot(page, 'devices-barcode-scanner');
  await page.keyboard.press('F9');
  await expectAccessible(page, 'devices (barcode scanner, dark)');
  await shot(page, 'devices-barcode-scanner-dark');
  await page.keyboard.press('F9');
  // The counter's smallest panel and a portrait tablet: the same form, one column.
  for (const size of [COUNTER_SIZES[3], COUNTER_SIZES[2]]) {
    await page.setViewportSize(size);
    await expectAccessible(page, `devices (barcode scanner, ${size.width}×${size.height})`);
    await shot(page, `devices-barcode-scanner-${size.width}x${size.height}`);
  }
  await page.setViewportSize(COUNTER_SIZES[0]);
});

test('cashier: two codes scanned on the serial scanner go into the cart; noise is said; another screen takes nothing', async ({ page }) => {
  await openApp(page, host);
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');
  await expect(page.getByRole('heading', { name: 'New sale' })).toBeVisible();
  await expect(page.getByTestId('quick-key-4006381333931')).toBeVisible();

  sim.scan('4006381333931');
  await expect(lines(page)).toHaveCount(1);
  await expect(lines(page).first()).toContainText('Latte');
  await expect(page.getByTestId('scan-note')).toHaveText('Scanned: Latte added.');
  sim.suffix = 'crlf';
  sim.scan('SCN-0042');
  await expect(lines(page)).toHaveCount(2);
  await expect(lines(page).nth(1)).toContainText('Bottle of water');
  await expect(page.getByTestId('cart-total')).toHaveText('$6.17'); // 4.20 + 1.50 = 5.70 + 8.25 % tax 0.47
  // Nothing was typed anywhere by it.
  await expect(page.getByTestId('sale-amount')).toContainText('$0.00');

  // Noise on the line (a wrong baud rate): said where an unknown code is said; the cart is unchanged.
  sim.sendRaw(Buffer.from([0xf8, 0x80, 0x86, 0x0d]));
  await expect(page.getByTestId('scan-note')).toHaveText(DEVICE_BARCODE_MSG.noise);
  await page.getByTestId('scan-note').scrollIntoViewIfNeeded();
  await shot(page, 'sale-serial-scanner-noise');
  sim.scan('ZZZ-9999');
  await expect(page.getByTestId('scan-note')).toHaveText('No item has the code ZZZ-9999. Check the item in the catalogue, or find it by name.');
  await expect(lines(page)).toHaveCount(2);
  await page.getByTestId('scan-note').scrollIntoViewIfNeeded();
  await shot(page, 'sale-serial-scanner');
  await expectAccessible(page, 'sale screen after serial scans');

  // Another screen: a code scanned there is not added (the sale screen is not listening). Once
  // the core has pushed it, a Refresh on Transactions is answered on the window's socket after
  // the event, so the window has heard it there before the sale screen comes back.
  await page.keyboard.press('F3');
  await expect(page.getByRole('heading', { name: "Today's transactions" })).toBeVisible();
  const watch = await watchCoreEvents(host, ['barcode:scanned']);
  try {
    sim.scan('4006381333931');
    await expect.poll(() => watch.heard).toEqual([{ event: 'barcode:scanned', payload: { code: '4006381333931' } }]);
  } finally {
    watch.close();
  }
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByRole('button', { name: 'Refresh' })).toBeEnabled();
  await page.keyboard.press('F2');
  await expect(page.getByTestId('quick-key-4006381333931')).toBeVisible();
  await expect(page.getByRole('group', { name: 'Quantity of Latte' })).toContainText('1');
  // Back on the sale screen, the scanner adds again.
  sim.scan('SCN-0042');
  await expect(page.getByRole('group', { name: 'Quantity of Bottle of water' })).toContainText('2');
  await expect(page.getByRole('group', { name: 'Quantity of Latte' })).toContainText('1');
  await expect(lines(page)).toHaveCount(2);
  await page.getByRole('button', { name: 'Clear cart' }).click();
  await expect(lines(page)).toHaveCount(0);
});
