/**
 * What a thermal printer puts on paper, for the simulator: the decoded ESC/POS commands
 * (escpos-decoder.ts) applied to a print head with its modes (bold, underline, inverted,
 * character size, alignment, left margin and print area, absolute and relative positions),
 * one receipt at a time; a cut ends the receipt. Positions are in dots: font A is 12 × 24
 * dots, so an 80 mm head (576 dots) holds 48 characters and a 58 mm one (384 dots) 32.
 *
 * Simplifications: one font (A); code pages 437 (ESC t 0) and the box-drawing bytes receiptline
 * sends for rules under ESC t 1; other code pages print their bytes as code page 437; barcodes
 * and QR codes sent as GS k / GS ( k are not drawn (receiptline sends QR codes as raster images).
 */
import type { EscPosEvent } from './escpos-decoder';

export const DOTS_PER_CHAR = 12;
export const DOTS_PER_LINE = 24;

export interface CellStyle {
  bold: boolean;
  underline: boolean;
  invert: boolean;
  /** Character size multipliers (GS !), 1-8. */
  width: number;
  height: number;
}

export interface Cell {
  /** Dots from the left edge of the printable width. */
  x: number;
  ch: string;
  style: CellStyle;
}

export type PaperLine =
  | { kind: 'text'; cells: Cell[]; height: number }
  | { kind: 'image'; x: number; widthDots: number; height: number; bits: Buffer; widthBytes: number; scaleX: number; scaleY: number };

export interface PrintedReceipt {
  /** The receipt's text, a line a row, each character at its column (trailing spaces trimmed). */
  text: string;
  lines: PaperLine[];
  /** Whether the receipt ended with a cut (false: taken off the printer unfinished). */
  cut: boolean;
}

/** Code page 437, bytes 0x80-0xFF. */
const CP437_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

/** The rule bytes receiptline sends under ESC t 1 (its own choice of code page 1 positions). */
const RULES: Record<number, string> = {
  0x8f: '┼', 0x90: '┴', 0x91: '┬', 0x92: '┤', 0x93: '├', 0x95: '─', 0x96: '│',
  0x98: '┌', 0x99: '┐', 0x9a: '└', 0x9b: '┘', 0x9c: '┌', 0x9d: '┐', 0x9e: '└', 0x9f: '┘',
};

function decodeByte(byte: number, codePage: number): string {
  if (byte < 0x80) return String.fromCharCode(byte);
  if (codePage === 1) return RULES[byte] ?? '?';
  return CP437_HIGH[byte - 0x80] ?? '?';
}

const PLAIN: CellStyle = { bold: false, underline: false, invert: false, width: 1, height: 1 };

export class PrinterPaper {
  private lines: PaperLine[] = [];
  private cells: Cell[] = [];
  private style: CellStyle = { ...PLAIN };
  private align = 0;
  private left = 0;
  private area: number;
  private x = 0;
  private codePage = 0;

  /** `headDots`: the printable width (576 for 80 mm, 384 for 58 mm). */
  constructor(readonly headDots: number) {
    this.area = headDots;
  }

  /** True once anything has been put on the current receipt. */
  get started(): boolean {
    return this.lines.length > 0 || this.cells.length > 0;
  }

  /** Applies one event; answers the receipt when it was cut. Unknown commands are for the caller to log. */
  apply(e: EscPosEvent): PrintedReceipt | null {
    switch (e.kind) {
      case 'text':
        for (const byte of e.bytes) this.put(decodeByte(byte, this.codePage));
        return null;
      case 'tab':
        this.x = (Math.floor(this.x / (8 * DOTS_PER_CHAR)) + 1) * 8 * DOTS_PER_CHAR;
        return null;
      case 'lf':
        this.feed();
        return null;
      case 'raster':
        this.image(e);
        return null;
      case 'command':
        return this.command(e.name, e.params);
      default:
        return null;
    }
  }

  /** Ends the receipt now (the simulator closes or a test takes what has come so far). */
  tearOff(cut: boolean): PrintedReceipt {
    if (this.cells.length) this.feed();
    const receipt = { text: receiptText(this.lines, this.headDots), lines: this.lines, cut };
    this.lines = [];
    return receipt;
  }

  private command(name: string, p: number[]): PrintedReceipt | null {
    const n = p[0] ?? 0;
    switch (name) {
      case 'ESC @':
        this.style = { ...PLAIN };
        this.align = 0;
        this.left = 0;
        this.area = this.headDots;
        this.codePage = 0;
        if (this.cells.length) this.feed();
        break;
      case 'ESC E':
      case 'ESC G':
        this.style = { ...this.style, bold: (n & 1) === 1 };
        break;
      case 'ESC -':
      case 'FS -':
        this.style = { ...this.style, underline: (n & 3) !== 0 && n !== 48 };
        break;
      case 'GS B':
        this.style = { ...this.style, invert: (n & 1) === 1 };
        break;
      case 'GS !':
        this.style = { ...this.style, width: ((n >> 4) & 7) + 1, height: (n & 7) + 1 };
        break;
      case 'ESC !':
        // Print modes: bit 3 bold, bit 4 double height, bit 5 double width, bit 7 underline.
        this.style = { ...this.style, bold: (n & 8) !== 0, height: n & 16 ? 2 : 1, width: n & 32 ? 2 : 1, underline: (n & 128) !== 0 };
        break;
      case 'ESC a':
        this.align = n % 48;
        break;
      case 'ESC t':
        this.codePage = n;
        break;
      case 'ESC $':
        this.x = (p[0] ?? 0) + (p[1] ?? 0) * 256;
        break;
      case 'ESC \\': {
        const v = (p[0] ?? 0) + (p[1] ?? 0) * 256;
        this.x += v >= 0x8000 ? v - 0x10000 : v;
        break;
      }
      case 'GS L':
        this.left = (p[0] ?? 0) + (p[1] ?? 0) * 256;
        break;
      case 'GS W':
        this.area = (p[0] ?? 0) + (p[1] ?? 0) * 256 || this.headDots;
        break;
      case 'ESC d':
        if (this.cells.length) this.feed();
        for (let i = 0; i < n; i++) this.lines.push({ kind: 'text', cells: [], height: 1 });
        break;
      case 'GS V':
        return this.tearOff(true);
      default:
        break;
    }
    return null;
  }

  private put(ch: string): void {
    this.cells.push({ x: this.left + this.x, ch, style: this.style });
    this.x += DOTS_PER_CHAR * this.style.width;
  }

  private feed(): void {
    let cells = this.cells;
    if (cells.length && this.align) {
      // ESC a centres or right-aligns a line within the print area.
      const start = Math.min(...cells.map((c) => c.x));
      const end = Math.max(...cells.map((c) => c.x + DOTS_PER_CHAR * c.style.width));
      const room = this.left + this.area - end + (start - this.left);
      const shift = Math.max(0, this.align === 1 ? Math.floor(room / 2) : room) - (start - this.left);
      cells = cells.map((c) => ({ ...c, x: c.x + shift }));
    }
    this.lines.push({ kind: 'text', cells, height: Math.max(1, ...cells.map((c) => c.style.height)) });
    this.cells = [];
    this.x = 0;
  }

  private image(e: Extract<EscPosEvent, { kind: 'raster' }>): void {
    if (this.cells.length) this.feed();
    const widthDots = e.widthBytes * 8 * e.scaleX;
    const room = Math.max(0, this.area - widthDots);
    const x = this.left + (this.align === 1 ? Math.floor(room / 2) : this.align === 2 ? room : 0);
    this.lines.push({ kind: 'image', x, widthDots, height: e.height * e.scaleY, bits: e.bits, widthBytes: e.widthBytes, scaleX: e.scaleX, scaleY: e.scaleY });
  }
}

/** The text of printed lines: each character at its column; an image is one line "[image W×H]". */
export function receiptText(lines: PaperLine[], headDots: number): string {
  const cols = Math.ceil(headDots / DOTS_PER_CHAR);
  return lines
    .map((l) => {
      if (l.kind === 'image') return `[image ${l.widthDots}×${l.height}]`;
      const row: string[] = Array<string>(cols).fill(' ');
      for (const c of l.cells) {
        const col = Math.round(c.x / DOTS_PER_CHAR);
        if (col >= 0 && col < row.length) row[col] = c.ch;
        // A double-width character covers the columns after it.
        for (let k = 1; k < c.style.width && col + k < row.length; k++) if (row[col + k] === ' ') row[col + k] = '';
      }
      return row.join('').replace(/\s+$/, '');
    })
    .join('\n');
}
