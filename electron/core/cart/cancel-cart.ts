/**
 * `cart:cancel`: the sale cancelled, every payment it took given back — cash from the drawer,
 * each card payment voided (or refunded once settled) through the app's own audited money
 * handlers. A partial approval alone may be voided by the cashier (the sale path allows it);
 * any other card payment needs a manager: signed in, or their PIN typed at the cashier's
 * counter, and then the voids and refunds run as that manager (checked and audited as theirs).
 * A card payment approved offline is withdrawn from the queue, or voided once the gateway has it.
 */
import { beginCancel, markReversed } from '../../../shared/cart/tender-machine';
import type { Approval } from '../../../shared/ipc/common';
import type { CartView, HandlerArg, HandlerMap, Session } from '../../../shared/ipc/contract';
import { isOfflinePlaceholder } from '../../../shared/offline-ref';
import { fail, ok, type Result } from '../../../shared/result';
import type { UserDirectory } from '../auth/users';
import type { CoreEvents } from '../platform/events';
import type { OneAtATime } from '../platform/one-at-a-time';
import type { PosDatabase } from '../platform/pos-database';
import type { OfflineSales } from '../queue/offline-sales';
import { managerPin } from './cart-approval';
import type { CartStore } from './cart-store';
import { recordCash } from './cash-drawer';
import { TENDER_COPY } from './tender-copy';

export interface CancelCartDeps {
  db: PosDatabase;
  users: UserDirectory;
  store: CartStore;
  events: CoreEvents;
  now: () => number;
  /** Money given back from one cart runs one step at a time. */
  oneAtATime: OneAtATime;
  offline?: Pick<OfflineSales, 'withdraw'>;
  money: Pick<HandlerMap, 'sale:void-partial' | 'transactions:void' | 'transactions:refund'>;
}

export async function cancelCartHandler(deps: CancelCartDeps, { approval }: HandlerArg<'cart:cancel'>): Promise<Result<CartView>> {
  const s = deps.users.require();
  if (!s.ok) return s;
  const cartId = deps.store.openCartOf(s.value.user.id);
  if (deps.store.view(cartId).status === 'due') return fail('conflict', TENDER_COPY.dueNoCancel);
  return deps.oneAtATime.run(cartId, () => cancelCart(deps, s.value, cartId, approval));
}

/** Cancels the cart: a manager's approval first when a card payment other than a partial approval is given back. */
async function cancelCart(deps: CancelCartDeps, session: Session, cartId: string, approval: Approval | undefined): Promise<Result<CartView>> {
  const state = deps.store.tenderState(cartId);
  const taken = state.tenders.filter((t) => t.status === 'approved' && t.kind !== 'cash');
  if (taken.length > 0 && session.user.role !== 'manager' && !taken.every((t) => t.approvedCents < t.requestedCents)) {
    if (!approval) return fail('approval_needed', TENDER_COPY.cancelNeedsManager, { approval: [TENDER_COPY.cancelNeedsManager] });
    const m = await managerPin(deps.users, approval, TENDER_COPY.cancelRefused);
    if (!m.ok) return m;
    return deps.users.actAsManager(m.value, () => reverseAll(deps, cartId));
  }
  return reverseAll(deps, cartId);
}

async function reverseAll(deps: CancelCartDeps, cartId: string): Promise<Result<CartView>> {
  const { store } = deps;
  const state = store.tenderState(cartId);
  const step = beginCancel(state);
  if (!step.ok) return fail('conflict', step.message);
  let st = step.value.state;
  store.saveTenderState(cartId, st);
  let cashBack = false;
  for (const t of step.value.toReverse) {
    if (t.kind === 'cash') {
      cashBack = true;
      recordCash(deps.db, { cartId, kind: 'return', cents: t.approvedCents - t.refundedCents, ts: deps.now() });
      st = markReversed(st, t.id);
      continue;
    }
    // ── Offline store-and-forward (issue 13): a card payment approved offline still carries its stand-in id.
    let id = t.transactionId!;
    if (isOfflinePlaceholder(id) && deps.offline) {
      const q = await deps.offline.withdraw(t.id);
      // Withdrawn now (never sent), or declined, refused or expired once sent: no money moved.
      if (q && q.state !== 'approved') {
        st = markReversed(st, t.id);
        continue;
      }
      if (!q?.transactionId) continue; // not in this queue: stays for Cancel again
      id = q.transactionId; // the gateway took it meanwhile: void (or refund) that sale
    }
    const partial = t.approvedCents < t.requestedCents;
    let r: Result<unknown> = partial ? await deps.money['sale:void-partial']({ id }) : await deps.money['transactions:void']({ id });
    // Settled already: refund what it collected instead.
    if (!r.ok && r.error.code === 'conflict') r = await deps.money['transactions:refund']({ id, amountCents: t.approvedCents - t.refundedCents });
    if (r.ok) st = markReversed(st, t.id);
  }
  store.saveTenderState(cartId, st);
  if (cashBack) deps.events.emit('drawer:open', { cartId, reason: 'cash-return' });
  if (st.status !== 'cancelled') return fail('gateway', 'Some card payments could not be given back yet. The sale stays open for cancelling; try Cancel sale again.');
  return ok(store.view(cartId));
}
