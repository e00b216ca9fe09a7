/**
 * Card and check data as integrators send it besides typed numbers: a magnetic swipe
 * (`track_data`), encrypted reader data (`e_track_data` + `e_format`) and a check's MICR
 * line (`micr_data`). Each parser returns the account facts or null (the caller answers
 * a 422 with a named message). Nothing here logs or keeps the data.
 *
 * Tracks 1 and 2 are read by shared/payments/track-data.ts (the counter's card field reads them too).
 *
 * A simulated terminal's store-and-forward read: `e_track_data` the hex of its encrypted
 * read, `e_format` ksn and its KSN in `e_serial_number` (devices/reader-encryption.ts: the
 * test BDK, EMV tags inside) gives the card, its entry mode (C chip, P contactless, S
 * swiped; K keyed on the terminal's pad) and its EMV receipt data. This is how a sale a
 * terminal read while the gateway was away reaches it when the counter forwards it.
 *
 * Encrypted reader data (`e_track_data` + `e_format`) in the layouts of the docs'
 * "Encryption Examples": `magnesafe` — the masked tracks, then `|`-separated fields: a
 * flag, the encrypted track 1, the encrypted track 2, five flags and the KSN; `ksn` and
 * `ksnpin` — the masked tracks, the encrypted track 1 and track 2, the KSN coming in
 * `e_serial_number`. The masked tracks show the card's first and last four digits
 * (`%*4111********1111^...`), which must be those of the decrypted card.
 *
 * Simplification (a simulated decryption): the sandbox holds no reader keys, so it does
 * not run DUKPT. Its "sandbox reader" encrypts each track's text (NUL-padded to 8 bytes)
 * with 3DES-CBC, zero IV, key = the first 24 bytes of SHA-256("ringup sandbox reader
 * bdk:" + KSN); data from a real reader (the docs' own examples included) cannot be read
 * and answers 422. `idtech` data is read only in the plain test form: the track text's
 * bytes in hex (`Buffer.from(track).toString('hex')`), which every format also takes. A
 * real gateway decrypts with the reader's key, identified by the KSN.
 */
import { createDecipheriv, createHash } from 'node:crypto';
import { maskCardNumbers } from '../framework/card-mask';
import { decryptCardRead, READER_E_FORMAT } from '../../devices/reader-encryption';
import { readTracks } from '../../../shared/payments/track-data';

export interface SwipedCard {
  number: string;
  /** MMYY, as exp_date is sent. */
  expDate: string;
  name: string | null;
  /** How the card was read, when the data says (an encrypted terminal read); a plain swipe is S. */
  entryMode?: 'C' | 'P' | 'S' | 'K';
  /** The chip's receipt data (AID, APPLAB, APPN, TVR, TSI) of an encrypted chip or contactless read. */
  emv?: Record<string, string> | null;
}

/** "DOE/PAT" → "PAT DOE" (track 1 stores surname first). Stored as the holder's name: masked like any name (framework/card-mask.ts). */
function holderName(raw: string): string | null {
  const t = maskCardNumbers(raw).trim();
  if (!t) return null;
  const [last, first] = t.split('/');
  return (first ? `${first.trim()} ${(last ?? '').trim()}` : t).replace(/\s+/g, ' ').trim() || null;
}

export function parseTrackData(track: string): SwipedCard | null {
  const card = readTracks(track);
  return card ? { number: card.number, expDate: card.expDate, name: card.rawName === null ? null : holderName(card.rawName) } : null;
}

const HEX = /^(?:[0-9a-fA-F]{2})+$/;
const KSN = /^[0-9a-fA-F]{20}$/;

/** The sandbox reader's key for a KSN (see the simplification above). */
function sandboxReaderKey(ksn: string): Buffer {
  return createHash('sha256').update(`ringup sandbox reader bdk:${ksn.toUpperCase()}`).digest().subarray(0, 24);
}

function decryptBlock(hex: string, ksn: string): string | null {
  if (!HEX.test(hex) || (hex.length / 2) % 8 !== 0) return null;
  try {
    const d = createDecipheriv('des-ede3-cbc', sandboxReaderKey(ksn), Buffer.alloc(8));
    d.setAutoPadding(false);
    return Buffer.concat([d.update(Buffer.from(hex, 'hex')), d.final()]).toString('latin1').replace(/\0+$/, '');
  } catch {
    return null; // a crypto library without 3DES reads nothing rather than failing the request
  }
}

/** The first and last four digits a masked track shows (`%*4111********1111^` or `;4111********1111=`). */
function maskedEnds(masked: string): { first: string; last: string } | null {
  const m = /[%;]\*?(\d{4,6})\*+(\d{4})[=^]/.exec(masked);
  return m ? { first: m[1] as string, last: m[2] as string } : null;
}

export type EncryptedFormat = 'ksn' | 'ksnpin' | 'idtech' | 'magnesafe';
export type DecryptResult = { card: SwipedCard } | { error: 'unreadable' | 'ksn_missing' };

/**
 * Reads encrypted reader data (see the top of the file): the docs' pipe layouts with the
 * sandbox reader's key, or the plain test form (hex of the track text). `ksn` is
 * e_serial_number, which ksn/ksnpin need.
 */
export function decryptTrackData(data: string, format: EncryptedFormat = 'idtech', ksn: string | null = null): DecryptResult {
  if (format === READER_E_FORMAT && ksn && HEX.test(data)) {
    const read = decryptCardRead(data, ksn);
    // The reader's EMV values are stored as the receipt data: masked like any free text.
    const emv = read?.emv ? Object.fromEntries(Object.entries({ ...read.emv, APPN: read.emv.APPLAB }).map(([k, v]) => [k, maskCardNumbers(String(v))])) : null;
    if (read) return { card: { number: read.pan, expDate: read.expDate, name: null, entryMode: read.entryMode, emv } };
  }
  if (HEX.test(data)) {
    const card = parseTrackData(Buffer.from(data, 'hex').toString('latin1'));
    return card ? { card } : { error: 'unreadable' };
  }
  if (format === 'idtech' || !data.includes('|')) return { error: 'unreadable' };
  const parts = data.split('|');
  const ends = maskedEnds(parts[0] ?? '');
  const last = parts[parts.length - 1] ?? '';
  const key = format === 'magnesafe' && KSN.test(last) ? last : ksn;
  if (!key || !KSN.test(key)) return format === 'magnesafe' ? { error: 'unreadable' } : { error: 'ksn_missing' };
  const blocks = parts.slice(1).filter((p) => p !== key && p.length >= 16 && HEX.test(p));
  const text = blocks.map((b) => decryptBlock(b, key)).filter((t): t is string => t !== null).join('');
  const card = parseTrackData(text);
  if (!card || !ends || !card.number.startsWith(ends.first) || !card.number.endsWith(ends.last)) return { error: 'unreadable' };
  return { card };
}

export interface MicrCheck {
  routing: string;
  account: string;
  checkNumber: string | null;
}

/**
 * A MICR line as scanners report it: transit symbol T (or A, or ⑆), on-us symbol U, O or
 * C (or ⑈); amount and dash symbols are not expected on a check's line here. Personal
 * checks read `T<routing>T<account>U<check>`; business checks put the check number first,
 * `U<check>U T<routing>T<account>U`. An unreadable character (`?`, `!`) rejects the line.
 */
export function parseMicr(line: string): MicrCheck | null {
  if (/[?!]/.test(line)) return null;
  const norm = line.replace(/[⑆A]/g, 'T').replace(/[⑈OC]/g, 'U').replace(/[\s-]/g, '');
  if (!/^[0-9TU]+$/.test(norm)) return null;
  const m = /^(?:U(\d+)U)?T(\d{9})T(\d{4,17})U(\d+)?$/.exec(norm) ?? /^(?:U(\d+)U)?T(\d{9})T(\d{4,17})()$/.exec(norm);
  if (!m) return null;
  const check = m[1] || m[4] || null;
  return { routing: m[2] as string, account: m[3] as string, checkNumber: check };
}
