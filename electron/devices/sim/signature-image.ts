/**
 * The simulated cardholder's signature: a small black-on-white PNG of a wavy stroke, drawn
 * here so the installer screen has a real image to show. Returned as base64.
 */
import { crc32, deflateSync } from 'node:zlib';

const W = 160;
const H = 48;

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([len, body, crc]);
}

export function signaturePng(): string {
  const rows: Buffer[] = [];
  const ink = new Set<number>();
  for (let x = 8; x < W - 8; x++) {
    // Integer-free curve is not needed here: pixels only, no money.
    const y = Math.round(H / 2 + Math.sin(x / 9) * (H / 4) * Math.cos(x / 37));
    for (let t = -1; t <= 1; t++) ink.add((y + t) * W + x);
  }
  for (let y = 0; y < H; y++) {
    const row = Buffer.alloc(W + 1, 255);
    row[0] = 0; // filter: none
    for (let x = 0; x < W; x++) if (ink.has(y * W + x)) row[x + 1] = 0;
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(W, 0);
  ihdr.writeUInt32BE(H, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return png.toString('base64');
}
