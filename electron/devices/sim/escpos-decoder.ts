/**
 * Reads an ESC/POS byte stream into commands, for the printer simulator. Bytes arrive in any
 * chunks (a TCP segment or a serial read can end in the middle of a command or of an image),
 * so a command is decoded only once all its bytes are in; the rest waits for the next chunk.
 *
 * Each command's parameter length is known here: fixed counts in PARAMS, and the commands that
 * carry their own length (GS v 0, GS 8 L, GS ( x, FS ( x, GS k, ESC *) read it. A command
 * this table does not know is reported as 'unknown' and only its prefix and command byte are
 * skipped; that is the one place the stream could drift (its parameters would be read as
 * text), which is why every command receiptline emits, and the common others, are listed.
 */

export const ESC = 0x1b;
export const GS = 0x1d;
export const FS = 0x1c;
export const DLE = 0x10;

export type EscPosEvent =
  | { kind: 'text'; bytes: Buffer }
  | { kind: 'lf' }
  | { kind: 'tab' }
  /** A command and its fixed parameters: name is the prefix and the command byte, e.g. "ESC a", "GS !". */
  | { kind: 'command'; name: string; params: number[] }
  /** A raster image to print (GS v 0, or GS 8 L stored then GS ( L printed): one bit a dot, MSB first. */
  | { kind: 'raster'; widthBytes: number; height: number; bits: Buffer; scaleX: number; scaleY: number }
  /** A real-time request (DLE EOT n, DLE ENQ n, DLE DC4 …): answered at once, even offline. */
  | { kind: 'realtime'; name: string; params: number[] }
  | { kind: 'unknown'; bytes: number[] };

const NAMES: Record<number, string> = { [ESC]: 'ESC', [GS]: 'GS', [FS]: 'FS', [DLE]: 'DLE' };

/** Fixed parameter counts, by prefix and command byte (as a character). */
const PARAMS: Record<number, Record<string, number>> = {
  [ESC]: {
    '@': 0, '!': 1, ' ': 1, $: 2, '%': 1, '-': 1, '2': 0, '3': 1, '=': 1, '?': 1, '\\': 2, a: 1, E: 1, G: 1,
    J: 1, L: 0, M: 1, R: 1, S: 0, T: 1, U: 1, V: 1, W: 8, c: 2, d: 1, e: 1, i: 0, m: 0, p: 3, r: 1, t: 1,
    u: 1, v: 0, '{': 1,
  },
  [GS]: {
    '!': 1, $: 2, '/': 1, B: 1, H: 1, I: 1, L: 2, P: 2, T: 1, W: 2, '\\': 2, ':': 0, '^': 3, a: 1, b: 1,
    V: 1, f: 1, h: 1, r: 1, w: 1, x: 1,
  },
  [FS]: { '!': 1, '&': 0, '-': 1, '.': 0, C: 1, S: 2, W: 1, p: 2, q: 0 },
};

type Parsed = { event: EscPosEvent | null; length: number } | 'more';

export class EscPosDecoder {
  private buf = Buffer.alloc(0);
  /** The image GS 8 L stored, printed by GS ( L fn 50 (the 'escpos' command set of receiptline). */
  private stored: Extract<EscPosEvent, { kind: 'raster' }> | null = null;

  /** Feeds a chunk; answers the events now complete, in order. */
  push(chunk: Uint8Array): EscPosEvent[] {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : Buffer.from(chunk);
    const out: EscPosEvent[] = [];
    let at = 0;
    while (at < this.buf.length) {
      const p = this.parse(at);
      if (p === 'more') break;
      if (p.event) out.push(p.event);
      at += p.length;
    }
    this.buf = this.buf.subarray(at);
    return out;
  }

  private parse(at: number): Parsed {
    const b = this.buf;
    const c = b[at] as number;
    if (c === 0x0a) return { event: { kind: 'lf' }, length: 1 };
    if (c === 0x09) return { event: { kind: 'tab' }, length: 1 };
    // CR is ignored by thermal printers set up for LF; FF ends page mode (treated as LF); CAN cancels page data.
    if (c === 0x0d || c === 0x18) return { event: null, length: 1 };
    if (c === 0x0c) return { event: { kind: 'lf' }, length: 1 };
    if (c === ESC || c === GS || c === FS || c === DLE) return this.command(at, c);
    if (c < 0x20) return { event: { kind: 'unknown', bytes: [c] }, length: 1 };
    let end = at;
    while (end < b.length && (b[end] as number) >= 0x20) end++;
    return { event: { kind: 'text', bytes: Buffer.from(b.subarray(at, end)) }, length: end - at };
  }

  private need(at: number, n: number): boolean {
    return this.buf.length >= at + n;
  }

  private u16(at: number): number {
    return (this.buf[at] as number) + (this.buf[at + 1] as number) * 256;
  }

  private command(at: number, prefix: number): Parsed {
    const b = this.buf;
    if (!this.need(at, 2)) return 'more';
    const code = b[at + 1] as number;
    const ch = String.fromCharCode(code);
    const name = `${NAMES[prefix]} ${ch}`;
    if (prefix === DLE) return this.realtime(at, code);
    const special = this.variable(at, prefix, ch);
    if (special !== undefined) return special;
    const n = PARAMS[prefix]?.[ch];
    if (n === undefined) return { event: { kind: 'unknown', bytes: [prefix, code] }, length: 2 };
    // GS V m [n]: function B (m = 65, 66, 97, 98, 103, 104) takes a feed amount after m.
    if (prefix === GS && ch === 'V') {
      if (!this.need(at, 3)) return 'more';
      const m = b[at + 2] as number;
      const len = m >= 65 ? 4 : 3;
      if (!this.need(at, len)) return 'more';
      return { event: { kind: 'command', name, params: [...b.subarray(at + 2, at + len)] }, length: len };
    }
    if (!this.need(at, 2 + n)) return 'more';
    return { event: { kind: 'command', name, params: [...b.subarray(at + 2, at + 2 + n)] }, length: 2 + n };
  }

  /** DLE EOT n, DLE ENQ n, DLE DC4 fn …: the real-time commands. */
  private realtime(at: number, code: number): Parsed {
    const b = this.buf;
    if (code === 0x04 || code === 0x05) {
      if (!this.need(at, 3)) return 'more';
      return { event: { kind: 'realtime', name: code === 0x04 ? 'DLE EOT' : 'DLE ENQ', params: [b[at + 2] as number] }, length: 3 };
    }
    if (code === 0x14) {
      if (!this.need(at, 3)) return 'more';
      const fn = b[at + 2] as number;
      const len = fn === 8 ? 10 : fn === 7 ? 4 : 5;
      if (!this.need(at, len)) return 'more';
      return { event: { kind: 'realtime', name: 'DLE DC4', params: [...b.subarray(at + 2, at + len)] }, length: len };
    }
    return { event: { kind: 'unknown', bytes: [DLE, code] }, length: 2 };
  }

  /** The commands that carry their own length; undefined for the others. */
  private variable(at: number, prefix: number, ch: string): Parsed | undefined {
    const b = this.buf;
    if (prefix === GS && ch === 'v') {
      // GS v 0 m xL xH yL yH d…: m 0-3 (1 or 2 = double width, 2 or 3 = double height).
      if (!this.need(at, 8)) return 'more';
      const m = b[at + 3] as number;
      const widthBytes = this.u16(at + 4);
      const height = this.u16(at + 6);
      const len = 8 + widthBytes * height;
      if (!this.need(at, len)) return 'more';
      const bits = Buffer.from(b.subarray(at + 8, at + len));
      return { event: { kind: 'raster', widthBytes, height, bits, scaleX: m & 1 ? 2 : 1, scaleY: m & 2 ? 2 : 1 }, length: len };
    }
    if (prefix === GS && ch === '8') {
      // GS 8 L p1 p2 p3 p4 m fn …: graphics data with a 4-byte length (from m).
      if (!this.need(at, 7)) return 'more';
      const len = 7 + (b.readUInt32LE(at + 3) >>> 0);
      if (!this.need(at, len)) return 'more';
      this.storeGraphics(b.subarray(at + 7, at + len));
      return { event: null, length: len };
    }
    if ((prefix === GS || prefix === FS) && ch === '(') {
      // GS ( x pL pH … and FS ( x pL pH …: a function with a 2-byte length.
      if (!this.need(at, 5)) return 'more';
      const len = 5 + this.u16(at + 3);
      if (!this.need(at, len)) return 'more';
      const fnCode = String.fromCharCode(b[at + 2] as number);
      const body = b.subarray(at + 5, at + len);
      if (prefix === GS && fnCode === 'L' && body[1] === 50 && this.stored) return { event: this.stored, length: len };
      if (prefix === GS && fnCode === 'L' && body[1] === 112) this.storeGraphics(body);
      return { event: { kind: 'command', name: `${NAMES[prefix]} ( ${fnCode}`, params: [...body.subarray(0, 2)] }, length: len };
    }
    if (prefix === GS && ch === 'k') {
      // GS k m d… NUL (m 0-6), or GS k m n d1…dn (m 65-79): a barcode; its data is skipped, not printed.
      if (!this.need(at, 3)) return 'more';
      const m = b[at + 2] as number;
      if (m <= 6) {
        const nul = b.indexOf(0, at + 3);
        if (nul < 0) return 'more';
        return { event: { kind: 'command', name: 'GS k', params: [m] }, length: nul + 1 - at };
      }
      if (!this.need(at, 4)) return 'more';
      const len = 4 + (b[at + 3] as number);
      if (!this.need(at, len)) return 'more';
      return { event: { kind: 'command', name: 'GS k', params: [m] }, length: len };
    }
    if (prefix === ESC && ch === '*') {
      // ESC * m nL nH d…: a bit image, 1 byte a column (m 0, 1) or 3 (m 32, 33).
      if (!this.need(at, 5)) return 'more';
      const m = b[at + 2] as number;
      const len = 5 + this.u16(at + 3) * (m >= 32 ? 3 : 1);
      if (!this.need(at, len)) return 'more';
      return { event: { kind: 'command', name: 'ESC *', params: [m] }, length: len };
    }
    if (prefix === ESC && ch === 'D') {
      // ESC D n1 … NUL: horizontal tab positions.
      const nul = b.indexOf(0, at + 2);
      if (nul < 0) return 'more';
      return { event: { kind: 'command', name: 'ESC D', params: [...b.subarray(at + 2, nul)] }, length: nul + 1 - at };
    }
    return undefined;
  }

  /** m fn a bx by c xL xH yL yH d… (fn 112: raster graphics into the print buffer). */
  private storeGraphics(body: Buffer): void {
    if (body[1] !== 112 || body.length < 10) return;
    const width = body.readUInt16LE(6);
    const height = body.readUInt16LE(8);
    const widthBytes = (width + 7) >> 3;
    const bits = Buffer.from(body.subarray(10, 10 + widthBytes * height));
    this.stored = { kind: 'raster', widthBytes, height, bits, scaleX: body[3] === 2 ? 2 : 1, scaleY: body[4] === 2 ? 2 : 1 };
  }
}
