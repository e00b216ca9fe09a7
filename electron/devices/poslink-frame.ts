/**
 * The wire format of the POSLink-family EMV terminals (GATEWAY-FACTS "EMV terminals on the
 * wire"): STX + command + FS + version + FS fields… + ETX + LRC, sub-fields split by US,
 * LRC = XOR of every byte after STX up to and including ETX. Control bytes ACK, NAK and
 * EOT travel alone between frames.
 *
 * FrameReader turns a byte stream (TCP or serial, chunked anyhow) into events; a frame with
 * a wrong LRC or bytes that do not belong in a frame is reported, never guessed at.
 */
export const STX = 0x02;
export const ETX = 0x03;
export const EOT = 0x04;
export const ACK = 0x06;
export const NAK = 0x15;
export const FS = 0x1c;
export const US = 0x1f;

export const PROTOCOL_VERSION = '1.28';
/** A sender gives up after this many NAKs and ends the exchange with EOT. */
export const MAX_NAKS = 3;
/** Longest frame accepted: a signature image fits; anything longer is garbage. */
const MAX_FRAME_BYTES = 256 * 1024;

export interface Frame {
  /** e.g. T00 (request) or T01 (its response: request + 1). */
  command: string;
  version: string;
  fields: string[];
}

export type WireEvent =
  | { kind: 'frame'; frame: Frame }
  | { kind: 'bad-lrc' }
  | { kind: 'garbled' }
  | { kind: 'ack' }
  | { kind: 'nak' }
  | { kind: 'eot' };

export function lrc(bytes: Uint8Array): number {
  let x = 0;
  for (const b of bytes) x ^= b;
  return x;
}

export function encodeFrame(frame: Frame): Buffer {
  const body = [frame.command, frame.version, ...frame.fields].join(String.fromCharCode(FS));
  const inner = Buffer.concat([Buffer.from(body, 'latin1'), Buffer.from([ETX])]);
  return Buffer.concat([Buffer.from([STX]), inner, Buffer.from([lrc(inner)])]);
}

export const joinSub = (parts: (string | number | null | undefined)[]): string => parts.map((p) => (p === null || p === undefined ? '' : String(p))).join(String.fromCharCode(US));
export const splitSub = (field: string | undefined): string[] => (field ?? '').split(String.fromCharCode(US));

/** The response command of a request: the number plus one (T00 → T01). */
export function responseCommand(command: string): string {
  const n = Number(command.slice(1)) + 1;
  return `${command[0]}${String(n).padStart(2, '0')}`;
}

const COMMAND = /^[A-Z]\d\d$/;

export class FrameReader {
  private buf: number[] = [];
  private state: 'idle' | 'body' | 'lrc' = 'idle';

  push(chunk: Uint8Array): WireEvent[] {
    const out: WireEvent[] = [];
    for (const b of chunk) {
      if (this.state === 'idle') {
        if (b === STX) {
          this.state = 'body';
          this.buf = [];
        } else if (b === ACK) out.push({ kind: 'ack' });
        else if (b === NAK) out.push({ kind: 'nak' });
        else if (b === EOT) out.push({ kind: 'eot' });
        else out.push({ kind: 'garbled' });
      } else if (this.state === 'body') {
        this.buf.push(b);
        if (b === ETX) this.state = 'lrc';
        else if (this.buf.length > MAX_FRAME_BYTES) {
          out.push({ kind: 'garbled' });
          this.state = 'idle';
        }
      } else {
        this.state = 'idle';
        const inner = Uint8Array.from(this.buf);
        if (lrc(inner) !== b) {
          out.push({ kind: 'bad-lrc' });
          continue;
        }
        const frame = decodeBody(inner.subarray(0, inner.length - 1));
        out.push(frame ? { kind: 'frame', frame } : { kind: 'garbled' });
      }
    }
    // A run of garbage is one event, not one per byte.
    return out.filter((e, i) => !(e.kind === 'garbled' && out[i - 1]?.kind === 'garbled'));
  }
}

function decodeBody(body: Uint8Array): Frame | undefined {
  for (const b of body) if ((b < 0x20 && b !== FS && b !== US) || b === 0x7f) return undefined;
  const parts = Buffer.from(body).toString('latin1').split(String.fromCharCode(FS));
  const [command, version, ...fields] = parts;
  if (!command || !COMMAND.test(command) || version === undefined) return undefined;
  return { command, version, fields };
}
