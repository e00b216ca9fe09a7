/**
 * A screen as it is now, at every counter size (COUNTER_SIZES) in light and dark: axe once per
 * theme, a screenshot per size named `<name>-<theme>-<w>x<h>`, then back to light at 1280×800.
 * Theme switches with F9, as a person does. `show`: what the picture is of, brought to the top
 * of the view at each size (where a side panel stacks above it, it would be below the fold).
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { shot } from '../fixtures';
import { COUNTER_SIZES, expectAccessible } from './counter';

export async function shootEverySize(page: Page, name: string, show?: Locator): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    if ((await page.locator('html').getAttribute('data-theme')) !== theme) await page.keyboard.press('F9');
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await expectAccessible(page, `${name} (${theme})`);
    for (const size of COUNTER_SIZES) {
      await page.setViewportSize(size);
      await show?.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await shot(page, `${name}-${theme}-${size.width}x${size.height}`);
    }
  }
  await page.keyboard.press('F9');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await page.setViewportSize({ width: 1280, height: 800 });
}
