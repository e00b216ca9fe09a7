/**
 * `sale:outcome`: what became of a card sale whose answer the screen is still waiting for.
 * The cart's pending tender hands its own reference down; a screen's attempt id names the
 * reference this window's user got for it. Nothing was sent without a reference.
 */
import type { HandlerArg, HandlerResults } from '../../../shared/ipc/contract';
import { ok, type Result } from '../../../shared/result';
import type { UserDirectory } from '../auth/users';
import type { TenderRefs } from '../cart/tender-refs';
import type { TransactionViews } from '../transactions/clerk-views';
import type { LostPayments } from './lost-payments';
import { lookupAnswer } from './sale-answer';

export interface SaleOutcomeDeps {
  users: UserDirectory;
  refs: TenderRefs;
  lost: LostPayments;
  views: TransactionViews;
}

export async function saleOutcome(deps: SaleOutcomeDeps, { clientRef }: HandlerArg<'sale:outcome'>): Promise<Result<HandlerResults['sale:outcome']>> {
  const s = deps.users.require();
  if (!s.ok) return s;
  // The cart's pending tender hands its own reference down; a screen's attempt id names the reference this window's user got for it.
  const ref = deps.refs.handedDownRef() ?? deps.refs.refOfAttempt(s.value, 'sale', clientRef);
  if (!ref) return ok({ outcome: null }); // no reference was made for it: nothing was sent
  const r = lookupAnswer(deps.views, await deps.lost.resolve(ref, s.value));
  return r.ok ? ok({ outcome: r.value }) : r.error.code === 'not_charged' ? ok({ outcome: null }) : r;
}
