/**
 * What a terminal may report back on a router transaction, checked before anything is charged.
 *
 * The terminal reads the card and, on a sale, may let the customer add a tip; the engine's
 * processor then charges. The amounts the terminal reports (approved, tip) are its word, and a
 * tampered or misconfigured terminal could report any: they must add up to what the request
 * asked plus a tip the terminal was allowed to add, or nothing is charged.
 *
 * The tip the terminal may add:
 * - the request named the tip (`tip_amount`, chosen at the counter): exactly that;
 * - a sale without one, on a terminal with tip percents (the settings the driver sends with the
 *   request, terminal-link.ts): anything from 0 up to the largest percent of the tip base (the
 *   request's tip_base_amount, else the amount), rounded up to the cent (terminals round half
 *   up; rounding up is never below that) — or, when the request sent smart tips' flat amounts
 *   (tip_amounts), up to the largest of them;
 * - anything else (an auth, a refund, no tip percents): none.
 * The terminal's approved amount must then equal the amount asked plus the tip it reports.
 * Simplification: an answer below that (a terminal reporting less than it ran) is refused the
 * same way, since the engine cannot tell which of its two numbers is wrong.
 */
import type { TipPercents } from '../../../shared/payments/terminal-timeouts';

export interface TerminalAsk {
  action: 'sale' | 'authonly' | 'refund';
  /** The amount before the tip, in cents. */
  amountCents: number;
  /** The tip named in the request, in cents; undefined lets the terminal prompt for one. */
  tipCents: number | undefined;
  /** The tip percents the terminal was sent (null: it does not prompt). */
  tipPercents: TipPercents;
  /** What the percents are taken of (cents), when not the whole amount. */
  tipBaseCents?: number;
  /** Flat amounts the terminal offered instead of its percents (smart tips). */
  tipAmountsCents?: number[];
}

/** The largest tip the terminal may add to this request (cents). */
export function allowedTipCents(ask: TerminalAsk): number {
  if (ask.tipCents !== undefined) return ask.tipCents;
  if (ask.action !== 'sale' || !ask.tipPercents) return 0;
  if (ask.tipAmountsCents) return Math.max(...ask.tipAmountsCents);
  return Math.ceil(((ask.tipBaseCents ?? ask.amountCents) * Math.max(...ask.tipPercents)) / 100);
}

/** True when the terminal's report adds up to the request and a tip it was allowed to add. */
export function reportFits(ask: TerminalAsk, reported: { approvedCents: number; tipCents: number }): boolean {
  const maxTip = allowedTipCents(ask);
  const tipOk = ask.tipCents !== undefined ? reported.tipCents === ask.tipCents : reported.tipCents >= 0 && reported.tipCents <= maxTip;
  return tipOk && reported.approvedCents === ask.amountCents + reported.tipCents;
}
