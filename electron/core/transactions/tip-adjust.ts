/**
 * Tip adjust after the authorization (issue 21, point 10b): a restaurant's server adds the tip
 * written on the signed slip to an approved card sale before its batch settles — the v2
 * interface's `edit` with `tip_amount` (PUT /v2/transactions/{id}). The gateway holds the new
 * total to its tip tolerance (about 20 % over what the issuer approved, GATEWAY-FACTS.md) and
 * answers a readable 422 over it, which the screen shows as it is; the core checks what it can
 * know itself first (which sales may be adjusted) so the usual refusals need no round trip.
 * A tip lowered collects less than was approved — a partial reversal at the gateway, a
 * manager's step — so a cashier lowers one only with a manager's PIN (sales.ts, byManager).
 *
 * Simplification: a partly approved sale is not adjusted (its rest is collected as a sale of
 * its own, with no tip on top); nor is a refunded one.
 */
import type { TransactionView } from '../../../shared/ipc/contract';
import { formatMoney } from '../../../shared/payments/money';
import { fail, type Result } from '../../../shared/result';

export const TIP_ADJUST_ERRORS = {
  notAdjustable: 'Only an approved card sale that has not been refunded can have its tip adjusted.',
  settled: "This sale's batch has settled, so its tip can no longer be adjusted.",
  unchanged: 'That is the tip this sale already has.',
  lowerNeedsManager: 'Lowering a tip collects less than the card approved, so a manager approves it: they enter their PIN here (or sign in). The tip was not changed.',
  lowerRefused: 'That is not a manager PIN. The tip was not changed.',
} as const;

/** Why this sale's tip may not become `tipCents` (null: it may, as far as the core can tell; the gateway holds the tolerance). */
export function tipAdjustRefusal(sale: TransactionView, tipCents: number): Result<never> | null {
  if (sale.kind !== 'sale' || sale.state !== 'approved' || sale.partial || sale.entryMode === 'check') return fail('conflict', TIP_ADJUST_ERRORS.notAdjustable);
  if (sale.settled) return fail('conflict', TIP_ADJUST_ERRORS.settled);
  if (tipCents === sale.tipCents) return fail('bad_request', TIP_ADJUST_ERRORS.unchanged, { tip: [TIP_ADJUST_ERRORS.unchanged] });
  return null;
}

/** The audit line of an adjust: the old and new tip, and the sale's new total. */
export function tipAdjustDetail(previousTipCents: number, sale: TransactionView): string {
  return `tip $${formatMoney(previousTipCents)} → $${formatMoney(sale.tipCents)}; the sale is now $${formatMoney(sale.amountCents)}`;
}
