/**
 * The simulated card/ACH processor: a pure function from a request to an outcome that
 * reproduces the sandbox's test behaviours (GATEWAY-FACTS.md), so integrators' habits
 * carry over. No I/O here; the caller applies `delayMs` and stores the result.
 *
 * Card amounts: 2.01 partial approval (1201, half the amount, rounded down to the cent);
 * 5.00 deny (1500); 5.10/5.20/5.30/5.40 → 1510/1520/1530/1540; 6.01–6.31 decline with
 * 1601–1631, except 6.30: approved, and the first settle of its batch fails (1630);
 * 8.00–8.09: declined (1500) after xx seconds; 8.10–8.99: the gateway's 10-second
 * processor time-out, declined (1500, verbiage TIMEOUT) after 10 seconds. Like every test
 * amount these belong to sales and authorizations: refunds and avsonly answer at once.
 * AVS ("avs", the docs' table: GOOD street and zip both good, if provided; STREET the street
 * does not match; ZIP the zip does not match; BAD neither matches): "5800 NW 39th AVE" and
 * "32606" are the good street and zip; "2831 NW 41st St STE J" + "32615" → BAD and the sale
 * is declined (1500); a part not sent is not a mismatch; nothing sent → BAD (not declined).
 * With auto-decline on zip (or street), a zip (street) that was sent and does not match
 * declines ("value must be provided for it to be evaluated").
 * CVV: 999 (Amex 1234) → M; 123 (Amex 9999) → N; 124/125/126/127 (Amex 9998/9997/9996/9995)
 * → P/S/U/X; any other value → N; none sent → N, never declined for it. With
 * auto_decline_cvv, a sent CVV answered P, S, U or X is declined (1500); N is not (TestData:
 * "N - No Match but NOT decline the transaction").
 * 2.01: partial approval of 1.00, or a decline (1500) when partial authorization is off.
 * Expired card → 1622. ACH debit/credit/refund → 131 pending origination (see achStatusAt).
 * Simplification: terminal-only amounts (5.01, 5.31, 5.99, 7.xx) belong to router
 * transactions, which this module does not run.
 */
import { type CardBrand } from '../../../shared/payments/card-brand';

export const STATUS = {
  approved: 101,
  authonly: 102,
  refunded: 111,
  avsonly: 121,
  achPendingOrigination: 131,
  achOriginating: 132,
  achOriginated: 133,
  achSettled: 134,
  voided: 201,
  declined: 301,
} as const;

export const TYPE = { sale: 20, avsonly: 21, refund: 30, credit: 40, debit: 50 } as const;

export const REASON = {
  approved: 1000,
  authCompleted: 1001,
  forced: 1002,
  authonlyDeclined: 1003,
  voided: 1200,
  partial: 1201,
  deny: 1500,
  call: 1510,
  pickup: 1520,
  retry: 1530,
  setup: 1540,
  cardExpired: 1622,
  rejectedBatch: 1630,
} as const;

export type ProcessorAction = 'sale' | 'authonly' | 'avsonly' | 'refund' | 'debit' | 'credit';

export interface ProcessorRequest {
  action: ProcessorAction;
  paymentMethod: 'cc' | 'ach';
  amountCents: number;
  brand?: CardBrand;
  cvv?: string | null;
  billingStreet?: string | null;
  billingZip?: string | null;
  expired?: boolean;
  autoDeclineCvv?: boolean;
  autoDeclineZip?: boolean;
  autoDeclineStreet?: boolean;
  /** Default true (the sandbox's partial approvals). */
  allowPartial?: boolean;
}

export interface ProcessorOutcome {
  statusId: number;
  typeId: number;
  reasonCodeId: number;
  verbiage: string;
  approved: boolean;
  /** Amount the issuer authorized (partial approvals authorize less). */
  authAmountCents: number;
  avs: 'GOOD' | 'BAD' | 'STREET' | 'ZIP' | null;
  cvvResponse: 'M' | 'N' | 'P' | 'S' | 'U' | 'X' | null;
  delayMs: number;
  /** 6.30: the batch's first settle fails. */
  failsFirstSettle: boolean;
}

const VERBIAGE: Record<number, string> = {
  1000: 'APPROVED',
  1201: 'PARTIAL APPROVAL',
  1500: 'DECLINE',
  1510: 'CALL',
  1520: 'PICK UP',
  1530: 'RETRY',
  1540: 'SETUP ISSUE',
  1622: 'EXPIRED CARD',
};

/**
 * How far a tip adjust may raise a fully approved card sale above what the issuer approved:
 * the card networks let a tip-eligible merchant settle up to 20% over the authorization
 * without a new one. Beyond it the sale needs a new authorization (a new sale), so a tip
 * edit can never turn a 10.00 approval into an arbitrary capture.
 */
export const TIP_ADJUST_TOLERANCE_PERCENT = 20;

/** The highest amount a tip adjust may settle for an approval of `approvedCents`. */
export function tipAdjustCeiling(approvedCents: number): number {
  return approvedCents + Math.floor((approvedCents * TIP_ADJUST_TOLERANCE_PERCENT) / 100);
}

/** The gateway's processor time-out (TestData: "the API has a default time-out period of 10000ms"). */
export const PROCESSOR_TIMEOUT_MS = 10_000;
export const TIMEOUT_VERBIAGE = 'TIMEOUT';

export function verbiageFor(reason: number): string {
  return VERBIAGE[reason] ?? (reason >= 1601 && reason <= 1631 ? `DECLINE ${reason}` : 'DECLINE');
}

const norm = (s: string | null | undefined) => (s ?? '').trim().toUpperCase().replace(/\s+/g, ' ');
const GOOD_STREET = norm('5800 NW 39th AVE');
const GOOD_ZIP = '32606';
const DECLINE_STREET = norm('2831 NW 41st St STE J');
const DECLINE_ZIP = '32615';

export interface AvsAnswer {
  avs: 'GOOD' | 'BAD' | 'STREET' | 'ZIP';
  /** The decline pair. */
  decline: boolean;
  /** A street (zip) was sent and does not match: what auto_decline_street (zip) declines on. */
  streetMismatch: boolean;
  zipMismatch: boolean;
}

export function avsResult(street: string | null | undefined, zip: string | null | undefined): AvsAnswer {
  const s = norm(street);
  const z = (zip ?? '').trim().slice(0, 5);
  const streetMismatch = s !== '' && s !== GOOD_STREET;
  const zipMismatch = z !== '' && z !== GOOD_ZIP;
  if (s === DECLINE_STREET && z === DECLINE_ZIP) return { avs: 'BAD', decline: true, streetMismatch, zipMismatch };
  // Nothing to verify, or nothing that matched: BAD. Otherwise name the part that did not match.
  const avs = (s === '' && z === '') || (streetMismatch && zipMismatch) ? 'BAD' : streetMismatch ? 'STREET' : zipMismatch ? 'ZIP' : 'GOOD';
  return { avs, decline: false, streetMismatch, zipMismatch };
}

const CVV_SPECIAL: Record<string, ProcessorOutcome['cvvResponse']> = { '123': 'N', '124': 'P', '125': 'S', '126': 'U', '127': 'X' };
const CVV_SPECIAL_AMEX: Record<string, ProcessorOutcome['cvvResponse']> = { '9999': 'N', '9998': 'P', '9997': 'S', '9996': 'U', '9995': 'X' };

/** The CVV answers auto_decline_cvv declines on (TestData: P, S, U, X; never N). */
const CVV_AUTO_DECLINED: ReadonlySet<string> = new Set(['P', 'S', 'U', 'X']);

/** The CVV answer; null only when no CVV was sent (the caller reports that as N, never declined). */
export function cvvResult(cvv: string | null | undefined, brand: CardBrand | undefined): ProcessorOutcome['cvvResponse'] {
  if (cvv == null || cvv === '') return null;
  if (cvv === (brand === 'amex' ? '1234' : '999')) return 'M';
  return (brand === 'amex' ? CVV_SPECIAL_AMEX : CVV_SPECIAL)[cvv] ?? 'N';
}

/** Sandbox reason for a card amount (null = approved). */
export function amountReason(cents: number): number | null {
  if (cents === 500) return REASON.deny;
  if (cents === 510) return REASON.call;
  if (cents === 520) return REASON.pickup;
  if (cents === 530) return REASON.retry;
  if (cents === 540) return REASON.setup;
  if (cents >= 601 && cents <= 631 && cents !== 630) return 1600 + (cents - 600);
  return null;
}

/** 8.00–8.09 → that many seconds; 8.10–8.99 → the 10-second time-out. */
export function delayForAmount(cents: number): number {
  if (cents < 800 || cents > 899) return 0;
  return Math.min((cents - 800) * 1000, PROCESSOR_TIMEOUT_MS);
}

/**
 * One outcome, always built as this one object literal: every outcome has the same shape,
 * and no object spread is used. Measured on Node 20: `{ ...base, statusId, … }` costs about
 * 1.8 µs per call (V8 copies through its slow path when the literal adds properties),
 * which made this function 5 µs of every sale; the literal costs a few nanoseconds.
 */
function outcome(
  statusId: number,
  typeId: number,
  reasonCodeId: number,
  verbiage: string,
  approved: boolean,
  authAmountCents: number,
  avs: ProcessorOutcome['avs'],
  cvvResponse: ProcessorOutcome['cvvResponse'],
  delayMs: number,
  failsFirstSettle: boolean,
): ProcessorOutcome {
  return { statusId, typeId, reasonCodeId, verbiage, approved, authAmountCents, avs, cvvResponse, delayMs, failsFirstSettle };
}

export function simulate(req: ProcessorRequest): ProcessorOutcome {
  const cents = req.amountCents;
  if (req.paymentMethod === 'ach') {
    const typeId = req.action === 'credit' ? TYPE.credit : req.action === 'refund' ? TYPE.refund : TYPE.debit;
    return outcome(STATUS.achPendingOrigination, typeId, REASON.approved, 'APPROVED', true, cents, null, null, 0, false);
  }
  const avsAnswer = avsResult(req.billingStreet, req.billingZip);
  const avs = avsAnswer.avs;
  const cvvSent = cvvResult(req.cvv, req.brand);
  const cvv = cvvSent ?? 'N';
  // The 8.xx delays are sale amounts: only a sale or an authorization waits.
  const delayMs = req.action === 'sale' || req.action === 'authonly' ? delayForAmount(cents) : 0;

  if (req.action === 'avsonly') {
    const reason = avsAnswer.decline || req.expired ? (req.expired ? REASON.cardExpired : REASON.deny) : REASON.approved;
    const ok = reason === REASON.approved;
    return outcome(ok ? STATUS.avsonly : STATUS.declined, TYPE.avsonly, reason, verbiageFor(reason), ok, 0, avs, cvv, delayMs, false);
  }
  if (req.action === 'refund') {
    // Refunds to a card are not subject to the sale test amounts.
    return outcome(STATUS.refunded, TYPE.refund, REASON.approved, 'APPROVED', true, cents, avs, cvv, delayMs, false);
  }
  const okStatus = req.action === 'authonly' ? STATUS.authonly : STATUS.approved;
  const timedOut = cents >= 810 && cents <= 899;
  let reason: number | null = req.expired ? REASON.cardExpired : cents >= 800 && cents <= 899 ? REASON.deny : amountReason(cents);
  if (reason === null && avsAnswer.decline) reason = REASON.deny;
  if (reason === null && req.autoDeclineZip && avsAnswer.zipMismatch) reason = REASON.deny;
  if (reason === null && req.autoDeclineStreet && avsAnswer.streetMismatch) reason = REASON.deny;
  if (reason === null && req.autoDeclineCvv && cvvSent !== null && CVV_AUTO_DECLINED.has(cvvSent)) reason = REASON.deny;
  if (reason === null && cents === 201 && req.allowPartial === false) reason = REASON.deny;
  if (reason !== null) {
    const verbiage = timedOut ? TIMEOUT_VERBIAGE : verbiageFor(reason);
    return outcome(STATUS.declined, TYPE.sale, reason, verbiage, false, 0, avs, cvv, delayMs, false);
  }
  if (cents === 201) {
    // The sandbox approves $1.00 of $2.01.
    return outcome(okStatus, TYPE.sale, REASON.partial, verbiageFor(REASON.partial), true, 100, avs, cvv, delayMs, false);
  }
  return outcome(okStatus, TYPE.sale, REASON.approved, 'APPROVED', true, cents, avs, cvv, delayMs, cents === 630);
}

/**
 * ACH status by age (engine clock seconds since the transaction was created):
 * 131 pending origination → 132 originating after 5 minutes → 133 originated after
 * 1 hour → 134 settled after 24 hours. Stands in for the bank's next-day cycle.
 */
export const ACH_SCHEDULE_SECONDS = { originating: 5 * 60, originated: 60 * 60, settled: 24 * 60 * 60 } as const;

export function achStatusAt(createdTs: number, nowTs: number): number {
  const age = nowTs - createdTs;
  if (age >= ACH_SCHEDULE_SECONDS.settled) return STATUS.achSettled;
  if (age >= ACH_SCHEDULE_SECONDS.originated) return STATUS.achOriginated;
  if (age >= ACH_SCHEDULE_SECONDS.originating) return STATUS.achOriginating;
  return STATUS.achPendingOrigination;
}
