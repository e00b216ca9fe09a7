/**
 * The receipt printer driver against the printer simulator over a real TCP socket and over a
 * socat pseudo-terminal: receipts printed and read back from the simulator's paper, the status
 * in every state, a print refused (and nothing lost) when the printer cannot print, the drawer
 * kick, and a printer that never answers counting as offline within the timeout.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSerialLink, openTcpLink } from '../../electron/devices/device-link';
import { DEVICE_MSG, DeviceError } from '../../electron/devices/device-messages';
import { ReceiptPrinterDriver, printerCondition } from '../../electron/devices/printer-driver';
import { encodeReceipt, receiptText, type PrinterLayout } from '../../electron/devices/receipt-encoding';
import { PrinterSimulator } from '../../electron/devices/sim/printer-simulator';
import { cartReceiptDocument, dayReportDocument, payLinkReceiptDocument, saleReceiptDocument } from '../../shared/receipts/receipt-document';
import { STORE, cafeCart, cardSale, formatTime, zReport } from '../helpers/receipt-fixtures';
import { rejectionOf } from '../helpers/rejection';
import { socatPair, type PtyPair } from './helpers/socat-pair';

const root = new URL('../..', import.meta.url).pathname;
const LAYOUT: PrinterLayout = { paperMm: 80, cpl: 48, cut: true, logo: null };
const failure = (p: Promise<unknown>) => rejectionOf(p, DeviceError);
/** Spacing aside, and the simulator's rule drawn as a line where receiptline's text has dashes. */
const squeeze = (s: string) => s.replace(/\s+/g, '').replace(/─/g, '-');

/** Every printed line of the document is on the simulator's paper (spacing aside: double-size letters are spaced out in receiptline's text). */
function expectOnPaper(doc: string, paper: string, cpl = 48): void {
  const onPaper = squeeze(paper);
  const wanted = receiptText(doc, cpl).split('\n').map(squeeze).filter(Boolean);
  expect(wanted.length).toBeGreaterThan(10);
  for (const l of wanted) expect(onPaper, l).toContain(l);
}

describe('receipt printer over TCP (raw port 9100 protocol)', () => {
  let sim: PrinterSimulator;
  let port: number;
  let driver: ReceiptPrinterDriver;
  beforeEach(async () => {
    // A folder per test, so one test's receipt-001.png never overwrites another's.
    const name = (expect.getState().currentTestName ?? 'test').split('>').pop()!.trim().slice(0, 40).replace(/[^a-z0-9]+/gi, '-');
    sim = new PrinterSimulator({ outDir: join(root, 'test/output/printer-tcp', name) });
    port = await sim.listenTcp(0);
    driver = new ReceiptPrinterDriver({ connect: () => openTcpLink('127.0.0.1', port), statusTimeoutMs: 1000 });
  });
  afterEach(async () => {
    await driver.close();
    await sim.close();
  });

  it('prints the customer and merchant copies of a cart: two cut receipts with every line, rendered to PNG', async () => {
    const customer = cartReceiptDocument(cafeCart(), STORE, { copy: 'customer', width: 48, formatTime });
    const merchant = cartReceiptDocument(cafeCart(), STORE, { copy: 'merchant', width: 48, formatTime });
    const after = await driver.print(encodeReceipt(customer, LAYOUT));
    await driver.print(encodeReceipt(merchant, LAYOUT));
    expect(printerCondition(after)).toBe('ready');
    const [first, second] = sim.receipts();
    expect(sim.receipts()).toHaveLength(2);
    expectOnPaper(customer, first!.text);
    expectOnPaper(merchant, second!.text);
    expect(first!.text).toContain('Latte (Large)');
    expect(first!.text).toMatch(/^ {2}\+ Extra shot \+\$0\.50$/m);
    expect(second!.text).toMatch(/^X_{40,}$/m);
    expect(first!.cut).toBe(true);
    expect(first!.png).toMatch(/receipt-001\.png$/);
    expect(sim.unknown).toEqual([]);
  });

  it('prints every kind the counter prints: sale (merchant copy), refund, pay link, X and Z report', async () => {
    const o = { copy: 'merchant', width: 48, formatTime } as const;
    const docs = [
      saleReceiptDocument(cardSale(), STORE, o),
      saleReceiptDocument(cardSale({ kind: 'refund', amountCents: 525, previousTransactionId: 'tx-0000-0000-0000-00000042', signatureLine: false }), STORE, o),
      payLinkReceiptDocument(cardSale({ amountCents: 4000, requestedCents: 4000, taxCents: 0, tipCents: 0, entryMode: 'keyed', emv: null }), { description: 'Catering deposit', amountCents: 10_000, remainingCents: 6_000 }, STORE, { ...o, copy: 'customer' }),
      dayReportDocument({ ...zReport(), kind: 'x', number: null, cashCount: undefined }, o),
      dayReportDocument(zReport(), o),
    ];
    for (const doc of docs) await driver.print(encodeReceipt(doc, LAYOUT));
    const printed = sim.receipts();
    expect(printed).toHaveLength(docs.length);
    docs.forEach((doc, i) => expectOnPaper(doc, printed[i]!.text));
    expect(printed[3]!.text).toContain('X REPORT - THE DAY SO FAR');
    expect(printed[4]!.text).toContain('Z REPORT 42 - DAY CLOSED');
  });

  it('reports each state from the real-time status bytes', async () => {
    expect(await driver.status()).toEqual({ online: true, paper: 'ok', coverOpen: false, drawerOpen: false, reachable: true, error: false });
    sim.paper = 'near-end';
    expect(await driver.status()).toMatchObject({ online: true, paper: 'near-end' });
    expect(printerCondition(await driver.status())).toBe('ready');
    sim.paper = 'out';
    expect(await driver.status()).toMatchObject({ online: false, paper: 'out', reachable: true });
    expect(printerCondition(await driver.status())).toBe('out-of-paper');
    sim.paper = 'ok';
    sim.coverOpen = true;
    expect(await driver.status()).toMatchObject({ online: false, coverOpen: true });
    expect(printerCondition(await driver.status())).toBe('cover-open');
    sim.coverOpen = false;
    sim.online = false;
    expect(printerCondition(await driver.status())).toBe('offline');
    sim.online = true;
    expect(printerCondition(await driver.status())).toBe('ready');
  });

  it('refuses to print out of paper or with the cover open, sending nothing; the same bytes print once it is back', async () => {
    const bytes = encodeReceipt(saleReceiptDocument(cardSale(), STORE, { copy: 'customer', width: 48, formatTime }), LAYOUT);
    sim.paper = 'out';
    const e = await failure(driver.print(bytes));
    expect(e.code).toBe('printer_not_ready');
    expect(e.message).toBe(DEVICE_MSG.PRINTER_PAPER_OUT);
    sim.paper = 'ok';
    sim.coverOpen = true;
    expect((await failure(driver.print(bytes))).message).toBe(DEVICE_MSG.PRINTER_COVER_OPEN);
    expect(sim.dropped).toBe(0);
    expect(sim.receipts()).toHaveLength(0);
    sim.coverOpen = false;
    await driver.print(bytes);
    expect(sim.receipts()).toHaveLength(1);
    expect(sim.receipts()[0]!.text).toContain('Visa **** 1111');
  });

  it('says the printer stopped when the paper runs out while it prints, so the caller prints it again', async () => {
    const doc = saleReceiptDocument(cardSale(), STORE, { copy: 'customer', width: 48, formatTime });
    // Two receipts in one job; the roll ends as the first is cut.
    const run = new PrinterSimulator({});
    const runPort = await run.listenTcp(0);
    const d = new ReceiptPrinterDriver({ connect: () => openTcpLink('127.0.0.1', runPort), statusTimeoutMs: 1000 });
    try {
      const job = Buffer.concat([encodeReceipt(doc, LAYOUT), encodeReceipt(doc, LAYOUT)]);
      run.onReceipt = () => (run.paper = 'out');
      const e = await failure(d.print(job));
      expect(e.message).toBe(DEVICE_MSG.PRINTER_STOPPED);
      expect(run.receipts()).toHaveLength(1);
      expect(run.dropped).toBeGreaterThan(0);
    } finally {
      await d.close();
      await run.close();
    }
  });

  it('kicks the drawer: the status shows it open until it is pushed shut', async () => {
    await driver.kickDrawer();
    await expect.poll(async () => (await driver.status()).drawerOpen).toBe(true);
    expect(sim.kicks).toEqual([{ pin: 2, onMs: 100, offMs: 500 }]);
    sim.closeDrawer();
    expect((await driver.status()).drawerOpen).toBe(false);
  });

  it('a drawer wired the other way round reads right with drawerOpenLevel high', async () => {
    const other = new PrinterSimulator({ drawerOpenLevel: 'high' });
    const p = await other.listenTcp(0);
    const d = new ReceiptPrinterDriver({ connect: () => openTcpLink('127.0.0.1', p), drawerOpenLevel: 'high' });
    try {
      expect((await d.status()).drawerOpen).toBe(false);
      await d.kickDrawer();
      expect((await d.status()).drawerOpen).toBe(true);
    } finally {
      await d.close();
      await other.close();
    }
  });

  it('finds the printer again after it was switched off and on (the connection dropped)', async () => {
    expect(printerCondition(await driver.status())).toBe('ready');
    sim.dropConnections();
    await expect.poll(async () => printerCondition(await driver.status())).toBe('ready');
  });
});

describe('a printer that does not answer', () => {
  let server: Server;
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('a socket that accepts and stays silent is offline within the timeout, and print refuses with the offline sentence', async () => {
    server = createServer((s) => {
      sockets.push(s);
      s.on('data', () => undefined);
    });
    const port = await new Promise<number>((r) => server.listen(0, '127.0.0.1', () => r((server.address() as { port: number }).port)));
    const d = new ReceiptPrinterDriver({ connect: () => openTcpLink('127.0.0.1', port), statusTimeoutMs: 300 });
    const started = performance.now();
    expect(await d.status()).toMatchObject({ reachable: false, online: false });
    expect(performance.now() - started).toBeLessThan(3000);
    const e = await failure(d.print(Uint8Array.of(0x1b, 0x40)));
    expect(e.message).toBe(DEVICE_MSG.PRINTER_OFFLINE);
    await d.close();
  });

  it('nothing listening at the address is offline too', async () => {
    server = createServer();
    const port = await new Promise<number>((r) => server.listen(0, '127.0.0.1', () => r((server.address() as { port: number }).port)));
    // Closed again: the port was free a moment ago and nothing listens on it now (afterEach's close is then a no-op).
    await new Promise<void>((r) => server.close(() => r()));
    const d = new ReceiptPrinterDriver({ connect: () => openTcpLink('127.0.0.1', port, 1000), statusTimeoutMs: 300 });
    expect(printerCondition(await d.status())).toBe('offline');
    expect((await failure(d.kickDrawer())).message).toBe(DEVICE_MSG.PRINTER_OFFLINE);
    await d.close();
  });
});

describe('receipt printer over a serial line (socat pseudo-terminal)', () => {
  let pty: PtyPair;
  let sim: PrinterSimulator;
  let driver: ReceiptPrinterDriver;
  beforeEach(async () => {
    pty = await socatPair();
    sim = new PrinterSimulator({ paperMm: 58, outDir: join(root, 'test/output/printer-serial') });
    await sim.attachSerial(pty.b);
    driver = new ReceiptPrinterDriver({ connect: () => openSerialLink(pty.a), statusTimeoutMs: 1000 });
  });
  afterEach(async () => {
    await driver.close();
    await sim.close();
    await pty.close();
  });

  it('prints a 58 mm receipt at 32 characters, reads each state, refuses out of paper and kicks the drawer', async () => {
    const layout: PrinterLayout = { paperMm: 58, cpl: 32, cut: true, logo: null };
    const doc = cartReceiptDocument(cafeCart(), STORE, { copy: 'customer', width: 32, formatTime });
    await driver.print(encodeReceipt(doc, layout));
    expect(sim.receipts()).toHaveLength(1);
    expectOnPaper(doc, sim.receipts()[0]!.text, 32);
    expect(sim.receipts()[0]!.text.split('\n').every((l) => l.length <= 32)).toBe(true);
    sim.paper = 'near-end';
    expect((await driver.status()).paper).toBe('near-end');
    sim.paper = 'out';
    expect((await failure(driver.print(encodeReceipt(doc, layout)))).message).toBe(DEVICE_MSG.PRINTER_PAPER_OUT);
    expect(sim.receipts()).toHaveLength(1);
    sim.paper = 'ok';
    await driver.kickDrawer();
    expect((await driver.status()).drawerOpen).toBe(true);
  });
});
