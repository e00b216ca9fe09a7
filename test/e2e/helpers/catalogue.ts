/** Steps the cart specs share: a manager loads items into the catalogue the way a person would (the CSV file picker). */
import type { Page } from '@playwright/test';

export async function importCsv(page: Page, csv: string): Promise<void> {
  await page.getByTestId('csv-file').setInputFiles({ name: 'items.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
}
