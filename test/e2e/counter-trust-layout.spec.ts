/**
 * Layouts that hold (issue 8, point 10): the result first at 800×480, nothing cut off
 * and the detail where the finger is at 768×1024 portrait, at least 8 rows and no
 * labels running together at 1024×768. Axe on each.
 */
import type { Page } from '@playwright/test';
import { expect, shot, test } from './fixtures';
import { CARDS, expectAccessible, openApp, signIn, USERS } from './helpers/counter';
import { engineCredentials, engineHeaders } from './helpers/engine-api';

test.describe.configure({ mode: 'serial' });

async function sell(page: Page, digits: string, result: string = 'Approved'): Promise<void> {
  await page.keyboard.press('F2');
  await page.keyboard.type(digits);
  await page.keyboard.press('Enter');
  await page.keyboard.type(CARDS.visa);
  await page.getByLabel('Expiry').fill('12/30');
  await page.getByLabel('Security code').fill('999');
  await page.getByLabel('Billing ZIP').fill('32606');
  await page.getByLabel('Billing ZIP').press('Enter');
  await expect(page.getByTestId('result-title')).toHaveText(result);
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
  // A declined card and a partial approval put their result first too, with what to do next in view.
  await page.getByRole('button', { name: /New sale/ }).click();
  await sell(page, '500', 'Declined');
  await expect(page.getByTestId('result-title')).toBeInViewport();
  await expect(page.getByTestId('result-message')).toBeInViewport();
  await page.screenshot({ path: 'test/output/screenshots/trust-30c-declined-800x480-viewport.png' });
  await sell(page, '201', 'Partly approved');
  await expect(page.getByTestId('result-title')).toBeInViewport();
  await expect(page.getByTestId('result-message')).toBeInViewport();
  await expect(page.getByRole('button', { name: 'Collect $1.01 with another card' })).toBeInViewport();
  await page.screenshot({ path: 'test/output/screenshots/trust-30d-partial-800x480-viewport.png' });
  await expectAccessible(page, 'partial result at 800×480');
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
  // A long day: the detail must open in view for a row far down the list, not below the fold.
  const creds = engineCredentials(app.dataDir);
  for (let i = 0; i < 27; i++) {
    const res = await fetch(`${creds.base_url}/transactions`, {
      method: 'POST',
      headers: engineHeaders(creds),
      body: JSON.stringify({ transaction: { action: 'sale', payment_method: 'cc', location_id: creds.location_id, product_transaction_id: creds.cc_product_transaction_id, transaction_amount: `${30 + i}.00`, account_number: CARDS.visa, exp_date: '1230', cvv: '999', billing_zip: '32606' } }),
    });
    expect(res.status).toBe(201);
  }
  await page.keyboard.press('F3');
  await expect(page.getByTestId('tx-row').first()).toBeVisible();
  await expectNothingCutOff(page, 768);
  const far = page.locator('[data-testid="tx-row"][aria-posinset="20"]');
  await far.scrollIntoViewIfNeeded();
  await far.getByRole('button').click();
  await expect(page.getByTestId('tx-detail')).toBeInViewport();
  await expect(page.getByTestId('tx-detail').getByRole('button', { name: /^Refund…/ })).toBeInViewport();
  await expectNothingCutOff(page, 768);
  await page.screenshot({ path: 'test/output/screenshots/trust-32-detail-768x1024.png' });
  await expectAccessible(page, 'detail at 768×1024');
});

/**
 * No two visible text labels overlap (labels running together) inside `selector`. Text
 * hidden for screen readers only, and text scrolled out of its scroll box, is not seen.
 */
async function expectNoLabelsRunTogether(page: Page, selector: string): Promise<void> {
  const clashes = await page.evaluate((sel) => {
    const root = document.querySelector(sel) ?? document.body;
    const seen = (el: Element | null, r: DOMRect): boolean => {
      for (let e = el; e; e = e.parentElement) {
        const cs = getComputedStyle(e);
        if (cs.clip !== 'auto' && cs.position === 'absolute') return false;
        if (cs.overflowY !== 'visible' || cs.overflowX !== 'visible') {
          const box = e.getBoundingClientRect();
          if (r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5 || r.left < box.left - 0.5 || r.right > box.right + 0.5) return false;
        }
      }
      return true;
    };
    const boxes: { text: string; r: DOMRect }[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = (n.textContent ?? '').trim();
      if (!text) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const r of Array.from(range.getClientRects())) if (r.width > 0 && r.height > 0 && seen(n.parentElement, r)) boxes.push({ text, r });
    }
    const out: string[] = [];
    // A label drawn under another element (a neighbouring panel) is cut off too.
    for (const { text, r } of boxes) {
      const top = document.elementFromPoint(r.right - 1, r.top + r.height / 2);
      const host = document.elementFromPoint(r.left + 1, r.top + r.height / 2);
      if (top && host && !host.contains(top) && !top.contains(host)) out.push(`"${text.slice(0, 20)}" under ${top.tagName}.${top.className}`);
    }
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i]!.r;
        const b = boxes[j]!.r;
        const overlapX = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const overlapY = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (overlapX > 1 && overlapY > 1) out.push(`"${boxes[i]!.text.slice(0, 20)}" × "${boxes[j]!.text.slice(0, 20)}"`);
      }
    return out;
  }, selector);
  expect(clashes, 'labels running together').toEqual([]);
}

test('at 1024×768 the list shows at least 8 rows and no labels run together', async ({ page, app }) => {
  // Twelve approved sales through the engine's API (the counter's own sales are covered above).
  const creds = engineCredentials(app.dataDir);
  const headers = engineHeaders(creds);
  for (let i = 0; i < 12; i++) {
    const res = await fetch(`${creds.base_url}/transactions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ transaction: { action: 'sale', payment_method: 'cc', location_id: creds.location_id, product_transaction_id: creds.cc_product_transaction_id, transaction_amount: `${12 + i}.00`, account_number: CARDS.visa, exp_date: '1230', cvv: '999', billing_zip: '32606' } }),
    });
    expect(res.status).toBe(201);
  }
  await page.setViewportSize({ width: 1024, height: 768 });
  await openApp(page, app);
  await signIn(page, USERS.manager);
  await page.keyboard.press('F3');
  await expect(page.getByTestId('tx-row').nth(7)).toBeVisible();
  const inView = await page.getByTestId('tx-row').evaluateAll((rows) => rows.filter((r) => {
    const b = r.getBoundingClientRect();
    return b.height > 0 && b.top >= 0 && b.bottom <= window.innerHeight + 0.5;
  }).length);
  expect(inView, 'whole rows in the 1024×768 viewport').toBeGreaterThanOrEqual(8);
  await expectNothingCutOff(page, 1024);
  await expectNoLabelsRunTogether(page, 'body');
  await page.screenshot({ path: 'test/output/screenshots/trust-33-list-1024x768.png' });
  await expectAccessible(page, 'list at 1024×768');
  // The detail beside the list: the list keeps its rows, nothing is cut off or covered.
  await page.getByTestId('tx-row').nth(1).getByRole('button').click();
  await expect(page.getByTestId('tx-detail').getByRole('button', { name: /^Refund…/ })).toBeInViewport();
  await expectNothingCutOff(page, 1024);
  await expectNoLabelsRunTogether(page, 'body');
  await page.keyboard.press('F9');
  await page.screenshot({ path: 'test/output/screenshots/trust-34-detail-1024x768-dark.png' });
  await expectAccessible(page, 'detail at 1024×768, dark');
  await page.keyboard.press('F9');
});
