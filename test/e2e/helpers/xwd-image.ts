/**
 * The X screen as a picture: Xvfb's `-fbdir DIR` keeps its screen in DIR/Xvfb_screen0 as an XWD
 * image (X Window Dump). This reads a ZPixmap XWD of 24 or 32 bits a pixel — what Xvfb writes
 * for a depth-24 screen — and encodes it as PNG with @napi-rs/canvas, so a spec's screenshot
 * shows what is really on the screen (the window's frame and all), not the page alone.
 * Simplification: other pixel formats (colour maps, 16-bit) are refused in words.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createCanvas } from '@napi-rs/canvas';

function shiftOf(mask: number): number {
  let s = 0;
  while (mask !== 0 && (mask & 1) === 0) {
    mask >>>= 1;
    s++;
  }
  return s;
}

/** Reads the XWD at `xwdPath` and writes it as a PNG at `pngPath`; answers its size. */
export function xwdToPng(xwdPath: string, pngPath: string): { width: number; height: number } {
  const b = readFileSync(xwdPath);
  const u32 = (i: number) => b.readUInt32BE(i * 4);
  const headerSize = u32(0);
  const format = u32(2);
  const width = u32(4);
  const height = u32(5);
  const byteOrder = u32(7);
  const bitsPerPixel = u32(11);
  const bytesPerLine = u32(12);
  const [red, green, blue] = [u32(14), u32(15), u32(16)];
  const ncolors = u32(19);
  if (format !== 2 || (bitsPerPixel !== 32 && bitsPerPixel !== 24)) throw new Error(`This XWD is not a 24/32-bit ZPixmap (format ${format}, ${bitsPerPixel} bits a pixel).`);
  const data = headerSize + ncolors * 12;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  const img = ctx.createImageData(width, height);
  const bytes = bitsPerPixel / 8;
  const [rs, gs, bs] = [shiftOf(red), shiftOf(green), shiftOf(blue)];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = data + y * bytesPerLine + x * bytes;
      let px = 0;
      for (let k = 0; k < bytes; k++) px |= b[at + (byteOrder === 0 ? k : bytes - 1 - k)]! << (8 * k);
      const o = (y * width + x) * 4;
      img.data[o] = (px & red) >>> rs;
      img.data[o + 1] = (px & green) >>> gs;
      img.data[o + 2] = (px & blue) >>> bs;
      img.data[o + 3] = 255;
    }
  }
  ctx.putImageData(img, 0, 0);
  writeFileSync(pngPath, canvas.toBuffer('image/png'));
  return { width, height };
}
