/**
 * A card sale's answer as the sale screen hears it: approved or not, in the gateway's words,
 * with the transaction as the counter shows it — whether it came back at once or was found
 * after its answer was lost (lost-payments.ts, whose clerk record names who charged it).
 */
import type { SaleOutcome, TransactionView } from '../../../shared/ipc/contract';
import { fail, ok, type Result } from '../../../shared/result';
import type { TransactionViews } from '../transactions/clerk-views';
import { toView } from '../transactions/transaction-view';
import type { LostAnswer } from './lost-payments';
import { SALE_ERRORS } from './sale-errors';

export const outcomeOf = (view: TransactionView): SaleOutcome => ({ approved: view.state === 'approved', message: view.message, transaction: view });

/** A lost payment's answer as the screen hears it. */
export function lookupAnswer(views: TransactionViews, a: LostAnswer): Result<SaleOutcome> {
  if (a.kind === 'unknown') return fail('outcome_unknown', SALE_ERRORS.outcomeUnknown);
  if (a.kind === 'not_charged') return fail('not_charged', SALE_ERRORS.notCharged);
  if (a.kind === 'refused') return a.result;
  return ok(outcomeOf(views.withClerk(toView(a.transaction))));
}
