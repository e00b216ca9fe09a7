/**
 * A sale that collects the rest of a partial approval: the first must be a partly approved
 * sale still standing, and this one exactly what is left of it — asked minus approved, minus
 * what sales linked to it have collected — with no tip or tax added (its tax is in it already,
 * and a tip was asked on the first).
 */
import { fail, type Result } from '../../../shared/result';
import type { TransactionViews } from '../transactions/clerk-views';
import type { ClerkRecords } from './clerk-records';
import { SALE_ERRORS } from './sale-errors';

export interface RestOfPartialDeps {
  views: TransactionViews;
  clerks: ClerkRecords;
}

/** Why a sale may not collect the rest of `firstId` (null: it may). */
export async function restRefusal(deps: RestOfPartialDeps, firstId: string, args: { subtotalCents: number; taxCents: number; tipCents: number }): Promise<Result<never> | null> {
  const first = await deps.views.viewOne(firstId);
  if (first.kind !== 'sale' || !first.partial || first.state !== 'approved') return fail('bad_request', SALE_ERRORS.restOfPartialOnly);
  let collected = 0;
  for (const r of deps.clerks.linkedTo(firstId)) {
    if (r.action !== 'sale') continue;
    const linked = await deps.views.viewOne(r.transactionId);
    if (linked.state !== 'declined' && linked.state !== 'voided') collected += linked.amountCents;
  }
  const restCents = first.requestedCents - first.amountCents - collected;
  if (restCents <= 0) return fail('conflict', SALE_ERRORS.restCollected);
  if (args.taxCents !== 0 || args.tipCents !== 0 || args.subtotalCents !== restCents) {
    const msg = SALE_ERRORS.restNotExact(restCents);
    return fail('bad_request', msg, { amount: [msg] });
  }
  return null;
}
