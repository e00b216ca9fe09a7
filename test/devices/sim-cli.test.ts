/**
 * `npm run sim:terminal -- --tcp PORT`, `npm run sim:scanner -- --serial PATH`, `npm run
 * sim:barcode -- --serial PATH` and `npm run sim:printer -- --tcp PORT | --serial PATH --out DIR`: the CLI,
 * bundled the way the build bundles it, run as a real process, scripted through its stdin,
 * driven by the real drivers over TCP and a socat pseudo-terminal.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultTimeouts } from '../../shared/payments/terminal-timeouts';
import { BarcodeScannerDriver } from '../../electron/devices/barcode-scanner';
import { CheckScannerDriver } from '../../electron/devices/check-scanner';
import { openSerialLink, openTcpLink, openTlsLink } from '../../electron/devices/device-link';
import { FINGERPRINT_PATTERN } from '../../shared/payments/terminal-fingerprint';
import { DEVICE_MSG, DeviceError } from '../../electron/devices/device-messages';
import { TerminalDriver } from '../../electron/devices/terminal-driver';
import { ReceiptPrinterDriver, printerCondition } from '../../electron/devices/printer-driver';
import { encodeReceipt } from '../../electron/devices/receipt-encoding';
import { saleReceiptDocument } from '../../shared/receipts/receipt-document';
import { STORE, cardSale, formatTime } from '../helpers/receipt-fixtures';
import { socatPair } from './helpers/socat-pair';

const root = new URL('../..', import.meta.url).pathname;
const outDir = join(root, 'test/output');
const outfile = join(outDir, `sim-cli-${process.pid}.mjs`);

beforeAll(async () => {
  mkdirSync(outDir, { recursive: true });
  await build({ absWorkingDir: root, entryPoints: ['electron/devices/sim/sim-cli.ts'], outfile, bundle: true, platform: 'node', target: 'node20', format: 'esm', packages: 'external', logLevel: 'warning' });
});
afterAll(() => rmSync(outfile, { force: true }));

function start(args: string[]): Promise<{ child: ChildProcess; first: string; next(): Promise<string> }> {
  const child = spawn(process.execPath, [outfile, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines = createInterface({ input: child.stdout! });
  const queue: string[] = [];
  const waiting: ((l: string) => void)[] = [];
  lines.on('line', (l) => (waiting.length ? waiting.shift()!(l) : queue.push(l)));
  const next = () => new Promise<string>((r) => (queue.length ? r(queue.shift()!) : waiting.push(r)));
  return next().then((first) => ({ child, first, next }));
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

describe('simulator CLI', () => {
  it('terminal over TCP, scripted on stdin: the tip picked on the terminal, then a garbled answer', async () => {
    const sim = await start(['terminal', '--tcp', '0', '--second-ms', '5']);
    try {
      const port = Number(/:(\d+)$/.exec(sim.first)?.[1]);
      expect(port).toBeGreaterThan(0);
      sim.child.stdin!.write('{"script": {"tip": 3, "stepMs": 5}}\n');
      expect(await sim.next()).toBe('ok');
      const d = new TerminalDriver({ connect: () => openTcpLink('127.0.0.1', port), settings: { timeouts: defaultTimeouts(), tipPercents: [15, 18, 20] }, secondMs: 5 });
      expect((await d.sale({ amountCents: 1000, ecrRef: 'cli-1' })).tipCents).toBe(200);
      sim.child.stdin!.write('{"faults": {"garbleResponse": true}}\n');
      expect(await sim.next()).toBe('ok');
      await expect(d.sale({ amountCents: 1000, ecrRef: 'cli-2' })).rejects.toThrow(DEVICE_MSG.GARBLED);
    } finally {
      await stop(sim.child);
    }
  });

  it('terminal over TLS (--tls): prints the self-signed certificate\'s fingerprint, and a driver pinned to it sells', async () => {
    const sim = await start(['terminal', '--tcp', '0', '--tls', '--second-ms', '5']);
    try {
      expect(sim.first).toMatch(/^terminal simulator on tls 127\.0\.0\.1:\d+$/);
      const port = Number(/:(\d+)$/.exec(sim.first)?.[1]);
      const fingerprint = /fingerprint ((?:[0-9A-F]{2}:){31}[0-9A-F]{2})$/.exec(await sim.next())?.[1] ?? '';
      expect(fingerprint).toMatch(FINGERPRINT_PATTERN);
      const d = new TerminalDriver({ connect: () => openTlsLink('127.0.0.1', port, fingerprint), settings: { timeouts: defaultTimeouts(), tipPercents: null }, secondMs: 5 });
      expect((await d.sale({ amountCents: 1000, ecrRef: 'cli-tls' })).approvedCents).toBe(1000);
    } finally {
      await stop(sim.child);
    }
  });

  it('scanner on a socat pseudo-terminal, MICR line set on stdin', async () => {
    const pty = await socatPair();
    const sim = await start(['scanner', '--serial', pty.b]);
    try {
      expect(sim.first).toContain(pty.b);
      const scanner = new CheckScannerDriver(await openSerialLink(pty.a), 2000);
      expect((await scanner.scan(2000)).checkNumber).toBe('1001');
      sim.child.stdin!.write('{"micr": "T07200!326T 1234567U 77"}\n');
      expect(await sim.next()).toBe('ok');
      const e = await scanner.scan(2000).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(DeviceError);
      expect((e as DeviceError).message).toBe(DEVICE_MSG.MICR_UNREADABLE);
      await scanner.close();
    } finally {
      await stop(sim.child);
      await pty.close();
    }
  });

  it('barcode scanner on a socat pseudo-terminal (--suffix crlf): each stdin line is a code scanned', async () => {
    const pty = await socatPair();
    const sim = await start(['barcode', '--serial', pty.b, '--suffix', 'crlf']);
    try {
      expect(sim.first).toBe(`barcode scanner simulator on serial ${pty.b} (suffix crlf)`);
      const scanner = new BarcodeScannerDriver(await openSerialLink(pty.a, 9600));
      const read = scanner.nextRead(5000);
      sim.child.stdin!.write('4006381333931\n');
      expect(await sim.next()).toBe('scanned 4006381333931');
      expect(await read).toBe('4006381333931');
      const second = scanner.nextRead(5000);
      sim.child.stdin!.write('LAT-12\n');
      expect(await second).toBe('LAT-12');
      await scanner.close();
    } finally {
      await stop(sim.child);
      await pty.close();
    }
  });

  it('printer over TCP: a receipt cut is announced with its PNG; paper, cover and drawer scripted on stdin', async () => {
    const out = join(outDir, `sim-cli-printer-${process.pid}`);
    const sim = await start(['printer', '--tcp', '0', '--out', out]);
    try {
      expect(sim.first).toMatch(/^printer simulator on tcp 127\.0\.0\.1:\d+$/);
      const port = Number(/:(\d+)$/.exec(sim.first)?.[1]);
      const d = new ReceiptPrinterDriver({ connect: () => openTcpLink('127.0.0.1', port), statusTimeoutMs: 2000 });
      await d.print(encodeReceipt(saleReceiptDocument(cardSale(), STORE, { copy: 'customer', width: 48, formatTime }), { paperMm: 80, cpl: 48, cut: true, logo: null }));
      expect(await sim.next()).toBe(`receipt 1 → ${join(out, 'receipt-001.png')}`);
      sim.child.stdin!.write('{"paper": "out"}\n');
      expect(await sim.next()).toBe('ok');
      expect(printerCondition(await d.status())).toBe('out-of-paper');
      sim.child.stdin!.write('{"paper": "ok", "cover": "open"}\n');
      expect(await sim.next()).toBe('ok');
      expect(printerCondition(await d.status())).toBe('cover-open');
      sim.child.stdin!.write('{"cover": "closed", "online": false}\n');
      expect(await sim.next()).toBe('ok');
      expect(printerCondition(await d.status())).toBe('offline');
      // A command with a wrong part changes nothing: the printer stays offline.
      sim.child.stdin!.write('{"online": true, "paper": "soggy"}\n');
      expect(await sim.next()).toBe('not done: paper is "ok", "near-end" or "out"');
      expect(printerCondition(await d.status())).toBe('offline');
      sim.child.stdin!.write('{"online": true}\n');
      expect(await sim.next()).toBe('ok');
      await d.kickDrawer();
      expect(await sim.next()).toBe('drawer opened');
      expect((await d.status()).drawerOpen).toBe(true);
      sim.child.stdin!.write('{"drawer": "closed"}\n');
      expect(await sim.next()).toBe('ok');
      expect((await d.status()).drawerOpen).toBe(false);
      await d.close();
    } finally {
      await stop(sim.child);
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('printer on a socat pseudo-terminal at 58 mm', async () => {
    const pty = await socatPair();
    const out = join(outDir, `sim-cli-printer-serial-${process.pid}`);
    const sim = await start(['printer', '--serial', pty.b, '--paper', '58', '--out', out]);
    try {
      expect(sim.first).toBe(`printer simulator on serial ${pty.b}`);
      const d = new ReceiptPrinterDriver({ connect: () => openSerialLink(pty.a), statusTimeoutMs: 2000 });
      await d.print(encodeReceipt(saleReceiptDocument(cardSale(), STORE, { copy: 'merchant', width: 32, formatTime }), { paperMm: 58, cpl: 32, cut: true, logo: null }));
      expect(await sim.next()).toMatch(/^receipt 1 → .*receipt-001\.png$/);
      await d.close();
    } finally {
      await stop(sim.child);
      await pty.close();
      rmSync(out, { recursive: true, force: true });
    }
  });
});
