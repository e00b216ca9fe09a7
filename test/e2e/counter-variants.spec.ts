/**
 * The counter sells from the deeper catalogue (issue 23, point 6), end to end against the
 * node host with the real engine and SQLite: a manager imports categories, a latte with two
 * sizes and two modifier groups; the cashier moves along the category tabs by keyboard, taps
 * the latte, and the picker asks for a size and milk (Add waits until both are chosen, a
 * group's limit is said in a sentence), Enter adds a Large with whole milk and an extra shot;
 * the ticket and the paid receipt show the modifiers under the line; a scanned variant SKU
 * opens the picker with its size chosen; Escape closes it with nothing added; a counted item
 * sold past zero is said on the ticket. Light and dark,
 * at 1280×800 and at the 800×480 counter size, axe clean; the End of day X report counts the
 * latte by its size and the extra shot.
 */
import { expect, hostOfThisFile, shot, test } from './fixtures';
import { expectAccessible, openApp, signIn, USERS } from './helpers/counter';
import { managerLoadsCatalogue } from './helpers/catalogue';
import { openManageTile } from './helpers/manager';
import { scan } from './helpers/wedge-scanner';

test.describe.configure({ mode: 'serial' });

/** Its catalogue must not reach the specs that share a worker's host. */
const own = hostOfThisFile();

const CSV = `name,price,sku,commodity_code,quick_key,category,variant,modifier_groups,track_stock,stock
Latte,3.80,LATTE,4410,yes,Coffee,,Milk|Extras,,
Latte,3.80,LATTE-S,,,,Small,,,
Latte,4.50,LATTE-L,,,,Large,,,
Espresso,2.60,ESP,4410,yes,Coffee,,,,
Water,1.50,WATER,4410,yes,Cold drinks,,,yes,0
Croissant,2.75,CRO,4410,yes,Bakery,,,,
Muffin,2.99,MUF,4410,yes,Bakery,,,,
Paper bag,0.10,BAG,4410,yes,,,,,

category,colour,sort_order
Coffee,brown,1
Cold drinks,blue,2
Bakery,amber,3

modifier_group,min_choices,max_choices,choice,choice_price
Milk,1,1,Whole,0.00
Milk,1,1,Oat milk,0.60
Extras,0,2,Extra shot,0.50
Extras,0,2,Vanilla,0.40
Extras,0,2,Cream,0.30
`;

test('a manager imports categories, a latte with sizes and its modifier groups', async ({ page }) => {
  await openApp(page, own.host);
  await managerLoadsCatalogue(page, CSV);
  await expect(page.getByTestId('csv-result')).toContainText('Imported');
});

test('the cashier tabs to Coffee, picks a Large latte with whole milk and an extra shot, and sells it for cash', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openApp(page, own.host);
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');
  const tabs = page.getByRole('tablist', { name: 'Categories' });
  await expect(tabs.getByRole('tab')).toHaveText(['All', 'Coffee', 'Cold drinks', 'Bakery', 'Other']);
  await expect(tabs.getByRole('tab', { name: 'All' })).toHaveAttribute('aria-selected', 'true');
  // Keyboard first: the tab row is one Tab stop, the arrows move along it.
  await tabs.getByRole('tab', { name: 'All' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(tabs.getByRole('tab', { name: 'Coffee' })).toHaveAttribute('aria-selected', 'true');
  await expect(tabs.getByRole('tab', { name: 'Coffee' })).toBeFocused();
  const grid = page.getByRole('tabpanel');
  await expect(grid.locator('.quick-key-name')).toHaveText(['Espresso', 'Latte']);
  await expect(page.getByTestId('quick-key-LATTE')).toContainText('from $3.80');
  // Every tab is a 48 px target.
  for (const box of await tabs.getByRole('tab').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height))) expect(box).toBeGreaterThanOrEqual(48);
  await shot(page, 'variants-01-coffee-tab');
  await expectAccessible(page, 'category tabs');

  await page.getByTestId('quick-key-LATTE').click();
  const picker = page.getByRole('dialog', { name: 'Latte' });
  await expect(picker).toBeVisible();
  const add = picker.getByTestId('picker-add');
  await expect(add).toBeDisabled();
  await expect(picker.getByTestId('picker-missing')).toHaveText('Choose Small or Large for Latte.');
  await expect(picker.getByText('Choose 1', { exact: true }).first()).toBeVisible();
  await expect(picker.getByText('Up to 2', { exact: true })).toBeVisible();
  await expect(picker.getByTestId('pick-option-Oat milk')).toContainText('+$0.60');
  await picker.getByTestId('pick-variant-Large').click();
  await expect(picker.getByTestId('picker-missing')).toHaveText('Milk: choose one.');
  await expect(add).toBeDisabled();
  await picker.getByTestId('pick-option-Whole').click();
  await expect(add).toBeEnabled();
  await expect(picker.getByTestId('picker-price')).toHaveText('$4.50');
  await picker.getByTestId('pick-option-Extra shot').click();
  await picker.getByTestId('pick-option-Vanilla').click();
  await expect(picker.getByTestId('picker-price')).toHaveText('$5.40');
  // A third extra where two is the limit: a sentence, and nothing changes.
  await picker.getByTestId('pick-option-Cream').click();
  await expect(picker.getByTestId('picker-limit')).toHaveText('Extras takes at most 2 choices: take one off to choose another.');
  await expect(picker.getByTestId('pick-option-Cream')).toHaveAttribute('aria-pressed', 'false');
  await shot(page, 'variants-02-picker-limit');
  await expectAccessible(page, 'the item picker');
  await picker.getByTestId('pick-option-Vanilla').click();
  await expect(picker.getByTestId('picker-price')).toHaveText('$5.00');
  await expect(add).toHaveText('Add $5.00');
  await page.keyboard.press('Enter');
  await expect(picker).toBeHidden();

  const line = page.getByTestId('cart-line');
  await expect(line).toHaveCount(1);
  await expect(line.locator('.cart-line-name')).toContainText('Latte Large');
  await expect(line.getByTestId('line-modifiers')).toHaveText(['+ Whole+ Extra shot$0.50']);
  await expect(line.locator('.cart-line-amount')).toHaveText('$5.00');
  // The same choice again adds up on its line.
  await page.getByTestId('quick-key-LATTE').click();
  await picker.getByTestId('pick-variant-Large').click();
  await picker.getByTestId('pick-option-Extra shot').click();
  await picker.getByTestId('pick-option-Whole').click();
  await picker.getByTestId('picker-add').click();
  await expect(line).toHaveCount(1);
  await expect(line.locator('.qty-value')).toHaveText('2');
  // A scanned size opens the picker with that size chosen; Escape closes it with nothing added.
  await tabs.getByRole('tab', { name: 'Cold drinks' }).click();
  await page.getByTestId('quick-key-WATER').click();
  await expect(line).toHaveCount(2);
  // Its stock is counted and none is left: said once under the lines, and the sale goes on.
  await expect(page.getByTestId('cart-stock-warning')).toHaveText('Only 0 Water left in stock: the count goes to \u22121.');
  await shot(page, 'variants-03a-stock-warning');
  await expectAccessible(page, 'ticket with a stock warning');
  await scan(page, 'LATTE-S');
  await expect(picker).toBeVisible();
  await expect(picker.getByTestId('pick-variant-Small')).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('Escape');
  await expect(picker).toBeHidden();
  await expect(line).toHaveCount(2);
  await shot(page, 'variants-03-ticket');
  await expectAccessible(page, 'ticket with modifiers');

  // 2 × 5.00 + 1.50 = 11.50; tax 8.25 % → 0.95; 12.45. A $20 note.
  await expect(page.getByTestId('cart-total')).toHaveText('$12.45');
  await page.getByTestId('cash-note-20').click();
  await expect(page.getByRole('heading', { name: 'Paid' })).toBeVisible();
  const receipt = page.getByTestId('cart-receipt');
  await expect(receipt).toContainText('Latte Large');
  await expect(receipt.getByTestId('line-modifiers')).toHaveText(['+ Whole+ Extra shot$0.50']);
  await expect(page.getByTestId('receipt-change')).toHaveText('$7.55');
  await receipt.scrollIntoViewIfNeeded();
  await shot(page, 'variants-04-receipt');
  await expectAccessible(page, 'receipt with modifiers');
});

test('dark, and at the 800×480 counter size: the tabs and the picker stay readable and in reach', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openApp(page, own.host, { theme: 'dark' });
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');
  const tabs = page.getByRole('tablist', { name: 'Categories' });
  await tabs.getByRole('tab', { name: 'Bakery' }).click();
  await expect(page.getByRole('tabpanel').locator('.quick-key-name')).toHaveText(['Croissant', 'Muffin']);
  await shot(page, 'variants-05-tabs-dark');
  await expectAccessible(page, 'category tabs, dark');
  await tabs.getByRole('tab', { name: 'Coffee' }).click();
  await page.getByTestId('quick-key-LATTE').click();
  const picker = page.getByRole('dialog', { name: 'Latte' });
  await picker.getByTestId('pick-variant-Large').click();
  await picker.getByTestId('pick-option-Oat milk').click();
  await expect(picker.getByTestId('picker-price')).toHaveText('$5.10');
  await shot(page, 'variants-06-picker-dark');
  await expectAccessible(page, 'the item picker, dark');

  await page.setViewportSize({ width: 800, height: 480 });
  // The sheet fits: its Add is on screen without scrolling the page.
  const addBox = await picker.getByTestId('picker-add').boundingBox();
  expect(addBox).not.toBeNull();
  expect(addBox!.y + addBox!.height).toBeLessThanOrEqual(480);
  expect(addBox!.height).toBeGreaterThanOrEqual(48);
  await page.screenshot({ path: 'test/output/screenshots/variants-07-picker-800x480-dark.png' });
  await expectAccessible(page, 'the item picker at 800×480');
  // Enter on Cancel cancels (everywhere else in the sheet it adds).
  await picker.getByRole('button', { name: 'Cancel' }).focus();
  await page.keyboard.press('Enter');
  await expect(picker).toBeHidden();
  await expect(page.getByTestId('cart-line')).toHaveCount(0);
  await expect(tabs).toBeVisible();
  await page.screenshot({ path: 'test/output/screenshots/variants-08-tabs-800x480-dark.png' });
});

test("the End of day X report counts the latte by its size, and the extra shots", async ({ page }) => {
  await openApp(page, own.host);
  await signIn(page, USERS.manager);
  await openManageTile(page, 'End of day');
  await expect(page.getByRole('heading', { name: 'X report — the day so far' })).toBeVisible();
  const items = page.getByTestId('report-items');
  await expect(items).toContainText('Latte Large');
  const mods = page.getByTestId('report-modifiers');
  await expect(mods.getByRole('row', { name: /Extra shot/ })).toContainText('2');
  await expect(mods.getByRole('row', { name: /Extra shot/ })).toContainText('$1.00');
  await items.scrollIntoViewIfNeeded();
  await shot(page, 'variants-09-x-report');
});
