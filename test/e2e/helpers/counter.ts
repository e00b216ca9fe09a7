/**
 * Steps the counter specs share: sign in as a seeded user, ring up a keyed sale, run
 * axe on the current screen, count print requests. Each step drives the UI the way a person would (clicks
 * and key presses), never the bridge directly.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Locator, type Page } from '@playwright/test';
import type { HostInfo } from '../fixtures';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export const USERS = {
  manager: { name: 'Morgan', pin: '1234' },
  cashier: { name: 'Casey', pin: '0000' },
  installer: { name: 'Jordan', pin: '2468' },
} as const;

export const CARDS = {
  visa: '4111111111111111',
  mastercard: '5454545454545454',
  amex: '371449635398431',
  badLuhn: '4111111111111112',
} as const;

/** Opens the app (optionally with a query string) with the theme preset, before any script runs. */
export async function openApp(page: Page, app: HostInfo, opts: { theme?: 'light' | 'dark'; query?: string } = {}): Promise<void> {
  const theme = opts.theme ?? 'light';
  await page.addInitScript((t) => window.localStorage.setItem('ringup.theme', t), theme);
  await page.goto(`${app.origin}${opts.query ?? ''}#token=${app.token}`);
}

/** Signs in as the named user, switching user first if someone else is signed in at this window (each window has its own session). */
export async function signIn(page: Page, who: { name: string; pin: string }): Promise<void> {
  const heading = page.getByRole('heading', { name: 'Who is at the counter?' });
  const switchBtn = page.getByRole('button', { name: 'Switch user' });
  await expect(heading.or(switchBtn)).toBeVisible();
  if (await switchBtn.isVisible()) {
    if (await page.getByTestId('status-user').getByText(who.name).isVisible()) return;
    await switchBtn.click();
  }
  await expect(heading).toBeVisible();
  await page.getByRole('button', { name: new RegExp(`^\\S?\\s*${who.name}`) }).click();
  await page.keyboard.type(who.pin);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('status-user')).toContainText(who.name);
}

export interface KeyedSale {
  /** Digits typed on the keypad, e.g. "2450" for $24.50. */
  amountDigits: string;
  tip?: string | RegExp;
  tax?: boolean;
  card?: string;
  expiry?: string;
  cvv?: string;
  zip?: string;
}

/** Types the amount on the keyboard, picks the tip, keys the card, and presses Enter in the card form. */
export async function ringUpKeyedSale(page: Page, sale: KeyedSale): Promise<void> {
  await page.getByRole('button', { name: /^Sale/ }).click();
  await expect(page.getByRole('heading', { name: 'New sale' })).toBeVisible();
  await page.keyboard.press('Delete');
  await page.keyboard.type(sale.amountDigits);
  if (sale.tip) await page.getByRole('radio', { name: sale.tip }).click();
  if (sale.tax) await page.getByLabel(/Sales tax/).check();
  await page.keyboard.press('Enter'); // from the amount to the card number
  await expect(page.getByLabel('Card number')).toBeFocused();
  await page.keyboard.type(sale.card ?? CARDS.visa);
  await page.getByLabel('Expiry').fill(sale.expiry ?? '12/30');
  await page.getByLabel('Security code').fill(sale.cvv ?? '999');
  await page.getByLabel('Billing ZIP').fill(sale.zip ?? '32606');
  await page.getByLabel('Billing ZIP').press('Enter');
}

/** The counter screen sizes every layout is held to: landscape desktop and tablet, portrait tablet, and the 7" 800×480 panel. */
export const COUNTER_SIZES = [
  { width: 1280, height: 800 },
  { width: 1024, height: 768 },
  { width: 768, height: 1024 },
  { width: 800, height: 480 },
] as const;

/** Opens Transactions (F3) and the detail of today's newest transaction whose row shows `shown`; answers the detail. */
export async function openTransaction(page: Page, shown: string): Promise<Locator> {
  await page.keyboard.press('F3');
  await page.getByTestId('tx-row').filter({ hasText: shown }).first().getByRole('button').click();
  const detail = page.getByTestId('tx-detail');
  await expect(detail).toContainText(shown);
  return detail;
}

/** Keys a card (the test expiry, CVV and ZIP) into the card form on screen and presses its Charge button, named `label` (a string: exactly). */
export async function keyCardAndCharge(page: Page, number: string, label: string | RegExp): Promise<void> {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry').fill('12/30');
  await page.getByLabel('Security code').fill('999');
  await page.getByLabel('Billing ZIP').fill('32606');
  await page.getByRole('button', { name: label, exact: typeof label === 'string' }).click();
}

/** Runs axe on the page as it is now; fails with a readable list of violations. */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  // Injected through evaluate: the app's CSP (script-src 'self') rightly refuses an inline <script>.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const w = window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: string[] }> }> }> } };
    const r = await w.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 4).join(', ')}`);
  });
  expect(violations, `axe violations on ${label}`).toEqual([]);
}

/** Counts print requests instead of opening the browser's print dialog (from the page's next load on); `printCount` reads the count. */
export async function countPrints(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __printed: number };
    w.__printed = 0;
    window.print = () => {
      w.__printed++;
    };
  });
}

/** How many times the page asked to print since it loaded (after `countPrints`). */
export function printCount(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __printed: number }).__printed);
}
