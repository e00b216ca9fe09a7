/**
 * The README's first sale, taken as its first screen tells a newcomer to (issue 22, point 7):
 * a fresh data folder, the built-in engine chosen on the first-run screen, the default manager
 * signed in, $10.00 keyed and charged to the sandbox's test card. Every word the steps tell the
 * reader to press, type or look for is checked to be on the README's first screen, so the four
 * steps and the app cannot part ways unnoticed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, ROOT, shot, startHostProcess, stopHostProcess, test, type HostInfo } from './fixtures';
import { openApp } from './helpers/counter';

/** The first screen, as readme-truth.test.ts counts it. */
const FIRST_SCREEN = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').slice(0, 40).join('\n');

const STEPS = {
  engine: 'Use the built-in gateway engine',
  signIn: 'Who is at the counter?',
  manager: 'Morgan',
  pin: '1234',
  amountDigits: '1000',
  card: '4111 1111 1111 1111',
  expiry: '12/30',
  cvv: '999',
  zip: '32606',
  charge: 'Charge $10.00',
  approved: 'Approved',
} as const;

let host: HostInfo | undefined;

test.afterAll(async () => {
  if (host) await stopHostProcess(host);
});

test('the first sale in the README’s four steps, on a fresh data folder', async ({ page }) => {
  for (const words of Object.values(STEPS)) expect(FIRST_SCREEN, 'the README’s first screen').toContain(words);

  // 1. Start: a fresh data folder asks which gateway first; the built-in engine is the default.
  host = await startHostProcess(['--ask-first-run']);
  await openApp(page, host);
  const engine = page.getByRole('button', { name: new RegExp(`^${STEPS.engine}`) });
  await expect(engine).toBeFocused();
  await engine.click();

  // 2. Sign in as the default manager, whose PIN the sign-in screen's first-run hint gives.
  await expect(page.getByRole('heading', { name: STEPS.signIn })).toBeVisible();
  await expect(page.getByLabel('First time here')).toContainText(`${STEPS.manager} (manager, PIN ${STEPS.pin})`);
  await page.getByRole('button', { name: new RegExp(`^\\S?\\s*${STEPS.manager}`) }).click();
  await page.keyboard.type(STEPS.pin);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('status-user')).toContainText(STEPS.manager);

  // 3. Ring up $10.00 on the sale screen, where a sign-in lands.
  await expect(page.getByRole('heading', { name: 'New sale' })).toBeVisible();
  await page.keyboard.type(STEPS.amountDigits);
  await expect(page.getByTestId('sale-amount')).toContainText('$10.00');
  await page.keyboard.press('Enter');

  // 4. Key the sandbox's test card and charge it.
  await expect(page.getByLabel('Card number')).toBeFocused();
  await page.keyboard.type(STEPS.card.replaceAll(' ', ''));
  await page.getByLabel('Expiry').fill(STEPS.expiry);
  await page.getByLabel('Security code').fill(STEPS.cvv);
  await page.getByLabel('Billing ZIP').fill(STEPS.zip);
  await page.getByRole('button', { name: STEPS.charge }).click();
  await expect(page.getByTestId('result-title')).toHaveText(STEPS.approved);
  await expect(page.getByTestId('receipt')).toContainText('Visa •••• 1111');
  await shot(page, 'readme-first-sale');
});
