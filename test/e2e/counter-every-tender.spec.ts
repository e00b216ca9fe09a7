/**
 * Counter trust on every way money is taken (issue 8 points 3, 5, 9), end to end: the
 * node host with the real engine, the terminal simulator on a real TCP port. A large
 * amount asks the same question on the terminal, on a saved card, when an open amount is
 * added to the cart and on the cart's saved-card tender; Esc or Cancel sends nothing. The
 * cashier is on the terminal and saved-card receipts, and Find by the receipt's Ref finds a
 * terminal sale.
 */
import { TerminalSimulator } from '../../electron/devices/sim/terminal-simulator';
import { expect, shot, startHostProcess, stopHostProcess, test, type HostInfo } from './fixtures';
import { engineCredentials, engineHeaders } from './helpers/engine-api';
import { expectAccessible, openApp, signIn, USERS } from './helpers/counter';
import { managerLoadsCatalogue } from './helpers/catalogue';

let host: HostInfo;
let sim: TerminalSimulator;

test.describe.configure({ mode: 'serial' });

/** Seeds through the engine's v2 API as an integrator would: the demo terminal at the simulator, and a customer's saved Visa. */
async function seed(simPort: number): Promise<void> {
  const c = engineCredentials(host.dataDir);
  const headers = engineHeaders(c);
  const v2 = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${c.base_url}${path}`, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
    if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
    return (await r.json()) as Record<string, Record<string, unknown> & { id: string } & Array<{ id: string }>>;
  };
  const terminals = (await v2('GET', `/terminals?location_id=${c.location_id}`)).terminals as unknown as Array<{ id: string }>;
  await v2('PUT', `/terminals/${terminals[0]!.id}`, { terminal: { communication_type: 'tcp', local_ip_address: '127.0.0.1', port: simPort } });
  const contact = (await v2('POST', '/contacts', { contact: { location_id: c.location_id, first_name: 'Pat', last_name: 'Saved' } })).contact!;
  await v2('POST', '/accountvaults', { accountvault: { location_id: c.location_id, contact_id: contact.id, payment_method: 'cc', account_number: '4111111111111111', exp_date: '1230' } });
}

test.beforeAll(async () => {
  sim = new TerminalSimulator();
  sim.script.stepMs = 40;
  const port = await sim.listenTcp(0);
  host = await startHostProcess();
  await seed(port);
});
test.afterAll(async () => {
  await stopHostProcess(host);
  await sim.close();
});

test('a large amount on the terminal and on a saved card asks the same question; the cashier is on the receipts; Find by Ref finds the terminal sale', async ({ page }) => {
  await openApp(page, host);
  await signIn(page, USERS.cashier);
  await expect(page.getByTestId('status-terminal')).toHaveText('Terminal: Demo Terminal, connected');
  await page.keyboard.type('150000'); // $1,500.00: above the $1,000.00 threshold
  const tipOnTerminal = page.getByLabel(/Customer picks the tip on the terminal/);
  if (await tipOnTerminal.isVisible()) await tipOnTerminal.uncheck();
  const frames = sim.received.length;
  await page.getByTestId('pay-terminal').click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('Charge this large amount?');
  await expect(dialog.getByTestId('confirm-amount')).toHaveText('$1,500.00');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused(); // Enter does not charge
  await shot(page, 'trust-40-terminal-large-amount');
  await expectAccessible(page, 'terminal large amount');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('terminal-live')).toHaveCount(0);
  expect(sim.received.length).toBe(frames); // the terminal was never woken
  await page.getByTestId('pay-terminal').click();
  await dialog.getByRole('button', { name: 'Yes, charge $1,500.00' }).click();
  await expect(page.getByTestId('result-title')).toHaveText('Approved', { timeout: 20_000 });
  const receipt = page.getByTestId('receipt').first();
  await expect(receipt).toContainText('$1,500.00');
  await expect(receipt.getByTestId('receipt-cashier')).toHaveText('Cashier: Casey');
  const terminalRef = (await receipt.getByTestId('receipt-ref').textContent())!.trim();
  await shot(page, 'trust-41-terminal-receipt-cashier');
  await page.getByRole('button', { name: /New sale/ }).click();

  await page.keyboard.type('120000'); // $1,200.00 on the customer's saved card
  await page.getByRole('button', { name: 'Charge a saved card…' }).click();
  const picker = page.getByRole('dialog', { name: 'Charge $1,200.00 to a saved card' });
  await expect(picker).toBeVisible();
  await picker.getByRole('button', { name: /Pat Saved/ }).click();
  await expect(dialog.getByTestId('confirm-amount')).toHaveText('$1,200.00');
  await shot(page, 'trust-42-saved-card-large-amount');
  await expectAccessible(page, 'saved card large amount');
  // Esc answers the question only: the picker stays, nothing was charged.
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(picker).toBeVisible();
  await expect(picker.getByRole('alert')).toHaveCount(0);
  await picker.getByRole('button', { name: /Pat Saved/ }).click();
  await dialog.getByRole('button', { name: 'Yes, charge $1,200.00' }).click();
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
  await expect(page.getByTestId('receipt').first()).toContainText('Visa •••• 1111');
  await expect(page.getByTestId('receipt').first().getByTestId('receipt-cashier')).toHaveText('Cashier: Casey');
  await page.getByRole('button', { name: /New sale/ }).click();

  // The terminal sale's Ref, as printed, finds it.
  await page.keyboard.press('F3');
  await page.getByRole('button', { name: 'Find older…' }).click();
  await page.getByLabel('Ref or auth code (from the receipt)').fill(terminalRef);
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Search results' })).toBeVisible();
  await expect(page.getByTestId('tx-row')).toHaveCount(1);
  await expect(page.getByTestId('tx-row')).toContainText('$1,500.00');
});

test('an open amount typed on the keypad asks at "Add to the cart"; the cart\'s saved-card tender asks too', async ({ page }) => {
  await openApp(page, host);
  await managerLoadsCatalogue(page, 'name,price,sku,unit_code,tax_category,quick_key\nMug,8.00,MUG,EA,exempt,yes\n');
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');
  await page.keyboard.type('250000'); // $2,500.00
  await page.getByRole('button', { name: 'Add $2,500.00 to the cart' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog.getByTestId('confirm-amount')).toHaveText('$2,500.00');
  await shot(page, 'trust-43-open-amount-large');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('cart-line')).toHaveCount(0); // nothing added
  await expect(page.getByTestId('sale-amount')).toContainText('$2,500.00'); // the amount stays to correct or confirm
  await page.getByRole('button', { name: 'Add $2,500.00 to the cart' }).click();
  await expect(dialog).toContainText('Add this large amount to the cart?');
  await dialog.getByRole('button', { name: 'Yes, add $2,500.00' }).click();
  await expect(page.getByTestId('cart-line')).toHaveCount(1);
  const total = (await page.getByTestId('cart-total').textContent())!.trim(); // tax included
  await page.getByTestId('cart-saved-open').click();
  await page.getByRole('dialog', { name: `Charge ${total} to a saved card` }).getByRole('button', { name: /Pat Saved/ }).click();
  await expect(dialog.getByTestId('confirm-amount')).toHaveText(total);
  await dialog.getByRole('button', { name: `Yes, charge ${total}` }).click();
  await expect(page.getByRole('heading', { name: 'Paid' })).toBeVisible();
  await shot(page, 'trust-44-cart-paid-after-confirm');
});
