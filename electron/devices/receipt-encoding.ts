/**
 * A receipt document (ReceiptLine markup: shared/receipts/receipt-document.ts) → the ESC/POS
 * bytes a thermal printer prints, for the printer's paper (80 or 58 mm), characters per line
 * (48, 42 or 32), cut or not, with the store's logo on top as a raster image.
 *
 * Why `receiptline` and not `node-thermal-printer`: receiptline turns one plain-text document
 * into ESC/POS (several printer dialects), SVG or plain text, so the same document is printed,
 * tested as text and could be shown on screen, and it has no I/O of its own: it makes bytes and
 * the driver (printer-driver.ts) owns the link, the status and the errors. node-thermal-printer
 * builds receipts by method calls and opens its own connection to the printer, which would put
 * a second transport beside the DeviceLink every device here uses.
 *
 * Command set 'generic' (ESC/POS without the Epson-only FS ( A and GS ( L graphics): images go as
 * GS v 0, which nearly every ESC/POS printer takes. Code page 437 (ESC t 0), the one every such
 * printer has; receipt-layout.ts keeps the text inside it.
 */
import { Image, createCanvas } from '@napi-rs/canvas';
import { transform } from 'receiptline';
import { ReceiptLayout } from '../../shared/receipts/receipt-layout';
import { DEVICE_MSG, DeviceError } from './device-messages';

export type PaperWidth = 58 | 80;

export interface PrinterLayout {
  paperMm: PaperWidth;
  /** Characters per line: 48 or 42 on 80 mm, 32 on 58 mm. */
  cpl: number;
  cut: boolean;
  /** The logo as a PNG already fitted to the paper (fitLogo), base64; null for none. */
  logo: string | null;
}

/** The characters per line each paper takes (font A, 12 dots a character). */
export const CPL_CHOICES: Record<PaperWidth, readonly number[]> = { 80: [48, 42], 58: [32] };

/** The widest the logo prints, in dots (the head is 576 dots on 80 mm, 384 on 58 mm). */
const LOGO_MAX_WIDTH: Record<PaperWidth, number> = { 80: 384, 58: 288 };
const LOGO_MAX_HEIGHT = 160;

/**
 * A logo file (PNG or JPEG bytes) scaled to fit the paper, on white (a transparent logo would
 * print as black), as base64 PNG for PrinterLayout.logo. A file that is not an image fails with
 * DEVICE_MSG.PRINTER_BAD_IMAGE.
 */
export function fitLogo(file: Uint8Array, paperMm: PaperWidth): string {
  const img = new Image();
  try {
    img.src = Buffer.from(file);
  } catch {
    throw new DeviceError('unreadable', DEVICE_MSG.PRINTER_BAD_IMAGE);
  }
  if (!img.width || !img.height) throw new DeviceError('unreadable', DEVICE_MSG.PRINTER_BAD_IMAGE);
  const scale = Math.min(1, LOGO_MAX_WIDTH[paperMm] / img.width, LOGO_MAX_HEIGHT / img.height);
  const w = Math.max(8, Math.round(img.width * scale));
  const h = Math.max(1, Math.round(img.height * scale));
  const canvas = createCanvas(w, h);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, w, h);
  ctx.drawImage(img, 0, 0, w, h);
  return canvas.toBuffer('image/png').toString('base64');
}

/** The ESC/POS bytes of a receipt document, with the logo on top and a cut at the end when set. */
export function encodeReceipt(doc: string, layout: PrinterLayout): Uint8Array {
  const withLogo = layout.logo ? `{image:${layout.logo}}\n${doc}` : doc;
  let out: string;
  try {
    out = transform(withLogo, { cpl: layout.cpl, encoding: 'cp437', command: 'generic', cutting: layout.cut, spacing: false, gradient: false });
  } catch {
    // receiptline throws only on an image it cannot decode (pngjs): the logo.
    throw new DeviceError('unreadable', DEVICE_MSG.PRINTER_BAD_IMAGE);
  }
  // receiptline answers a binary string: one character a byte.
  return Buffer.from(out, 'latin1');
}

/** The plain text a document prints (receiptline's text command set): what tests and previews read. */
export function receiptText(doc: string, cpl: number): string {
  return transform(doc, { cpl, command: 'text' });
}

/** What Test print prints: who the printer is, its settings, a ruler of its width and every style. */
export function testPrintDocument(p: { storeName: string; printerName: string; address: string; layout: PrinterLayout; when: string }): string {
  const ruler = '1234567890'.repeat(Math.ceil(p.layout.cpl / 10)).slice(0, p.layout.cpl);
  const doc = new ReceiptLayout(p.layout.cpl)
    .center(p.storeName || 'Ringup', { big: true })
    .center('TEST PRINT', { bold: true })
    .blank()
    .fact('Printer', p.printerName)
    .fact('Address', p.address)
    .row('Paper', `${p.layout.paperMm} mm`)
    .row('Characters per line', String(p.layout.cpl))
    .row('Cut', p.layout.cut ? 'yes' : 'no')
    .row('Logo', p.layout.logo ? 'yes' : 'none')
    .rule()
    .text(ruler)
    .rule()
    .center(p.when)
    .text('If you can read every line, the printer is set up right.');
  // The styles line is markup on purpose (bold, underline, inverted, double size).
  return `${doc.toString()}|Normal "bold" _underlined_ \`inverted\`\n^^^Double size\n`;
}
