/**
 * `transactions:adjust-tip`: the tip on the signed slip added to an approved card sale before
 * its batch settles (the rules are tip-adjust.ts). A lower tip collects less than was
 * approved — the gateway's partial reversal role — so a cashier lowers one only with a
 * manager's PIN. One money change of a sale at a time: a tip adjust and a void or refund never cross.
 */
import type { HandlerArg, HandlerResults, Session } from '../../../shared/ipc/contract';
import { formatMoney as centsToDecimal } from '../../../shared/payments/money';
import { ok, type Result } from '../../../shared/result';
import type { GatewayClient } from '../../client/gateway-client';
import type { UserDirectory } from '../auth/users';
import { withGatewayFailure } from '../gateway/guarded-call';
import type { OneAtATime } from '../platform/one-at-a-time';
import type { TransactionViews } from './clerk-views';
import { byManager, type ApprovalWords } from './manager-approval';
import { TIP_ADJUST_ERRORS, tipAdjustRefusal } from './tip-adjust';
import { toView } from './transaction-view';

const TIP_WORDS: ApprovalWords = { needed: TIP_ADJUST_ERRORS.lowerNeedsManager, refused: TIP_ADJUST_ERRORS.lowerRefused, locked: (wait) => `${wait} The tip was not changed.` };

export interface AdjustTipDeps {
  client: GatewayClient;
  users: UserDirectory;
  now: () => number;
  views: TransactionViews;
  oneAtATime: OneAtATime;
}

export async function adjustTip(deps: AdjustTipDeps, { id, tipCents, approval }: HandlerArg<'transactions:adjust-tip'>): Promise<Result<HandlerResults['transactions:adjust-tip']>> {
  const s = deps.users.require();
  if (!s.ok) return s;
  // One money change of a sale at a time: a tip adjust and a void or refund never cross.
  return deps.oneAtATime.run(id, () =>
    withGatewayFailure(async () => {
      const sale = await deps.views.viewOne(id);
      const refused = tipAdjustRefusal(sale, tipCents);
      if (refused) return refused;
      const adjust = (by: Session) =>
        withGatewayFailure(async () => {
          const t = await deps.client.updateTransaction(id, { action: 'edit', tip_amount: centsToDecimal(tipCents) });
          return ok({ transaction: deps.views.withClerk(toView(t, sale.refundedCents)), previousTipCents: sale.tipCents, adjustedBy: by.user.name });
        });
      // A lower tip collects less than was approved: a manager's step (the gateway's partial reversal role).
      if (tipCents < sale.tipCents && s.value.user.role !== 'manager') return byManager(deps, approval, TIP_WORDS, adjust);
      return adjust(s.value);
    }),
  );
}
