/**
 * `cart:pay-cash`: cash handed over for the cart (all of its balance, or a part), recorded only
 * here, in the app database — the tender and the drawer's ledger in one transaction — and the
 * drawer opened. A discount above a cashier's limit is approved before anything is paid.
 */
import { randomUUID } from 'node:crypto';
import { beginTender } from '../../../shared/cart/tender-machine';
import type { CartView, HandlerArg } from '../../../shared/ipc/contract';
import { fail, ok, type Result } from '../../../shared/result';
import type { UserDirectory } from '../auth/users';
import type { CoreEvents } from '../platform/events';
import type { PosDatabase } from '../platform/pos-database';
import { approvalCheck } from './cart-approval';
import type { CartStore } from './cart-store';
import { recordCash } from './cash-drawer';
import { TENDER_COPY } from './tender-copy';

export interface PayCashDeps {
  db: PosDatabase;
  users: UserDirectory;
  store: CartStore;
  events: CoreEvents;
  now: () => number;
}

export async function payCash(deps: PayCashDeps, { tenderedCents, amountCents }: HandlerArg<'cart:pay-cash'>): Promise<Result<CartView>> {
  const { db, store } = deps;
  const s = deps.users.require();
  if (!s.ok) return s;
  const cartId = store.openCartOf(s.value.user.id);
  const allowed = approvalCheck(deps, s.value, cartId, undefined, TENDER_COPY.tenderNeedsApproval);
  if (!allowed.ok) return allowed;
  const step = beginTender(store.tenderState(cartId), { id: randomUUID(), kind: 'cash', tenderedCents, ...(amountCents !== undefined ? { amountCents } : {}) });
  if (!step.ok) return fail('conflict', step.message, { tenderedCents: [step.message] });
  db.transaction(() => {
    store.saveTenderState(cartId, step.value.state);
    recordCash(db, { cartId, kind: 'sale', cents: step.value.tender.approvedCents, ts: deps.now() });
  })();
  deps.events.emit('drawer:open', { cartId, reason: 'cash-sale' });
  return ok(store.view(cartId));
}
