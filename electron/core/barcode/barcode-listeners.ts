/**
 * The core's ear on every registered barcode scanner (issue 23, point 5): each one's serial port
 * is kept open (devices/kept-barcode-scanner.ts: opened again after an unplug), and what it
 * reads is pushed to the windows — a code as `barcode:scanned`, a refusal as `barcode:refused`.
 * The installer's test borrows a scanner's port for one read (`testRead`), so that read is the
 * test's, never a sale's. A path saved before the device-place rules, or one no longer
 * allowed, is not opened: its state says why (device-places.ts).
 * Simplification: every window hears every scan (the sale screen that is open and free adds it);
 * a register runs one counter window.
 */
import type { BarcodeScannerState } from '../../../shared/ipc/contract';
import { DEVICE_BARCODE_MSG } from '../../devices/barcode-lines';
import { BarcodeScannerDriver } from '../../devices/barcode-scanner';
import { openSerialLink } from '../../devices/device-link';
import { deviceAddressRefusal, type DevicePlaces } from '../../devices/device-places';
import { DeviceError } from '../../devices/device-messages';
import { KeptBarcodeScanner } from '../../devices/kept-barcode-scanner';
import type { CoreEvents } from '../platform/events';
import type { BarcodeScannerRow } from './barcode-scanner-rows';

export interface BarcodeListenersDeps {
  events: CoreEvents;
  places: DevicePlaces;
  /** How long an unplugged scanner waits before its port is tried again (default 2 s). */
  retryMs?: number;
}

interface Listening {
  row: BarcodeScannerRow;
  scanner: KeptBarcodeScanner | null;
  problem: string | null;
}

const same = (a: BarcodeScannerRow, b: BarcodeScannerRow) => a.path === b.path && a.baud === b.baud;

export class BarcodeListeners {
  private readonly listening = new Map<string, Listening>();
  private chain: Promise<void> = Promise.resolve();
  private testing = false;

  constructor(private readonly deps: BarcodeListenersDeps) {}

  /** Listens to exactly these scanners: new ones opened, removed or moved ones closed (one sync at a time). */
  sync(rows: readonly BarcodeScannerRow[]): Promise<void> {
    const run = this.chain.then(() => this.syncNow(rows));
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async syncNow(rows: readonly BarcodeScannerRow[]): Promise<void> {
    const wanted = new Map(rows.map((r) => [r.id, r]));
    for (const [id, l] of this.listening) {
      const next = wanted.get(id);
      if (next && same(l.row, next)) {
        l.row = next;
        continue;
      }
      this.listening.delete(id);
      await l.scanner?.close();
    }
    for (const row of rows) {
      if (this.listening.has(row.id)) continue;
      const problem = await deviceAddressRefusal({ kind: 'serial', path: row.path }, this.deps.places);
      if (problem) {
        this.listening.set(row.id, { row, scanner: null, problem });
        continue;
      }
      const scanner = new KeptBarcodeScanner({
        path: row.path,
        baud: row.baud,
        ...(this.deps.retryMs !== undefined ? { retryMs: this.deps.retryMs } : {}),
        onRead: (r) => {
          if (r.kind === 'code') this.deps.events.emit('barcode:scanned', { code: r.code });
          else this.deps.events.emit('barcode:refused', { message: r.message });
        },
      });
      this.listening.set(row.id, { row, scanner, problem: null });
      // The first try is awaited, so a scanner just saved answers with its port's state.
      await scanner.start();
    }
  }

  stateOf(id: string): { state: BarcodeScannerState; problem: string | null } {
    const l = this.listening.get(id);
    if (!l) return { state: 'unplugged', problem: null };
    if (!l.scanner) return { state: 'refused', problem: l.problem };
    const s = l.scanner.state;
    return { state: s === 'open' ? 'listening' : s === 'paused' ? 'testing' : 'unplugged', problem: null };
  }

  get busy(): boolean {
    return this.testing;
  }

  /**
   * The installer's test: the next read at `path` and `baud` within `waitMs` (its code, or a
   * DeviceError in words). A registered scanner at that path lends its port meanwhile.
   */
  async testRead(path: string, baud: number, waitMs: number): Promise<string> {
    this.testing = true;
    const lender = [...this.listening.values()].find((l) => l.row.path === path)?.scanner ?? null;
    try {
      await lender?.pause();
      const link = await openSerialLink(path, baud).catch(() => {
        throw new DeviceError('unreachable', DEVICE_BARCODE_MSG.unreachable);
      });
      const driver = new BarcodeScannerDriver(link);
      try {
        return await driver.nextRead(waitMs);
      } finally {
        await driver.close();
      }
    } finally {
      lender?.resume();
      this.testing = false;
    }
  }

  async close(): Promise<void> {
    await this.chain;
    const all = [...this.listening.values()];
    this.listening.clear();
    await Promise.all(all.map((l) => l.scanner?.close()));
  }
}
