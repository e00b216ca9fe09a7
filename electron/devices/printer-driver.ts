/**
 * The ESC/POS receipt printer driver (80 or 58 mm thermal printers, raw TCP port 9100 or a
 * serial line): the printer's real-time status (DLE EOT 1, 2, 4: escpos-status.ts), printing
 * bytes made by receipt-encoding.ts, and the cash drawer's kick through the printer's RJ-11 port.
 *
 * One link is kept open and opened again when it closed (a printer switched off and on again
 * needs no restart). Operations run one at a time: a status asked while a receipt is being
 * written would read the answers in the wrong order otherwise.
 *
 * A receipt is never dropped here: print() refuses with a DeviceError ('printer_not_ready')
 * and a sentence for the merchant before writing anything when the printer is offline, out of
 * paper or has its cover open, and fails with PRINTER_STOPPED when the status asked right after
 * the data shows it stopped; in both cases the caller still holds the job and prints it again.
 *
 * Simplifications: the status asked after the data is answered once the printer has read the
 * data, not once the paper has come out, so paper running out during the last centimetres of
 * a long receipt is seen at the next print. The drawer kick is ESC p (in order with the data),
 * so a printer out of paper does not open the drawer until it is back online.
 */
import type { DeviceLink } from './device-link';
import { DEVICE_MSG, DeviceError } from './device-messages';
import { OFFLINE_BITS, PAPER_BITS, PRINTER_BITS, STATUS_REQUEST, drawerKick, isStatusAnswer, statusRequest, type StatusRequest } from './escpos-status';

export type PaperLevel = 'ok' | 'near-end' | 'out';

export interface PrinterStatus {
  /** False when the printer does not answer, or answers that it is offline (paper out, cover open, error). */
  online: boolean;
  paper: PaperLevel;
  coverOpen: boolean;
  drawerOpen: boolean;
  /** False when the printer did not answer at all (then the other fields say nothing about it). */
  reachable: boolean;
  /** The printer reports an error (cutter jam, head too hot …): it needs turning off and on. */
  error: boolean;
}

/** What the Devices screen and the status bar show, in order of what to fix first. */
export type PrinterCondition = 'ready' | 'offline' | 'cover-open' | 'out-of-paper' | 'error';

export function printerCondition(s: PrinterStatus): PrinterCondition {
  if (!s.reachable) return 'offline';
  if (s.coverOpen) return 'cover-open';
  if (s.paper === 'out') return 'out-of-paper';
  if (s.error) return 'error';
  return s.online ? 'ready' : 'offline';
}

const NOT_READY_MESSAGE: Record<Exclude<PrinterCondition, 'ready'>, string> = {
  offline: DEVICE_MSG.PRINTER_OFFLINE,
  'cover-open': DEVICE_MSG.PRINTER_COVER_OPEN,
  'out-of-paper': DEVICE_MSG.PRINTER_PAPER_OUT,
  error: DEVICE_MSG.PRINTER_NOT_READY,
};

/** The sentence for a printer that cannot print (null when it is ready). */
export function notReadyMessage(s: PrinterStatus): string | null {
  const c = printerCondition(s);
  return c === 'ready' ? null : NOT_READY_MESSAGE[c];
}

export const OFFLINE_STATUS: PrinterStatus = { online: false, paper: 'ok', coverOpen: false, drawerOpen: false, reachable: false, error: false };

export interface PrinterDriverOptions {
  connect: () => Promise<DeviceLink>;
  /** How long one status answer may take before the printer counts as offline (ms). */
  statusTimeoutMs?: number;
  /**
   * Which level of the drawer connector's pin 3 means "open". The printer reports only the
   * level; drawers differ in how their switch is wired, so installers can turn it round.
   */
  drawerOpenLevel?: 'low' | 'high';
  /** The pin the drawer's solenoid is on (2 by default; 5 for a second drawer). */
  drawerPin?: 2 | 5;
}

/** Bytes a serial line at 9600 baud carries per millisecond (about): the status after a long receipt waits behind it. */
const SLOWEST_BYTES_PER_MS = 0.9;

export class ReceiptPrinterDriver {
  private link: DeviceLink | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  private readonly waiting: ((byte: number | null) => void)[] = [];
  private readonly statusTimeoutMs: number;

  constructor(private readonly opts: PrinterDriverOptions) {
    this.statusTimeoutMs = opts.statusTimeoutMs ?? 2000;
  }

  /** The printer's status now; a printer that does not answer within the timeout is offline. */
  status(): Promise<PrinterStatus> {
    return this.oneAtATime(() => this.readStatus(this.statusTimeoutMs));
  }

  /**
   * Prints `bytes` (an encoded receipt). Refuses, writing nothing, when the printer cannot print;
   * fails with PRINTER_STOPPED when it stopped while taking the data. Resolves with the status
   * after printing (paper near its end is worth showing).
   */
  print(bytes: Uint8Array): Promise<PrinterStatus> {
    return this.oneAtATime(async () => {
      const before = await this.readStatus(this.statusTimeoutMs);
      const refusal = notReadyMessage(before);
      if (refusal) throw new DeviceError('printer_not_ready', refusal);
      const link = await this.openLink();
      link.write(bytes);
      const after = await this.readStatus(this.statusTimeoutMs + bytes.length / SLOWEST_BYTES_PER_MS);
      if (printerCondition(after) !== 'ready') throw new DeviceError('printer_not_ready', DEVICE_MSG.PRINTER_STOPPED);
      return after;
    });
  }

  /** Pulses the drawer's solenoid through the printer (ESC p); the drawer's state shows in status(). */
  kickDrawer(): Promise<void> {
    return this.oneAtATime(async () => {
      const link = await this.openLink();
      link.write(drawerKick(this.opts.drawerPin ?? 2));
    });
  }

  async close(): Promise<void> {
    const link = this.link;
    this.link = undefined;
    await link?.close();
  }

  private oneAtATime<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async openLink(): Promise<DeviceLink> {
    if (this.link && !this.link.closed) return this.link;
    let link: DeviceLink;
    try {
      link = await this.opts.connect();
    } catch {
      throw new DeviceError('printer_not_ready', DEVICE_MSG.PRINTER_OFFLINE);
    }
    this.link = link;
    link.onData((chunk) => {
      for (const byte of chunk) {
        // GS r answers (the end of each receiptline job) and anything else not shaped like a
        // DLE EOT answer are dropped, so they never stand in for a status.
        if (!isStatusAnswer(byte)) continue;
        this.waiting.shift()?.(byte);
      }
    });
    link.onClose(() => {
      if (this.link === link) this.link = undefined;
      for (const w of this.waiting.splice(0)) w(null);
    });
    return link;
  }

  /** One DLE EOT n and its answer byte; null when none came in time (the link is then dropped). */
  private ask(link: DeviceLink, n: StatusRequest, timeoutMs: number): Promise<number | null> {
    return new Promise((resolve) => {
      const answer = (byte: number | null) => {
        clearTimeout(timer);
        resolve(byte);
      };
      const timer = setTimeout(() => {
        const i = this.waiting.indexOf(answer);
        if (i >= 0) this.waiting.splice(i, 1);
        resolve(null);
        // A silent printer (switched off, cable pulled) leaves a half-open connection: start afresh next time.
        if (this.link === link) {
          this.link = undefined;
          void link.close();
        }
      }, timeoutMs);
      this.waiting.push(answer);
      link.write(statusRequest(n));
    });
  }

  private async readStatus(firstTimeoutMs: number): Promise<PrinterStatus> {
    let link: DeviceLink;
    try {
      link = await this.openLink();
    } catch {
      return OFFLINE_STATUS;
    }
    const printer = await this.ask(link, STATUS_REQUEST.printer, firstTimeoutMs);
    if (printer === null) return OFFLINE_STATUS;
    const cause = await this.ask(link, STATUS_REQUEST.offlineCause, this.statusTimeoutMs);
    const paper = await this.ask(link, STATUS_REQUEST.paperSensor, this.statusTimeoutMs);
    if (cause === null || paper === null) return OFFLINE_STATUS;
    const pin3High = (printer & PRINTER_BITS.drawerPin3High) !== 0;
    return {
      online: (printer & PRINTER_BITS.offline) === 0,
      paper: paper & PAPER_BITS.end ? 'out' : paper & PAPER_BITS.nearEnd ? 'near-end' : 'ok',
      coverOpen: (cause & OFFLINE_BITS.coverOpen) !== 0,
      drawerOpen: (this.opts.drawerOpenLevel ?? 'low') === 'high' ? pin3High : !pin3High,
      reachable: true,
      error: (cause & OFFLINE_BITS.error) !== 0,
    };
  }
}
