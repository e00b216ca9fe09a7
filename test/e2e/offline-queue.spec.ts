/**
 * Offline store-and-forward (issue 13), end to end: the counter uses a gateway (a real
 * standalone engine) behind a real TCP gate, with the terminal simulator on a real TCP
 * port. Mid-day the gate stops listening (connection refused, as when the gateway is down):
 * the banner shows; under the store's default settings a keyed card is refused with its own
 * sentence and the same sale is paid on the terminal, approved offline (card-present). A
 * manager then allows keyed cards offline: a keyed sale is approved offline with the
 * customer's contact details, one over the cap is refused with a sentence. The app is then
 * killed (SIGKILL) and started again during the outage; the queue is still there. When the
 * gate listens again the queue drains by itself, exactly once per sale (the terminal's with
 * its chip entry mode), and the one the issuer declines is listed for the manager with the
 * customer's details. A second test queues many sales and slows the link, so the forwarding
 * progress shows in the status bar and on the queue screen. Screenshots light and dark; axe
 * on each screen; the status bar is never clipped at 1280 px.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import WebSocketClient from 'ws';
import { OFFLINE_ERRORS } from '../../electron/core/queue/offline-queue';
import { TerminalSimulator } from '../../electron/devices/sim/terminal-simulator';
import { createWsBridge } from '../../renderer/src/bridge/ws-bridge';
import type { RingupBridge } from '../../shared/ipc/contract';
import { expect, shot, startHostProcess, stopHostProcess, test, type HostInfo } from './fixtures';
import { CARDS, expectAccessible, openApp, ringUpKeyedSale, signIn, USERS } from './helpers/counter';
import { engineHeaders, type EngineCreds } from './helpers/engine-api';
import { openManageTile } from './helpers/manager';
import { startStandaloneEngine } from '../helpers/standalone-engine';
import { Gate } from '../helpers/tcp-gate';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy';

let engine: ChildProcess | undefined;
let engineDir = '';
let host: HostInfo | undefined;
let gate: Gate | undefined;
let proxy: TcpProxy | undefined;
let sim: TerminalSimulator | undefined;

test.afterEach(async () => {
  if (host) await stopHostProcess(host);
  host = undefined;
  await gate?.down();
  await proxy?.close();
  await sim?.close();
  engine?.kill('SIGTERM');
  if (engineDir) rmSync(engineDir, { recursive: true, force: true });
});

/** A standalone engine behind a gate (and, when asked, a proxy that can slow the link), and a host that uses it. */
async function outageRig(opts: { slowable?: boolean } = {}): Promise<{ creds: EngineCreds; env: Record<string, string> }> {
  engineDir = mkdtempSync(join(tmpdir(), 'ringup-e2e-offline-engine-'));
  const e = await startStandaloneEngine<EngineCreds>(engineDir);
  engine = e.child;
  const enginePort = Number(new URL(e.creds.base_url).port);
  if (opts.slowable) proxy = await startTcpProxy(enginePort);
  gate = new Gate(proxy ? proxy.port : enginePort);
  await gate.up();
  const env = {
    RINGUP_GATEWAY_URL: `http://127.0.0.1:${gate.port}/v2`,
    RINGUP_DEVELOPER_ID: e.creds.developer_id,
    RINGUP_USER_ID: e.creds.user_id,
    RINGUP_USER_API_KEY: e.creds.user_api_key,
    RINGUP_LOCATION_ID: e.creds.location_id,
  };
  return { creds: e.creds, env };
}

/** Every item of the status bar shows whole (the version alone may give way with an ellipsis), on one line. */
async function expectStatusBarWhole(page: Page): Promise<void> {
  const bar = page.getByRole('contentinfo', { name: 'Status' });
  expect((await bar.boundingBox())!.height).toBeLessThan(48);
  const cut = await bar.evaluate((el) => {
    const right = el.getBoundingClientRect().right;
    return Array.from(el.querySelectorAll<HTMLElement>('.status-item:not(.status-right)'))
      .filter((i) => i.scrollWidth > i.clientWidth + 1 || i.getBoundingClientRect().right > right + 0.5)
      .map((i) => i.textContent);
  });
  expect(cut, 'status bar items cut off').toEqual([]);
}

test('a gateway outage mid-day: card-present sales by default, keyed once allowed, the app killed and restarted, the queue drains by itself exactly once', async ({ page }) => {
  test.setTimeout(150_000);
  const { creds, env } = await outageRig();
  // The counter's terminal: the simulator, where the installer pointed the demo terminal.
  sim = new TerminalSimulator();
  sim.script.stepMs = 250;
  const simPort = await sim.listenTcp(0);
  const terminals = (await (await fetch(`${creds.base_url}/terminals`, { headers: engineHeaders(creds) })).json()) as { terminals: Array<{ id: string }> };
  await fetch(`${creds.base_url}/terminals/${terminals.terminals[0]!.id}`, {
    method: 'PUT',
    headers: engineHeaders(creds),
    body: JSON.stringify({ terminal: { local_ip_address: '127.0.0.1', port: simPort } }),
  });
  host = await startHostProcess([], env);
  const dataDir = host.dataDir;

  await openApp(page, host);
  await signIn(page, USERS.cashier);
  await expect(page.getByTestId('status-terminal')).toHaveText('Terminal: Demo Terminal, connected');
  await page.getByRole('radio', { name: 'Key card' }).click();
  await ringUpKeyedSale(page, { amountDigits: '1850' });
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
  await expect(page.getByTestId('status-offline-queue')).toHaveText('Offline queue: empty');
  await page.keyboard.press('n');

  // Mid-day, the gateway goes away. The store's defaults: card-present sales are taken offline, keyed cards are not.
  await gate!.down();
  await expect(page.getByTestId('gateway-banner')).toContainText('Card sales on the terminal up to $100.00 are approved offline', { timeout: 15_000 });
  await ringUpKeyedSale(page, { amountDigits: '2450' });
  await expect(page.getByTestId('sale-error')).toHaveText(OFFLINE_ERRORS.keyed, { timeout: 15_000 });
  await expect(page.getByTestId('status-offline-queue')).toHaveText('Offline queue: empty');
  await shot(page, 'offline-keyed-refused');
  await expectAccessible(page, 'keyed card refused offline');

  // The customer pays the same sale on the terminal: read there, approved offline.
  await page.getByRole('radio', { name: 'Terminal' }).click();
  await expect(page.getByTestId('terminal-line')).toContainText('Demo Terminal (ready)');
  await page.getByTestId('pay-terminal').click();
  await expect(page.getByTestId('terminal-prompt')).toHaveText('Insert, tap or swipe card');
  await expect(page.getByTestId('result-title')).toHaveText('Approved offline', { timeout: 20_000 });
  await expect(page.getByTestId('receipt').getByTestId('receipt-offline')).toBeVisible();
  await expect(page.getByTestId('receipt')).toContainText('Chip');
  await expect(page.getByTestId('status-offline-queue')).toHaveText('Offline queue: 1 sale, $24.50');
  await expect(page.getByTestId('offline-customer')).toBeVisible();
  await shot(page, 'offline-terminal-sale-approved');
  await expectAccessible(page, 'terminal sale approved offline');
  await expectStatusBarWhole(page);
  await page.getByRole('button', { name: /New sale/ }).click();

  // A manager allows keyed cards offline, with a short expiry window and the alert as soon as a sale waits.
  await signIn(page, USERS.manager);
  await openManageTile(page, 'Store settings');
  await page.getByRole('switch', { name: 'Take keyed cards offline' }).check();
  await page.getByLabel('Expire unsent sales after').fill('2');
  await page.getByLabel('Alert before expiry').fill('2');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Saved. Every counter window uses the new settings now.')).toBeVisible();
  await page.getByRole('group', { name: 'Offline sales' }).scrollIntoViewIfNeeded();
  await shot(page, 'offline-settings');
  await expectAccessible(page, 'store settings with offline rules');

  await signIn(page, USERS.cashier);
  await expect(page.getByTestId('gateway-banner')).toContainText('Card sales up to $100.00, on the terminal or keyed, are approved offline');
  await page.getByRole('button', { name: /^Sale/ }).click();
  await page.getByRole('radio', { name: 'Key card' }).click();
  await ringUpKeyedSale(page, { amountDigits: '601' }); // the issuer will decline this one once forwarded
  await expect(page.getByTestId('result-title')).toHaveText('Approved offline', { timeout: 15_000 });
  await expect(page.getByTestId('receipt').getByText('APPROVED OFFLINE', { exact: true })).toBeVisible();
  await expect(page.getByTestId('receipt-merchant').getByTestId('receipt-offline')).toBeAttached(); // the printed merchant copy
  // The customer leaves a way to reach them, in case the card is declined once sent.
  await page.getByLabel('Phone or e-mail').fill('call me');
  await page.getByLabel("Customer's name").fill('Pat Doe');
  await page.getByRole('button', { name: 'Save contact' }).click();
  await expect(page.getByText('Type a phone number or an e-mail address, or leave it empty.')).toBeVisible();
  await page.getByLabel('Phone or e-mail').fill('(352) 555-0142');
  await page.getByRole('button', { name: 'Save contact' }).click();
  await expect(page.getByText('Saved with the sale.')).toBeVisible();
  await expect(page.getByTestId('status-offline-queue')).toHaveText('Offline queue: 2 sales, $30.51 · 1 expiring soon');
  await shot(page, 'offline-sale-approved-offline');
  await expectAccessible(page, 'approved offline, customer details');
  await expectStatusBarWhole(page);
  await page.getByRole('button', { name: /New sale/ }).click();
  await ringUpKeyedSale(page, { amountDigits: '15000' });
  await expect(page.getByText('a sale taken offline is at most $100.00')).toBeVisible();
  await expect(page.getByTestId('status-offline-queue')).toHaveText('Offline queue: 2 sales, $30.51 · 1 expiring soon');
  await shot(page, 'offline-sale-over-cap-refused');
  await expectStatusBarWhole(page);

  // The app is killed during the outage and started again on the same data.
  host.process.kill('SIGKILL');
  await new Promise((r) => host!.process.once('exit', r));
  host = await startHostProcess([], env, dataDir);
  await page.goto(`${host.origin}#token=${host.token}`);
  await signIn(page, USERS.manager);
  await expect(page.getByTestId('status-offline-queue')).toHaveText('Offline queue: 2 sales, $30.51 · 1 expiring soon');
  await openManageTile(page, 'Offline queue');
  await expect(page.getByTestId('queue-row')).toHaveCount(2);
  await expect(page.getByTestId('queue-row').getByTestId('queue-state')).toHaveText(['Waiting', 'Waiting']);
  await expect(page.getByTestId('queue-row').first()).toContainText('Pat Doe');
  await expect(page.getByTestId('queue-row').nth(1)).toContainText('chip');
  await expect(page.getByTestId('queue-expiry-alert')).toContainText('1 offline sale expires within 2 hours');
  await expect(page.getByTestId('status-queue-expiring')).toHaveText('· 1 expiring soon');
  await shot(page, 'offline-queue-waiting');
  await expectStatusBarWhole(page);
  await expectAccessible(page, 'queue screen,');

  // The gateway answers again: the queue drains by itself.
  await gate!.up();
  await expect(page.getByTestId('status-offline-queue')).toHaveText('Offline queue: empty', { timeout: 20_000 });
  await expect(page.getByTestId('queue-row').getByTestId('queue-state')).toHaveText(['Declined', 'Approved']);
  const problem = page.getByTestId('queue-problem-row');
  await expect(problem).toHaveCount(1);
  await expect(problem).toContainText('$6.01');
  await expect(problem.getByTestId('queue-customer')).toContainText('Pat Doe');
  await expect(problem.getByTestId('queue-customer')).toContainText('(352) 555-0142');
  await expect(problem.getByTestId('queue-customer')).toContainText('32606');
  await expect(problem).toContainText('Declined once sent');
  await expect(problem).toContainText('Reach the customer and collect $6.01 another way.');
  await expect(page.getByTestId('gateway-banner')).toBeHidden();
  await expect(page.getByTestId('queue-expiry-alert')).toBeHidden();
  await shot(page, 'offline-queue-drained');
  await expectAccessible(page, 'queue screen, drained');
  await page.getByRole('button', { name: 'Use the dark theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await shot(page, 'offline-queue-drained-dark');
  await expectAccessible(page, 'queue screen, dark');

  // Exactly once per sale at the gateway; the terminal's sale with its chip entry mode.
  const list = await fetch(`${creds.base_url}/transactions?page_size=100`, { headers: engineHeaders(creds) });
  const rows = ((await list.json()) as { transactions: Array<{ transaction_amount: string; entry_mode_id: string }> }).transactions;
  expect(rows.map((t) => t.transaction_amount).sort()).toEqual(['18.50', '24.50', '6.01']);
  expect(rows.find((t) => t.transaction_amount === '24.50')!.entry_mode_id).toBe('C');
});

test('forwarding many sales over a slow link: the progress shows in the status bar and on the queue screen', async ({ page }) => {
  test.setTimeout(150_000);
  const { creds, env } = await outageRig({ slowable: true });
  host = await startHostProcess([], env);
  await openApp(page, host);
  await signIn(page, USERS.manager);

  // A second counter window (the host's own bridge, as a browser tab would use it) rings up the sales quickly.
  // (Node 20 has no WebSocket of its own: the `ws` package's speaks the same browser API; it sends the page's origin, as a tab does.)
  const origin = new URL(host.origin).origin;
  (globalThis as { WebSocket?: unknown }).WebSocket = class extends WebSocketClient {
    constructor(url: string) {
      super(url, { origin });
    }
  };
  const till = createWsBridge(`ws://${new URL(host.origin).host}/ipc`, host.token) as RingupBridge;
  const users = await till.authUsers();
  if (!users.ok) throw new Error(users.error.message);
  expect((await till.authSignIn({ userId: users.value.users.find((u) => u.name === USERS.manager.name)!.id, pin: USERS.manager.pin })).ok).toBe(true);
  const st = await till.settingsGet();
  if (!st.ok) throw new Error(st.error.message);
  expect((await till.settingsUpdate({ ...st.value, offlineAllowKeyed: true })).ok).toBe(true);

  await gate!.down();
  await till.gatewayCheck();
  const COUNT = 120;
  for (let i = 0, made = 0; made < COUNT && i < COUNT + 5; i++) {
    const r = await till.saleCharge({ subtotalCents: 100 + (made % 40), taxCents: 0, tipCents: 0, card: { number: CARDS.visa, expiry: '1230', cvv: '999', zip: '32606' }, clientRef: `bulk-${i}` });
    if (!r.ok) continue; // the first after the outage may meet a dead kept-alive connection ("did not answer")
    made++;
    // This window's screen "shows" each and acknowledges it, as a sale screen does (issue 20, point 3): only then is it sent.
    expect((await till.queueAcknowledge({ id: r.value.transaction.id })).ok).toBe(true);
  }
  await expect(page.getByTestId('status-offline-queue')).toContainText(`Offline queue: ${COUNT} sales`);
  await openManageTile(page, 'Offline queue');
  await expect(page.getByTestId('queue-summary')).toContainText(`${COUNT} sales waiting`);

  // The gateway answers again, over a slow link: a quarter of a second per answer.
  proxy!.delayMs = 250;
  await gate!.up();
  await page.getByRole('button', { name: 'Send now' }).click();
  await expect(page.getByTestId('queue-progress')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('queue-progress')).toContainText(/Sending to the gateway: \d+ of \d+/);
  await expect(page.getByTestId('status-offline-queue')).toContainText(/Offline queue: sending \d+ of \d+/);
  // Progress moves while it runs; sales getting through make the health probe look again, so the banner goes.
  const done = async () => Number(/Sending to the gateway: (\d+)/.exec((await page.getByTestId('queue-progress').textContent()) ?? '')?.[1] ?? -1);
  const first = await done();
  await expect.poll(done, { timeout: 20_000 }).toBeGreaterThan(Math.max(first, 30));
  await expect(page.getByTestId('gateway-banner')).toBeHidden();
  await shot(page, 'offline-queue-sending');
  await expectStatusBarWhole(page);
  await expectAccessible(page, 'queue screen, sending');

  await expect(page.getByTestId('status-offline-queue')).toHaveText('Offline queue: empty', { timeout: 90_000 });
  await expect(page.getByTestId('queue-progress')).toBeHidden();
  const list = await fetch(`${creds.base_url}/transactions?page_size=500`, { headers: engineHeaders(creds) });
  // Each queued sale went under the core's own reference (issue 20, point 2: the screen's clientRef is only an attempt id): one transaction each.
  const apiIds = ((await list.json()) as { transactions: Array<{ transaction_api_id: string | null }> }).transactions.map((t) => t.transaction_api_id).filter((a) => a?.startsWith('rr-'));
  expect(apiIds).toHaveLength(COUNT);
  expect(new Set(apiIds).size).toBe(COUNT);
});
