/**
 * `transactions:void`: an unsettled sale voided (a settled one is refunded instead). A manager
 * voids; a cashier asks, and a manager approves with their PIN at the cashier's counter, and
 * the void is then the manager's. A cart whose card tender it was follows.
 */
import type { HandlerArg, Session, TransactionView } from '../../../shared/ipc/contract';
import { fail, ok, type Result } from '../../../shared/result';
import type { GatewayClient } from '../../client/gateway-client';
import type { UserDirectory } from '../auth/users';
import { withGatewayFailure } from '../gateway/guarded-call';
import type { OneAtATime } from '../platform/one-at-a-time';
import { SALE_ERRORS } from '../sales/sale-errors';
import type { TransactionViews } from './clerk-views';
import { byManager, type ApprovalWords } from './manager-approval';
import type { RefundLedger } from './refund-ledger';
import { toView } from './transaction-view';

const VOID_WORDS: ApprovalWords = { needed: SALE_ERRORS.voidNeedsManager, refused: SALE_ERRORS.voidRefused, locked: (wait) => `${wait} The sale was not voided.` };

export interface VoidSaleDeps {
  client: GatewayClient;
  users: UserDirectory;
  now: () => number;
  views: TransactionViews;
  ledger: RefundLedger;
  oneAtATime: OneAtATime;
  carts?: { tenderVoided(transactionId: string): void };
}

export async function voidSaleHandler(deps: VoidSaleDeps, { id, approval }: HandlerArg<'transactions:void'>): Promise<Result<TransactionView>> {
  const s = deps.users.require();
  if (!s.ok) return s;
  return s.value.user.role === 'manager' ? voidSale(deps, s.value, id) : byManager(deps, approval, VOID_WORDS, (manager) => voidSale(deps, manager, id));
}

/** Voids an unsettled sale as `by`; a cart whose tender it was follows. */
function voidSale(deps: VoidSaleDeps, by: Session, id: string): Promise<Result<TransactionView>> {
  return deps.oneAtATime.run(id, () =>
    withGatewayFailure(async () => {
      const original = await deps.views.viewOne(id);
      if (original.kind !== 'sale') return fail('bad_request', SALE_ERRORS.notASale);
      if (original.settled) return fail('conflict', SALE_ERRORS.alreadySettled);
      if (!original.voidable) return fail('conflict', SALE_ERRORS.notVoidable);
      const t = await deps.client.voidTransaction(id);
      deps.views.remember(id, 'void', by);
      deps.carts?.tenderVoided(id);
      return ok(deps.views.withClerk(toView(t, deps.ledger.refundedOf(id))));
    }),
  );
}
