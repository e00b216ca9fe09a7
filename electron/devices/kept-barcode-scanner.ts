/**
 * A barcode scanner's serial port held open for as long as the scanner is registered (issue 23,
 * point 5): a scanner speaks when a code is scanned, so someone must be listening all the time.
 * When the port goes (the scanner unplugged: the port closes or fails to read) or cannot be
 * opened yet, it is opened again every `retryMs` until the scanner is back, at the same path
 * (a USB adapter's /dev/serial/by-id/… link follows the adapter to its new ttyUSB number).
 * `pause` lets the installer's test borrow the port (serial ports are opened by one at a time).
 */
import { openSerialLink, type DeviceLink } from './device-link';
import { BarcodeScannerDriver } from './barcode-scanner';
import type { BarcodeRead } from './barcode-lines';

/** `open`: listening; `waiting`: not plugged in (or not openable), trying again; `paused`: lent to a test; `closed`: stopped. */
export type KeptScannerState = 'open' | 'waiting' | 'paused' | 'closed';

export interface KeptScannerOptions {
  path: string;
  baud: number;
  onRead(read: BarcodeRead): void;
  onState?(state: KeptScannerState): void;
  /** How long to wait before opening again after the port went or would not open (default 2 s). */
  retryMs?: number;
  /** Opens the port (tests may count the attempts); default: the serial link at `baud`. */
  open?: (path: string, baud: number) => Promise<DeviceLink>;
}

export class KeptBarcodeScanner {
  private driver: BarcodeScannerDriver | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Bumped by every pause/close: an open that finishes after one is closed at once, not kept. */
  private generation = 0;
  private current: KeptScannerState = 'waiting';

  constructor(private readonly opts: KeptScannerOptions) {}

  get state(): KeptScannerState {
    return this.current;
  }

  get path(): string {
    return this.opts.path;
  }

  /** Starts listening; resolves once the first try to open the port is over (open, or waiting for the scanner). */
  start(): Promise<void> {
    this.generation++;
    return this.attempt(this.generation);
  }

  private set(state: KeptScannerState): void {
    if (state === this.current) return;
    this.current = state;
    this.opts.onState?.(state);
  }

  private retryLater(gen: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.attempt(gen), this.opts.retryMs ?? 2000);
    this.timer.unref?.();
  }

  private attempt(gen: number): Promise<void> {
    if (gen !== this.generation) return Promise.resolve();
    const open = this.opts.open ?? ((p, b) => openSerialLink(p, b));
    return open(this.opts.path, this.opts.baud).then(
      (link) => {
        if (gen !== this.generation) return void link.close();
        const driver = new BarcodeScannerDriver(link);
        this.driver = driver;
        driver.onRead((r) => this.opts.onRead(r));
        driver.onClose(() => {
          if (gen !== this.generation || this.driver !== driver) return;
          this.driver = undefined;
          this.set('waiting');
          this.retryLater(gen);
        });
        // A port can go between opening and here (the listener came late): look once.
        if (link.closed) {
          this.driver = undefined;
          this.set('waiting');
          return this.retryLater(gen);
        }
        this.set('open');
      },
      () => {
        if (gen !== this.generation) return;
        this.set('waiting');
        this.retryLater(gen);
      },
    );
  }

  private async stop(state: 'paused' | 'closed'): Promise<void> {
    this.generation++;
    clearTimeout(this.timer);
    const d = this.driver;
    this.driver = undefined;
    this.set(state);
    await d?.close();
  }

  /** Closes the port and stops trying until `resume` (the installer's test borrows it). */
  pause(): Promise<void> {
    return this.stop('paused');
  }

  resume(): void {
    if (this.current !== 'paused') return;
    this.set('waiting');
    void this.start();
  }

  close(): Promise<void> {
    return this.stop('closed');
  }
}
