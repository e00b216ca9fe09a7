/**
 * Card and check data as integrators send it besides typed numbers: a magnetic swipe
 * (`track_data`), encrypted reader data (`e_track_data` + `e_format`) and a check's MICR
 * line (`micr_data`). Each parser returns the account facts or null (the caller answers
 * a 422 with a named message). Nothing here logs or keeps the data.
 *
 * Track 1: `%B<pan>^<SURNAME/GIVEN>^<YYMM><service code>...?`; track 2:
 * `;<pan>=<YYMM><service code>...?`; a swipe may carry both (track 1 first).
 *
 * `e_track_data` with `e_format` ksn and a KSN in `e_serial_number` is decrypted as the
 * simulated terminals encrypt a card read (devices/reader-encryption.ts: the test BDK,
 * EMV tags inside): the card, its entry mode (C chip, P contactless, S swiped) and its EMV
 * receipt data (K when it was keyed on the terminal's pad). This is how a sale a terminal read for store-and-forward reaches the
 * gateway when the counter forwards it later.
 *
 * Simplification: any other `e_track_data` is "decrypted" by reading it as the hex of the
 * track text (what a test reader here sends: `Buffer.from(track).toString('hex')`), entry
 * mode S. A real gateway decrypts with the reader's key (DUKPT, identified by
 * `e_serial_number`).
 */
import { decryptCardRead, READER_E_FORMAT } from '../../devices/reader-encryption';

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

const TRACK1 = /%B(\d{12,19})\^([^^]{0,26})\^(\d{2})(\d{2})[^?]*\?/;
const TRACK2 = /;(\d{12,19})=(\d{2})(\d{2})[^?]*\?/;

/** "DOE/PAT" → "PAT DOE" (track 1 stores surname first). */
function holderName(raw: string): string | null {
  const t = raw.trim();
  if (!t) return null;
  const [last, first] = t.split('/');
  return (first ? `${first.trim()} ${(last ?? '').trim()}` : t).replace(/\s+/g, ' ').trim() || null;
}

export function parseTrackData(track: string): SwipedCard | null {
  const t1 = TRACK1.exec(track);
  const t2 = TRACK2.exec(track);
  if (!t1 && !t2) return null;
  if (t1 && t2 && (t1[1] !== t2[1] || t1[3] !== t2[2] || t1[4] !== t2[3])) return null; // the two tracks disagree
  if (t1) return { number: t1[1] as string, expDate: `${t1[4]}${t1[3]}`, name: holderName(t1[2] as string) };
  const m = t2 as RegExpExecArray;
  return { number: m[1] as string, expDate: `${m[3]}${m[2]}`, name: null };
}

/** A terminal's encrypted read (ksn format with its KSN), else the simplification above: hex of the track text. */
export function decryptTrackData(hex: string, format?: string, ksn?: string): SwipedCard | null {
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(hex)) return null;
  if (format === READER_E_FORMAT && ksn) {
    const read = decryptCardRead(hex, ksn);
    if (read) return { number: read.pan, expDate: read.expDate, name: null, entryMode: read.entryMode, emv: read.emv ? { ...read.emv, APPN: read.emv.APPLAB } : null };
  }
  return parseTrackData(Buffer.from(hex, 'hex').toString('latin1'));
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
