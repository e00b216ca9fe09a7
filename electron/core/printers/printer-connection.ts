/**
 * What the printer service needs of a receipt printer, whatever reaches it: its real-time status,
 * bytes to print, the drawer kick, closing. The ESC/POS driver (electron/devices/printer-driver.ts)
 * over a TCP or serial link is the real one (printer-open.ts); tests use the same driver against the
 * printer simulator over real sockets and pseudo-terminals.
 */
import type { PrinterRecord, PrinterState } from '../../../shared/ipc/contract';

/** The printer's real-time status bytes (DLE EOT 1, 2 and 4), read. */
export interface PrinterReading {
  online: boolean;
  paper: 'ok' | 'near-end' | 'out';
  coverOpen: boolean;
  drawerOpen: boolean;
}

export interface PrinterConnection {
  status(): Promise<PrinterReading>;
  /** Prints the bytes, or throws when the printer cannot print them (its own words). */
  print(bytes: Uint8Array): Promise<void>;
  kickDrawer(): Promise<void>;
  close(): Promise<void>;
}

/** Where a printer is, to reach it (the record's address; a test print's settings before they are saved). */
export type PrinterPlace = Pick<PrinterRecord, 'address'>;

export type OpenPrinter = (p: PrinterPlace) => Promise<PrinterConnection>;

/** One word for what the status bytes say; the cover and the paper first, since they say why a printer is offline. */
export function stateOf(r: PrinterReading): PrinterState {
  if (r.coverOpen) return 'cover-open';
  if (r.paper === 'out') return 'paper-out';
  if (!r.online) return 'offline';
  if (r.paper === 'near-end') return 'paper-low';
  return 'ready';
}
