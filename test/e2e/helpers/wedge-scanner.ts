/** A keyboard-wedge barcode scanner as the counter specs drive it. */
import type { Page } from '@playwright/test';

/**
 * What a keyboard-wedge scanner sends: the code's keys 5 ms apart by the scanner's clock, then
 * Enter. The keys go through Chromium's input pipeline (CDP Input.dispatchKeyEvent) with
 * their timestamps set, so each event's timeStamp is the scanner's, however long this busy
 * machine takes to hand them over (typed with Playwright's own 5 ms delay, one key was seen
 * to arrive 108 ms after the one before).
 */
export async function scan(page: Page, code: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const t0 = Date.now() / 1000;
  const keys = [...code].map((ch) => ({ key: ch, text: ch })).concat({ key: 'Enter', text: '\r' });
  for (const [i, k] of keys.entries()) {
    const at = t0 + i * 0.005;
    const enter = k.key === 'Enter' ? { code: 'Enter', windowsVirtualKeyCode: 13 } : {};
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', key: k.key, text: k.text, unmodifiedText: k.text, timestamp: at, ...enter });
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key: k.key, timestamp: at + 0.001, ...enter });
  }
  await cdp.detach();
}
