/**
 * Builds a receipt as ReceiptLine markup (the markdown-like text the `receiptline` package turns
 * into ESC/POS: electron/devices/receipt-encoding.ts) a line at a time, at a width in characters
 * (48 or 42 on 80 mm paper, 32 on 58 mm). Pure: the core and the tests use it alike.
 *
 * Labels are wrapped here at word boundaries (receiptline would cut words in the middle of a
 * column), amounts sit in a right-aligned column of AMOUNT_WIDTH, and every piece of data is
 * escaped, so an item called "Tea | 2 for 1" or "___" prints as written and never as markup.
 * Characters a thermal printer's code page 437 lacks (•, −, —, ×, curly quotes) are replaced
 * by the nearest it has.
 */

/** "-$99,999.99" fits. */
export const AMOUNT_WIDTH = 11;

const TYPOGRAPHY: Record<string, string> = {
  '•': '*', '−': '-', '–': '-', '—': '-', '×': 'x', '‘': "'", '’': "'", '“': '"', '”': '"', '…': '...', '·': '-', '\u00a0': ' ',
};

/** Text a code page 437 printer can print: typographic characters replaced, controls dropped. */
export function printable(text: string): string {
  return text.replace(/[•−–—×‘’“”…·\u00a0]/g, (c) => TYPOGRAPHY[c] ?? c).replace(/\p{Cc}/gu, ' ');
}

/**
 * Escapes ReceiptLine's markup characters and a leading '-' or '=' (a line of them is a rule or
 * a cut); leading spaces become '~' (receiptline's kept space: it trims plain ones), so an
 * indented line ("  + Extra shot") stays indented.
 */
export function escapeMarkup(text: string): string {
  return printable(text)
    .replace(/[\\|{}~_"`^]/g, (c) => `\\${c}`)
    .replace(/^[-=]/, (c) => `\\${c}`)
    .replace(/^ +/, (spaces) => '~'.repeat(spaces.length));
}

/** Splits `text` into lines of at most `width` characters, at spaces where it can; an indent is kept on every line. */
export function wrap(text: string, width: number): string[] {
  const indent = /^ */.exec(text)?.[0].slice(0, Math.floor(width / 2)) ?? '';
  if (indent) return wrap(text.trimStart(), width - indent.length).map((l) => indent + l);
  const out: string[] = [];
  for (const para of printable(text).split('\n')) {
    let line = '';
    for (const word of para.split(/\s+/).filter(Boolean)) {
      let w = word;
      while (w.length > width) {
        if (line) out.push(line);
        line = '';
        out.push(w.slice(0, width));
        w = w.slice(width);
      }
      if (!line) line = w;
      else if (line.length + 1 + w.length <= width) line += ` ${w}`;
      else {
        out.push(line);
        line = w;
      }
    }
    out.push(line);
  }
  return out;
}

export interface RowStyle {
  bold?: boolean;
  /** Printed in double height (the total a customer looks for). */
  tall?: boolean;
}

export class ReceiptLayout {
  private readonly lines: string[] = [];
  private columns = false;

  constructor(readonly width: number) {}

  /** A line centred on the paper; `big` doubles its size (the store's name). */
  center(text: string, style: { bold?: boolean; big?: boolean } = {}): this {
    this.textMode();
    for (const l of wrap(text, style.big ? Math.floor(this.width / 2) : this.width)) {
      let t = escapeMarkup(l);
      if (style.bold) t = `"${t}"`;
      if (style.big) t = `^^^${t}`;
      this.lines.push(t || ' ');
    }
    return this;
  }

  /** Left-aligned text, wrapped at the paper's width. */
  text(text: string): this {
    this.textMode();
    for (const l of wrap(text, this.width)) this.lines.push(`|${escapeMarkup(l)}`);
    return this;
  }

  /** A label on the left and an amount (or a short value) on the right; the label wraps under itself. */
  row(label: string, value: string, style: RowStyle = {}): this {
    this.rowMode();
    const labelWidth = this.width - AMOUNT_WIDTH - 1;
    const mark = (t: string) => {
      let s = escapeMarkup(t);
      if (s && style.bold) s = `"${s}"`;
      if (s && style.tall) s = `^^${s}`;
      return s;
    };
    const wrapped = wrap(label, labelWidth);
    wrapped.forEach((l, i) => this.lines.push(`${mark(l)} | ${i === 0 ? mark(value.slice(0, AMOUNT_WIDTH)) : ''}`));
    return this;
  }

  /** A value too long for the amount column (a Ref, an AID): the label, then the value on the right of the next line if need be. */
  fact(label: string, value: string): this {
    if (value.length <= AMOUNT_WIDTH) return this.row(label, value);
    if (label.length + 1 + value.length <= this.width) {
      this.textMode();
      this.lines.push(`|${escapeMarkup(label)}${' '.repeat(this.width - label.length - value.length)}${escapeMarkup(value)}`);
      return this;
    }
    return this.text(label).text(`  ${value}`);
  }

  rule(): this {
    this.textMode();
    this.lines.push('-');
    return this;
  }

  blank(): this {
    this.textMode();
    this.lines.push('');
    return this;
  }

  /** The signature line: room to sign, a rule with an X, "Signature", and the agreement under it. */
  signature(agreement: string): this {
    this.blank().blank();
    this.textMode();
    this.lines.push(`|X${'\\_'.repeat(this.width - 1)}`);
    this.center('Signature');
    this.text(agreement);
    return this;
  }

  /** The ReceiptLine document. */
  toString(): string {
    return `${this.lines.join('\n')}\n`;
  }

  private rowMode(): void {
    if (this.columns) return;
    this.lines.push(`{w:*,${AMOUNT_WIDTH}}`);
    this.columns = true;
  }

  private textMode(): void {
    if (!this.columns) return;
    this.lines.push('{w:auto}');
    this.columns = false;
  }
}
