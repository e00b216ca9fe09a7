/**
 * A cart with money due (issue 20, point 4): `cart:collect` makes it the counter user's cart to
 * tender, `cart:put-back` leaves it for later. Only one cart is a user's to tender at a time, so
 * their own must be empty (a sale in it is never pushed aside); only one collector at a time,
 * whoever sold it — a manager may take it over from another (a collector who left it), unless a
 * payment of it is in progress. Moves no money: the tenders that follow are the normal ones,
 * each held to the balance and the hard cap.
 */
import { pendingTender, TENDER_MESSAGES } from '../../../shared/cart/tender-machine';
import type { CartView, HandlerArg } from '../../../shared/ipc/contract';
import { fail, ok, type Result } from '../../../shared/result';
import type { UserDirectory } from '../auth/users';
import type { OneAtATime } from '../platform/one-at-a-time';
import { CART_MESSAGES, type CartStore } from './cart-store';
import { TENDER_COPY } from './tender-copy';

export interface CollectDueDeps {
  users: UserDirectory;
  store: CartStore;
  oneAtATime: OneAtATime;
}

export async function collectDue(deps: CollectDueDeps, { cartId }: HandlerArg<'cart:collect'>): Promise<Result<CartView>> {
  const { store } = deps;
  const s = deps.users.require();
  if (!s.ok) return s;
  if (!store.exists(cartId)) return fail('not_found', CART_MESSAGES.noCart);
  const me = s.value.user.id;
  return deps.oneAtATime.run(cartId, async () => {
    const c = store.collection(cartId);
    if (c.status !== 'due' || store.view(cartId).balanceCents === 0) return fail('conflict', TENDER_COPY.notDue);
    if (c.collectorId === me) return ok(store.view(cartId));
    const takeOver = s.value.user.role === 'manager' && !pendingTender(store.tenderState(cartId));
    if (c.collectorId && !takeOver) return fail('conflict', c.collector && s.value.user.role !== 'manager' ? TENDER_COPY.collectTaken(c.collector) : TENDER_MESSAGES.pending);
    // The user's cart to tender now: another due cart they collect, or their own open one.
    const current = store.view(store.openCartOf(s.value.user.id));
    if (current.status === 'due' || current.lines.length > 0 || current.tenders.length > 0) return fail('conflict', TENDER_COPY.collectBusy);
    if (!store.collect(cartId, me, c.collectorId)) return fail('conflict', TENDER_COPY.collectBusy);
    return ok(store.view(cartId));
  });
}

export async function putBack(deps: Omit<CollectDueDeps, 'oneAtATime'>): Promise<Result<CartView>> {
  const { store } = deps;
  const s = deps.users.require();
  if (!s.ok) return s;
  const cartId = store.openCartOf(s.value.user.id);
  if (store.view(cartId).status !== 'due') return fail('conflict', TENDER_COPY.notCollecting);
  if (pendingTender(store.tenderState(cartId))) return fail('conflict', TENDER_MESSAGES.pending);
  store.putBack(cartId);
  return ok(store.view(store.openCartOf(s.value.user.id)));
}
