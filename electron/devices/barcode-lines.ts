/**
 * What a serial barcode scanner sends (issue 23, point 5), cut into reads: the scanner types
 * each code as ASCII and ends it with its suffix. Pure (bytes in, reads out), so partial reads,
 * noise and run-on lines are tested without a port; barcode-scanner.ts feeds it a link's bytes.
 *
 * Decisions:
 * - Line ends: CR, CR LF and LF. CR is the factory suffix of most scanners in serial (RS-232)
 *   mode and CR LF the other usual setting; a lone LF costs nothing to accept. An empty line
 *   (the LF of a CR LF split across two reads, or a scanner's blank suffix) is no read.
 * - A code is printable ASCII (0x20-0x7E), spaces around it trimmed. A line holding any other
 *   byte — a control byte (STX/ETX framing, a tab suffix), or bytes above 0x7E, which is what a
 *   wrong baud rate turns a code into — is refused with DEVICE_BARCODE_MSG.noise, never guessed at.
 * - A line running past MAX_BARCODE_LINE characters without an end is dropped whole, up to
 *   the next line end, with DEVICE_BARCODE_MSG.tooLong: it is noise, or a scanner with no
 *   suffix set whose codes run together.
 * Whether the code is one the catalogue can hold (its alphabet, its 32 characters) is the
 * cart's word (cart:add-code), not the scanner's.
 */

/** GS1-128, the longest retail symbology, carries at most 48 data characters; 64 leaves room for a prefix set on the scanner. */
export const MAX_BARCODE_LINE = 64;

export const DEVICE_BARCODE_MSG = {
  noise: "The barcode scanner sent characters that are not a barcode (noise on the line, or a baud rate that is not the scanner's). Scan again; if it keeps happening, ask an installer to check the scanner on the Devices screen.",
  tooLong: `The barcode scanner sent more than ${MAX_BARCODE_LINE} characters without an end of line, so they were dropped. Set the scanner's suffix to CR (or CR LF) in its set-up sheet.`,
  noLineEnd: "The barcode scanner sent a code but no end of line. Set the scanner's suffix to CR (or CR LF) in its set-up sheet, then test again.",
  nothing: 'Nothing was scanned in time. Check the cable and the serial path, scan a barcode, then test again.',
  unreachable: 'The barcode scanner cannot be reached at that serial path. Check that it is plugged in and the path is right.',
  unplugged: 'The barcode scanner was unplugged during the test. Plug it back in and test again.',
} as const;

export type BarcodeRead = { kind: 'code'; code: string } | { kind: 'refused'; message: string };

export class BarcodeLineReader {
  private line: number[] = [];
  /** Dropping a run-on line until its end comes. */
  private dropping = false;

  /** Bytes received and not yet ended by a line end (for the installer's "no end of line" sentence). */
  get pending(): number {
    return this.line.length;
  }

  push(chunk: Uint8Array): BarcodeRead[] {
    const reads: BarcodeRead[] = [];
    for (const byte of chunk) {
      if (byte === 0x0d || byte === 0x0a) {
        const read = this.end();
        if (read) reads.push(read);
        continue;
      }
      if (this.dropping) continue;
      this.line.push(byte);
      if (this.line.length > MAX_BARCODE_LINE) {
        this.line = [];
        this.dropping = true;
        reads.push({ kind: 'refused', message: DEVICE_BARCODE_MSG.tooLong });
      }
    }
    return reads;
  }

  private end(): BarcodeRead | null {
    const bytes = this.line;
    this.line = [];
    if (this.dropping) {
      this.dropping = false;
      return null;
    }
    if (bytes.some((b) => b < 0x20 || b > 0x7e)) return { kind: 'refused', message: DEVICE_BARCODE_MSG.noise };
    const code = String.fromCharCode(...bytes).trim();
    return code ? { kind: 'code', code } : null;
  }
}
