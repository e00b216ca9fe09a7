/**
 * A serial barcode scanner (issue 23, point 5) over a DeviceLink: it speaks on its own, so the
 * driver only listens. Each read (a code, or a refusal in words: barcode-lines.ts) goes to the
 * listeners; `nextRead` waits for one (the installer's test). The host never writes to it:
 * scanners in serial mode take their settings from the barcodes of their set-up sheet.
 */
import type { DeviceLink } from './device-link';
import { BarcodeLineReader, DEVICE_BARCODE_MSG, type BarcodeRead } from './barcode-lines';
import { DeviceError } from './device-messages';

export class BarcodeScannerDriver {
  private readonly reader = new BarcodeLineReader();
  private readonly readListeners = new Set<(r: BarcodeRead) => void>();
  private readonly closeListeners = new Set<() => void>();

  constructor(private readonly link: DeviceLink) {
    link.onData((chunk) => {
      for (const r of this.reader.push(chunk)) for (const l of this.readListeners) l(r);
    });
    link.onClose(() => {
      for (const l of this.closeListeners) l();
    });
  }

  /** Bytes of a code begun and not yet ended (tests wait on it to send the rest as a second read). */
  get pendingBytes(): number {
    return this.reader.pending;
  }

  get closed(): boolean {
    return this.link.closed;
  }

  /** Every read; returns the unsubscribe function. */
  onRead(cb: (r: BarcodeRead) => void): () => void {
    this.readListeners.add(cb);
    return () => this.readListeners.delete(cb);
  }

  /** The port closed (unplugged, or closed here). */
  onClose(cb: () => void): () => void {
    this.closeListeners.add(cb);
    return () => this.closeListeners.delete(cb);
  }

  /**
   * The next read within `waitMs`: its code, or a DeviceError with the refusal's sentence, with
   * "no end of line" when bytes came but no line end, "nothing scanned" when nothing came, and
   * "unplugged" when the port closed meanwhile.
   */
  nextRead(waitMs: number): Promise<string> {
    return new Promise((resolve, reject) => {
      if (this.link.closed) return reject(new DeviceError('disconnected', DEVICE_BARCODE_MSG.unplugged));
      const done = () => {
        clearTimeout(timer);
        offRead();
        offClose();
      };
      const timer = setTimeout(() => {
        done();
        reject(new DeviceError('timeout', this.reader.pending > 0 ? DEVICE_BARCODE_MSG.noLineEnd : DEVICE_BARCODE_MSG.nothing));
      }, waitMs);
      const offRead = this.onRead((r) => {
        done();
        if (r.kind === 'code') resolve(r.code);
        else reject(new DeviceError('unreadable', r.message));
      });
      const offClose = this.onClose(() => {
        done();
        reject(new DeviceError('disconnected', DEVICE_BARCODE_MSG.unplugged));
      });
    });
  }

  close(): Promise<void> {
    return this.link.close();
  }
}
