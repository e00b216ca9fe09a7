/**
 * Card data as a terminal's reader encrypts it for the gateway (point-to-point encryption):
 * what a terminal gives the counter for a store-and-forward sale, and what the gateway
 * decrypts when the sale is forwarded — the counter in between holds ciphertext it cannot
 * read. Sent as the interface's `e_track_data` (hex), `e_format` = `ksn` and
 * `e_serial_number` (the key serial number, KSN).
 *
 * The plaintext is EMV BER-TLV, as a chip reader reports a card: 57 Track 2 Equivalent
 * Data (PAN, 'D', YYMM, service code; packed BCD), 9F39 POS entry mode (05 chip, 07
 * contactless, 90 magnetic stripe, 01 keyed on the terminal's pad), and for chip and contactless reads 4F AID, 50
 * application label, 95 TVR and 9B TSI (the receipt's EMV lines).
 *
 * Simplifications (named): the key is HMAC-SHA256(BDK, KSN) under the published ANSI X9.24
 * test BDK, standing in for DUKPT's per-transaction key derivation, and the cipher is
 * AES-256-GCM (the KSN authenticated with it) rather than TDES/AES-CBC; it is the one key
 * the simulated terminals (sim/terminal-simulator.ts) and the engine's simulated processor
 * (gateway/payments/card-data-forms.ts) share, as a sandbox gateway accepts test readers'
 * data. A real gateway decrypts with its HSM's BDKs.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/** The e_format value of this encryption. */
export const READER_E_FORMAT = 'ksn';

/** ANSI X9.24 test BDK (public; test readers ship with it). */
const TEST_BDK = Buffer.from('0123456789ABCDEFFEDCBA9876543210', 'hex');

/** POS entry modes as tag 9F39 carries them. */
const ENTRY_TO_TAG = { C: '05', P: '07', S: '90', K: '01' } as const;
export type ReaderEntryMode = keyof typeof ENTRY_TO_TAG;

export interface CardRead {
  /** The full card number: only inside the encrypted data (the reader and the gateway see it). */
  pan: string;
  /** MMYY, as exp_date is sent. */
  expDate: string;
  entryMode: ReaderEntryMode;
  /** AID, APPLAB, TVR, TSI of a chip or contactless read. */
  emv: { AID: string; APPLAB: string; TVR: string; TSI: string } | null;
}

export interface EncryptedRead {
  /** hex: iv (12) | tag (16) | ciphertext */
  eTrackData: string;
  eFormat: typeof READER_E_FORMAT;
  /** 20 hex digits. */
  eSerialNumber: string;
}

const keyFor = (ksn: string) => createHmac('sha256', TEST_BDK).update(Buffer.from(ksn, 'hex')).digest();

function tlv(tag: string, value: Buffer): Buffer {
  if (value.length > 0xff) throw new Error('TLV value too long');
  const len = value.length < 0x80 ? Buffer.from([value.length]) : Buffer.from([0x81, value.length]);
  return Buffer.concat([Buffer.from(tag, 'hex'), len, value]);
}

function parseTlv(buf: Buffer): Map<string, Buffer> | null {
  const out = new Map<string, Buffer>();
  let i = 0;
  while (i < buf.length) {
    let tagLen = 1;
    if (((buf[i] ?? 0) & 0x1f) === 0x1f) tagLen = 2;
    const tag = buf.subarray(i, i + tagLen).toString('hex').toUpperCase();
    i += tagLen;
    let len = buf[i++];
    if (len === 0x81) len = buf[i++];
    else if (len !== undefined && len > 0x80) return null; // longer length forms never occur in a card read
    if (len === undefined || i + len > buf.length) return null;
    out.set(tag, buf.subarray(i, i + len));
    i += len;
  }
  return out;
}

/** Track 2 equivalent data: PAN D YYMM 201 (service code), packed BCD padded with F. */
function track2(pan: string, expDate: string): Buffer {
  const yymm = `${expDate.slice(2, 4)}${expDate.slice(0, 2)}`;
  let digits = `${pan}D${yymm}201`;
  if (digits.length % 2) digits += 'F';
  return Buffer.from(digits, 'hex');
}

function fromTrack2(b: Buffer): { pan: string; expDate: string } | null {
  const m = /^(\d{12,19})D(\d{2})(\d{2})\d{3}\d*F?$/i.exec(b.toString('hex').toUpperCase());
  if (!m) return null;
  return { pan: m[1] as string, expDate: `${m[3]}${m[2]}` };
}

/** What the reader sends: the card read, encrypted under the key of `ksn` (20 hex digits). */
export function encryptCardRead(read: CardRead, ksn: string): EncryptedRead {
  const parts = [tlv('57', track2(read.pan, read.expDate)), tlv('9F39', Buffer.from(ENTRY_TO_TAG[read.entryMode], 'hex'))];
  if (read.emv) {
    parts.push(tlv('4F', Buffer.from(read.emv.AID, 'hex')), tlv('50', Buffer.from(read.emv.APPLAB, 'latin1')), tlv('95', Buffer.from(read.emv.TVR, 'hex')), tlv('9B', Buffer.from(read.emv.TSI, 'hex')));
  }
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', keyFor(ksn), iv);
  c.setAAD(Buffer.from(ksn, 'hex'));
  const body = Buffer.concat([c.update(Buffer.concat(parts)), c.final()]);
  return { eTrackData: Buffer.concat([iv, c.getAuthTag(), body]).toString('hex'), eFormat: READER_E_FORMAT, eSerialNumber: ksn.toUpperCase() };
}

/** The gateway's side: the card read, or null when the data does not open under this KSN's key or is not a card read. */
export function decryptCardRead(eTrackData: string, ksn: string): CardRead | null {
  if (!/^[0-9a-fA-F]{20}$/.test(ksn) || !/^(?:[0-9a-fA-F]{2}){29,}$/.test(eTrackData)) return null;
  const blob = Buffer.from(eTrackData, 'hex');
  let plain: Buffer;
  try {
    const d = createDecipheriv('aes-256-gcm', keyFor(ksn), blob.subarray(0, 12));
    d.setAAD(Buffer.from(ksn, 'hex'));
    d.setAuthTag(blob.subarray(12, 28));
    plain = Buffer.concat([d.update(blob.subarray(28)), d.final()]);
  } catch {
    return null;
  }
  const tags = parseTlv(plain);
  const t2 = tags?.get('57');
  const mode = tags?.get('9F39')?.toString('hex');
  const card = t2 ? fromTrack2(t2) : null;
  const entryMode = (Object.keys(ENTRY_TO_TAG) as ReaderEntryMode[]).find((k) => ENTRY_TO_TAG[k] === mode);
  if (!tags || !card || !entryMode) return null;
  const aid = tags.get('4F');
  const emv = aid
    ? { AID: aid.toString('hex').toUpperCase(), APPLAB: tags.get('50')?.toString('latin1') ?? '', TVR: tags.get('95')?.toString('hex').toUpperCase() ?? '', TSI: tags.get('9B')?.toString('hex').toUpperCase() ?? '' }
    : null;
  return { pan: card.pan, expDate: card.expDate, entryMode, emv };
}
