/**
 * The EMV terminal driver (contract `TerminalDriver`): one connection per operation, over
 * TCP or a serial port. Each operation sends one request, follows the terminal's S00
 * status notices (onState), and resolves with the response (request command + 1).
 *
 * Timeouts: the terminal enforces its own (card entry, PIN, signature, tip, transaction,
 * device terms) with the settings sent in each request, and answers them with the
 * interface's message; the driver bounds the whole operation by overall_timeout, then
 * sends A14 (cancel) and fails with "Overall Request Timeout". `secondMs` scales a
 * second (tests run the real timeouts at 1 s = a few ms).
 *
 * Cancel sends A14 and the terminal confirms with its ABORTED answer. A terminal that went
 * silent (power cut, serial cable pulled: no hang-up reaches us) never confirms, so after
 * CANCEL_GRACE_SECONDS the driver ends the operation itself with "Cancelled at the
 * counter.". That is safe because the terminal only reads the card: the sale is decided
 * afterwards by the processor (the engine), so an abandoned read moved no money.
 * Cancel pressed while the link is still opening ends the operation before anything is sent.
 */
import { RESULT, CMD, encodeSettings, encodeTransaction, type OperationSettings, type TerminalResult, type TerminalState, type TransactionRequest } from './terminal-commands';
import { TERMINAL_TIMEOUTS, type TimeoutKey } from '../../shared/payments/terminal-timeouts';
import type { DeviceLink } from './device-link';
import { DEVICE_MSG, DeviceError } from './device-messages';
import { maskCardNumbersInText } from '../../shared/payments/masking';
import { plainTerminalText, readTransactionAnswer } from './terminal-answer';
import { FramedChannel } from './framed-channel';
import { PROTOCOL_VERSION, responseCommand, splitSub, type Frame } from './poslink-frame';

export interface TerminalDriverOptions {
  connect: () => Promise<DeviceLink>;
  settings: OperationSettings;
  secondMs?: number;
  ackTimeoutMs?: number;
}

export interface TerminalInfo {
  serialNumber: string;
  model: string;
  application: string;
}

export interface TermsAnswer {
  accepted: boolean;
  signature: string | null;
}

export interface BatchTotals {
  count: number;
  totalCents: number;
}

export type StateListener = (state: TerminalState, prompt: string) => void;

/** Which timeout a terminal's TIMEOUT answer names, found by its message. */
function timeoutKeyOf(message: string): TimeoutKey | undefined {
  return (Object.keys(TERMINAL_TIMEOUTS) as TimeoutKey[]).find((k) => TERMINAL_TIMEOUTS[k].message === message);
}

/** Terminal seconds the driver waits after Cancel for the terminal to confirm it. */
export const CANCEL_GRACE_SECONDS = 5;

/** The operation under way: one at a time per driver, claimed before the link opens. */
interface Operation {
  cancelled: boolean;
  /** What Cancel does in the current phase (opening the link, or talking to the terminal). */
  onCancel: () => void;
}

export class TerminalDriver {
  private readonly listeners: StateListener[] = [];
  private op: Operation | undefined;

  constructor(private readonly opts: TerminalDriverOptions) {}

  onState(l: StateListener): () => void {
    this.listeners.push(l);
    return () => this.listeners.splice(this.listeners.indexOf(l) >>> 0, 1);
  }

  get busy(): boolean {
    return this.op !== undefined;
  }

  initialize(): Promise<TerminalInfo> {
    return this.exchange(CMD.init, [encodeSettings(this.opts.settings)], (f) => {
      const [serialNumber = '', model = '', application = ''] = splitSub(f[2]).map(maskCardNumbersInText);
      return { serialNumber, model, application };
    });
  }

  sale(r: Omit<TransactionRequest, 'type'>, debit = false): Promise<TerminalResult> {
    return this.transaction({ ...r, type: 'sale' }, debit);
  }
  refund(r: Omit<TransactionRequest, 'type'>): Promise<TerminalResult> {
    return this.transaction({ ...r, type: 'return' });
  }
  auth(r: Omit<TransactionRequest, 'type'>): Promise<TerminalResult> {
    return this.transaction({ ...r, type: 'auth' });
  }
  void(ecrRef: string, origRef: string): Promise<TerminalResult> {
    return this.transaction({ type: 'void', amountCents: 0, ecrRef, origRef });
  }
  tipAdjust(ecrRef: string, origRef: string, tipCents: number): Promise<TerminalResult> {
    return this.transaction({ type: 'adjust', amountCents: 0, tipCents, ecrRef, origRef });
  }

  transaction(r: TransactionRequest, debit = false): Promise<TerminalResult> {
    // Read strictly (terminal-answer.ts): a malformed or contradictory answer rejects as a TerminalFault.
    return this.exchange(debit ? CMD.debit : CMD.credit, encodeTransaction(r, this.opts.settings), (f) => readTransactionAnswer(f) as TerminalResult, readTransactionAnswer);
  }

  /** Asks for a signature on its own (A20); answers the base64 image. */
  signature(): Promise<string> {
    return this.exchange(CMD.signature, [encodeSettings(this.opts.settings)], (f) => signatureOf(f[2]) ?? '');
  }

  /** Shows device terms (A30) and returns the cardholder's answer and signature. */
  deviceTerms(text: string, requireSignature: boolean): Promise<TermsAnswer> {
    return this.exchange(CMD.terms, [text, requireSignature ? '1' : '0', encodeSettings(this.opts.settings)], (f) => ({
      accepted: f[2] === '1',
      signature: signatureOf(f[3]),
    }));
  }

  batchTotals(): Promise<BatchTotals> {
    return this.exchange(CMD.batch, [encodeSettings(this.opts.settings)], (f) => {
      const [count = '0', total = '0'] = splitSub(f[2]);
      return { count: Number(count), totalCents: Number(total) };
    });
  }

  /**
   * Cancels the running operation: it then fails with DEVICE_MSG.CANCELLED, once the terminal
   * confirms (A14 answered ABORTED) or at the latest after CANCEL_GRACE_SECONDS.
   */
  cancel(): void {
    const op = this.op;
    if (!op || op.cancelled) return;
    op.cancelled = true;
    op.onCancel();
  }

  /**
   * One request and its answer: parsed when approved, else turned into its error after `refusal`
   * has read it (transactions: terminal-answer.ts); either may throw a fault.
   */
  private async exchange<T>(command: string, fields: string[], parse: (fields: string[]) => T, refusal?: (fields: string[]) => unknown): Promise<T> {
    if (this.op) throw new DeviceError('busy', DEVICE_MSG.BUSY);
    const cancelledError = () => new DeviceError('cancelled', DEVICE_MSG.CANCELLED);
    let cancelWhileOpening: (e: DeviceError) => void = () => undefined;
    const opening = new Promise<never>((_, reject) => (cancelWhileOpening = reject));
    opening.catch(() => undefined);
    const op: Operation = { cancelled: false, onCancel: () => cancelWhileOpening(cancelledError()) };
    this.op = op;
    const secondMs = this.opts.secondMs ?? 1000;
    let link: DeviceLink | undefined;
    try {
      const connecting = this.opts.connect();
      try {
        link = await Promise.race([connecting, opening]);
      } catch (e) {
        // A link that opens after Cancel is closed unused.
        connecting.then((l) => l.close(), () => undefined).catch(() => undefined);
        throw e;
      }
      if (op.cancelled) throw cancelledError();
      const ch = new FramedChannel(link, { ackTimeoutMs: this.opts.ackTimeoutMs });
      const want = responseCommand(command);
      return await new Promise<T>((resolve, reject) => {
        let grace: ReturnType<typeof setTimeout> | undefined;
        const overall = setTimeout(() => {
          void ch.send(frame(CMD.cancel, [])).catch(() => undefined);
          reject(new DeviceError('timeout', TERMINAL_TIMEOUTS.overall_timeout.message, 'overall_timeout'));
        }, this.opts.settings.timeouts.overall_timeout * secondMs);
        const done = () => {
          clearTimeout(overall);
          clearTimeout(grace);
        };
        op.onCancel = () => {
          void ch.send(frame(CMD.cancel, [])).catch(() => undefined);
          grace = setTimeout(() => {
            done();
            reject(cancelledError());
          }, CANCEL_GRACE_SECONDS * secondMs);
        };
        ch.onClose(() => {
          done();
          reject(new DeviceError('disconnected', DEVICE_MSG.DISCONNECTED));
        });
        ch.onGarbled(() => {
          done();
          reject(new DeviceError('protocol', DEVICE_MSG.GARBLED));
        });
        ch.onFrame((f) => {
          if (f.command === CMD.status) {
            for (const l of [...this.listeners]) l((f.fields[0] ?? 'idle') as TerminalState, f.fields[1] ?? '');
            return;
          }
          if (f.command !== want) return;
          done();
          const [code = '', text = ''] = f.fields;
          try {
            if (code === RESULT.ok) resolve(parse(f.fields));
            else {
              refusal?.(f.fields);
              reject(errorFor(code, text, op.cancelled));
            }
          } catch (e) {
            reject(e instanceof Error ? e : new Error(String(e)));
          }
        });
        ch.send(frame(command, fields)).catch((e: unknown) => {
          done();
          reject(e instanceof Error ? e : new Error(String(e)));
        });
      });
    } finally {
      this.op = undefined;
      if (link) {
        await link.close();
        for (const l of [...this.listeners]) l('idle', '');
      }
    }
  }
}

function frame(command: string, fields: string[]): Frame {
  return { command, version: PROTOCOL_VERSION, fields };
}

/**
 * A signature is an image (base64 PNG) and is stored as sent, so it cannot be masked; one that
 * holds a card number (no drawn signature does: it takes 13 digits in a row that pass Luhn) is
 * a terminal misbehaving, and is dropped rather than stored.
 */
function signatureOf(field: string | undefined): string | null {
  if (!field) return null;
  return maskCardNumbersInText(field) === field ? field : null;
}

function errorFor(code: string, rawText: string, cancelledHere: boolean): DeviceError {
  // The terminal's words reach the API's error answer and the screen: plain text, capped, masked (terminal-answer.ts).
  const text = plainTerminalText(rawText);
  switch (code) {
    case RESULT.aborted:
      return cancelledHere ? new DeviceError('cancelled', DEVICE_MSG.CANCELLED) : new DeviceError('aborted', DEVICE_MSG.ABORTED);
    case RESULT.timeout:
      return new DeviceError('timeout', text || DEVICE_MSG.TERMINAL_TIMEOUT, timeoutKeyOf(text));
    case RESULT.connectError:
      return new DeviceError('connect_error', DEVICE_MSG.CONNECT_ERROR);
    case RESULT.busy:
      return new DeviceError('busy', DEVICE_MSG.BUSY);
    case RESULT.declined:
      return new DeviceError('declined', text || DEVICE_MSG.DECLINED_TERMS);
    default:
      return new DeviceError('protocol', text || DEVICE_MSG.GARBLED);
  }
}
