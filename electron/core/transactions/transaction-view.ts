/**
 * Normalises a v2 transaction record into the contract's TransactionView: cents,
 * masked card, plain-sentence outcome, what can still be refunded or voided.
 */
import type { EmvReceipt, EntryMode, TransactionState, TransactionView } from '../../../shared/ipc/contract';
import { cardVerificationOf } from '../../../shared/payments/receipt-wording';
import type { V2Transaction } from '../../client/v2-types';
import { parseMoney } from '../../../shared/payments/money';
import { reasonCodeSentence } from '../../../shared/payments/reason-codes';
import { brandLabel } from '../sales/card-brand';
import { shortRefOf } from '../sales/clerk-records';

/**
 * A signature line where the card verification calls for one: a credit card keyed or
 * swiped, or a chip/contactless read whose receipt data names a signature CVM.
 */
function needsSignature(t: V2Transaction, entry: string | null): boolean {
  if (t.payment_method === 'ach' || (t.account_type ?? '').toString().toLowerCase() === 'debit') return false;
  const emv = t.emv_receipt_data as { CVM?: unknown } | null | undefined;
  if (emv && typeof emv === 'object' && emv.CVM != null) return /sign/i.test(String(emv.CVM));
  return entry === 'K' || entry === 'S' || entry === null;
}

/** What a chip or contactless receipt prints from the gateway's emv_receipt_data (nothing without an AID). */
function emvReceiptOf(t: V2Transaction): EmvReceipt | null {
  const d = t.emv_receipt_data;
  if (!d || typeof d !== 'object') return null;
  const e = d as Record<string, unknown>;
  const text = (k: string) => (typeof e[k] === 'string' && e[k] ? (e[k] as string) : null);
  const aid = text('AID');
  if (!aid) return null;
  return { aid, label: text('APPN') ?? text('APPLAB') ?? '', cvm: cardVerificationOf(e.CVM), tvr: text('TVR'), tsi: text('TSI') };
}

export const TYPE = { sale: 20, refund: 30 } as const;
export const STATUS = { approved: 101, authonly: 102, refunded: 111, settled: 134, voided: 201, declined: 301 } as const;

const STATUS_SENTENCES: Readonly<Record<number, string>> = {
  101: 'Approved.',
  102: 'Authorized; not captured yet.',
  111: 'Refunded.',
  201: 'Voided: the payment was cancelled before settlement.',
  301: 'Declined by the card issuer. Ask for another payment method.',
};

/** The reason code's sentence, or the status's when the gateway sent no reason. */
export function outcomeSentence(reasonCodeId: number | null | undefined, statusId: number): string {
  if (reasonCodeId != null) return reasonCodeSentence(reasonCodeId);
  return STATUS_SENTENCES[statusId] ?? 'The gateway did not say how this ended. Look it up in Transactions before trying again.';
}

function isSettled(t: V2Transaction): boolean {
  if (t.settle_date) return true;
  if (t.status_id === STATUS.settled) return true;
  const s = (t.transaction_settlement_status ?? '').toString().toLowerCase();
  return s === 'settled' || s === 'settle' || s === 'closed';
}

/** The gateway's entry_mode_id (K keyed, S swiped, C chip, P contactless). */
const ENTRY_MODES: Record<string, EntryMode> = { K: 'keyed', S: 'swiped', C: 'chip', P: 'contactless' };

/**
 * The money a record really moved: the smaller of transaction_amount and auth_amount
 * when the gateway sends auth_amount (a partial approval authorises less than asked;
 * an authcomplete or partial reversal lowers transaction_amount below it), else
 * transaction_amount. Simplification: a tip edit that raises transaction_amount above
 * auth_amount is not counted until the gateway raises auth_amount too.
 */
export function approvedCents(t: V2Transaction): number {
  const asked = parseMoney(t.transaction_amount) ?? 0;
  const auth = t.auth_amount == null || t.auth_amount === '' ? null : parseMoney(t.auth_amount);
  return auth === null ? asked : Math.min(asked, auth);
}

export function toView(t: V2Transaction, refundedCents = 0): TransactionView {
  const statusId = Number(t.status_id ?? 0);
  const typeId = Number(t.type_id ?? 0);
  const kind = typeId === TYPE.sale ? 'sale' : typeId === TYPE.refund ? 'refund' : 'other';
  const requestedCents = parseMoney(t.transaction_amount) ?? 0;
  const amountCents = statusId === STATUS.declined ? requestedCents : approvedCents(t);
  const engineRefunded = parseMoney(t.refunded_amount) ?? 0;
  const refunded = Math.min(amountCents, Math.max(refundedCents, engineRefunded));
  const settled = isSettled(t);
  const approved = statusId === STATUS.approved || statusId === STATUS.authonly || statusId === STATUS.settled;

  let state: TransactionState;
  if (statusId === STATUS.voided) state = 'voided';
  else if (statusId === STATUS.declined) state = 'declined';
  // A refund record itself carries 111 "refunded" when it went through: for the screens it is an approved refund.
  else if (statusId === STATUS.refunded && kind === 'refund') state = 'approved';
  else if (statusId === STATUS.refunded || (kind === 'sale' && refunded >= amountCents && amountCents > 0)) state = 'refunded';
  else if (kind === 'sale' && refunded > 0) state = 'partially_refunded';
  else if (approved) state = 'approved';
  else if (statusId >= 131 && statusId <= 133) state = 'pending';
  else state = 'other';

  // This app only keys cards; a record without entry_mode_id is taken as keyed (simplification).
  const entry = typeof t.entry_mode_id === 'string' && t.entry_mode_id ? t.entry_mode_id.toUpperCase() : null;
  const refundable = kind === 'sale' && (state === 'approved' || state === 'partially_refunded') ? amountCents - refunded : 0;
  return {
    id: t.id,
    apiId: t.transaction_api_id ?? null,
    kind,
    state,
    statusId,
    reasonCodeId: t.reason_code_id ?? null,
    message: outcomeSentence(t.reason_code_id, statusId),
    amountCents,
    requestedCents,
    partial: kind === 'sale' && state !== 'declined' && amountCents < requestedCents,
    taxCents: parseMoney(t.tax) ?? 0,
    tipCents: parseMoney(t.tip_amount) ?? 0,
    refundedCents: refunded,
    refundableCents: refundable,
    voidable: kind === 'sale' && state === 'approved' && !settled && refunded === 0,
    cardBrand: t.payment_method === 'ach' ? 'Check' : brandLabel(t.account_type, t.first_six),
    lastFour: (t.last_four ?? '').slice(-4),
    authCode: t.auth_code ?? null,
    createdTs: Number(t.created_ts ?? 0),
    settled,
    previousTransactionId: t.previous_transaction_id ?? null,
    notificationEmail: t.notification_email_address ?? null,
    ref: shortRefOf(t.id),
    entryMode: t.payment_method === 'ach' ? 'check' : (ENTRY_MODES[String(t.entry_mode_id ?? 'K')] ?? 'keyed'),
    emv: t.payment_method === 'ach' ? null : emvReceiptOf(t),
    checkNumber: t.payment_method === 'ach' && typeof t.check_number === 'string' && t.check_number ? t.check_number : null,
    signatureLine: kind === 'sale' && needsSignature(t, entry),
    clerkName: null,
    voidedBy: null,
    collectsRestOf: null,
  };
}

export { emptyTotals, totalsOf } from '../../../shared/transaction-totals';
