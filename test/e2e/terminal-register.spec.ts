/**
 * A fresh install gets its terminal, end to end on a serial cable: the counter first shows
 * no terminal (the seeded demo terminal has no address) and keys cards; the installer
 * registers a new one (+ Register a terminal → Serial cable → one end of a socat pair, the
 * terminal simulator on the other), saves it and tests it (the gateway records the contact);
 * a cashier then sells on it: a chip read with PIN, the receipt carrying the EMV data.
 */
import { TerminalSimulator } from '../../electron/devices/sim/terminal-simulator';
import { socatPair, type PtyPair } from '../devices/helpers/socat-pair';
import { DEVICE_SIMULATOR_ENV, expect, shot, startHostProcess, stopHostProcess, test, type HostInfo } from './fixtures';
import { expectAccessible, openApp, signIn, USERS } from './helpers/counter';

let host: HostInfo;
let sim: TerminalSimulator;
let pty: PtyPair;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  pty = await socatPair();
  sim = new TerminalSimulator({ serialNumber: 'SIM-SERIAL-E2E' });
  sim.script.stepMs = 50;
  await sim.attachSerial(pty.b);
  host = await startHostProcess([], DEVICE_SIMULATOR_ENV);
});
test.afterAll(async () => {
  await stopHostProcess(host);
  await sim.close();
  await pty.close();
});

test('no terminal at first; the installer registers one on a serial cable, tests it, and a sale runs on it', async ({ page }) => {
  await openApp(page, host);
  await signIn(page, USERS.cashier);
  await expect(page.getByTestId('status-terminal')).toHaveText('Terminal: none');
  await page.keyboard.type('716');
  await expect(page.getByRole('radio', { name: 'Key card' })).toHaveAttribute('aria-checked', 'true');

  await signIn(page, USERS.installer);
  await expect(page.getByRole('heading', { name: 'Devices' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Demo Terminal/ })).toContainText('no address yet');
  await page.getByTestId('add-terminal').click();
  await expect(page.getByRole('heading', { name: 'Register a terminal' })).toBeVisible();
  await page.getByLabel('Name').fill('Front counter');
  await page.getByLabel('Serial number').fill('SIM-SERIAL-E2E');
  await page.getByRole('radio', { name: 'Serial cable' }).click();
  await page.getByLabel('Serial path').fill(pty.a);
  await expectAccessible(page, 'devices (new terminal)');
  await shot(page, 'devices-terminal-new');
  await page.getByTestId('terminal-save').click();
  await expect(page.getByTestId('terminal-message')).toHaveText('Saved.');
  await expect(page.getByRole('heading', { name: 'Terminal: Front counter' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Front counter/ })).toContainText(pty.a);
  await expect(page.getByTestId('terminal-last-contact')).toHaveText(/^Not connected yet/);
  await page.getByTestId('terminal-test').click();
  await expect(page.getByTestId('terminal-message')).toHaveText('Connected: A920 (simulated), serial SIM-SERIAL-E2E, BroadPOS.');
  await expect(page.getByTestId('terminal-last-contact')).toHaveText(/^Last connected /);
  await expectAccessible(page, 'devices (serial terminal tested)');
  await shot(page, 'devices-terminal-serial-tested');

  // The counter now sells on it: 7.16 reads a chip and asks for the PIN.
  await signIn(page, USERS.cashier);
  await expect(page.getByTestId('status-terminal')).toHaveText('Terminal: Front counter, connected');
  await page.keyboard.type('716');
  await expect(page.getByRole('radio', { name: 'Terminal' })).toHaveAttribute('aria-checked', 'true');
  sim.script.stepMs = 900; // long enough for the counter to show each screen
  await page.getByTestId('pay-terminal').click();
  await expect(page.getByTestId('terminal-prompt')).toHaveText('Enter PIN', { timeout: 15_000 });
  await expect(page.getByTestId('result-title')).toHaveText('Approved', { timeout: 20_000 });
  await expect(page.getByTestId('receipt-emv-aid').first()).toHaveText('A0000000031010');
  await expect(page.getByTestId('receipt-emv-label').first()).toHaveText('VISA CREDIT');
  await expect(page.getByTestId('receipt-emv-cvm').first()).toHaveText('PIN verified');
  await expect(page.locator('.receipt').first()).toContainText('Chip');
  await expectAccessible(page, 'sale on a serial terminal');
  await shot(page, 'sale-terminal-serial-pin');
  expect(sim.received.map((f) => f.command)).toEqual(['A00', 'T00']);
});
