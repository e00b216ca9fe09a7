/**
 * Issue 23, points 1 and 2, through the real core (its own data folder, the embedded engine, the
 * one dispatcher a window uses) and the printer simulator on a real TCP port: a manager registers
 * the printer (a port other than 9100 or an allowed one is refused in words) and prints a test
 * page; a cashier's cash sale kicks the drawer and its receipt prints; out of paper the receipt
 * waits and prints once when paper is in; a keyed card's receipt prints both copies (the merchant's
 * with the signature line); "No sale" is a manager's, or a cashier's with a manager's PIN, and is
 * audited. The watcher's timer is off (interval 0): each status read is asked, so nothing here
 * depends on timing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devicePlacesFromEnv } from '../../electron/devices/device-places';
import { PrinterSimulator } from '../../electron/devices/sim/printer-simulator';
import type { PrinterSettings } from '../../shared/ipc/contract';
import { openCore, readEngineDatabase, value, type OpenCore } from '../helpers/core-harness';
import { submitPaymentPage } from '../helpers/payment-page';

let dir = '';
let h: OpenCore;
let sim: PrinterSimulator;
let port = 0;
const card = { number: '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ringup-printer-channels-'));
  sim = new PrinterSimulator({ outDir: join(dir, 'paper') });
  port = await sim.listenTcp(0);
  // Only the simulator's port is allowed besides 9100, as whoever starts Ringup would allow it.
  h = await openCore(dir, { printerStatusIntervalMs: 0, devicePlaces: devicePlacesFromEnv({ RINGUP_TERMINAL_PORTS: String(port) }) });
});
afterAll(async () => {
  await h?.core.close();
  await sim?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const printer = (p: number): PrinterSettings => ({ name: 'Counter printer', address: { kind: 'tcp', host: '127.0.0.1', port: p }, paper: '80mm', charsPerLine: 48, cut: true, logo: null, active: true });
const paperText = () => sim.receipts().map((r) => r.text);

describe('the receipt printer and the cash drawer through the core', () => {
  it('a manager registers the printer and prints a test page; another port is refused in words', async () => {
    await h.signInAs('Morgan', '1234');
    const refused = await h.call('printers:save', { printer: printer(8080) });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.message).toMatch(/A receipt printer uses port 9100, or a port allowed on this computer/);
    const saved = value(await h.call('printers:save', { printer: printer(port) }));
    expect(value(await h.call('printers:list')).map((p) => p.id)).toEqual([saved.id]);
    const tested = value(await h.call('printers:test-print', printer(port)));
    expect(tested).toMatchObject({ state: 'ready', drawer: 'closed', printerId: saved.id });
    expect(paperText().at(-1)).toContain('TEST PRINT');
    expect(value(await h.call('printers:status'))).toMatchObject({ state: 'ready', name: 'Counter printer' });
  });

  it("a cashier's cash sale opens the drawer and its receipt prints", async () => {
    await h.signInAs('Morgan', '1234');
    value(await h.call('catalogue:import-csv', { csv: 'name,price,sku\nLatte,4.50,LAT\n' }));
    const latte = value(await h.call('catalogue:list', { includeArchived: false, search: '' })).find((i) => i.sku === 'LAT')!;
    await h.signInAs('Casey', '0000');
    value(await h.call('cart:add-item', { itemId: latte.id, quantity: 2 }));
    const paid = value(await h.call('cart:pay-cash', { tenderedCents: 2_000 }));
    expect(paid.status).toBe('paid');
    await expect.poll(() => sim.kicks.length).toBe(1);
    expect(value(await h.call('printers:status')).drawer).toBe('open');
    const before = sim.receipts().length;
    expect(value(await h.call('printers:print-cart', { cartId: paid.id }))).toEqual({ state: 'printed', copies: 1 });
    expect(sim.receipts()).toHaveLength(before + 1);
    expect(paperText().at(-1)).toMatch(/Latte/);
    expect(paperText().at(-1)).toMatch(/Cashier: Casey/);
    sim.closeDrawer();
    expect(value(await h.call('printers:status')).drawer).toBe('closed');
  });

  it('out of paper: the receipt waits, nothing is lost; paper in: it prints once', async () => {
    await h.signInAs('Casey', '0000');
    const sale = value(await h.call('sale:charge', { subtotalCents: 1_234, taxCents: 0, tipCents: 0, card, clientRef: 'printer-paper-out' })).transaction;
    sim.paper = 'out';
    const before = sim.receipts().length;
    const waiting = value(await h.call('receipt:print', { id: sale.id }));
    expect(waiting.printer).toMatchObject({ state: 'waiting', why: 'out of paper' });
    expect(value(await h.call('printers:status'))).toMatchObject({ state: 'paper-out', waiting: waiting.printer!.copies });
    expect(sim.receipts()).toHaveLength(before);
    sim.paper = 'ok';
    // The watcher's next read (asked here) sees it ready and prints what waited.
    expect(value(await h.call('printers:status'))).toMatchObject({ state: 'ready', waiting: 0 });
    const printed = sim.receipts().slice(before).map((r) => r.text);
    // A keyed card asks for a signature: the merchant's copy with its line comes after the customer's.
    expect(printed).toHaveLength(2);
    expect(printed[0]).toMatch(/Customer copy/);
    expect(printed[1]).toMatch(/Merchant copy/);
    expect(printed[1]).toMatch(/Signature/);
    expect(printed[0]).not.toMatch(/Signature/);
    value(await h.call('printers:status'));
    expect(sim.receipts()).toHaveLength(before + 2);
  });

  it('"No sale" is a manager\'s, or a cashier\'s with a manager\'s PIN; each is audited', async () => {
    const morganId = value(await h.call('auth:users')).users.find((u) => u.name === 'Morgan')!.id;
    await h.signInAs('Casey', '0000');
    const kicks = sim.kicks.length;
    const refused = await h.call('printers:no-sale', {});
    expect(refused.ok ? null : refused.error.code).toBe('approval_needed');
    const wrong = await h.call('printers:no-sale', { approval: { managerId: morganId, pin: '9999' } });
    expect(wrong.ok).toBe(false);
    expect(sim.kicks.length).toBe(kicks);
    expect(value(await h.call('printers:no-sale', { approval: { managerId: morganId, pin: '1234' } }))).toEqual({ approvedBy: 'Morgan' });
    await h.signInAs('Morgan', '1234');
    expect(value(await h.call('printers:no-sale', {}))).toEqual({ approvedBy: null });
    await expect.poll(() => sim.kicks.length).toBe(kicks + 2);
    const rows = value(await h.call('audit:list', { page: 1, kind: 'no-sale' })).rows;
    expect(rows.map((r) => [r.userName, r.detail])).toEqual([
      ['Morgan', 'cash drawer opened with no sale'],
      ['Casey', 'cash drawer opened with no sale, approved by Morgan with their PIN'],
    ]);
  });

  it('an 80 mm X report prints on the receipt printer; an A4 one is left to the browser as before', async () => {
    await h.signInAs('Morgan', '1234');
    const before = sim.receipts().length;
    expect(value(await h.call('reports:print', { paper: '80mm', name: 'x-report' })).printer).toEqual({ state: 'printed', copies: 1 });
    expect(sim.receipts()).toHaveLength(before + 1);
    expect(paperText().at(-1)).toContain('X REPORT - THE DAY SO FAR');
    const a4 = await h.call('reports:print', { paper: 'a4', name: 'x-report' });
    expect(a4.ok ? null : a4.error.code).toBe('use_browser_print');
    expect(sim.receipts()).toHaveLength(before + 1);
  });

  it("a payment made on a pay link's page prints as a pay link payment", async () => {
    await h.signInAs('Casey', '0000');
    const pl = value(await h.call('paylinks:create-link', { amountCents: 2_000, description: 'Cake deposit', email: 'pat@example.com', cellPhone: '' }));
    const paid = await submitPaymentPage(pl.pageUrl, { payment_method: 'cc', account_number: '4111111111111111', exp_date: '1230', cvv: '999' });
    expect(paid.status).toBe(201);
    const id = readEngineDatabase(dir, (db) => (db.prepare('SELECT paid_transaction_id AS id FROM paylinks WHERE id = ?').get(pl.id) as { id: string }).id);
    const before = sim.receipts().length;
    expect(value(await h.call('receipt:print', { id })).printer?.state).toBe('printed');
    const text = sim.receipts().slice(before).map((r) => r.text).join('\n');
    expect(text).toContain('PAY LINK PAYMENT');
    expect(text).toContain('Cake deposit');
  });

  it('a logo is fitted to the paper when saved and prints on top; a file that is no picture is refused in words', async () => {
    await h.signInAs('Morgan', '1234');
    const canvas = createCanvas(120, 40);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#000';
    ctx.fillRect(10, 10, 100, 20);
    const logo = `data:image/png;base64,${canvas.toBuffer('image/png').toString('base64')}`;
    const [saved] = value(await h.call('printers:list'));
    const bad = await h.call('printers:save', { id: saved!.id, printer: { ...printer(port), logo: 'data:image/png;base64,bm90IGEgcGljdHVyZQ==' } });
    expect(bad.ok ? null : bad.error.message).toBe('The logo is not a PNG image the printer can print. Choose a PNG file.');
    const withLogo = value(await h.call('printers:save', { id: saved!.id, printer: { ...printer(port), logo } }));
    expect(withLogo.logo).toMatch(/^data:image\/png;base64,/);
    const { id: _id, ...settings } = withLogo;
    value(await h.call('printers:test-print', settings));
    expect(paperText().at(-1)).toMatch(/^\[image \d+×\d+\]/);
  });
});
