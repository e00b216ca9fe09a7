/** Steps the manager specs share: open a Manage hub tile the way a person would (F5, then the tile). */
import { expect, type Page } from '@playwright/test';

export async function openManageTile(page: Page, label: string): Promise<void> {
  await page.keyboard.press('F5');
  await expect(page.getByRole('heading', { name: 'Manage' })).toBeVisible();
  await page.getByRole('button', { name: new RegExp(`^${label}`) }).click();
}
