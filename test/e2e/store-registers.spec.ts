/**
 * Issue 24, points 2 and 8, end to end, on screen: a real PostgreSQL (postgres-server.ts), a
 * real store server (the built store-cli) and two registers (node hosts from the build, with the
 * real renderer), each in its own browser window.
 *
 * A register in no store shows the form that connects it, and what a manager types wrong is said
 * beside its field. The first register joins with the setup code the store server printed; Add
 * on it shows a one-time code, big and grouped, which the second register joins with. Both list
 * both, connected; a rename on one is seen on the other; the status bar says "Store: connected",
 * then — the store server stopped — "Store: away, N changes waiting" after a sale, and connected
 * again once the server is back on its port. Remove on the first: the second's credentials stop
 * working at once and it says so, in a sentence. Screenshots of the Registers screen and the
 * status bar in light and dark at every counter size, axe at each step. Every wait is on state.
 */
import type { Browser, Page } from '@playwright/test';
import { join } from 'node:path';
import { STORE_MSG } from '../../shared/ipc/store';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server';
import { startStoreServer, type StoreServerProcess } from '../helpers/store-rig';
import { expectAccessible, openApp, ringUpKeyedSale, signIn, USERS } from './helpers/counter';
import { shootEverySize } from './helpers/every-size';
import { expect, ROOT, startHostProcess, stopHostProcess, test, type HostInfo } from './fixtures';
import { openManageTile } from './helpers/manager';

/** The build's bundle: build/node/store-cli.mjs beside the host (npm run test:e2e builds it first). */
const BUILD = join(ROOT, 'build');
/** Short sync waits: a stopped server is seen as away, and a restarted one found again, within a second or two. */
const SYNC_ENV = { RINGUP_STORE_BACKOFF_MS: '500', RINGUP_STORE_TIMEOUT_MS: '3000' };
/** The sync's rounds (a reconnect after the server is back waits out its backoff). */
const SYNC = { timeout: 20_000 };

let pg: PostgresServer;
let databaseUrl: string;
let server: StoreServerProcess;
let front: HostInfo;
let back: HostInfo;
let backPage: Page;
let code = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  pg = await startPostgres();
  databaseUrl = pg.createDatabase('store_registers');
  [server, front, back] = await Promise.all([startStoreServer(BUILD, databaseUrl, { name: 'Corner Café' }), startHostProcess([], SYNC_ENV), startHostProcess([], SYNC_ENV)]);
});
test.afterAll(async () => {
  await backPage?.context().close();
  await Promise.all([stopHostProcess(front), stopHostProcess(back)]);
  await server.stop();
  pg.stop();
});

async function connect(page: Page, address: string, joinCode: string, name: string): Promise<void> {
  await page.getByLabel("Store server's address").fill(address);
  await page.getByLabel('Code', { exact: true }).fill(joinCode);
  await page.getByLabel("This register's name").fill(name);
  await page.getByRole('button', { name: 'Connect to the store' }).click();
}

async function newWindow(browser: Browser, host: HostInfo): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await openApp(page, host);
  return page;
}

const rows = (page: Page) => page.getByTestId('store-register');
const row = (page: Page, name: string) => rows(page).filter({ has: page.getByText(name, { exact: true }) });

test('a register in no store: the connect form, its sentences, and no store slot in the status bar', async ({ page }) => {
  await openApp(page, front);
  await signIn(page, USERS.manager);
  await expect(page.getByTestId('status-offline-queue')).toBeVisible();
  await expect(page.getByTestId('status-store')).toHaveCount(0);
  await openManageTile(page, 'Registers');
  await expect(page.getByRole('heading', { name: 'Connect this register to a store server' })).toBeVisible();
  await expectAccessible(page, 'registers, not in a store');
  await page.getByRole('button', { name: 'Connect to the store' }).click();
  await expect(page.getByText("Type the store server's address, such as 192.168.1.20:7443.")).toBeVisible();
  await expect(page.getByText('A store code is 20 letters and digits, as shown on the register that made it.')).toBeVisible();
  await expect(page.getByText('Give this register a name.')).toBeVisible();
  // The first field in red takes the focus.
  await expect(page.getByLabel("Store server's address")).toBeFocused();
  await connect(page, server.url.replace('https:', 'http:'), 'ABCDE-FGHJK-MNPQR-STVWX', 'Front counter');
  await expect(page.getByText("The store server is reached over https only (its own certificate keeps the registers' traffic private).")).toBeVisible();
  await expect(page.getByText('A store code is 20 letters')).toHaveCount(0);
  // A well-formed code that is not this store's: the certificate it names is not the server's (said under the address).
  await connect(page, server.url, 'ABCDE-FGHJK-MNPQR-STVWX', 'Front counter');
  await expect(page.locator('#store-address-error')).toHaveText(STORE_MSG.wrongServer, SYNC);
  await shootEverySize(page, 'store-registers-01-join-errors');
});

test('the first register joins with the setup code; Add shows a one-time code once', async ({ page }) => {
  await openApp(page, front);
  await signIn(page, USERS.manager);
  await openManageTile(page, 'Registers');
  expect(server.setupCode).toMatch(/^[0-9A-Z]{5}(-[0-9A-Z]{5}){3}$/);
  await connect(page, server.url, server.setupCode!, 'Front counter');
  await expect(page.getByRole('heading', { name: 'Registers', exact: true })).toBeVisible(SYNC);
  await expect(rows(page)).toHaveCount(1);
  await expect(row(page, 'Front counter')).toContainText('This register');
  await expect(row(page, 'Front counter')).toContainText('Connected');
  await expect(row(page, 'Front counter').getByRole('button', { name: 'Remove Front counter…' })).toBeDisabled();
  await expect(page.getByTestId('status-store')).toHaveText('Store: connected', SYNC);
  await page.getByRole('button', { name: 'Add a register' }).click();
  const shown = page.getByTestId('invite-code');
  await expect(shown).toHaveText(/^[0-9A-Z]{5}(-[0-9A-Z]{5}){3}$/);
  code = (await shown.textContent())!;
  await expect(page.getByTestId('invite-address')).toHaveText(server.url);
  await expect(page.getByTestId('store-invitation')).toContainText('Works once, for 15 minutes');
  // Keyboard first: the code's panel has the focus.
  await expect(page.getByRole('heading', { name: 'Code for the new register' })).toBeFocused();
  await shootEverySize(page, 'store-registers-02-add-code');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('invite-code')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add a register' })).toBeFocused();
});

test('the second register joins with that code, takes the store\'s users; both list both; a rename reaches the other', async ({ page, browser }) => {
  backPage = await newWindow(browser, back);
  await signIn(backPage, USERS.manager);
  await openManageTile(backPage, 'Registers');
  await connect(backPage, server.url, code, 'Back counter');
  // Its own users gave way to the store's: the session ended with them, and Morgan signs in again with the store's PIN.
  await expect(backPage.getByRole('heading', { name: 'Who is at the counter?' })).toBeVisible(SYNC);
  await signIn(backPage, USERS.manager);
  await openManageTile(backPage, 'Registers');
  await expect(rows(backPage)).toHaveCount(2, SYNC);
  await expect(row(backPage, 'Back counter')).toContainText('This register');
  await expect(backPage.getByTestId('status-store')).toHaveText('Store: connected', SYNC);
  await openApp(page, front);
  await signIn(page, USERS.manager);
  await openManageTile(page, 'Registers');
  await expect(rows(page)).toHaveCount(2, SYNC);
  await expect(row(page, 'Back counter')).toContainText('Connected', SYNC);
  await expect(row(page, 'Back counter')).not.toContainText('This register');
  await row(page, 'Back counter').getByRole('button', { name: 'Rename Back counter…' }).click();
  await page.getByLabel('New name').fill('');
  await page.getByRole('button', { name: 'Rename', exact: true }).click();
  await expect(page.getByText('Give the register a name.')).toBeVisible();
  await page.getByLabel('New name').fill('Patio');
  await page.getByRole('button', { name: 'Rename', exact: true }).click();
  await expect(row(page, 'Patio')).toBeVisible();
  await expect(row(backPage, 'Patio')).toContainText('This register', SYNC);
  await shootEverySize(page, 'store-registers-03-two-registers');
});

test('the store server stopped: "Store: away, N changes waiting" after a sale; back on its port: connected', async ({ page }) => {
  await openApp(page, front);
  await signIn(page, USERS.manager);
  await expect(page.getByTestId('status-store')).toHaveText('Store: connected', SYNC);
  const port = server.port;
  await server.stop();
  await expect(page.getByTestId('status-store')).toHaveText('Store: away', SYNC);
  await ringUpKeyedSale(page, { amountDigits: '1250' });
  await expect(page.getByTestId('result-title')).toHaveText('Approved');
  await expect(page.getByTestId('status-store')).toHaveText(/^Store: away, \d+ changes? waiting$/, SYNC);
  await openManageTile(page, 'Registers');
  await expect(page.getByText(STORE_MSG.away)).toBeVisible();
  await shootEverySize(page, 'store-registers-04-away');
  server = await startStoreServer(BUILD, databaseUrl, { port });
  await expect(page.getByTestId('status-store')).toHaveText('Store: connected', SYNC);
  await expect(row(page, 'Front counter')).toContainText('nothing waiting', SYNC);
});

test('remove: the removed register\'s credentials stop at once, and it says so', async ({ page }) => {
  await openApp(page, front);
  await signIn(page, USERS.manager);
  await openManageTile(page, 'Registers');
  await row(page, 'Patio').getByRole('button', { name: 'Remove Patio…' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('Its credentials stop working at once');
  await expect(dialog).toContainText('Its sales stay on it.');
  await expectAccessible(page, 'remove a register');
  await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(rows(page)).toHaveCount(1);
  await expect(backPage.getByTestId('status-store')).toHaveText('Store: this register was removed', SYNC);
  await expect(backPage.getByTestId('store-removed')).toHaveText(STORE_MSG.removed);
  await shootEverySize(backPage, 'store-registers-05-removed');
});
