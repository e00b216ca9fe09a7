/**
 * A simulated serial barcode scanner on one end of a socat pseudo-terminal (issue 23, point 5):
 * `scan(code)` sends the code and the suffix the scanner is set to (CR, the usual factory
 * setting, or CR LF), as a scanner in serial mode does; `sendRaw` sends any bytes (noise, a
 * code cut in two, a run-on line) for the driver's tests. It only writes: a real scanner
 * takes no commands over the line.
 */
import { openSerialLink, type DeviceLink } from '../device-link';

export type BarcodeSuffix = 'cr' | 'crlf';
export const BARCODE_SUFFIX_BYTES: Record<BarcodeSuffix, string> = { cr: '\r', crlf: '\r\n' };

export class BarcodeSimulator {
  private link: DeviceLink | undefined;

  constructor(public suffix: BarcodeSuffix = 'cr') {}

  async attachSerial(path: string, baud = 9600): Promise<void> {
    this.link = await openSerialLink(path, baud);
  }

  scan(code: string): void {
    this.sendRaw(Buffer.from(code + BARCODE_SUFFIX_BYTES[this.suffix], 'latin1'));
  }

  sendRaw(bytes: Uint8Array): void {
    if (!this.link || this.link.closed) throw new Error('the barcode simulator is not attached to a serial line');
    this.link.write(bytes);
  }

  async close(): Promise<void> {
    await this.link?.close();
  }
}
