/**
 * What a card tender's answer pays of the cart (issue 21): the approved amount less its tip
 * (the tip is the card's, on top of the balance), and the tip. Simplification: a partial
 * approval of a tipped card counts its tip first.
 */
import type { SaleOutcome } from '../../../shared/ipc/contract';

export function tenderAnswer(outcome: SaleOutcome | null): { approvedCents: number; tipCents: number; transactionId: string | null } {
  if (!outcome?.approved) return { approvedCents: 0, tipCents: 0, transactionId: outcome?.transaction.id ?? null };
  const t = outcome.transaction;
  return { approvedCents: Math.max(0, t.amountCents - t.tipCents), tipCents: t.tipCents, transactionId: t.id };
}
