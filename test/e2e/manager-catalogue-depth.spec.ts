/**
 * The manager's Catalogue screen for issue 23 (point 6), end to end against the node host and
 * real SQLite: categories with a colour, modifier groups with their rule and priced choices, an
 * item with a category, variants (own price and SKU) and groups, its stock counted; a CSV file
 * adding a counted item in a category; a stocktake through Adjust count; the low-stock list;
 * Export CSV downloading the whole catalogue in the format the import reads; the counter told
 * once when a line takes a counted item below zero, and the count down after the sale.
 * Screenshots in light and dark, axe clean on each.
 */
import { readFileSync } from 'node:fs';
import { expect, hostOfThisFile, shot, test } from './fixtures';
import { expectAccessible, openApp, signIn, USERS } from './helpers/counter';
import { importCsv } from './helpers/catalogue';
import { openManageTile } from './helpers/manager';

test.describe.configure({ mode: 'serial' });
const own = hostOfThisFile();

test('a manager sets up categories, modifier groups, a latte in two sizes and counted stock; exports it all as one CSV', async ({ page }) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await openApp(page, own.host);
  await signIn(page, USERS.manager);
  await openManageTile(page, 'Catalogue');
  await expect(page.getByRole('heading', { name: 'Catalogue' })).toBeVisible();

  // Categories.
  const catForm = page.getByRole('form', { name: 'Add a category' });
  for (const [name, colour, order] of [
    ['Coffee', 'amber', '1'],
    ['Drinks', 'teal', '2'],
  ] as const) {
    await catForm.getByLabel('Category name').fill(name);
    await catForm.getByLabel('Colour').selectOption(colour);
    await catForm.getByLabel('Tab order').fill(order);
    await catForm.getByRole('button', { name: 'Add category' }).click();
    await expect(page.getByTestId('categories-panel').getByText(`${name} saved.`)).toBeVisible();
  }
  await catForm.getByLabel('Category name').fill('coffee');
  await catForm.getByRole('button', { name: 'Add category' }).click();
  await expect(catForm.getByText('There is a category called “Coffee” already.')).toBeVisible();
  await catForm.getByLabel('Category name').fill('');

  // Modifier groups: a required milk, optional extras.
  const groupForm = page.getByRole('form', { name: 'Add a modifier group' });
  await groupForm.getByLabel('Group name').fill('Milk');
  await groupForm.getByLabel('Fewest choices (1 = required)').fill('1');
  await groupForm.getByLabel('Most choices').fill('1');
  await groupForm.getByLabel('Choice 1', { exact: true }).fill('Whole');
  await groupForm.getByRole('button', { name: 'Add choice' }).click();
  await groupForm.getByLabel('Choice 2', { exact: true }).fill('Oat');
  await groupForm.getByLabel('Adds', { exact: true }).nth(1).fill('0.50');
  await groupForm.getByRole('button', { name: 'Add group' }).click();
  await expect(page.getByTestId('modifier-groups-panel').getByText('Milk saved.')).toBeVisible();
  await groupForm.getByLabel('Group name').fill('Extras');
  await groupForm.getByLabel('Most choices').fill('0');
  await groupForm.getByLabel('Choice 1', { exact: true }).fill('Extra shot');
  await groupForm.getByLabel('Adds', { exact: true }).fill('0.50');
  await groupForm.getByRole('button', { name: 'Add group' }).click();
  // Refused on the field in plain words, then fixed.
  await expect(groupForm.getByText('At least 1 choice.')).toBeVisible();
  await groupForm.getByLabel('Most choices').fill('3');
  await groupForm.getByRole('button', { name: 'Add group' }).click();
  await expect(page.getByTestId('modifier-groups-panel').getByText('Extras saved.')).toBeVisible();
  await expect(page.getByTestId('groups-table')).toContainText('Choose 1');
  await expect(page.getByTestId('groups-table')).toContainText('Up to 3');
  await expect(page.getByTestId('groups-table')).toContainText('Oat +$0.50');

  // A latte in two sizes, in Coffee, offering both groups, its stock counted.
  const form = page.getByRole('form', { name: 'Add an item' });
  await form.getByLabel('Name', { exact: true }).fill('Latte');
  await form.getByLabel('Price', { exact: true }).fill('4.00');
  await form.getByLabel('Category').selectOption({ label: 'Coffee' });
  await form.getByText('Count stock').click();
  await form.getByLabel('Reorder at (low stock)').fill('3');
  await form.getByRole('button', { name: 'Add variant' }).click();
  await form.getByLabel('Variant 1 name').fill('Small');
  await form.locator('#variant-0-price').fill('3.50');
  await form.locator('#variant-0-sku').fill('LAT-S');
  await form.getByRole('button', { name: 'Add variant' }).click();
  await form.getByLabel('Variant 2 name').fill('Large');
  await form.locator('#variant-1-price').fill('4.50');
  await form.locator('#variant-1-sku').fill('LAT-S');
  await form.getByRole('checkbox', { name: /^Milk/ }).check();
  await form.getByRole('checkbox', { name: /^Extras/ }).check();
  await form.getByRole('button', { name: 'Add item' }).click();
  // The same SKU twice on one item: said on the row that repeats it.
  await expect(form.getByText('The SKU LAT-S is given twice on this item: each variant needs its own.')).toBeVisible();
  await form.locator('#variant-1-sku').fill('LAT-L');
  await form.getByRole('button', { name: 'Add item' }).click();
  await expect(page.getByText('Latte saved.')).toBeVisible();
  const table = page.getByTestId('catalogue-table');
  await expect(table.getByRole('row', { name: /^Latte \$4\.00/ })).toContainText('Small $3.50, Large $4.50');
  await expect(table.getByRole('row', { name: /^Latte \$4\.00/ })).toContainText('Coffee');

  // A counted bottle of water in Drinks, from a CSV file.
  await importCsv(page, 'name,price,sku,category,track_stock,stock,reorder_level,tax_category,quick_key\nWater 500 ml,2.00,WAT,Drinks,yes,2,6,exempt,yes\n');
  await expect(page.getByTestId('csv-result')).toContainText('Imported 1 item. 1 added, 0 updated (matched by SKU).');

  // A stocktake of the large lattes.
  const stock = page.getByTestId('stock-panel');
  await stock.getByRole('button', { name: 'Adjust count of Latte Large' }).click();
  const dialog = page.getByRole('dialog', { name: 'Adjust count: Latte Large' });
  await expect(dialog.getByLabel('Count on the shelf')).toBeFocused();
  await dialog.getByLabel('Count on the shelf').fill('10');
  await dialog.getByRole('button', { name: 'Save count' }).click();
  await expect(dialog.getByText('Say why the count changes (delivery, stocktake, breakage…).')).toBeVisible();
  await dialog.getByLabel('Why').fill('stocktake');
  await shot(page, 'catalogue-depth-01-adjust-count');
  await expectAccessible(page, 'adjust count dialog');
  await dialog.getByRole('button', { name: 'Save count' }).click();
  await expect(stock.getByText('Latte Large: 0 → 10.')).toBeVisible();
  await expect(stock.getByTestId('stock-table').getByRole('row', { name: /^Latte Large 10 3/ })).toBeVisible();
  // Low stock: the water (2, reorder at 6) and the small lattes (0, reorder at 3); emptiest first.
  await expect(stock.getByTestId('low-stock').getByRole('listitem')).toHaveText(['Latte Small: 0 on hand (reorder at 3)', 'Water 500 ml: 2 on hand (reorder at 6)']);

  // Export CSV: the whole catalogue, in the import's own format.
  const downloading = page.waitForEvent('download');
  await page.getByTestId('csv-export').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^catalogue-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync(await download.path(), 'utf8').split('\r\n');
  expect(csv[0]).toBe('name,price,sku,product_code,unit_code,commodity_code,tax_category,quick_key,category,variant,modifier_groups,track_stock,stock,reorder_level,archived');
  expect(csv).toContain('Latte,4.00,,,EA,,standard,yes,Coffee,,Milk|Extras,yes,,3,no');
  expect(csv).toContain('Latte,4.50,LAT-L,,,,,,,Large,,,10,,');
  expect(csv).toContain('Water 500 ml,2.00,WAT,,EA,,exempt,yes,Drinks,,,yes,2,6,no');
  expect(csv).toContain('category,colour,sort_order');
  expect(csv).toContain('Milk,1,1,Oat,0.50');

  await page.getByRole('heading', { name: 'Catalogue' }).evaluate((h) => h.scrollIntoView({ block: 'start' }));
  await shot(page, 'catalogue-depth-02-screen-light');
  await expectAccessible(page, 'catalogue depth (light)');
  await page.getByTestId('categories-panel').evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot(page, 'catalogue-depth-02b-categories-groups-light');
  await page.getByTestId('stock-panel').evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot(page, 'catalogue-depth-02c-stock-items-light');
  // Editing the latte shows every part of it back on the form.
  await table.getByRole('button', { name: 'Edit Latte' }).click();
  const edit = page.getByRole('form', { name: 'Edit item' });
  await expect(edit.getByLabel('Variant 2 name')).toHaveValue('Large');
  await expect(edit.getByRole('checkbox', { name: /^Milk/ })).toBeChecked();
  await expect(edit.getByLabel('Category')).toHaveValue(/.+/);
  await page.keyboard.press('F9'); // dark theme
  await page.getByRole('heading', { name: 'Catalogue' }).evaluate((h) => h.scrollIntoView({ block: 'start' }));
  await shot(page, 'catalogue-depth-03-screen-dark-editing');
  await expectAccessible(page, 'catalogue depth (dark, editing)');
  await page.getByTestId('categories-panel').evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot(page, 'catalogue-depth-03b-categories-groups-dark');
  await page.getByTestId('stock-panel').evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot(page, 'catalogue-depth-03c-stock-items-dark');
  await page.keyboard.press('F9');
  expect(errors).toEqual([]);
});

test('the counter rings up more water than is counted: told once, the sale goes on, the count goes below zero', async ({ page }) => {
  await openApp(page, own.host);
  await signIn(page, USERS.cashier);
  await page.keyboard.press('F2');
  const key = page.getByTestId('quick-key-WAT');
  await key.click();
  await key.click();
  await expect(page.getByTestId('cart-stock-warning')).toHaveCount(0);
  await key.click();
  await expect(page.getByTestId('cart-stock-warning')).toHaveText('Only 2 Water 500 ml left in stock: the count goes to \u22121.');
  await shot(page, 'catalogue-depth-04-counter-stock-warning');
  await expectAccessible(page, 'counter with a stock warning');
  // Said once: a fourth bottle is not warned again.
  await key.click();
  await expect(page.getByTestId('cart-stock-warning')).toHaveCount(0);
  await page.getByTestId('cash-exact').click();
  await expect(page.getByRole('heading', { name: 'Paid' })).toBeVisible();
  await page.getByRole('button', { name: /New sale/ }).click();
  await signIn(page, USERS.manager);
  await openManageTile(page, 'Catalogue');
  await expect(page.getByTestId('stock-table').getByRole('row', { name: /^Water 500 ml −2 6/ })).toBeVisible();
  await expect(page.getByTestId('low-stock').getByRole('listitem').first()).toHaveText('Water 500 ml: −2 on hand (reorder at 6)');
});
