/**
 * A simulated ESC/POS receipt printer with its cash drawer, on TCP (raw port 9100, as network
 * printers take print jobs) or one end of a serial line (a socat pseudo-terminal). It decodes
 * what it receives (escpos-decoder.ts), puts it on paper (printer-paper.ts), and on each cut
 * renders the receipt to a PNG (receipt-png.ts) in `outDir`.
 *
 * It answers the real-time status requests DLE EOT 1, 2 and 4 from its state at once (paper
 * ok, near its end or out, cover, online, drawer), and GS r 1 in order with the data. A drawer
 * kick (ESC p or DLE DC4 1) opens its drawer; closeDrawer() closes it, as the cashier does.
 * Out of paper, cover open or switched offline, it prints nothing: print data is dropped (and
 * counted in `dropped`), as a real printer stops; status requests are still answered.
 *
 * Known simplification: a real printer keeps the data received while offline in its buffer and
 * prints it when back; this one drops it, so a test sees plainly that the caller must print again.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { openSerialLink, socketLink, type DeviceLink } from '../device-link';
import { GS_R_PAPER, OFFLINE_BITS, PAPER_BITS, PRINTER_BITS, STATUS_FIXED, STATUS_REQUEST } from '../escpos-status';
import { EscPosDecoder } from './escpos-decoder';
import { PrinterPaper, type PrintedReceipt } from './printer-paper';
import { headWidthDots, renderReceiptPng } from './receipt-png';
import { listenLoopback } from './listen-loopback';

export type SimPaper = 'ok' | 'near-end' | 'out';

export interface SimReceipt extends PrintedReceipt {
  /** The rendered paper, when the simulator has an `outDir`. */
  png: string | null;
}

export interface PrinterSimulatorOptions {
  paperMm?: 58 | 80;
  /** Where each receipt's PNG is written (none when unset). */
  outDir?: string;
  /** The pin 3 level an open drawer gives (the driver's drawerOpenLevel must match). */
  drawerOpenLevel?: 'low' | 'high';
}

export class PrinterSimulator {
  paper: SimPaper = 'ok';
  coverOpen = false;
  /** Switched offline by its button or a fault (not paper or cover: those make it offline too). */
  online = true;
  drawerOpen = false;
  /** Drawer kicks received (the pin and pulse of each). */
  readonly kicks: { pin: 2 | 5; onMs: number; offMs: number }[] = [];
  /** Bytes of print data dropped while it could not print. */
  dropped = 0;
  /** Commands it does not know (prefix and command byte), logged and skipped. */
  readonly unknown: string[] = [];
  readonly paperMm: 58 | 80;
  private readonly printed: SimReceipt[] = [];
  private readonly servers: Server[] = [];
  private readonly links = new Set<DeviceLink>();
  private readonly sheet: PrinterPaper;
  /** Drops every byte silently, answering nothing (a printer hung or a wrong device at the address). */
  silent = false;
  /** Called as each receipt is cut (the CLI prints "receipt N → path.png"; a test can end the roll there). */
  onReceipt: ((r: SimReceipt, index: number) => void) | null = null;
  /** Called on each drawer kick (the CLI prints "drawer opened"). */
  onDrawerKick: (() => void) | null = null;

  constructor(private readonly opts: PrinterSimulatorOptions = {}) {
    this.paperMm = opts.paperMm ?? 80;
    this.sheet = new PrinterPaper(headWidthDots(this.paperMm));
    if (opts.outDir) mkdirSync(opts.outDir, { recursive: true });
  }

  /** Whether it prints what it receives now. */
  get canPrint(): boolean {
    return this.online && !this.coverOpen && this.paper !== 'out';
  }

  /** Every receipt cut so far, with its text and PNG. */
  receipts(): SimReceipt[] {
    return [...this.printed];
  }

  /** The drawer is pushed shut. */
  closeDrawer(): void {
    this.drawerOpen = false;
  }

  listenTcp(port = 0): Promise<number> {
    const server = createServer((socket) => this.serve(socketLink(socket)));
    this.servers.push(server);
    return listenLoopback(server, port);
  }

  async attachSerial(path: string): Promise<void> {
    this.serve(await openSerialLink(path));
  }

  serve(link: DeviceLink): void {
    this.links.add(link);
    const decoder = new EscPosDecoder();
    link.onClose(() => this.links.delete(link));
    link.onData((chunk) => {
      if (this.silent) return;
      for (const e of decoder.push(chunk)) {
        if (e.kind === 'realtime') {
          this.realtime(link, e.name, e.params);
          continue;
        }
        if (e.kind === 'unknown') {
          this.unknown.push(e.bytes.map((b) => b.toString(16).padStart(2, '0')).join(' '));
          continue;
        }
        if (!this.canPrint) {
          this.dropped += e.kind === 'text' ? e.bytes.length : 1;
          continue;
        }
        if (e.kind === 'command' && e.name === 'GS r') {
          link.write(Uint8Array.of(this.paper === 'near-end' ? GS_R_PAPER.nearEnd : 0));
          continue;
        }
        if (e.kind === 'command' && e.name === 'ESC p') {
          this.kick(e.params);
          continue;
        }
        const done = this.sheet.apply(e);
        if (done) this.keep(done);
      }
    });
  }

  /** Drops every open connection now (a printer switched off). */
  dropConnections(): void {
    for (const l of this.links) void l.close();
  }

  async close(): Promise<void> {
    this.dropConnections();
    await Promise.all(this.servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
  }

  /** The status byte DLE EOT n answers from the state now. */
  statusByte(n: number): number {
    let b = STATUS_FIXED;
    if (n === STATUS_REQUEST.printer) {
      const pin3High = (this.opts.drawerOpenLevel ?? 'low') === 'high' ? this.drawerOpen : !this.drawerOpen;
      if (pin3High) b |= PRINTER_BITS.drawerPin3High;
      if (!this.canPrint) b |= PRINTER_BITS.offline;
    } else if (n === STATUS_REQUEST.offlineCause) {
      if (this.coverOpen) b |= OFFLINE_BITS.coverOpen;
      if (this.paper === 'out') b |= OFFLINE_BITS.paperEndStop;
    } else if (n === STATUS_REQUEST.paperSensor) {
      if (this.paper === 'near-end') b |= PAPER_BITS.nearEnd;
      if (this.paper === 'out') b |= PAPER_BITS.nearEnd | PAPER_BITS.end;
    }
    return b;
  }

  private realtime(link: DeviceLink, name: string, p: number[]): void {
    if (name === 'DLE EOT') link.write(Uint8Array.of(this.statusByte(p[0] ?? 0)));
    // DLE DC4 1 m t: a drawer pulse in real time (works offline too).
    else if (name === 'DLE DC4' && p[0] === 1) this.kick([p[1] ?? 0, p[2] ?? 1, p[2] ?? 1]);
  }

  private kick(p: number[]): void {
    this.kicks.push({ pin: (p[0] ?? 0) % 48 === 0 ? 2 : 5, onMs: (p[1] ?? 0) * 2, offMs: (p[2] ?? 0) * 2 });
    this.drawerOpen = true;
    this.onDrawerKick?.();
  }

  private keep(r: PrintedReceipt): void {
    const index = this.printed.length + 1;
    let png: string | null = null;
    if (this.opts.outDir) {
      png = join(this.opts.outDir, `receipt-${String(index).padStart(3, '0')}.png`);
      writeFileSync(png, renderReceiptPng(r.lines, this.paperMm));
    }
    const receipt = { ...r, png };
    this.printed.push(receipt);
    this.onReceipt?.(receipt, index);
  }
}
