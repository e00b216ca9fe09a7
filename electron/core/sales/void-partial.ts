/**
 * `sale:void-partial`: voiding a partly approved sale to start over, the one void the core
 * lets a cashier make (checked here: a partial, unsettled sale). A card payment of a paid
 * cart is different: voiding it gives money back on a finished sale, a cart return (issue
 * 20), so a manager approves it and the void is theirs.
 */
import type { HandlerArg, Session, TransactionView } from '../../../shared/ipc/contract';
import { fail, ok, type Result } from '../../../shared/result';
import type { SaleStatus } from '../../../shared/cart/tender-machine';
import type { GatewayClient } from '../../client/gateway-client';
import type { UserDirectory } from '../auth/users';
import { withGatewayFailure } from '../gateway/guarded-call';
import type { OneAtATime } from '../platform/one-at-a-time';
import type { TransactionViews } from '../transactions/clerk-views';
import { byManager, type ApprovalWords } from '../transactions/manager-approval';
import type { RefundLedger } from '../transactions/refund-ledger';
import { toView } from '../transactions/transaction-view';
import { SALE_ERRORS } from './sale-errors';

const CART_RETURN_WORDS: ApprovalWords = { needed: SALE_ERRORS.cartReturnNeedsManager, refused: SALE_ERRORS.cartReturnRefused, locked: SALE_ERRORS.approverLocked };

export interface VoidPartialDeps {
  users: UserDirectory;
  now: () => number;
  /** The client the void goes with: the gateway's admin user (a cashier's engine user may not void; sales.ts). */
  partialVoidClient: GatewayClient;
  views: TransactionViews;
  ledger: RefundLedger;
  oneAtATime: OneAtATime;
  carts?: { statusOfTransaction(transactionId: string): SaleStatus | null; tenderVoided(transactionId: string): void };
}

export async function voidPartialSale(deps: VoidPartialDeps, { id, approval }: HandlerArg<'sale:void-partial'>): Promise<Result<TransactionView>> {
  const s = deps.users.require();
  if (!s.ok) return s;
  // A card payment of a paid cart: voiding it gives money back on a finished sale, a cart return (issue 20).
  if (s.value.user.role !== 'manager' && deps.carts?.statusOfTransaction(id) === 'paid') {
    // The void is the manager's: their name is its clerk record (the view's voidedBy, and the audit line's "approved by").
    return byManager(deps, approval, CART_RETURN_WORDS, (manager) => voidPartial(deps, id, manager));
  }
  return voidPartial(deps, id, s.value);
}

/** Voids a partial approval (checked: partial, unsettled) as `by`; a cart whose tender it was follows. */
function voidPartial(deps: VoidPartialDeps, id: string, by: Session): Promise<Result<TransactionView>> {
  return deps.oneAtATime.run(id, () =>
    withGatewayFailure(async () => {
      const original = await deps.views.viewOne(id);
      if (original.kind !== 'sale' || !original.partial) return fail('bad_request', SALE_ERRORS.notPartial);
      if (original.settled) return fail('conflict', SALE_ERRORS.alreadySettled);
      if (!original.voidable) return fail('conflict', SALE_ERRORS.notVoidable);
      const t = await deps.partialVoidClient.voidTransaction(id);
      deps.views.remember(id, 'void', by);
      deps.carts?.tenderVoided(id);
      return ok(deps.views.withClerk(toView(t, deps.ledger.refundedOf(id))));
    }),
  );
}
