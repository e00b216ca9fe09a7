/**
 * Entry at the counter that does not come one careful key at a time (issue 21): a card field
 * filled in one go — a paste, a keyboard-style reader typing a swipe's tracks, or a reader
 * typing bare digits into a full field — replaces the card that was there, and the engine
 * charges the card the field shows (its record's last four).
 */
import { engineCredentials, engineHeaders } from './helpers/engine-api';
import { CARDS, expectAccessible, openApp, signIn, USERS } from './helpers/counter';
import { expect, shot, test, type HostInfo } from './fixtures';

test.describe.configure({ mode: 'serial' });

/** The last four of the one sale of this amount in the engine's own records. */
async function lastFourAtEngine(app: HostInfo, amount: string): Promise<string[]> {
  const creds = engineCredentials(app.dataDir);
  const r = await fetch(`${creds.base_url}/transactions?transaction_amount=${amount}&page_size=50`, { headers: engineHeaders(creds) });
  const body = (await r.json()) as { transactions: Array<{ last_four: string; transaction_amount: string }> };
  return body.transactions.filter((t) => t.transaction_amount === amount).map((t) => t.last_four);
}

/** What a keyboard-style reader types for a swipe: track 1, track 2, then Enter. */
function swipeOf(pan: string, yymm: string): string {
  return `%B${pan}^DOE/PAT^${yymm}1010000000000?;${pan}=${yymm}10100000000?`;
}

test('a paste or a swipe over a card already keyed replaces it; the engine charges the card shown', async ({ page, app, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openApp(page, app);
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');
  await page.keyboard.type('1713');
  await page.keyboard.press('Enter');
  const number = page.getByLabel('Card number');
  await expect(number).toBeFocused();
  await page.keyboard.type(CARDS.visa);
  await page.getByLabel('Expiry').fill('1230');
  await page.getByLabel('Security code').fill('999');
  await page.getByLabel('Billing ZIP').fill('32606');

  // A paste into the field (the caret after the Visa's last digit) is a new card, not more digits.
  await number.click();
  await page.evaluate((t) => navigator.clipboard.writeText(t), CARDS.mastercard);
  await page.keyboard.press('ControlOrMeta+V');
  await expect(number).toHaveValue('5454 5454 5454 5454');
  await expect(page.getByTestId('card-brand')).toHaveText('Mastercard');
  // The Visa's security code and ZIP were the Visa's: gone with it.
  await expect(page.getByLabel('Security code')).toHaveValue('');
  await expect(page.getByLabel('Billing ZIP')).toHaveValue('');

  // A keyboard-style reader types the swipe over it: its card and expiry, nothing appended.
  await number.click();
  await page.keyboard.type(swipeOf(CARDS.amex, '3011'));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('card-brand')).toHaveText('Amex');
  await expect(page.getByLabel('Expiry')).toHaveValue('11/30');
  await expect(page.getByLabel('Security code')).toBeFocused();
  await expect(number).toHaveValue('•••• 8431');
  await expect(page.getByTestId('result-title')).toHaveCount(0); // the reader's Enter charged nothing

  // Bare digits typed into a full field: a new card again.
  await number.click();
  await page.keyboard.type(CARDS.visa);
  await expect(number).toHaveValue('4111 1111 1111 1111');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Expiry')).toHaveValue(''); // the Amex's expiry went with it
  await page.getByLabel('Expiry').fill('1230');
  await page.getByLabel('Security code').fill('123');
  await page.getByLabel('Billing ZIP').fill('32606');
  await expect(number).toHaveValue('•••• 1111');
  await expectAccessible(page, 'card replaced');
  await shot(page, 'entry-card-replaced');
  await page.getByRole('button', { name: 'Charge $17.13' }).click();
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
  await expect(page.getByTestId('receipt')).toContainText('Visa •••• 1111');
  expect(await lastFourAtEngine(app, '17.13')).toEqual(['1111']);
});

test('a swipe the reader could not read says so and keeps nothing of it', async ({ page, app }) => {
  await openApp(page, app);
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');
  await page.keyboard.type('500');
  await page.keyboard.press('Enter');
  const number = page.getByLabel('Card number');
  await expect(number).toBeFocused();
  await page.keyboard.type('%E?;E?');
  await page.keyboard.press('Enter');
  await expect(page.getByText('The card could not be read. Swipe it again or key the number.')).toBeVisible();
  await expect(number).toHaveValue('');
  await shot(page, 'entry-swipe-unreadable');
});
