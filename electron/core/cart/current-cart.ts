/**
 * `cart:current`: the signed-in user's cart. A card tender left pending by a restart (its
 * gateway call is not running in this process) is asked about first, by its own reference,
 * so the cart shows what became of it; one still unknown stays pending and the screen says so.
 */
import { finishTender, pendingTender } from '../../../shared/cart/tender-machine';
import type { CartView, HandlerMap } from '../../../shared/ipc/contract';
import { ok, type Result } from '../../../shared/result';
import type { UserDirectory } from '../auth/users';
import type { CartStore } from './cart-store';
import type { InFlightTenders } from './in-flight-tenders';
import type { TenderRefs } from './tender-refs';
import { tenderAnswer } from './tender-answer';

export interface CurrentCartDeps {
  users: UserDirectory;
  store: CartStore;
  inFlight: InFlightTenders;
  refs: TenderRefs;
  money: Pick<HandlerMap, 'sale:outcome'>;
}

export async function currentCart(deps: CurrentCartDeps): Promise<Result<CartView>> {
  const s = deps.users.require();
  if (!s.ok) return s;
  const cartId = deps.store.openCartOf(s.value.user.id);
  await resolvePending(deps, cartId);
  return ok(deps.store.view(cartId));
}

/** A pending card tender left by a restart: ask the gateway by its transaction_api_id (the tender id). */
async function resolvePending(deps: Omit<CurrentCartDeps, 'users'>, cartId: string): Promise<void> {
  const { store } = deps;
  const p = pendingTender(store.tenderState(cartId));
  if (!p || deps.inFlight.has(p.id)) return;
  // The tender's own reference, handed down by the core (the window that started it may be gone after a restart).
  const r = await deps.refs.runWith(p.id, () => deps.money['sale:outcome']({ clientRef: p.id }));
  if (!r.ok && r.error.code === 'outcome_unknown') return; // still unknown: stays pending, and the screen says so
  // An answer that was not this tender (voided and not counted) took no money for it.
  const outcome = r.ok ? r.value.outcome : null;
  const step = finishTender(store.tenderState(cartId), p.id, tenderAnswer(outcome));
  if (step.ok) store.saveTenderState(cartId, step.value);
}
