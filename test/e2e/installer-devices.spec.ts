/**
 * The installer's Devices screen as a person fixing mistakes would use it (issue 21, point 14):
 * Save with a mistake takes the focus to the first field in error; a terminal that answers
 * with another serial number than the one registered is said in words, on the Devices screen
 * and at the counter (status bar and sale screen), until the registered serial is corrected;
 * serial ports are offered from the list the system reports (serialport's list, read through
 * a stand-in `udevadm` on the host's PATH), and a path can still be typed.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { TerminalSimulator } from '../../electron/devices/sim/terminal-simulator';
import { TERMINAL_SERIAL_MSG } from '../../shared/ipc/devices';
import { socatPair, type PtyPair } from '../devices/helpers/socat-pair';
import { DEVICE_SIMULATOR_ENV, expect, shot, startHostProcess, stopHostProcess, test, type HostInfo } from './fixtures';
import { expectAccessible, openApp, signIn, USERS } from './helpers/counter';

let host: HostInfo;
let sim: TerminalSimulator;
let simPort: number;
let pty: PtyPair;
let binDir: string;

/** The seed's Demo Terminal is registered with this serial; the terminal at its address says another. */
const REGISTERED = 'SIM0000001';
const REPORTED = 'SIM0999';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  // What udev would list on a till with a USB serial adapter and a built-in port (the format serialport reads).
  binDir = mkdtempSync(join(tmpdir(), 'ringup-udev-'));
  const udev = ['P: /devices/usb1/1-1/ttyUSB0', 'N: ttyUSB0', 'E: DEVNAME=/dev/ttyUSB0', 'E: ID_VENDOR_ENC=FTDI', '', 'P: /devices/serial8250/tty/ttyS0', 'N: ttyS0', 'E: DEVNAME=/dev/ttyS0', ''];
  writeFileSync(join(binDir, 'udevadm'), `#!/bin/sh\ncat <<'EOF'\n${udev.join('\n')}\nEOF\n`);
  chmodSync(join(binDir, 'udevadm'), 0o755);
  sim = new TerminalSimulator({ serialNumber: REPORTED });
  sim.script.stepMs = 50;
  simPort = await sim.listenTcp(0);
  pty = await socatPair();
  host = await startHostProcess([], { ...DEVICE_SIMULATOR_ENV, PATH: `${binDir}${delimiter}${process.env.PATH ?? ''}` });
});
test.afterAll(async () => {
  await stopHostProcess(host);
  await sim.close();
  await pty.close();
  rmSync(binDir, { recursive: true, force: true });
});

test('installer: Save takes the focus to the first mistake; another serial is said; serial ports are offered', async ({ page }) => {
  await openApp(page, host);
  await signIn(page, USERS.installer);
  await expect(page.getByRole('heading', { name: 'Terminal: Demo Terminal' })).toBeVisible();

  // Three mistakes (no name, no address yet, a timeout too short): each Save takes the focus to the first left, in the form's order.
  await page.getByLabel('Name').fill('');
  await page.getByLabel('Pin Entry Timeout').fill('5');
  await page.getByTestId('terminal-save').click();
  await expect(page.getByLabel('Name')).toBeFocused();
  await page.keyboard.type('Demo Terminal');
  await page.getByTestId('terminal-save').click();
  await expect(page.getByLabel('IP address')).toBeFocused();
  await page.keyboard.type('127.0.0.1');
  await page.getByLabel('Port').fill(String(simPort));
  await page.getByTestId('terminal-save').click();
  await expect(page.getByLabel('Pin Entry Timeout')).toBeFocused();
  await shot(page, 'installer-first-error-focused');
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('30');
  await page.getByTestId('terminal-save').click();
  await expect(page.getByTestId('terminal-message')).toHaveText('Saved.');
  await page.getByTestId('terminal-test').click();
  await expect(page.getByTestId('terminal-message')).toContainText(`serial ${REPORTED}`);
  await expect(page.getByTestId('terminal-serial-mismatch')).toHaveText(TERMINAL_SERIAL_MSG.mismatch(REGISTERED, REPORTED));
  await expectAccessible(page, 'devices (serial mismatch)');
  await page.getByTestId('terminal-serial-mismatch').scrollIntoViewIfNeeded();
  await shot(page, 'installer-serial-mismatch');

  // The scanner's port: picked from the system's list, or typed.
  await page.getByTestId('add-scanner').click();
  await page.getByTestId('scanner-save').click();
  await expect(page.getByLabel('Name')).toBeFocused();
  await page.keyboard.type('Front desk');
  await page.getByLabel('Serial number').fill('SCN0001');
  const offered = page.getByRole('group', { name: 'Serial ports on this computer' });
  await expect(offered.getByRole('button')).toHaveText(['/dev/ttyUSB0 (FTDI)', '/dev/ttyS0']);
  await offered.getByRole('button', { name: '/dev/ttyUSB0 (FTDI)' }).click();
  await expect(page.getByLabel('Serial path')).toHaveValue('/dev/ttyUSB0');
  await expectAccessible(page, 'devices (serial ports)');
  await shot(page, 'installer-serial-ports');
  await page.keyboard.press('F9');
  await expectAccessible(page, 'devices (serial ports, dark)');
  await shot(page, 'installer-serial-ports-dark');
  await page.keyboard.press('F9');
  await page.getByLabel('Serial path').fill(pty.a); // a bridge the system does not list, typed
  await page.getByTestId('scanner-save').click();
  await expect(page.getByTestId('scanner-message')).toHaveText('Saved.');
});

test('counter: the terminal with another serial is said in the status bar and on the sale screen, until the serial is corrected', async ({ page }) => {
  await openApp(page, host);
  await signIn(page, USERS.cashier);
  await expect(page.getByTestId('status-terminal')).toHaveText(`Terminal: Demo Terminal, connected, ${TERMINAL_SERIAL_MSG.short(REPORTED)}`);
  await page.keyboard.type('1200');
  await expect(page.getByTestId('terminal-serial-mismatch')).toHaveText(TERMINAL_SERIAL_MSG.mismatch(REGISTERED, REPORTED));
  await expectAccessible(page, 'sale (serial mismatch)');
  await shot(page, 'sale-serial-mismatch');

  // The installer checks the label: it is the shop's terminal, registered with a typo.
  await signIn(page, USERS.installer);
  await page.getByLabel('Serial number').fill(REPORTED);
  await expect(page.getByTestId('terminal-serial-mismatch')).toHaveCount(0);
  await page.getByTestId('terminal-save').click();
  await expect(page.getByTestId('terminal-message')).toHaveText('Saved.');
  await signIn(page, USERS.cashier);
  await expect(page.getByTestId('status-terminal')).toHaveText('Terminal: Demo Terminal, connected');
});
