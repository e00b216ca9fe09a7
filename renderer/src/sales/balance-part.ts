/**
 * A typed part of a cart's balance for one tender (the card's and the terminal's amount
 * fields): blank pays all of it; a typed amount must be more than nothing and no more
 * than the balance, or the field says so.
 */
import { money, parseTypedAmount } from '../ui/money-format';

export interface BalancePart {
  /** Nothing typed: the tender pays the whole balance. */
  blank: boolean;
  /** What the tender pays (0 when the typed text is no amount). */
  cents: number;
  /** The sentence under the field when the typed amount cannot be paid, else null. */
  error: string | null;
}

export function balancePart(text: string, balanceCents: number): BalancePart {
  const blank = text.trim() === '';
  const typed = parseTypedAmount(text);
  const bad = !blank && (typed === null || typed === 0 || typed > balanceCents);
  return { blank, cents: blank ? balanceCents : (typed ?? 0), error: bad ? `Type an amount up to the balance, ${money(balanceCents)}.` : null };
}
