/**
 * Entry at the counter that does not come one careful key at a time (issue 21): a card field
 * filled in one go — a paste, a keyboard-style reader typing a swipe's tracks, or a reader
 * typing bare digits into a full field — replaces the card that was there, and the engine
 * charges the card the field shows (its record's last four). A check whose MICR line the
 * scanner cannot read is keyed from its printed numbers instead.
 */
import { DEVICE_MSG } from '../../electron/devices/device-messages';
import { ScannerSimulator } from '../../electron/devices/sim/scanner-simulator';
import { KEYED_CHECK_MSG } from '../../shared/payments/check-entry';
import { socatPair, type PtyPair } from '../devices/helpers/socat-pair';
import { engineCredentials, engineHeaders } from './helpers/engine-api';
import { CARDS, expectAccessible, openApp, signIn, USERS } from './helpers/counter';
import { DEVICE_SIMULATOR_ENV, expect, shot, startHostProcess, stopHostProcess, test, type HostInfo } from './fixtures';

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
  await page.keyboard.type('%B4111');
  await expect(page.getByTestId('card-reading')).toHaveText('Reading the card… (Esc stops)');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('card-reading')).toHaveCount(0);
  await expect(number).toHaveValue(''); // nothing of a stopped swipe lands in the field
  await page.keyboard.type('%E?;E?');
  await page.keyboard.press('Enter');
  await expect(page.getByText('The card could not be read. Swipe it again or key the number.')).toBeVisible();
  await expect(number).toHaveValue('');
  await shot(page, 'entry-swipe-unreadable');
});

test.describe('a check the scanner cannot read', () => {
  let host: HostInfo;
  let pty: PtyPair;
  let scanner: ScannerSimulator;

  test.beforeAll(async () => {
    pty = await socatPair();
    // A smudged check: two characters of its MICR line unreadable.
    scanner = new ScannerSimulator({ micr: 'T0720?0326T 1234!678U 2044' });
    await scanner.attachSerial(pty.b);
    host = await startHostProcess([], DEVICE_SIMULATOR_ENV);
  });
  test.afterAll(async () => {
    await stopHostProcess(host);
    await scanner.close();
    await pty.close();
  });

  test('the cashier keys routing (checksum checked as typed), account and check number; the engine records them', async ({ page }) => {
    await openApp(page, host);
    await signIn(page, USERS.installer);
    await page.getByTestId('add-scanner').click();
    await page.getByLabel('Name').fill('Front desk');
    await page.getByLabel('Serial number').fill('SCN0001');
    await page.getByLabel('Serial path').fill(pty.a);
    await page.getByTestId('scanner-save').click();
    await expect(page.getByTestId('scanner-message')).toHaveText('Saved.');

    await signIn(page, USERS.cashier);
    await page.keyboard.press('F2');
    await page.keyboard.type('2150');
    await page.getByRole('radio', { name: 'Check' }).click();
    await page.getByTestId('scan-check').click();
    await expect(page.getByTestId('device-error')).toHaveText(DEVICE_MSG.MICR_UNREADABLE);
    await page.getByRole('button', { name: 'Key the numbers' }).click();
    const routing = page.getByLabel('Routing number');
    await expect(routing).toBeFocused();
    await page.keyboard.type('072000327'); // one digit off: the checksum says so at the 9th digit
    await expect(page.getByText(KEYED_CHECK_MSG.routingInvalid)).toBeVisible();
    await page.getByLabel('Account number').fill('12345678');
    await page.getByRole('button', { name: 'Use these numbers' }).click();
    await expect(routing).toBeFocused();
    await expect(page.getByText(KEYED_CHECK_MSG.checkNumber)).toBeVisible();
    await expectAccessible(page, 'check keyed with mistakes');
    await shot(page, 'entry-check-keyed-errors');
    await page.keyboard.press('F9');
    await expectAccessible(page, 'check keyed with mistakes (dark)');
    await shot(page, 'entry-check-keyed-errors-dark');
    await page.keyboard.press('F9');
    // A small counter screen: the three fields and their messages still fit.
    await page.setViewportSize({ width: 800, height: 480 });
    await page.getByLabel('Check number').scrollIntoViewIfNeeded();
    await shot(page, 'entry-check-keyed-errors-800');
    await page.setViewportSize({ width: 1280, height: 800 });
    await routing.fill('072000326');
    await expect(page.getByText(KEYED_CHECK_MSG.routingInvalid)).toHaveCount(0);
    await page.getByLabel('Check number').fill('2044');
    await page.getByRole('button', { name: 'Use these numbers' }).click();

    await expect(page.getByTestId('check-facts')).toContainText('072000326');
    await expect(page.getByTestId('check-facts')).toContainText('•••• 5678');
    await expect(page.getByTestId('check-facts')).toContainText('2044');
    await page.getByLabel('Name on the check').fill('Pat Doe');
    await page.getByTestId('pay-check').click();
    await expect(page.getByTestId('result-title')).toHaveText('Check accepted');
    await expect(page.getByTestId('receipt-check-number').first()).toHaveText('2044');
    await expect(page.locator('.receipt').first()).toContainText('Paper check'); // not "scanned": it was keyed
    await shot(page, 'entry-check-keyed-result');

    const creds = engineCredentials(host.dataDir);
    const r = await fetch(`${creds.base_url}/transactions?transaction_amount=21.50&page_size=50`, { headers: engineHeaders(creds) });
    const [t, ...more] = ((await r.json()) as { transactions: Array<Record<string, unknown>> }).transactions;
    expect(more).toHaveLength(0);
    expect(t).toMatchObject({ payment_method: 'ach', routing: '072000326', last_four: '5678', check_number: '2044', ach_sec_code: 'POP' });
  });
});
