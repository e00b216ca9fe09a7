/**
 * The printer simulator's own reading of ESC/POS (escpos-decoder.ts, printer-paper.ts) and its
 * PNG (receipt-png.ts): the same receipt whatever the chunks the bytes come in, an unknown
 * command skipped without losing the text after it, styles and the logo on paper, print data
 * dropped while it cannot print. Served over an in-memory link (memory-link.ts): the wire is
 * tested with the driver in printer-driver.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { DEVICE_MSG, DeviceError } from '../../electron/devices/device-messages';
import { memoryLinkPair } from '../../electron/devices/memory-link';
import { encodeReceipt, fitLogo, testPrintDocument, type PrinterLayout } from '../../electron/devices/receipt-encoding';
import { EscPosDecoder } from '../../electron/devices/sim/escpos-decoder';
import { PrinterPaper } from '../../electron/devices/sim/printer-paper';
import { PrinterSimulator } from '../../electron/devices/sim/printer-simulator';
import { dayReportDocument } from '../../shared/receipts/receipt-document';
import { formatTime, zReport } from '../helpers/receipt-fixtures';

const root = new URL('../..', import.meta.url).pathname;
const LAYOUT: PrinterLayout = { paperMm: 80, cpl: 48, cut: true, logo: null };

/** The text of what `bytes` print, fed to the decoder in chunks of `size` bytes. */
function printedText(bytes: Uint8Array, size: number): string[] {
  const decoder = new EscPosDecoder();
  const paper = new PrinterPaper(576);
  const out: string[] = [];
  for (let i = 0; i < bytes.length; i += size) {
    for (const e of decoder.push(bytes.subarray(i, i + size))) {
      const r = paper.apply(e);
      if (r) out.push(r.text);
    }
  }
  return out;
}

function logoPng(): Buffer {
  const c = createCanvas(600, 200);
  const g = c.getContext('2d');
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, 600, 200);
  g.fillStyle = '#000000';
  g.beginPath();
  g.arc(100, 100, 80, 0, Math.PI * 2);
  g.fill();
  g.fillRect(220, 60, 340, 80);
  return c.toBuffer('image/png');
}

async function served(sim: PrinterSimulator, bytes: Uint8Array): Promise<void> {
  const [counter, printer] = memoryLinkPair();
  sim.serve(printer);
  counter.write(bytes);
  await counter.close();
}

describe('printer simulator', () => {
  it('reads the same receipt whether the bytes come whole, one at a time or in odd chunks (images included)', () => {
    const bytes = encodeReceipt(dayReportDocument(zReport(), { width: 48, formatTime }), { ...LAYOUT, logo: fitLogo(logoPng(), 80) });
    const whole = printedText(bytes, bytes.length);
    expect(whole).toHaveLength(1);
    expect(whole[0]).toMatch(/^\[image 384×128\]/);
    expect(whole[0]).toContain('Z REPORT 42 - DAY CLOSED');
    expect(printedText(bytes, 1)).toEqual(whole);
    expect(printedText(bytes, 7)).toEqual(whole);
    expect(printedText(bytes, 513)).toEqual(whole);
  });

  it('skips a command it does not know and logs it, keeping the text after it', async () => {
    const sim = new PrinterSimulator();
    const text = (s: string) => Buffer.from(s, 'latin1');
    // ESC 0x07 (unknown here), then GS ( k with a QR code's data (length-prefixed, skipped whole), then text and a cut.
    const qr = Buffer.from([0x1d, 0x28, 0x6b, 0x05, 0x00, 0x31, 0x50, 0x30, 0x41, 0x42]);
    await served(sim, Buffer.concat([text('\x1b@before\n'), Buffer.from([0x1b, 0x07]), qr, text('after\n\x1dVB\x00')]));
    expect(sim.unknown).toEqual(['1b 07']);
    expect(sim.receipts().map((r) => r.text)).toEqual(['before\nafter']);
  });

  it('keeps the styles: bold, underline, inverted and double size drawn on the PNG', async () => {
    const sim = new PrinterSimulator({ outDir: join(root, 'test/output/printer-sim') });
    await served(sim, encodeReceipt(testPrintDocument({ storeName: 'Café Nord', printerName: 'Counter printer', address: '192.168.1.50:9100', layout: { ...LAYOUT, logo: fitLogo(logoPng(), 80) }, when: 'T1790000000' }), { ...LAYOUT, logo: fitLogo(logoPng(), 80) }));
    const [r] = sim.receipts();
    expect(r!.text).toContain('TEST PRINT');
    expect(r!.text).toContain('123456789012345678901234567890123456789012345678');
    const styled = r!.lines.flatMap((l) => (l.kind === 'text' ? l.cells : []));
    const cellOf = (ch: string, pred: (s: (typeof styled)[number]['style']) => boolean) => styled.some((c) => c.ch === ch && pred(c.style));
    expect(cellOf('b', (s) => s.bold)).toBe(true);
    expect(cellOf('u', (s) => s.underline)).toBe(true);
    expect(cellOf('i', (s) => s.invert)).toBe(true);
    expect(cellOf('D', (s) => s.height === 2)).toBe(true);
    expect(cellOf('C', (s) => s.width === 2 && s.height === 2)).toBe(true);
    const png = await loadImage(readFileSync(r!.png!));
    expect(png.width).toBe(640);
    expect(png.height).toBeGreaterThan(400);
  });

  it('58 mm paper is 464 dots wide; out of paper it prints nothing and counts what it dropped', async () => {
    const sim = new PrinterSimulator({ paperMm: 58, outDir: join(root, 'test/output/printer-sim-58') });
    sim.paper = 'out';
    const bytes = encodeReceipt('Nothing\n', { paperMm: 58, cpl: 32, cut: true, logo: null });
    await served(sim, bytes);
    expect(sim.receipts()).toHaveLength(0);
    expect(sim.dropped).toBeGreaterThan(0);
    sim.paper = 'ok';
    await served(sim, bytes);
    const png = await loadImage(readFileSync(sim.receipts()[0]!.png!));
    expect(png.width).toBe(464);
  });

  it('a logo that is not an image is refused with a sentence, never a crash', () => {
    const e = (() => {
      try {
        fitLogo(Buffer.from('not a picture'), 80);
      } catch (x) {
        return x;
      }
      return null;
    })();
    expect(e).toBeInstanceOf(DeviceError);
    expect((e as DeviceError).message).toBe(DEVICE_MSG.PRINTER_BAD_IMAGE);
  });
});
