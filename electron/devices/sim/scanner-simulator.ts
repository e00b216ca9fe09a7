/**
 * A simulated serial check scanner (see scanner-protocol.ts) on one end of a socat
 * pseudo-terminal. `micr` is the line of the next check fed (with the letters T and U; the
 * scanner rewrites them into the symbols configured), null for "no check fed": SCAN then
 * answers NOCHECK after `noCheckMs`.
 */
import { openSerialLink, type DeviceLink } from '../device-link';
import { LINE_END, SCANNER_ANSWER, SCANNER_CMD } from '../scanner-protocol';

export const SAMPLE_MICR = 'T072000326T 12345678U 1001';

export class ScannerSimulator {
  micr: string | null;
  noCheckMs = 50;
  model = 'MICR-100';
  serialNumber = 'SCN0001';
  private link: DeviceLink | undefined;
  private transit = 'T';
  private onUs = 'U';

  constructor(opts: { micr?: string | null } = {}) {
    this.micr = opts.micr === undefined ? SAMPLE_MICR : opts.micr;
  }

  async attachSerial(path: string): Promise<void> {
    const link = await openSerialLink(path);
    this.link = link;
    let buf = '';
    link.onData((chunk) => {
      buf += chunk.toString('latin1');
      let i: number;
      while ((i = buf.search(/[\r\n]/)) >= 0) {
        const line = buf.slice(0, i).trim();
        buf = buf.slice(i + 1);
        if (line) this.handle(line);
      }
    });
  }

  private send(line: string): void {
    this.link?.write(Buffer.from(line + LINE_END, 'latin1'));
  }

  private handle(line: string): void {
    const [cmd, ...args] = line.split(' ');
    if (cmd === SCANNER_CMD.id) this.send(`${SCANNER_ANSWER.id} ${this.model} ${this.serialNumber}`);
    else if (cmd === SCANNER_CMD.configure) {
      for (const a of args) {
        if (a.startsWith('T=') && a.length === 3) this.transit = a[2] as string;
        if (a.startsWith('O=') && a.length === 3) this.onUs = a[2] as string;
      }
      this.send(SCANNER_ANSWER.ok);
    } else if (cmd === SCANNER_CMD.scan) {
      const micr = this.micr;
      if (micr === null) setTimeout(() => this.send(SCANNER_ANSWER.noCheck), this.noCheckMs);
      else setTimeout(() => this.send(`${SCANNER_ANSWER.micr} ${micr.replaceAll('T', this.transit).replaceAll('U', this.onUs)}`), 20);
    } else this.send(SCANNER_ANSWER.error);
  }

  async close(): Promise<void> {
    await this.link?.close();
  }
}
