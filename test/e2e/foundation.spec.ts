import { expect, shot, test } from './fixtures';

test.describe('foundation: the core status through the contract', () => {
  test('the System screen shows version, data folder and a healthy embedded engine', async ({ page, app }) => {
    const consoleErrors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    page.on('pageerror', (e) => consoleErrors.push(e.message));

    await page.goto(app.url);
    // The System screen is behind its navigation entry. Clicking waits for the entry to render:
    // counting it at once raced the first paint (a clean CI run counted 0 and never opened it).
    const nav = page.getByRole('navigation').getByRole('link', { name: /^system$/i }).or(page.getByRole('navigation').getByRole('button', { name: /^system$/i }));
    await nav.first().click();
    await expect(page.getByTestId('core-status')).toBeVisible();
    await expect(page.getByTestId('status-version')).toHaveText(/^\d+\.\d+\.\d+/);
    await expect(page.getByTestId('status-data-dir')).toHaveText(app.dataDir);
    await expect(page.getByTestId('status-gateway-mode')).toHaveText(/embedded/i);
    await expect(page.getByTestId('status-gateway-url')).toHaveText(app.gateway.baseUrl);
    expect(app.gateway.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v2$/);
    await expect(page.getByTestId('status-gateway-health')).toContainText(/healthy/i);
    // The token left the address bar as soon as the page read it.
    expect(new URL(page.url()).hash).toBe('');
    await shot(page, 'foundation-system-status');
    expect(consoleErrors).toEqual([]);
  });

  test('a page opened without the access token gets a plain explanation, not the app', async ({ page, app }) => {
    await page.goto(app.origin);
    await expect(page.getByRole('alert')).toContainText(/access key/i);
    await shot(page, 'foundation-no-token');
  });
});
