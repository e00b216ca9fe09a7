/**
 * Charging a saved card asks first (issue 21 point 4), end to end on the node host with the
 * real engine: picking a customer's card shows the amount, the card and the customer, Cancel
 * focused; Cancel or Esc charges nothing (the gateway holds no transaction); Yes charges once.
 * The cart's saved-card tender asks the same. A large amount is confirmed on that question
 * alone (not on a second one). Light and dark, axe clean, and it fits an 800×480 counter.
 */
import { expect, shot, startHostProcess, stopHostProcess, test, type HostInfo } from './fixtures';
import { engineCredentials, engineHeaders } from './helpers/engine-api';
import { expectAccessible, openApp, signIn, USERS } from './helpers/counter';
import { managerLoadsCatalogue } from './helpers/catalogue';

let host: HostInfo;

test.describe.configure({ mode: 'serial' });

async function v2(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const c = engineCredentials(host.dataDir);
  const r = await fetch(`${c.base_url}${path}`, { method, headers: engineHeaders(c), ...(body ? { body: JSON.stringify(body) } : {}) });
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
  return (await r.json()) as Record<string, unknown>;
}

/** The sales the gateway holds: what a Cancel must leave untouched. */
const saleCount = async () => ((await v2('GET', '/transactions?page_size=100')).transactions as unknown[]).length;

test.beforeAll(async () => {
  host = await startHostProcess();
  const c = engineCredentials(host.dataDir);
  const contact = (await v2('POST', '/contacts', { contact: { location_id: c.location_id, first_name: 'Pat', last_name: 'Saved' } })).contact as { id: string };
  await v2('POST', '/accountvaults', { accountvault: { location_id: c.location_id, contact_id: contact.id, payment_method: 'cc', account_number: '4111111111111111', exp_date: '1230' } });
});
test.afterAll(async () => stopHostProcess(host));

test('picking a saved card asks with the amount, the card and the customer; Cancel and Esc charge nothing; Yes charges once', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 480 });
  await openApp(page, host);
  await signIn(page, USERS.cashier);
  await page.keyboard.type('2468');
  await page.getByRole('button', { name: 'Charge a saved card…' }).click();
  const picker = page.getByRole('dialog', { name: 'Charge $24.68 to a saved card' });
  await picker.getByRole('button', { name: /Pat Saved/ }).click();
  const ask = page.getByRole('alertdialog', { name: 'Charge this saved card?' });
  await expect(ask.getByTestId('confirm-amount')).toHaveText('$24.68');
  await expect(ask.getByTestId('saved-charge-who')).toHaveText('Visa •••• 1111 of Pat Saved');
  await expect(ask.getByRole('button', { name: 'Cancel' })).toBeFocused(); // Enter never charges by accident
  await shot(page, 'truth-01-saved-card-ask-800x480');
  await expectAccessible(page, 'saved card question');
  // Every part of the question is on the 800×480 screen.
  for (const part of [ask.getByTestId('confirm-amount'), ask.getByRole('button', { name: 'Yes, charge $24.68' })]) await expect(part).toBeInViewport();

  await page.keyboard.press('Enter'); // on Cancel
  await expect(ask).toHaveCount(0);
  await expect(picker).toBeVisible();
  await picker.getByRole('button', { name: /Pat Saved/ }).click();
  await page.keyboard.press('Escape'); // answers the question only
  await expect(ask).toHaveCount(0);
  await expect(picker).toBeVisible();
  expect(await saleCount()).toBe(0);

  await picker.getByRole('button', { name: /Pat Saved/ }).click();
  await ask.getByRole('button', { name: 'Yes, charge $24.68' }).click();
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
  await expect(page.getByTestId('receipt').first()).toContainText('Visa •••• 1111');
  expect(await saleCount()).toBe(1);
});

test('the cart\'s saved-card tender asks the same; a large amount is confirmed on that one question (dark theme)', async ({ page }) => {
  await openApp(page, host, { theme: 'dark' });
  // The cart shows once the store has a catalogue.
  await managerLoadsCatalogue(page, 'name,price,sku,unit_code,tax_category,quick_key\nMug,8.00,MUG,EA,exempt,yes\n');
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');
  await page.keyboard.type('125000'); // $1,250.00: above the $1,000.00 threshold
  await page.getByRole('button', { name: 'Add $1,250.00 to the cart' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, add $1,250.00' }).click();
  const total = (await page.getByTestId('cart-total').textContent())!.trim();
  await page.getByTestId('cart-saved-open').click();
  await page.getByRole('dialog', { name: `Charge ${total} to a saved card` }).getByRole('button', { name: /Pat Saved/ }).click();
  const ask = page.getByRole('alertdialog', { name: 'Charge this saved card?' });
  await expect(ask.getByTestId('confirm-amount')).toHaveText(total);
  await expect(ask.getByTestId('saved-charge-who')).toHaveText('Visa •••• 1111 of Pat Saved');
  await expect(ask).toContainText('Check the amount with the customer: it is above $1,000.00.');
  await shot(page, 'truth-02-cart-saved-card-ask-large-dark');
  await expectAccessible(page, 'cart saved card question (dark)');
  const before = await saleCount();
  await ask.getByRole('button', { name: `Yes, charge ${total}` }).click();
  await expect(page.getByRole('alertdialog')).toHaveCount(0); // no second question
  await expect(page.getByTestId('cart-receipt')).toContainText('Visa •••• 1111');
  expect(await saleCount()).toBe(before + 1);
});
