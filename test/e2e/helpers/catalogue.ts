/** Steps the cart specs share: a manager loads items into the catalogue the way a person would (the CSV file picker). */
import { expect, type Page } from '@playwright/test';
import { signIn, USERS } from './counter';
import { openManageTile } from './manager';

export async function importCsv(page: Page, csv: string): Promise<void> {
  await page.getByTestId('csv-file').setInputFiles({ name: 'items.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
}

/** The manager signs in, opens Catalogue and imports `csv`; waits until the screen says it was imported. */
export async function managerLoadsCatalogue(page: Page, csv: string): Promise<void> {
  await signIn(page, USERS.manager);
  await openManageTile(page, 'Catalogue');
  await importCsv(page, csv);
  await expect(page.getByTestId('csv-result')).toContainText('Imported');
}
