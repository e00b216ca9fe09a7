/**
 * The commands of the EMV terminal protocol and their field layouts, declared once for the
 * driver and the simulator (GATEWAY-FACTS: A00 init, A14 cancel, A20 signature, T00 credit,
 * T02 debit, B00 batch; transaction types 01 sale, 02 return, 03 auth, 04 post-auth,
 * 06 adjust, 16 void; amounts in cents; result 000000 is success).
 *
 * Simplifications (Ringup's own members of the family, named so):
 * - S00 is a status notice the terminal sends while it works (state + prompt text), so the
 *   counter can follow it live; the receiver ACKs it like any frame.
 * - A30 shows device terms and answers accepted/declined and the signature.
 * - Every request carries the terminal's timeouts and tip percents as `key=value`
 *   sub-fields, so the settings stored in the engine apply to each operation.
 * - The terminal reads the card and answers 000000 with the card data; the host decision
 *   (approve/decline by amount) is the engine's processor, as for keyed sales.
 * - Store-and-forward (the counter reads a card itself while the gateway cannot be reached):
 *   a T00/T02 request with `saf=1` among its settings asks the terminal for the card as its
 *   reader encrypted it for the gateway (reader-encryption.ts); the answer's ninth field
 *   carries it as e_format, KSN and e_track_data. Without `saf=1` the field stays empty.
 */
import { TIMEOUT_KEYS, type TerminalTimeouts, type TipPercents } from '../../shared/payments/terminal-timeouts';
import { joinSub, splitSub } from './poslink-frame';

export const CMD = {
  init: 'A00',
  cancel: 'A14',
  signature: 'A20',
  terms: 'A30',
  credit: 'T00',
  debit: 'T02',
  batch: 'B00',
  status: 'S00',
} as const;

export const TRANS_TYPE = { sale: '01', return: '02', auth: '03', postauth: '04', adjust: '06', void: '16' } as const;
export type TransType = keyof typeof TRANS_TYPE;

export const RESULT = {
  ok: '000000',
  aborted: '100001',
  timeout: '100002',
  connectError: '100003',
  busy: '100005',
  declined: '100010',
  notSupported: '100011',
} as const;

export type TerminalState = 'idle' | 'card' | 'tip' | 'pin' | 'signature' | 'processing' | 'terms' | 'done';

export type EntryMode = 'K' | 'S' | 'C' | 'P';
export type Cvm = 'none' | 'pin' | 'signature';
export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover';

export interface OperationSettings {
  timeouts: TerminalTimeouts;
  tipPercents: TipPercents;
}

export function encodeSettings(s: OperationSettings, extra: Record<string, string | number> = {}): string {
  const pairs = TIMEOUT_KEYS.map((k) => `${k}=${s.timeouts[k]}`);
  if (s.tipPercents) pairs.push(`tip_percents=${s.tipPercents.join('/')}`);
  for (const [k, v] of Object.entries(extra)) pairs.push(`${k}=${v}`);
  return joinSub(pairs);
}

export function decodeSettings(field: string | undefined): { settings: OperationSettings; extra: Record<string, string> } {
  const map: Record<string, string> = {};
  for (const p of splitSub(field)) {
    const i = p.indexOf('=');
    if (i > 0) map[p.slice(0, i)] = p.slice(i + 1);
  }
  const timeouts = Object.fromEntries(TIMEOUT_KEYS.map((k) => [k, Number(map[k]) || 0])) as TerminalTimeouts;
  const tp = map.tip_percents?.split('/').map(Number);
  const tipPercents = tp && tp.length === 3 && tp.every((n) => Number.isInteger(n)) ? (tp as [number, number, number]) : null;
  const extra = Object.fromEntries(Object.entries(map).filter(([k]) => k !== 'tip_percents' && !(TIMEOUT_KEYS as string[]).includes(k)));
  return { settings: { timeouts, tipPercents }, extra };
}

/** T00/T02 request: [type, amount US tip, ecr ref, original ref, settings]. */
export interface TransactionRequest {
  type: TransType;
  amountCents: number;
  /** Tip already chosen at the counter (cents); when absent and tip percents exist, the terminal asks. */
  tipCents?: number;
  ecrRef: string;
  origRef?: string;
  /** Answer the card encrypted for the gateway, to be forwarded later (store-and-forward). */
  storeAndForward?: boolean;
  /** What the terminal's tip percents are taken of (cents; `tip_base`), when not the whole amount: the store's tip base (issue 21). */
  tipBaseCents?: number;
  /** Smart tips: three flat amounts the terminal offers instead of its percents (`tip_amounts`). */
  tipAmountsCents?: number[];
}

/** The per-request keys sent beside the terminal's settings. */
function requestExtras(r: TransactionRequest): Record<string, string | number> {
  const extra: Record<string, string | number> = {};
  if (r.storeAndForward) extra.saf = 1;
  if (r.tipBaseCents !== undefined) extra.tip_base = r.tipBaseCents;
  if (r.tipAmountsCents) extra.tip_amounts = r.tipAmountsCents.join('/');
  return extra;
}

export function encodeTransaction(r: TransactionRequest, s: OperationSettings): string[] {
  return [TRANS_TYPE[r.type], joinSub([r.amountCents, r.tipCents ?? '']), r.ecrRef, r.origRef ?? '', encodeSettings(s, requestExtras(r))];
}

export function decodeTransaction(fields: string[]): { req: TransactionRequest; settings: OperationSettings } | undefined {
  const type = (Object.keys(TRANS_TYPE) as TransType[]).find((k) => TRANS_TYPE[k] === fields[0]);
  const [amount, tip] = splitSub(fields[1]);
  if (!type || !/^\d{1,10}$/.test(amount ?? '')) return undefined;
  const req: TransactionRequest = { type, amountCents: Number(amount), ecrRef: fields[2] ?? '' };
  if (tip && /^\d+$/.test(tip)) req.tipCents = Number(tip);
  if (fields[3]) req.origRef = fields[3];
  const { settings, extra } = decodeSettings(fields[4]);
  if (extra.saf === '1') req.storeAndForward = true;
  if (extra.tip_base && /^\d{1,10}$/.test(extra.tip_base)) req.tipBaseCents = Number(extra.tip_base);
  const amounts = extra.tip_amounts?.split('/');
  if (amounts?.length === 3 && amounts.every((a) => /^\d{1,10}$/.test(a))) req.tipAmountsCents = amounts.map(Number);
  return { req, settings };
}

/** What the terminal answers for a transaction (T01/T03). Never a full card number. */
export interface TerminalResult {
  resultCode: string;
  resultText: string;
  authCode: string;
  refNum: string;
  approvedCents: number;
  tipCents: number;
  entryMode: EntryMode;
  brand: CardBrand;
  debit: boolean;
  firstSix: string;
  lastFour: string;
  expDate: string;
  cvm: Cvm;
  /** AID, APPLAB, APPN, CVM, TSI, TVR for chip and contactless reads. */
  emv: Record<string, string> | null;
  /** base64 PNG when a signature was captured. */
  signature: string | null;
  /** The card as the reader encrypted it for the gateway, when the request asked for store-and-forward. */
  encrypted?: { eTrackData: string; eFormat: string; eSerialNumber: string } | null;
}

export function encodeResult(r: TerminalResult): string[] {
  return [
    r.resultCode,
    r.resultText,
    joinSub([r.authCode, r.refNum]),
    joinSub([r.approvedCents, r.tipCents]),
    joinSub([r.entryMode, r.brand, r.debit ? 'D' : 'C', r.firstSix, r.lastFour, r.expDate]),
    r.cvm,
    r.emv ? joinSub(Object.entries(r.emv).map(([k, v]) => `${k}=${v}`)) : '',
    r.signature ?? '',
    r.encrypted ? joinSub([r.encrypted.eFormat, r.encrypted.eSerialNumber, r.encrypted.eTrackData]) : '',
  ];
}

/** The EMV data a receipt prints; anything else a terminal sends there (a PAN, track 2) is dropped. */
export const EMV_RECEIPT_KEYS = ['AID', 'APPLAB', 'APPN', 'CVM', 'TSI', 'TVR'] as const;

// Reading an answer: terminal-answer.ts (strict, one place).
