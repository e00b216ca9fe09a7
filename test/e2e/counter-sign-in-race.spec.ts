/**
 * A late answer to the sign-in call must not move the person. The core announces the new
 * session (an `auth:session` event) before it answers the call; on a busy machine the answer
 * can come a moment later, after the person has already gone on. Here the answer is held
 * back on purpose (Playwright routes the node host's WebSocket): the manager opens
 * Transactions as soon as the app shows them signed in, and must stay there when the answer
 * lands. Before the fix the sign-in screen sent them back to the sale screen, and a second
 * reset threw away what they had started (the flaky end-to-end tests).
 */
import { expect, test } from './fixtures';
import { openApp, USERS } from './helpers/counter';

test('the held-back answer to a sign-in leaves the manager where they went', async ({ page, app }) => {
  let signInCallId: number | null = null;
  const held: Array<() => void> = [];
  await page.routeWebSocket(/\/ipc$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => {
      const msg = JSON.parse(String(m)) as { type: string; id?: number; channel?: string };
      if (msg.type === 'call' && msg.channel === 'auth:sign-in') signInCallId = msg.id ?? null;
      server.send(m);
    });
    server.onMessage((m) => {
      const msg = JSON.parse(String(m)) as { type: string; id?: number };
      if (msg.type === 'result' && msg.id === signInCallId) held.push(() => ws.send(m));
      else ws.send(m);
    });
  });
  await openApp(page, app);
  await expect(page.getByRole('heading', { name: 'Who is at the counter?' })).toBeVisible();
  await page.getByRole('button', { name: new RegExp(`^\\S?\\s*${USERS.manager.name}`) }).click();
  await page.keyboard.type(USERS.manager.pin);
  await page.keyboard.press('Enter');
  // The event has landed: the app shows Morgan; the answer is still held back.
  await expect(page.getByTestId('status-user')).toContainText(USERS.manager.name);
  await expect.poll(() => held.length).toBe(1);
  await page.keyboard.press('F3');
  await expect(page.getByRole('heading', { name: "Today's transactions" })).toBeVisible();
  await page.getByLabel('Filter').fill('1111');
  held.shift()!();
  // A round trip made after the release answers after the released frame (one ordered socket):
  // once the list has reloaded, the sign-in answer has been handled.
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByRole('button', { name: 'Refresh' })).toBeEnabled();
  await expect(page.getByTestId('tx-count')).toBeVisible();
  await expect(page.getByRole('heading', { name: "Today's transactions" })).toBeVisible();
  await expect(page.getByLabel('Filter')).toHaveValue('1111');
});
