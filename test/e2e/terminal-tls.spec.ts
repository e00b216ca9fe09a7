/**
 * TLS on the terminal link, end to end (issue 20, point 1): the installer registers a network
 * terminal, turns TLS on, is refused a malformed fingerprint in words, reads the fingerprint the
 * terminal presents, confirms it and saves; the connection test and a cashier's sale run over TLS
 * (the terminal simulator serving TLS with an openssl-made certificate). Then something else at
 * the terminal's address presents another certificate: the sale is refused in words and nothing
 * is asked of the terminal.
 */
import type { Page } from '@playwright/test';
import { selfSignedIdentity, type TlsIdentity } from '../../electron/devices/sim/self-signed-cert';
import { TerminalSimulator } from '../../electron/devices/sim/terminal-simulator';
import { FINGERPRINT_MSG } from '../../shared/payments/terminal-fingerprint';
import { DEVICE_SIMULATOR_ENV, expect, shot, startHostProcess, stopHostProcess, test, type HostInfo } from './fixtures';
import { expectAccessible, openApp, signIn, USERS } from './helpers/counter';

let host: HostInfo;
let sim: TerminalSimulator;
let cert: TlsIdentity;
let impostor: TlsIdentity;
let tlsPort: number;
let impostorPort: number;

/** The editor scrolls inside its panel: bring its Connection fieldset to the top for the screenshot. */
const showConnection = (page: Page) =>
  page.locator('fieldset', { has: page.locator('legend', { hasText: 'Connection' }) }).evaluate((el) => el.scrollIntoView({ block: 'start' }));

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  cert = selfSignedIdentity('SIM-TLS-E2E');
  impostor = selfSignedIdentity('IMPOSTOR');
  sim = new TerminalSimulator({ serialNumber: 'SIM-TLS-E2E' });
  sim.script.stepMs = 50;
  tlsPort = await sim.listenTls(cert);
  impostorPort = await sim.listenTls(impostor);
  host = await startHostProcess([], DEVICE_SIMULATOR_ENV);
});
test.afterAll(async () => {
  await stopHostProcess(host);
  await sim.close();
});

test('the installer pins a TLS terminal by its fingerprint and a sale is approved over TLS; another certificate is refused', async ({ page }) => {
  await openApp(page, host);
  await signIn(page, USERS.installer);
  await expect(page.getByRole('heading', { name: 'Devices' })).toBeVisible();
  await page.getByTestId('add-terminal').click();
  await page.getByLabel('Name').fill('Front counter TLS');
  await page.getByLabel('Serial number').fill('SIM-TLS-E2E');
  await page.getByLabel('IP address').fill('127.0.0.1');
  await page.getByLabel('Port').fill(String(tlsPort));
  await page.getByText('Secure the link with TLS').click();
  await expect(page.getByTestId('terminal-tls')).toBeChecked();

  // A fingerprint typed short is refused in words before anything is saved.
  await page.getByLabel('Certificate fingerprint (SHA-256)').fill('AB:CD:12');
  await page.getByTestId('terminal-save').click();
  await expect(page.locator('#t-address\\.tls\\.fingerprint-error')).toHaveText(FINGERPRINT_MSG.malformed);
  await showConnection(page);
  await shot(page, 'devices-terminal-tls-malformed');

  // Read it from the terminal, compare, use it.
  await page.getByTestId('terminal-read-certificate').click();
  await expect(page.getByTestId('terminal-presented-fingerprint')).toHaveText(cert.fingerprint);
  await expectAccessible(page, 'devices (TLS fingerprint read from the terminal)');
  await page.getByTestId('terminal-use-fingerprint').evaluate((el) => el.scrollIntoView({ block: 'end' }));
  await shot(page, 'devices-terminal-tls-read');
  await page.getByTestId('terminal-use-fingerprint').click();
  await expect(page.getByTestId('terminal-fingerprint')).toHaveValue(cert.fingerprint);
  await expect(page.locator('#t-address\\.tls\\.fingerprint-error')).toHaveCount(0);
  await expectAccessible(page, 'devices (TLS on, fingerprint set)');
  await showConnection(page);
  await shot(page, 'devices-terminal-tls-on');
  expect(sim.received).toHaveLength(0); // reading the certificate sends nothing

  await page.getByTestId('terminal-save').click();
  await expect(page.getByTestId('terminal-message')).toHaveText('Saved.');
  await expect(page.getByRole('button', { name: /Front counter TLS/ })).toContainText(`127.0.0.1:${tlsPort} · TLS`);
  await page.getByTestId('terminal-test').click();
  await expect(page.getByTestId('terminal-message')).toHaveText('Connected: A920 (simulated), serial SIM-TLS-E2E, BroadPOS.');

  // The counter sells on it over TLS.
  await signIn(page, USERS.cashier);
  await expect(page.getByTestId('status-terminal')).toHaveText('Terminal: Front counter TLS, connected');
  await page.keyboard.type('1000');
  await expect(page.getByRole('radio', { name: 'Terminal' })).toHaveAttribute('aria-checked', 'true');
  await page.getByTestId('pay-terminal').click();
  await expect(page.getByTestId('result-title')).toHaveText('Approved', { timeout: 20_000 });
  expect(sim.received.map((f) => f.command)).toEqual(['A00', 'T00']);

  // Something else answers at the terminal's address with another certificate: refused, nothing asked.
  await signIn(page, USERS.installer);
  await page.getByRole('button', { name: /Front counter TLS/ }).click();
  await page.getByLabel('Port').fill(String(impostorPort));
  await page.getByTestId('terminal-save').click();
  await expect(page.getByTestId('terminal-message')).toHaveText('Saved.');
  await signIn(page, USERS.cashier);
  await page.keyboard.type('1200');
  await page.getByTestId('pay-terminal').click();
  await expect(page.getByText(/^The terminal's certificate is not the one set up for it/).first()).toBeVisible({ timeout: 20_000 });
  await expectAccessible(page, 'sale refused: terminal certificate not the one set up');
  await shot(page, 'sale-terminal-tls-refused');
  expect(sim.received.map((f) => f.command)).toEqual(['A00', 'T00']);
});
