/**
 * A slow report does not freeze the counter (issue 22, point 4). Two windows on one host,
 * each its own caller with its own sign-in: in window A a manager opens End of day, whose X
 * report reads a busy day — 50,000 cash cart sales seeded in ringup.db (real rows, the ones
 * the cart code writes; seed-cart-sales.ts) — for seconds; in window B, meanwhile, a cashier
 * taps three quick keys, and each line is on screen while A's report is still counting.
 *
 * Not timed (no figure is compared with a clock): it proves an order. When the core read the
 * report's figures on its own thread, B's second tap waited behind them and its line came after
 * A's report; now they are read on a worker thread (reports/report-reader.ts) in the core
 * process, and B's calls are answered meanwhile. The figure of it is `npm run bench:responsiveness`.
 */
import { expect, shot, startHostProcess, stopHostProcess, test, type HostInfo } from './fixtures';
import { managerLoadsCatalogue } from './helpers/catalogue';
import { openApp, signIn, USERS } from './helpers/counter';
import { openManageTile } from './helpers/manager';
import { seedCartSales } from './helpers/seed-cart-sales';

const SEEDED_CARTS = 50_000;
const CSV = 'name,price,sku,quick_key\nTea,2.50,TEA,yes\nScone,3.25,SCO,yes\nJam,4.00,JAM,yes\n';

let host: HostInfo | undefined;
test.afterEach(async () => {
  if (host) await stopHostProcess(host);
  host = undefined;
});

test("while window A's X report reads a busy day, window B's quick-key taps are painted before it comes back", async ({ page, browser }) => {
  test.setTimeout(300_000);
  host = await startHostProcess();
  const a = page;
  await openApp(a, host);
  await managerLoadsCatalogue(a, CSV);
  const seeded = seedCartSales(host.dataDir, SEEDED_CARTS);

  const contextB = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: process.env.RINGUP_E2E_TZ });
  const b = await contextB.newPage();
  try {
    await openApp(b, host);
    await signIn(b, USERS.cashier);
    const lines = b.getByTestId('cart-line');
    await expect(b.getByTestId('quick-key-TEA')).toBeEnabled();
    await expect(lines).toHaveCount(0);

    // A's report starts: the button says so until the core answers.
    await openManageTile(a, 'End of day');
    const xButton = a.getByRole('button', { name: /^(Counting…|X report \(day so far\))$/ });
    await expect(xButton).toHaveText('Counting…');

    for (const [n, sku] of ['TEA', 'SCO', 'JAM'].entries()) {
      await b.getByTestId(`quick-key-${sku}`).click();
      await expect(lines).toHaveCount(n + 1);
      // Read once, not waited for: A's report has not come back while B's line is on screen.
      expect(await xButton.textContent(), `A's report came back before B's line ${n + 1} was painted`).toBe('Counting…');
    }
    await expect(b.getByTestId('cart-total')).toContainText('$');
    await shot(b, 'core-responsiveness-b-lines-during-report');
    await shot(a, 'core-responsiveness-a-counting');

    // Then A's report comes, with the whole seeded day in it (B's cart is not paid: not in it).
    await expect(a.getByRole('heading', { name: 'X report — the day so far' })).toBeVisible({ timeout: 240_000 });
    // 125 rounds of $1.00 … $4.99: 125 × $1,198.00.
    expect(seeded.cashCents).toBe(14_975_000);
    await expect(a.getByTestId('report-cash-sales')).toHaveText('$149,750.00');
    await shot(a, 'core-responsiveness-a-report');
  } finally {
    await contextB.close();
  }
});
