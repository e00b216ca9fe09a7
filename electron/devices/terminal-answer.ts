/**
 * A terminal's answer, read as strictly as input from the internet (issue 20, point 1), and
 * checked against what the register asked. The register decides the amount; the terminal only
 * approves it. A terminal, or anything between it and the register on the LAN, may answer
 * anything: this is the one place its transaction answers (T01/T03) are read.
 *
 * An approved answer (000000) must be well formed in every field, or it is a device fault
 * (`TerminalFault`), never a result:
 * - amounts: the wire's cents only, 1-10 digits with no leading zero (no sign, exponent,
 *   point, spaces);
 * - the card: entry mode K/S/C/P, a known brand, C or D, the first six (or a masked number:
 *   six digits, masking, four digits), the last four, the expiry as MMYY (each may be empty: a
 *   void answers no card);
 * - EMV data: KEY=value pairs, keys from the receipt's allowlist kept (others dropped), values
 *   printable ASCII and short;
 * - the result text and codes: printable ASCII without markup characters, each length-capped;
 * - no card number (a Luhn-valid run of 13-19 digits) in any field where none belongs.
 * A refusal (any other code) must carry a known code and no claim of approval (text saying
 * approved, or an approved amount), or it is a fault too; its words are made plain text.
 * The signature (an image) and the store-and-forward read (hex) keep their own rules.
 *
 * A fault keeps the terminal's raw answer masked (card numbers, control and markup characters
 * replaced, capped) for the audit log, and the reference the terminal gave, so whoever asked can
 * reverse what the terminal may have approved.
 *
 * Simplification: C0 control characters and DEL never reach here: the frame reader refuses the
 * whole frame (poslink-frame.ts), which ends the operation as an unreadable message.
 */
import { formatMoneyDisplay } from '../../shared/payments/money';
import { maskCardNumbersInText } from '../../shared/payments/masking';
import { DEVICE_MSG, DeviceError } from './device-messages';
import { splitSub } from './poslink-frame';
import { EMV_RECEIPT_KEYS, RESULT, type CardBrand, type Cvm, type EntryMode, type TerminalResult } from './terminal-commands';

/** A terminal answered something the register does not accept: nothing it says is believed. */
export class TerminalFault extends DeviceError {
  constructor(
    /** The answer as received, masked (masked-answer rules above), for the audit log. */
    readonly raw: string,
    /** The terminal's reference of what it may have approved ('' when it gave none readable). */
    readonly refNum: string,
    /** What was wrong, in words (not shown to the customer; kept with the fault). */
    readonly why: string,
  ) {
    super('fault', DEVICE_MSG.FAULT);
    this.name = 'TerminalFault';
  }
}

/**
 * The error key under which the engine's router answers a refused terminal answer, masked
 * (Ringup extension): the counter records it as a device fault.
 */
export const TERMINAL_ANSWER_KEY = 'terminal_answer';

/** Longest raw answer kept with a fault. */
export const RAW_ANSWER_MAX = 512;
/** Longest result text accepted (a terminal's is a word or two). */
const TEXT_MAX = 40;

const CENTS = /^(?:0|[1-9]\d{0,9})$/;
/** Printable ASCII without the characters markup needs. */
const PLAIN = /^[A-Za-z0-9 .,:;'()/#%&+*!?_=-]*$/;
const CODE = /^[A-Za-z0-9]{0,20}$/;
const FIRST_SIX = /^(\d{6})(?:[*Xx]{2,9}\d{4})?$/;
const LAST_FOUR = /^(?:[*Xx]{2,15})?(\d{4})$/;
const EXPIRY = /^(?:(?:0[1-9]|1[0-2])\d{2})?$/;
const EMV_PAIR = /^([A-Z0-9]{1,12})=([\x20-\x7e]{0,64})$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const HEX = /^(?:[0-9a-fA-F]{2}){1,2048}$/;
const ENTRY_MODES: readonly string[] = ['K', 'S', 'C', 'P'] satisfies EntryMode[];
const BRANDS: readonly string[] = ['visa', 'mastercard', 'amex', 'discover'] satisfies CardBrand[];
const CVMS: readonly string[] = ['none', 'pin', 'signature'] satisfies Cvm[];
const KNOWN_REFUSALS: readonly string[] = Object.values(RESULT).filter((c) => c !== RESULT.ok);
/** The transaction answer's nine fields (terminal-commands.ts encodeResult). */
const FIELD_COUNT = 9;

/** The raw answer for the record: no card number, no control or markup characters, capped. */
export function maskedAnswer(fields: readonly string[]): string {
  const shown = fields.map((f, i) => (i === 7 && f ? `[signature ${f.length} characters]` : i === 8 && f ? `[encrypted read ${f.length} characters]` : f.slice(0, 120)));
  const text = shown.join(' | ').split(String.fromCharCode(0x1f)).join('/').replace(/[^\x20-\x7e]/g, '?').replace(/[<>]/g, '?');
  return maskCardNumbersInText(text).slice(0, RAW_ANSWER_MAX);
}

/** A terminal's words for the screen: plain text (letters, digits, basic punctuation), capped, card numbers masked. */
export function plainTerminalText(text: string): string {
  const kept = text.replace(/[^A-Za-z0-9 .,:;'()/#%&+!?-]/g, ' ').replace(/\s+/g, ' ').trim();
  return maskCardNumbersInText(kept).slice(0, 64);
}

const holdsCardNumber = (s: string) => maskCardNumbersInText(s) !== s;

/**
 * Reads a transaction answer: the result when approved and well formed; a TerminalFault when
 * it is not; `undefined` for a well-formed refusal (the driver turns its code into an error).
 */
export function readTransactionAnswer(f: readonly string[]): TerminalResult | undefined {
  const [authCode = '', refNum = ''] = splitSub(f[2]);
  const fault = (why: string) => new TerminalFault(maskedAnswer(f), /^[A-Za-z0-9]{1,20}$/.test(refNum) ? refNum : '', why);
  const code = f[0] ?? '';
  const amounts = splitSub(f[3]);
  if (code !== RESULT.ok) {
    if (!KNOWN_REFUSALS.includes(code)) throw fault('an unknown result code');
    if (/approv/i.test(f[1] ?? '') || amounts.some((a) => a !== '' && a !== '0')) throw fault('a refusal that claims an approval');
    return undefined;
  }
  if (f.length > FIELD_COUNT) throw fault('more fields than an answer has');
  const text = f[1] ?? '';
  if (text.length > TEXT_MAX || !PLAIN.test(text)) throw fault('result text that is not plain or too long');
  if (splitSub(f[2]).length > 2 || !CODE.test(authCode) || !CODE.test(refNum)) throw fault('an authorization code or reference that is not plain or too long');
  const [approved = '', tip = ''] = amounts;
  if (amounts.length !== 2 || !CENTS.test(approved) || !CENTS.test(tip)) throw fault('amounts that are not whole cents');
  const card = splitSub(f[4]);
  const [entryMode = '', brand = '', dc = '', six = '', four = '', expDate = ''] = card;
  if (card.length !== 6 || !ENTRY_MODES.includes(entryMode) || !BRANDS.includes(brand) || (dc !== 'C' && dc !== 'D')) throw fault('card facts that are not the known ones');
  const sixMatch = six === '' ? null : FIRST_SIX.exec(six);
  // A void or tip adjust answers no card: both may be empty.
  const fourMatch = four === '' ? null : LAST_FOUR.exec(four);
  if ((six !== '' && !sixMatch) || (four !== '' && !fourMatch) || !EXPIRY.test(expDate)) throw fault('card digits that are not first six, last four and MMYY');
  const cvm = f[5] || 'none';
  if (!CVMS.includes(cvm)) throw fault('an unknown cardholder verification');
  let emv: Record<string, string> | null = null;
  if (f[6]) {
    const pairs = splitSub(f[6]);
    if (pairs.length > 16) throw fault('too much EMV data');
    emv = {};
    for (const p of pairs) {
      const m = EMV_PAIR.exec(p);
      if (!m) throw fault('EMV data that is not KEY=value');
      if ((EMV_RECEIPT_KEYS as readonly string[]).includes(m[1]!)) emv[m[1]!] = m[2]!;
    }
  }
  // Nowhere in these fields does a card number belong (a masked first six / last four does not hold one).
  if (f.slice(0, 7).some(holdsCardNumber)) throw fault('a card number where none belongs');
  const sig = f[7] ?? '';
  if (sig && (sig.length > 200_000 || !BASE64.test(sig))) throw fault('a signature that is not an image');
  return {
    resultCode: code,
    resultText: text,
    authCode,
    refNum,
    approvedCents: Number(approved),
    tipCents: Number(tip),
    entryMode: entryMode as EntryMode,
    brand: brand as CardBrand,
    debit: dc === 'D',
    firstSix: sixMatch ? sixMatch[1]! : '',
    lastFour: fourMatch ? fourMatch[1]! : '',
    expDate,
    cvm: cvm as Cvm,
    emv,
    signature: sig || null,
    encrypted: encryptedOf(f[8], fault),
  };
}

function encryptedOf(field: string | undefined, fault: (why: string) => TerminalFault): TerminalResult['encrypted'] {
  if (!field) return null;
  const parts = splitSub(field);
  const [eFormat = '', eSerialNumber = '', eTrackData = ''] = parts;
  if (parts.length !== 3 || !/^[a-z0-9_]{1,16}$/.test(eFormat) || !/^[0-9A-Fa-f]{20}$/.test(eSerialNumber) || !HEX.test(eTrackData)) throw fault('a store-and-forward read that is not hex');
  return { eFormat, eSerialNumber, eTrackData };
}

/** What the register asked of the terminal, with the limits the store sets. */
export interface ApprovalAsk {
  /** The amount before any tip, in cents. */
  amountCents: number;
  /** The tip chosen at the counter (exact); undefined when the terminal was allowed to ask. */
  tipCents: number | undefined;
  /** The largest tip the terminal may add when it asks (0 when it was not to ask). */
  maxTipCents: number;
  /** The store's hard cap on a sale's total. */
  capCents: number;
}

export interface ApprovalMismatch {
  kind: 'amount' | 'tip' | 'cap';
  /** One plain sentence for the screen and the audit log. */
  message: string;
}

/**
 * Whether the terminal's approval is the one asked: the amount asked plus the tip it was allowed to
 * add (exactly the counter's tip, or up to `maxTipCents` when it asked), its total within the cap.
 */
export function approvalMismatch(ask: ApprovalAsk, answer: Pick<TerminalResult, 'approvedCents' | 'tipCents'>): ApprovalMismatch | null {
  const $ = formatMoneyDisplay;
  const tipOk = ask.tipCents !== undefined ? answer.tipCents === ask.tipCents : answer.tipCents >= 0 && answer.tipCents <= ask.maxTipCents;
  if (!tipOk) {
    const allowed = ask.tipCents !== undefined ? `a tip of ${$(ask.tipCents)}` : `a tip of at most ${$(ask.maxTipCents)}`;
    return { kind: 'tip', message: `The terminal reported a tip of ${$(answer.tipCents)} where ${allowed} was allowed.` };
  }
  if (answer.approvedCents !== ask.amountCents + answer.tipCents) {
    return { kind: 'amount', message: `The terminal reported ${$(answer.approvedCents)} approved for a sale of ${$(ask.amountCents)}${answer.tipCents ? ` plus a ${$(answer.tipCents)} tip` : ''}.` };
  }
  if (answer.approvedCents > ask.capCents) return { kind: 'cap', message: `The terminal reported ${$(answer.approvedCents)}, above the store's limit of ${$(ask.capCents)} for a sale.` };
  return null;
}

/** The largest tip the store allows a terminal to add to `amountCents`: its tip-confirmation share, and no more than the terminal's own top percent. */
export function storeTipLimitCents(amountCents: number, tipPercents: readonly number[] | null, storePercent: number): number {
  if (!tipPercents || tipPercents.length === 0) return 0;
  const percent = Math.min(Math.max(...tipPercents), storePercent);
  return Math.ceil((amountCents * percent) / 100);
}
