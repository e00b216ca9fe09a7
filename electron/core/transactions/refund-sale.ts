/**
 * `transactions:refund`: part or all of a sale given back to its card, never more than is left
 * (the gateway's refund rows and this app's ledger, the larger counts). A manager refunds; a
 * cashier asks, and a manager approves with their PIN at the cashier's counter (issue 21,
 * point 12), and the refund is then the manager's.
 */
import type { HandlerArg, RefundOutcome, Session } from '../../../shared/ipc/contract';
import { formatMoney as centsToDecimal } from '../../../shared/payments/money';
import { refundLimitSentence } from '../../../shared/refund-limit';
import { fail, ok, type Result } from '../../../shared/result';
import type { GatewayClient } from '../../client/gateway-client';
import type { UserDirectory } from '../auth/users';
import { withGatewayFailure } from '../gateway/guarded-call';
import type { OneAtATime } from '../platform/one-at-a-time';
import { clerkNumberOf } from '../sales/clerk-records';
import { SALE_ERRORS } from '../sales/sale-errors';
import { cardRequestBase } from './card-request-base';
import type { TransactionViews } from './clerk-views';
import { byManager, type ApprovalWords } from './manager-approval';
import type { RefundLedger } from './refund-ledger';
import { toView } from './transaction-view';

const REFUND_WORDS: ApprovalWords = { needed: SALE_ERRORS.refundNeedsManager, refused: SALE_ERRORS.refundRefused, locked: (wait) => `${wait} Nothing was refunded.` };

export interface RefundSaleDeps {
  client: GatewayClient;
  users: UserDirectory;
  now: () => number;
  locationId: string | undefined;
  productTransactionId: string | undefined;
  views: TransactionViews;
  ledger: RefundLedger;
  /** One refund or void of a sale at a time: two quick refunds must not both see the same amount left. */
  oneAtATime: OneAtATime;
}

export async function refundSale(deps: RefundSaleDeps, { id, amountCents, approval }: HandlerArg<'transactions:refund'>): Promise<Result<RefundOutcome>> {
  const s = deps.users.require();
  if (!s.ok) return s;
  return s.value.user.role === 'manager' ? refund(deps, s.value, id, amountCents) : byManager(deps, approval, REFUND_WORDS, (manager) => refund(deps, manager, id, amountCents));
}

/** Refunds part or all of a sale as `by`, never more than is left. */
function refund(deps: RefundSaleDeps, by: Session, id: string, amountCents: number): Promise<Result<RefundOutcome>> {
  const { views } = deps;
  return deps.oneAtATime.run(id, () =>
    withGatewayFailure(async () => {
      const original = await views.viewOne(id);
      if (original.kind !== 'sale') return fail('bad_request', SALE_ERRORS.notASale);
      if (original.refundableCents <= 0) return fail('conflict', SALE_ERRORS.notRefundable);
      if (amountCents > original.refundableCents) {
        const msg = `${SALE_ERRORS.refundTooMuch} ${refundLimitSentence(original.refundableCents)}`;
        return fail('bad_request', msg, { amount: [msg] });
      }
      const t = await deps.client.createTransaction({
        action: 'refund',
        ...cardRequestBase(deps),
        transaction_amount: centsToDecimal(amountCents),
        previous_transaction_id: id,
        clerk_number: clerkNumberOf(by.user.id),
      });
      views.remember(t.id, 'refund', by);
      const made = views.withClerk(toView(t));
      const approved = made.state === 'approved' || made.state === 'refunded';
      if (approved) deps.ledger.record(made.id, id, amountCents, Math.floor(deps.now() / 1000));
      return ok({ approved, message: approved ? `Refunded $${centsToDecimal(amountCents)}.` : made.message, refund: made, original: await views.viewOne(id) });
    }),
  );
}
