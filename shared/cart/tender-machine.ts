/**
 * The tenders of one cart sale as a state machine (pure: the core loads it from SQLite,
 * applies one step and writes it back; the screen runs the same rules to grey buttons out).
 *
 *   open ──begin──▶ (one tender pending) ──approve/decline──▶ open … ──balance 0──▶ paid
 *     └──────────────────────────────cancel──▶ cancelling ──every card reversed──▶ cancelled
 *   paid ──a card payment voided at the gateway (a manager's cart return)──▶ due
 *   due ──collected (cart:collect): tenders up to the balance──balance 0──▶ paid
 *
 * Rules: one tender at a time (a second submit while one is pending is refused, so a
 * double click cannot charge twice); a card tender is at most the balance (over-tender is
 * refused); cash may be more than the balance and the difference is change, never
 * collected money; a partial approval counts only what was approved and leaves the rest as
 * the balance; the sale is paid only when the balance is zero; a paid or cancelled sale
 * takes no tender. A due sale takes tenders under the same rules as an open one — a card at
 * most the balance, cash paying at most the balance with the rest as change — so what is
 * collected never exceeds what is due; it cannot be cancelled (its goods left with the
 * customer: what is owed stays owed until a manager decides otherwise).
 */

import { nextTenderTax } from './tender-tax';

export type TenderKind = 'cash' | 'card' | 'saved-card' | 'terminal';
export type TenderStatus = 'pending' | 'approved' | 'declined' | 'reversed';
/** `due`: a paid sale one of whose card payments a manager voided afterwards (issue 20): what that card paid is owed again. */
export type SaleStatus = 'open' | 'paid' | 'due' | 'cancelling' | 'cancelled';

export interface Tender {
  id: string;
  kind: TenderKind;
  status: TenderStatus;
  /** What this tender was asked to collect (cash: at most the balance). */
  requestedCents: number;
  /** What it collected: the card's approved amount; cash: requested. */
  approvedCents: number;
  /** Cash handed over (≥ requested); 0 for cards. */
  tenderedCents: number;
  changeCents: number;
  /** The gateway transaction (cards); null for cash. */
  transactionId: string | null;
  /** Already given back by line or amount refunds. */
  refundedCents: number;
  /**
   * This tender's share of the cart's tax (tender-tax.ts), set when it is begun and never
   * changed: a card sends it as its transaction's tax; cash carries it in the reports.
   */
  taxCents: number;
  /** A card's tip on top of what it paid of the balance (issue 21); 0 for cash. Not part of approvedCents. */
  tipCents: number;
}

export interface TenderState {
  status: SaleStatus;
  totalCents: number;
  /** The cart's tax, shared over its tenders as each is begun. */
  taxCents: number;
  tenders: Tender[];
}

export type Step<T> = { ok: true; value: T } | { ok: false; message: string };

export const TENDER_MESSAGES = {
  notOpen: (s: SaleStatus) => (s === 'paid' ? 'This sale is already paid.' : s === 'due' ? 'A card payment of this sale was voided after it was paid. Collect the rest from Cart sales.' : 'This sale was cancelled.'),
  pending: 'A payment for this sale is still in progress. Wait for its answer.',
  nothingDue: 'Nothing is left to pay on this sale.',
  zero: 'Enter an amount above $0.00.',
  overCard: (balance: string) => `A card can pay at most the balance, ${balance}.`,
  shortCash: 'The cash handed over is less than the amount to pay with it.',
  emptyCart: 'Add an item before taking payment.',
  unknown: 'That payment is not part of this sale.',
} as const;

const dollars = (c: number) => `$${Math.floor(c / 100).toLocaleString('en-US')}.${String(c % 100).padStart(2, '0')}`;

export function collectedCents(s: TenderState): number {
  return s.tenders.filter((t) => t.status === 'approved').reduce((a, t) => a + t.approvedCents, 0);
}

export function balanceCents(s: TenderState): number {
  return Math.max(0, s.totalCents - collectedCents(s));
}

export function pendingTender(s: TenderState): Tender | undefined {
  return s.tenders.find((t) => t.status === 'pending');
}

/**
 * Starts a tender. Cash: `tenderedCents` is what the customer handed over; it pays
 * min(tendered, balance) and the rest is change. Card: `amountCents` (default: the balance).
 */
export function beginTender(s: TenderState, t: { id: string; kind: TenderKind; amountCents?: number; tenderedCents?: number }): Step<{ state: TenderState; tender: Tender }> {
  if (s.status !== 'open' && s.status !== 'due') return { ok: false, message: TENDER_MESSAGES.notOpen(s.status) };
  if (s.totalCents <= 0) return { ok: false, message: TENDER_MESSAGES.emptyCart };
  if (pendingTender(s)) return { ok: false, message: TENDER_MESSAGES.pending };
  const balance = balanceCents(s);
  if (balance === 0) return { ok: false, message: TENDER_MESSAGES.nothingDue };
  let tender: Tender;
  // The tenders that count so far, in order: the running share (tender-tax.ts) starts from what they carry.
  const counted = s.tenders.filter((x) => x.status === 'approved');
  if (t.kind === 'cash') {
    const tendered = t.tenderedCents ?? t.amountCents ?? balance;
    const amount = Math.min(t.amountCents ?? balance, balance);
    if (!Number.isInteger(tendered) || tendered <= 0 || amount <= 0) return { ok: false, message: TENDER_MESSAGES.zero };
    const requested = Math.min(amount, tendered);
    // Cash is final the moment it is in the drawer: it is approved at once.
    tender = { id: t.id, kind: 'cash', status: 'approved', requestedCents: requested, approvedCents: requested, tenderedCents: tendered, changeCents: tendered - requested, transactionId: null, refundedCents: 0, tipCents: 0, taxCents: nextTenderTax(s, counted, requested, false) };
  } else {
    const amount = t.amountCents ?? balance;
    if (!Number.isInteger(amount) || amount <= 0) return { ok: false, message: TENDER_MESSAGES.zero };
    if (amount > balance) return { ok: false, message: TENDER_MESSAGES.overCard(dollars(balance)) };
    tender = { id: t.id, kind: t.kind, status: 'pending', requestedCents: amount, approvedCents: 0, tenderedCents: 0, changeCents: 0, transactionId: null, refundedCents: 0, tipCents: 0, taxCents: nextTenderTax(s, counted, amount, true) };
  }
  return { ok: true, value: { state: settle({ ...s, tenders: [...s.tenders, tender] }), tender } };
}

/** The gateway's answer to a pending card tender: approved cents of the balance (less than asked = partial approval) and the tip on top, or declined. */
export function finishTender(s: TenderState, id: string, answer: { approvedCents: number; tipCents?: number; transactionId: string | null }): Step<TenderState> {
  const t = s.tenders.find((x) => x.id === id);
  if (!t || t.status !== 'pending') return { ok: false, message: TENDER_MESSAGES.unknown };
  const approved = Math.max(0, Math.min(answer.approvedCents, t.requestedCents));
  const next: Tender = { ...t, status: approved > 0 ? 'approved' : 'declined', approvedCents: approved, tipCents: approved > 0 ? (answer.tipCents ?? 0) : 0, transactionId: answer.transactionId };
  return { ok: true, value: settle({ ...s, tenders: s.tenders.map((x) => (x.id === id ? next : x)) }) };
}

function settle(s: TenderState): TenderState {
  if ((s.status === 'open' || s.status === 'due') && s.totalCents > 0 && balanceCents(s) === 0 && !pendingTender(s)) return { ...s, status: 'paid' };
  return s;
}

/**
 * Cancelling: refused while a tender is pending (its outcome is not known yet). Returns the
 * approved tenders to give back — cards to void or refund, cash to hand back — and the sale
 * goes to `cancelling` until each is marked reversed.
 */
export function beginCancel(s: TenderState): Step<{ state: TenderState; toReverse: Tender[] }> {
  if (s.status === 'paid' || s.status === 'due' || s.status === 'cancelled') return { ok: false, message: TENDER_MESSAGES.notOpen(s.status) };
  if (pendingTender(s)) return { ok: false, message: TENDER_MESSAGES.pending };
  const toReverse = s.tenders.filter((t) => t.status === 'approved');
  const state: TenderState = { ...s, status: toReverse.length === 0 ? 'cancelled' : 'cancelling' };
  return { ok: true, value: { state, toReverse } };
}

export function markReversed(s: TenderState, id: string): TenderState {
  const tenders = s.tenders.map((t) => (t.id === id && t.status === 'approved' ? { ...t, status: 'reversed' as const } : t));
  const done = s.status === 'cancelling' && !tenders.some((t) => t.status === 'approved');
  return { ...s, tenders, status: done ? 'cancelled' : s.status };
}
