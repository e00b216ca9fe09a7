/**
 * The guards on a sale's amount, declared once for the sale screen and the core (the
 * core enforces them whatever a screen sends): above the hard cap a sale is refused;
 * above the confirmation threshold it needs a second confirmation of exactly that
 * total; a tip above the store's share of the amount needs its own confirmation.
 */
import { dollars } from './refund-limit';

export interface GuardSettings {
  confirmAboveCents: number;
  hardCapCents: number;
  tipConfirmPercent: number;
}

export interface GuardAmounts {
  subtotalCents: number;
  tipCents: number;
  totalCents: number;
}

export interface GuardConfirmations {
  /** The total the cashier confirmed on the large-amount question. */
  confirmedCents?: number | undefined;
  /** The tip the cashier confirmed. */
  confirmedTipCents?: number | undefined;
}

export function hardCapSentence(capCents: number): string {
  return `A sale can be at most ${dollars(capCents)}. Check the amount, or ask a manager to raise the limit in the store settings.`;
}

export function largeAmountSentence(totalCents: number): string {
  return `${dollars(totalCents)} is a large amount. Confirm it before the card is charged.`;
}

export function largeTipSentence(tipCents: number, subtotalCents: number, percent: number): string {
  return `The tip of ${dollars(tipCents)} is more than ${percent}% of the ${dollars(subtotalCents)} amount. Confirm it before the card is charged.`;
}

export const aboveHardCap = (s: GuardSettings, totalCents: number): boolean => totalCents > s.hardCapCents;
export const needsLargeConfirm = (s: GuardSettings, totalCents: number): boolean => totalCents > s.confirmAboveCents;
/** Integer math: tip / subtotal > percent / 100. */
export const needsTipConfirm = (s: GuardSettings, subtotalCents: number, tipCents: number): boolean => tipCents * 100 > subtotalCents * s.tipConfirmPercent;

export interface GuardFailure {
  code: 'above_hard_cap' | 'confirm_amount' | 'confirm_tip';
  field: 'amount' | 'tip';
  message: string;
}

/** The first guard a sale fails (given what the cashier confirmed), or null. */
export function amountGuard(s: GuardSettings, a: GuardAmounts, c: GuardConfirmations): GuardFailure | null {
  if (aboveHardCap(s, a.totalCents)) return { code: 'above_hard_cap', field: 'amount', message: hardCapSentence(s.hardCapCents) };
  if (a.tipCents > 0 && needsTipConfirm(s, a.subtotalCents, a.tipCents) && c.confirmedTipCents !== a.tipCents) {
    return { code: 'confirm_tip', field: 'tip', message: largeTipSentence(a.tipCents, a.subtotalCents, s.tipConfirmPercent) };
  }
  if (needsLargeConfirm(s, a.totalCents) && c.confirmedCents !== a.totalCents) return { code: 'confirm_amount', field: 'amount', message: largeAmountSentence(a.totalCents) };
  return null;
}
