/**
 * Draws a printed receipt (printer-paper.ts) as a PNG of the paper: a white roll the width of
 * the paper (8 dots a millimetre, as 203 dpi heads print), text in DejaVu Sans Mono sized so a
 * character is 12 dots wide like font A, bold, underlined, inverted and enlarged characters drawn
 * as such, raster images dot for dot. Tests and screenshots look at it as a merchant would.
 */
import { GlobalFonts, createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import { DOTS_PER_CHAR, DOTS_PER_LINE, type PaperLine } from './printer-paper';

const FONT_DIR = '/usr/share/fonts/truetype/dejavu';
const FAMILY = 'Receipt Mono';
let fontsReady = false;

function registerFonts(): void {
  if (fontsReady) return;
  // Regular and bold of one family, so `bold` picks the real bold face, not a smeared regular.
  GlobalFonts.registerFromPath(`${FONT_DIR}/DejaVuSansMono.ttf`, FAMILY);
  GlobalFonts.registerFromPath(`${FONT_DIR}/DejaVuSansMono-Bold.ttf`, FAMILY);
  fontsReady = true;
}

/** DejaVu Sans Mono's advance is 0.602 em: this size makes it 12 dots, font A's width. */
const FONT_PX = DOTS_PER_CHAR / 0.602;
/** Thermal printers feed a little between lines even at ESC 3 0; this keeps the lines apart. */
const LINE_GAP = 6;
const MARGIN_Y = 24;

export function paperWidthDots(paperMm: 58 | 80): number {
  return paperMm * 8;
}

export function headWidthDots(paperMm: 58 | 80): number {
  return paperMm === 80 ? 576 : 384;
}

function lineHeight(l: PaperLine): number {
  return l.kind === 'image' ? l.height + LINE_GAP : l.height * DOTS_PER_LINE + LINE_GAP;
}

export function renderReceiptPng(lines: PaperLine[], paperMm: 58 | 80): Buffer {
  registerFonts();
  const width = paperWidthDots(paperMm);
  const margin = Math.floor((width - headWidthDots(paperMm)) / 2);
  const height = MARGIN_Y * 2 + lines.reduce((s, l) => s + lineHeight(l), 0);
  const canvas = createCanvas(width, Math.max(height, MARGIN_Y * 3));
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  // The roll's edges, so a white receipt still shows where the paper ends on a white page.
  ctx.strokeStyle = '#c8c8c8';
  ctx.lineWidth = 1;
  ctx.strokeRect(0.5, 0.5, canvas.width - 1, canvas.height - 1);
  let y = MARGIN_Y;
  for (const l of lines) {
    if (l.kind === 'image') drawImage(ctx, l, margin, y);
    else drawText(ctx, l, margin, y);
    y += lineHeight(l);
  }
  return canvas.toBuffer('image/png');
}

function drawText(ctx: SKRSContext2D, l: Extract<PaperLine, { kind: 'text' }>, margin: number, top: number): void {
  ctx.textBaseline = 'alphabetic';
  for (const c of l.cells) {
    const w = DOTS_PER_CHAR * c.style.width;
    const h = DOTS_PER_LINE * c.style.height;
    // Characters of a line stand on one baseline, the tallest one's.
    const cellTop = top + (l.height - c.style.height) * DOTS_PER_LINE;
    const x = margin + c.x;
    if (c.style.invert) {
      ctx.fillStyle = '#000000';
      ctx.fillRect(x, cellTop, w, h);
    }
    ctx.fillStyle = c.style.invert ? '#ffffff' : '#000000';
    if (c.ch.trim()) {
      ctx.save();
      ctx.translate(x, cellTop);
      ctx.scale(c.style.width, c.style.height);
      ctx.font = `${c.style.bold ? 'bold ' : ''}${FONT_PX.toFixed(2)}px "${FAMILY}"`;
      ctx.fillText(c.ch, 0, 19);
      ctx.restore();
    }
    if (c.style.underline) ctx.fillRect(x, cellTop + h - 2, w, c.style.height);
  }
}

function drawImage(ctx: SKRSContext2D, l: Extract<PaperLine, { kind: 'image' }>, margin: number, top: number): void {
  const img = ctx.createImageData(l.widthDots, l.height);
  const rows = l.height / l.scaleY;
  for (let y = 0; y < rows; y++) {
    for (let xb = 0; xb < l.widthBytes; xb++) {
      const byte = l.bits[y * l.widthBytes + xb] ?? 0;
      for (let bit = 0; bit < 8; bit++) {
        const v = byte & (0x80 >> bit) ? 0 : 255;
        for (let sy = 0; sy < l.scaleY; sy++) {
          for (let sx = 0; sx < l.scaleX; sx++) {
            const px = ((y * l.scaleY + sy) * l.widthDots + (xb * 8 + bit) * l.scaleX + sx) * 4;
            img.data[px] = v;
            img.data[px + 1] = v;
            img.data[px + 2] = v;
            img.data[px + 3] = 255;
          }
        }
      }
    }
  }
  ctx.putImageData(img, margin + l.x, top);
}
