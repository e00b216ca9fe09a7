/**
 * The counter's receipt printer and cash drawer (issue 23, points 1 and 2), in the core:
 *
 * - a watcher asks the active printer's real-time status every few seconds (the interval is the
 *   core's option; tests pass a short one) and pushes `printer:status` when what it says changes:
 *   ready, paper low, out of paper, cover open, offline, and the drawer open or closed;
 * - every print goes through the print queue (print-queue.ts), written before it is sent: what
 *   cannot print now waits, and prints by itself — oldest first, each job once — when the watcher
 *   sees the printer ready again;
 * - the drawer opens through the printer's kick port (cash tenders and returns: the core's
 *   `drawer:open` event; "No sale"); seen open longer than the store's setting, it is flagged
 *   in the status and recorded once in the audit log.
 *
 * Simplifications: a job is marked printed when the printer took its bytes without refusing
 * (a printer that loses power in the middle of a receipt prints that receipt again in full when
 * it is back: a duplicate, never a loss); the drawer's open time is counted from the first status
 * read that saw it open, so it is late by up to one interval.
 */
import type { PrinterRecord, PrinterSettings, PrinterState, PrinterStatusView, PrintOutcome } from '../../../shared/ipc/contract';
import { PRINTER_MSG, PRINTER_STATE_WORDS, printsIn } from '../../../shared/ipc/contract';
import type { AuditLog } from '../audit/audit-log';
import type { CoreEvents } from '../platform/events';
import { stateOf, type OpenPrinter, type PrinterReading } from './printer-connection';
import { PrinterLine } from './printer-line';
import type { PrinterRegistry } from './printer-registry';
import type { NewPrintJob, PrintQueue } from './print-queue';
import { testPrintDocument } from '../../devices/receipt-encoding';
import { printerLayout } from './printer-open';

/** How often the watcher asks the printer (ms): a paper roll changed shows, and what waited prints, within seconds. */
export const PRINTER_WATCH_MS = 3_000;

export interface ReceiptPrinterDeps {
  registry: PrinterRegistry;
  queue: PrintQueue;
  open: OpenPrinter;
  /** A receiptline document as the bytes this printer prints (its characters per line, cut, logo). */
  encode: (document: string, p: PrinterSettings) => Uint8Array;
  events: CoreEvents;
  audit: AuditLog;
  /** The store's "flag a drawer left open after" setting, seconds. */
  drawerAlertSeconds: () => number;
  /** The store's name, heading the test page. */
  storeName: () => string;
  /** Who is signed in where the call runs: the one who opened the drawer is named if it is left open. */
  who: () => { id: string; name: string } | null;
  now?: () => number;
}

const NONE: PrinterStatusView = { printerId: null, name: null, state: 'none', drawer: 'unknown', drawerOpenSeconds: null, drawerFlagged: false, waiting: 0 };

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

export class ReceiptPrinter {
  private readonly line: PrinterLine;
  private readonly now: () => number;
  private view: PrinterStatusView = NONE;
  private timer: ReturnType<typeof setInterval> | null = null;
  private drains: Promise<void> = Promise.resolve();
  private polling: Promise<PrinterStatusView> | null = null;
  /** When the drawer was first seen open (null: closed or never seen), and whether that opening was flagged. */
  private openSince: number | null = null;
  private flagged = false;
  /** Who last opened the drawer (a cash sale, a return, "No sale"): named if it is left open. */
  private opener: { id: string; name: string } | null = null;

  constructor(private readonly deps: ReceiptPrinterDeps) {
    this.line = new PrinterLine(deps.open);
    this.now = deps.now ?? Date.now;
  }

  /** Asks the printer every `intervalMs` (0: never; the status is then read on demand). */
  watch(intervalMs: number): void {
    if (intervalMs > 0) this.timer = setInterval(() => void this.poll(), intervalMs);
    void this.poll();
  }

  status(): PrinterStatusView {
    return this.view;
  }

  registered(): boolean {
    return this.deps.registry.active() !== null;
  }

  /** Reads the active printer's status now (one read at a time), pushes it, and prints what waits when it can. */
  poll(): Promise<PrinterStatusView> {
    this.polling ??= this.readStatus().finally(() => (this.polling = null));
    return this.polling;
  }

  /**
   * Writes the jobs to the queue, then prints what waits in order (these last). Answers printed,
   * or waiting and why: the jobs stay in the queue and print when the printer is ready.
   */
  async print(jobs: readonly NewPrintJob[]): Promise<PrintOutcome> {
    const seqs = this.deps.queue.add(jobs);
    await this.drain();
    const left = seqs.map((s) => this.deps.queue.get(s)).filter((j) => j?.state === 'waiting');
    if (left.length === 0) return { state: 'printed', copies: seqs.length };
    return { state: 'waiting', copies: seqs.length, why: left[0]?.lastError ?? PRINTER_STATE_WORDS[this.view.state] };
  }

  /** Prints the test page with these settings (saved or not) when the printer can; answers its status. */
  async testPrint(p: PrinterSettings): Promise<PrinterStatusView> {
    const saved = this.deps.registry.list().find((r) => JSON.stringify(r.address) === JSON.stringify(p.address));
    const base = { ...NONE, printerId: saved?.id ?? null, name: p.name };
    let reading: PrinterReading;
    try {
      reading = await this.line.use(p, (c) => c.status());
      if (printsIn(stateOf(reading))) {
        const where = p.address.kind === 'tcp' ? `${p.address.host}:${p.address.port}` : `${p.address.path} at ${p.address.baud} baud`;
        const when = new Date(this.now()).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
        const page = testPrintDocument({ storeName: this.deps.storeName(), printerName: p.name, address: where, layout: printerLayout(p), when });
        await this.line.use(p, (c) => c.print(this.deps.encode(page, p)));
        reading = await this.line.use(p, (c) => c.status());
      }
    } catch {
      return { ...base, state: 'offline' };
    } finally {
      // The counter's printer is read again at once (the test may have been another address).
      void this.poll();
    }
    return { ...base, state: stateOf(reading), drawer: reading.drawerOpen ? 'open' : 'closed' };
  }

  /** Opens the drawer through the active printer's kick port; answers why not in words, or null. */
  async kickDrawer(): Promise<string | null> {
    const p = this.deps.registry.active();
    if (!p) return PRINTER_MSG.noPrinter;
    this.opener = this.deps.who();
    try {
      await this.line.use(p, (c) => c.kickDrawer());
      return null;
    } catch (err) {
      return `The drawer did not open: ${errorText(err)}`;
    } finally {
      void this.poll();
    }
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.polling?.catch(() => undefined);
    await this.drains;
    await this.line.close();
  }

  /** Prints what waits, one pass after every pass asked before it (a job added during a pass is printed by the next). */
  private drain(): Promise<void> {
    const pass = this.drains.then(() => this.printWaiting());
    this.drains = pass.catch(() => undefined);
    return pass;
  }

  private async printWaiting(): Promise<void> {
    const p = this.deps.registry.active();
    if (!p) return;
    for (let job = this.deps.queue.next(); job; job = this.deps.queue.next()) {
      try {
        const bytes = this.deps.encode(job.document, p);
        await this.line.use(p, (c) => c.print(bytes));
        this.deps.queue.printed(job.seq);
      } catch (err) {
        this.deps.queue.failed(job.seq, await this.whyNot(p, err));
        break;
      }
    }
    this.show({ ...this.view, waiting: this.deps.queue.waitingCount() });
  }

  /** Why a print failed, in the printer's state's words when it says (out of paper), else the driver's; the status shows that state. */
  private async whyNot(p: PrinterRecord, err: unknown): Promise<string> {
    const reading = await this.read(p);
    const s = this.note(p, reading);
    return printsIn(s) ? errorText(err) : PRINTER_STATE_WORDS[s];
  }

  /** One status read of the printer; null when it does not answer. */
  private read(p: PrinterRecord): Promise<PrinterReading | null> {
    return this.line.use(p, (c) => c.status()).catch(() => null);
  }

  private async readStatus(): Promise<PrinterStatusView> {
    const p = this.deps.registry.active();
    if (!p) {
      this.openSince = null;
      this.flagged = false;
      this.show({ ...NONE, waiting: this.deps.queue.waitingCount() });
      return this.view;
    }
    const reading = await this.read(p);
    const state = this.note(p, reading);
    if (printsIn(state) && this.view.waiting > 0) await this.drain();
    return this.view;
  }

  /** A status read of the active printer (null: it did not answer): the view follows it, and the drawer's time. */
  private note(p: PrinterRecord, reading: PrinterReading | null): PrinterState {
    const state = reading ? stateOf(reading) : 'offline';
    this.followDrawer(reading);
    this.show({
      printerId: p.id,
      name: p.name,
      state,
      drawer: reading ? (reading.drawerOpen ? 'open' : 'closed') : 'unknown',
      drawerOpenSeconds: this.openSince === null ? null : Math.max(0, Math.floor((this.now() - this.openSince) / 1000)),
      drawerFlagged: this.flagged,
      waiting: this.deps.queue.waitingCount(),
    });
    return state;
  }

  /** The drawer's open time, and its flag once past the store's setting (recorded once an opening). */
  private followDrawer(reading: PrinterReading | null): void {
    if (!reading) return; // not known: neither opened nor closed
    if (!reading.drawerOpen) {
      this.openSince = null;
      this.flagged = false;
      return;
    }
    this.openSince ??= this.now();
    const limit = this.deps.drawerAlertSeconds();
    if (!this.flagged && this.now() - this.openSince >= limit * 1000) {
      this.flagged = true;
      const by = this.opener ? `; last opened at ${this.opener.name}'s counter` : '';
      this.deps.audit.record({ kind: 'drawer-left-open', user: this.opener, detail: `the cash drawer has been open longer than ${limit} s${by}` });
    }
  }

  private show(next: PrinterStatusView): void {
    const changed = JSON.stringify(next) !== JSON.stringify(this.view);
    this.view = next;
    if (changed) this.deps.events.emit('printer:status', next);
  }
}
