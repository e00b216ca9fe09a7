/**
 * The check scanner driver (contract `CheckScanner`) over a serial link: configure the MICR
 * symbols, identify the device, scan a check and parse its MICR line (routing checksum
 * verified, unreadable characters rejected with DEVICE_MSG.MICR_UNREADABLE).
 */
import { DEFAULT_MICR_SYMBOLS, parseMicr, type MicrData, type MicrError, type MicrSymbols } from '../../shared/payments/micr-line';
import type { DeviceLink } from './device-link';
import { DEVICE_MSG, DeviceError } from './device-messages';
import { LINE_END, SCANNER_ANSWER, SCANNER_CMD } from './scanner-protocol';

const MICR_MESSAGES: Record<MicrError, string> = {
  unreadable: DEVICE_MSG.MICR_UNREADABLE,
  format: DEVICE_MSG.MICR_FORMAT,
  routing: DEVICE_MSG.MICR_ROUTING,
  account: DEVICE_MSG.MICR_ACCOUNT,
};

export class CheckScannerDriver {
  private buffer = '';
  private waiting: ((line: string | null) => void) | undefined;
  private symbols: MicrSymbols = DEFAULT_MICR_SYMBOLS;

  constructor(
    private readonly link: DeviceLink,
    private readonly answerTimeoutMs = 3000,
  ) {
    link.onData((chunk) => {
      this.buffer += chunk.toString('latin1');
      let i: number;
      while ((i = this.buffer.search(/[\r\n]/)) >= 0) {
        const line = this.buffer.slice(0, i).trim();
        this.buffer = this.buffer.slice(i + 1);
        if (!line) continue;
        const w = this.waiting;
        this.waiting = undefined;
        w?.(line);
      }
    });
    link.onClose(() => {
      const w = this.waiting;
      this.waiting = undefined;
      w?.(null);
    });
  }

  private ask(command: string, timeoutMs = this.answerTimeoutMs): Promise<string> {
    return new Promise((resolve, reject) => {
      if (this.link.closed) return reject(new DeviceError('disconnected', DEVICE_MSG.SCANNER_UNREACHABLE));
      const timer = setTimeout(() => {
        this.waiting = undefined;
        reject(new DeviceError('timeout', command === SCANNER_CMD.scan ? DEVICE_MSG.SCANNER_NO_CHECK : DEVICE_MSG.SCANNER_UNREACHABLE));
      }, timeoutMs);
      this.waiting = (line) => {
        clearTimeout(timer);
        if (line === null) reject(new DeviceError('disconnected', DEVICE_MSG.SCANNER_UNREACHABLE));
        else resolve(line);
      };
      this.link.write(Buffer.from(command + LINE_END, 'latin1'));
    });
  }

  async identify(): Promise<{ model: string; serialNumber: string }> {
    const a = await this.ask(SCANNER_CMD.id);
    const [, model = '', serialNumber = ''] = a.split(' ');
    return { model, serialNumber };
  }

  async configure(symbols: MicrSymbols = DEFAULT_MICR_SYMBOLS): Promise<void> {
    const a = await this.ask(`${SCANNER_CMD.configure} T=${symbols.transit} O=${symbols.onUs}`);
    if (a !== SCANNER_ANSWER.ok) throw new DeviceError('protocol', DEVICE_MSG.GARBLED);
    this.symbols = symbols;
  }

  /** Waits up to waitMs for a check and answers its parsed MICR data. */
  async scan(waitMs = 30_000): Promise<MicrData> {
    const a = await this.ask(SCANNER_CMD.scan, waitMs);
    if (a === SCANNER_ANSWER.noCheck) throw new DeviceError('timeout', DEVICE_MSG.SCANNER_NO_CHECK);
    if (!a.startsWith(`${SCANNER_ANSWER.micr} `)) throw new DeviceError('protocol', DEVICE_MSG.GARBLED);
    const parsed = parseMicr(a.slice(SCANNER_ANSWER.micr.length + 1), this.symbols);
    if (!parsed.ok) throw new DeviceError('unreadable', MICR_MESSAGES[parsed.error]);
    return parsed.value;
  }

  close(): Promise<void> {
    return this.link.close();
  }
}
