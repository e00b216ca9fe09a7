/**
 * The discount rule and a manager's PIN at the counter. A cart's largest discount share stays
 * within the store's limit, or a manager approved at least that share (signed in, or their PIN
 * typed at the cashier's counter). An approval covers the share it was given for, never a
 * larger one a later edit makes; once the cart is back within the limit the approval is dropped.
 */
import type { Approval } from '../../../shared/ipc/common';
import type { Session } from '../../../shared/ipc/contract';
import { fail, ok, type Result } from '../../../shared/result';
import type { UserDirectory } from '../auth/users';
import type { PosDatabase } from '../platform/pos-database';
import type { CartStore } from './cart-store';
import { cartRulesOf } from './cart-rules';
import { TENDER_COPY } from './tender-copy';

/** A manager's PIN typed at this counter, checked: the manager, or why not; none typed: undefined. */
export type Approver = Result<Session['user']> | undefined;

/** A manager's PIN typed at this counter: the manager, or why not (in the words of what was being approved). */
export async function managerPin(users: UserDirectory, approval: Approval, refused: string): Promise<Result<Session['user']>> {
  const r = await users.verifyManager(approval.managerId, approval.pin);
  if (r.ok) return r;
  // The lockout's own words say how long to wait (pin-throttle.ts lockedFor).
  if (r.error.code === 'locked') return fail('locked', r.error.message, { approval: [r.error.message] });
  return fail('approval_refused', refused, { approval: [refused] });
}

/**
 * A typed manager PIN is checked before the cart changes (the check is asynchronous, off
 * the event loop, and the cart's edit runs in one synchronous transaction): checked — and
 * a wrong one counted — whenever one is sent, used only when the change needs it.
 */
export const approverOf = async (users: UserDirectory, approval: Approval | undefined): Promise<Approver> =>
  approval && users.require().ok ? managerPin(users, approval, TENDER_COPY.approvalRefused) : undefined;

export interface ApprovalCheckDeps {
  db: PosDatabase;
  store: CartStore;
}

/**
 * The discount rule, checked after every change to what a discount is a share of and before
 * every tender. `refusal` words the answer without an approval.
 */
export function approvalCheck(deps: ApprovalCheckDeps, s: Session, cartId: string, approval: Approver, refusal: (limitPct: number, sharePct: number) => string): Result<null> {
  const { store } = deps;
  const limitBp = cartRulesOf(deps.db).discountApprovalPercent * 100;
  const share = store.view(cartId).totals.largestDiscountBasisPoints;
  if (share <= limitBp) {
    if (store.approval(cartId)) store.setApproval(cartId, null);
    return ok(null);
  }
  const given = store.approval(cartId);
  if (given && given.basisPoints >= share) return ok(null);
  if (s.user.role === 'manager') {
    store.setApproval(cartId, { by: s.user.name, basisPoints: share });
    return ok(null);
  }
  if (!approval) {
    const sharePct = Math.round(share / 10) / 10;
    const msg = store.view(cartId).totals.largestDiscountCombined ? TENDER_COPY.combinedNeedsApproval(limitBp / 100, sharePct) : refusal(limitBp / 100, sharePct);
    return fail('approval_needed', msg, { approval: [msg] });
  }
  if (!approval.ok) return approval;
  store.setApproval(cartId, { by: approval.value.name, basisPoints: share });
  return ok(null);
}

export const discountRefusal = (limitPct: number) => TENDER_COPY.approvalNeeded(limitPct);
