/**
 * The audit log is tamper-evident (issue 22, point 2), as a manager sees it on the System
 * screen: "Check the audit log" (a 48 px button, reached from the keyboard) says every record
 * checks out; after someone drops the triggers and edits a record in ringup.db with another
 * connection, the same button names that record. Both themes, axe clean. A cashier's System
 * screen has no such button (the channel is a manager's).
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, shot, startHostProcess, stopHostProcess, test } from './fixtures';
import { expectAccessible, openApp, signIn, USERS } from './helpers/counter';

test('a manager checks the audit log on the System screen and is told which record was changed in the file', async ({ page }) => {
  // A host of its own: the test edits its database behind its back.
  const app = await startHostProcess();
  try {
    await openApp(page, app, { theme: 'light' });
    await signIn(page, USERS.cashier);
    await page.keyboard.press('F4');
    await expect(page.getByRole('heading', { name: 'System' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Check the audit log' })).toHaveCount(0);

    await signIn(page, USERS.manager);
    await page.keyboard.press('F4');
    const check = page.getByRole('button', { name: 'Check the audit log' });
    await expect(check).toBeVisible();
    expect((await check.boundingBox())!.height).toBeGreaterThanOrEqual(48);
    // From the keyboard: the button takes the focus and Enter presses it.
    await check.focus();
    await expect(check).toBeFocused();
    await page.keyboard.press('Enter');
    const ok = page.getByRole('status').filter({ hasText: /audit records check out\.$/ });
    await expect(ok).toHaveText(/^All \d[\d,]* audit records check out\.$/);
    await expect(check).toBeFocused(); // the answer came without taking the keyboard's place
    await expectAccessible(page, 'System screen, audit log checked (light)');
    await shot(page, 'audit-chain-ok-light');

    // Someone with the file: drops the trigger that refuses UPDATE and rewrites the first record.
    const db = new Database(join(app.dataDir, 'ringup.db'));
    try {
      db.exec('DROP TRIGGER audit_log_no_update');
      db.prepare("UPDATE audit_log SET user_name = 'Nobody' WHERE seq = 1").run();
    } finally {
      db.close();
    }

    await page.keyboard.press('F9'); // the dark theme
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await check.click();
    await expect(page.getByRole('alert').filter({ hasText: 'Audit record' })).toHaveText('Audit record 1 was changed or removed after it was written.');
    await expectAccessible(page, 'System screen, audit log changed (dark)');
    await shot(page, 'audit-chain-changed-dark');
  } finally {
    await stopHostProcess(app);
  }
});
