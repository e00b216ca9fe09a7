/**
 * The sale screen on the screens counters use (issue 21, point 8): at 1280×800, 1024×768,
 * 768×1024 and 800×480 the item grid and the ticket share the screen, and with twenty lines
 * on the ticket its total and its Charge button are in view without scrolling; the header
 * keeps to one row, nothing scrolls sideways, quick keys break between words, never inside
 * one. The keyed sale (empty cart) keeps its total and Charge in view too, and at 800×480 the
 * PIN pad's 0 and Sign in fit. Axe at each size; a screenshot of each, looked at.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, hostOfThisFile, shot, test } from './fixtures';
import { importCsv } from './helpers/catalogue';
import { COUNTER_SIZES, expectAccessible, openApp, signIn, USERS } from './helpers/counter';
import { openManageTile } from './helpers/manager';

test.describe.configure({ mode: 'serial' });

/** Its catalogue must not reach the specs that share a worker's host. */
const own = hostOfThisFile();

/** 24 quick keys, names as a café writes them (several words, some long), so the grid has to wrap them. */
const ITEMS = [
  'Espresso', 'Double espresso', 'Oat milk flat white', 'Cappuccino', 'Caramel macchiato large', 'Chai latte',
  'Hot chocolate', 'Iced americano', 'Peppermint tea', 'Almond croissant', 'Butter croissant', 'Chocolate chip cookie',
  'Blueberry muffin', 'Banana bread slice', 'Cheese scone', 'Ham and cheese toastie', 'Seasonal fruit cup', 'Greek yoghurt pot',
  'Bottled water', 'Sparkling elderflower', 'Orange juice', 'Granola bar', 'Porridge with honey', 'Avocado sourdough toast',
];
const CSV = `name,price,sku,quick_key\n${ITEMS.map((n, i) => `${n},${(2 + i * 0.25).toFixed(2)},L${String(i + 1).padStart(2, '0')},yes`).join('\n')}\n`;
const LINES = 20;

/** The element lies wholly inside the viewport (the page itself is never scrolled to reach it). */
async function expectInView(page: Page, locator: Locator, what: string): Promise<void> {
  const vp = page.viewportSize()!;
  const box = await locator.boundingBox();
  expect(box, `${what} is on screen`).not.toBeNull();
  const b = box!;
  const where = `${what} at ${Math.round(b.x)},${Math.round(b.y)}–${Math.round(b.x + b.width)},${Math.round(b.y + b.height)} in ${vp.width}×${vp.height}`;
  expect(b.y >= 0 && b.y + b.height <= vp.height + 0.5 && b.x >= 0 && b.x + b.width <= vp.width + 0.5, where).toBe(true);
  // Seen, not only placed: nothing pinned or scrolled lies over its middle, its left and right ends or its top and bottom.
  const covered = await locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const points: [number, number][] = [[0.5, 0.5], [0.1, 0.5], [0.9, 0.5], [0.5, 0.15], [0.5, 0.85]].map(([fx, fy]) => [r.left + r.width * fx!, r.top + r.height * fy!]);
    return points.map(([x, y]) => document.elementFromPoint(x, y)).filter((hit) => !hit || !(el === hit || el.contains(hit))).map((hit) => hit?.className ?? 'nothing');
  });
  expect(covered, `${where}: covered by`).toEqual([]);
}

/** Every control of the header (tabs, theme, help, Switch user: all one height) shares one top, the logo sits in that row: the header is one row. */
async function expectHeaderOneRow(page: Page): Promise<void> {
  const boxes = await page.locator('.top-bar button, .top-bar .brand img').evaluateAll((els) =>
    els.filter((e) => e.getBoundingClientRect().height > 0).map((e) => ({ what: (e.textContent ?? '').trim().slice(0, 14) || e.tagName, top: Math.round(e.getBoundingClientRect().top), bottom: Math.round(e.getBoundingClientRect().bottom), button: e.tagName === 'BUTTON' })),
  );
  const said = boxes.map((b) => `${b.what}@${b.top}`).join(', ');
  const buttons = boxes.filter((b) => b.button);
  expect(new Set(buttons.map((b) => b.top)).size, `header buttons on one row: ${said}`).toBe(1);
  for (const b of boxes) expect(b.top >= buttons[0]!.top && b.bottom <= buttons[0]!.bottom, `${b.what} in the buttons' row: ${said}`).toBe(true);
}

/** Neither the page nor the screen area scrolls sideways. */
async function expectNoSideScroll(page: Page): Promise<void> {
  const over = await page.evaluate(() =>
    [document.scrollingElement!, ...Array.from(document.querySelectorAll('.content, .sale-layout'))]
      .filter((e) => e.scrollWidth > e.clientWidth + 1)
      .map((e) => `${e.className || e.tagName} ${e.scrollWidth}>${e.clientWidth}`),
  );
  expect(over, 'sideways scroll').toEqual([]);
}

/** No word of a quick key's or a ticket line's name is broken across two lines. */
async function expectWordsWhole(page: Page): Promise<void> {
  const broken = await page.locator('.quick-key-name, .cart-line-name').evaluateAll((els) => {
    const out: string[] = [];
    for (const el of els) {
      const node = el.firstChild;
      if (!node || node.nodeType !== Node.TEXT_NODE) continue;
      const text = node.textContent ?? '';
      for (const m of text.matchAll(/\S+/g)) {
        const r = document.createRange();
        r.setStart(node, m.index);
        r.setEnd(node, m.index + m[0].length);
        const tops = new Set(Array.from(r.getClientRects()).map((x) => Math.round(x.top)));
        if (tops.size > 1) out.push(m[0]);
      }
    }
    return out;
  });
  expect(broken, 'words broken inside a quick key or a ticket line').toEqual([]);
}

async function expectTheScreenFits(page: Page, total: Locator, charge: Locator): Promise<void> {
  await expectInView(page, total, 'the total');
  await expectInView(page, charge, 'the Charge button');
  await expectHeaderOneRow(page);
  await expectNoSideScroll(page);
  await expectWordsWhole(page);
}

test('a manager loads 24 quick keys', async ({ page }) => {
  await openApp(page, own.host);
  await signIn(page, USERS.manager);
  await openManageTile(page, 'Catalogue');
  await importCsv(page, CSV);
  await expect(page.getByTestId('csv-result')).toContainText('Imported 24 items.');
});

test('at 800×480 the PIN pad, its 0 and Sign in fit the screen', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 480 });
  await openApp(page, own.host);
  await expect(page.getByRole('heading', { name: 'Who is at the counter?' })).toBeVisible();
  await expectHeaderOneRow(page);
  await page.getByRole('button', { name: /Casey/ }).click();
  await expectInView(page, page.getByRole('button', { name: '0', exact: true }), 'the PIN pad 0');
  await expectInView(page, page.getByRole('button', { name: 'Sign in', exact: true }), 'Sign in');
  await expectNoSideScroll(page);
  await page.screenshot({ path: 'test/output/screenshots/layout-00-pin-800x480.png' });
  await expectAccessible(page, 'PIN pad at 800×480');
});

for (const size of COUNTER_SIZES) {
  const name = `${size.width}x${size.height}`;
  test(`at ${size.width}×${size.height} the keyed sale and a 20-line ticket keep the total and Charge in view`, async ({ page }) => {
    await page.setViewportSize(size);
    await openApp(page, own.host);
    await signIn(page, USERS.cashier);
    await page.keyboard.press('F2');
    // The keyed sale (an empty cart): the amount's total and its Charge.
    await page.keyboard.type('1250', { delay: 120 });
    await expect(page.getByTestId('sale-total')).toHaveText('$12.50');
    await expectTheScreenFits(page, page.getByTestId('sale-total'), page.getByRole('button', { name: /^Charge \$12\.50/ }));
    await page.screenshot({ path: `test/output/screenshots/layout-01-keyed-${name}.png` });
    await expectAccessible(page, `keyed sale at ${name}`);
    await page.keyboard.press('Delete');
    // Twenty lines on the ticket, each found by its SKU (the host may hold other specs' items too).
    for (let i = 0; i < LINES; i++) {
      const sku = `L${String(i + 1).padStart(2, '0')}`;
      await page.getByLabel('Find an item').fill(sku);
      await page.getByTestId(`quick-key-${sku}`).click();
      await expect(page.getByTestId('cart-line')).toHaveCount(i + 1);
    }
    await page.getByLabel('Find an item').fill('');
    await expectTheScreenFits(page, page.getByTestId('cart-total'), page.getByRole('button', { name: /^Charge \$[\d,.]+$/ }));
    await page.screenshot({ path: `test/output/screenshots/layout-02-ticket-${name}.png` });
    await shot(page, `layout-03-ticket-${name}-full`);
    await expectAccessible(page, `20-line ticket at ${name}`);
    await page.keyboard.press('F9');
    await page.screenshot({ path: `test/output/screenshots/layout-05-ticket-${name}-dark.png` });
    await expectAccessible(page, `20-line ticket at ${name}, dark`);
    await page.keyboard.press('F9');
    // The ticket's Charge brings the ways to pay into view, the cash handed over focused to type it.
    await page.getByRole('button', { name: /^Charge \$[\d,.]+$/ }).click();
    await expect(page.getByLabel('Cash handed over')).toBeFocused();
    await expect(page.getByLabel('Cash handed over')).toBeInViewport();
    await page.screenshot({ path: `test/output/screenshots/layout-06-pay-${name}.png` });
    await page.getByRole('button', { name: 'Clear cart' }).click();
    await expect(page.getByTestId('cart-line')).toHaveCount(0);
  });
}

test("a manager's header, with the most tabs, keeps to one row at every size", async ({ page }) => {
  await openApp(page, own.host);
  await signIn(page, USERS.manager);
  await page.keyboard.press('F2');
  for (const size of COUNTER_SIZES) {
    await page.setViewportSize(size);
    await expect(page.locator('.top-bar')).toBeVisible();
    await test.step(`${size.width}×${size.height}`, () => expectHeaderOneRow(page));
    await expectNoSideScroll(page);
    await page.screenshot({ path: `test/output/screenshots/layout-04-manager-header-${size.width}x${size.height}.png`, clip: { x: 0, y: 0, width: size.width, height: 80 } });
  }
  await expectAccessible(page, "a manager's header at 800×480");
});
