/**
 * `cart:adopt-partial`: a keyed sale the card only partly approved becomes a cart, so the rest
 * is collected as the cart's other tenders (another card or cash). The amount asked already
 * carries its tax (the keyed sale added it): one untaxed line for it, and the approved card as
 * the cart's first tender. The user's own cart must be empty.
 */
import { randomUUID } from 'node:crypto';
import type { CartView, HandlerArg, HandlerMap } from '../../../shared/ipc/contract';
import { fail, ok, type Result } from '../../../shared/result';
import type { UserDirectory } from '../auth/users';
import type { PosDatabase } from '../platform/pos-database';
import type { CartStore } from './cart-store';
import { TENDER_COPY } from './tender-copy';

export interface AdoptPartialDeps {
  db: PosDatabase;
  users: UserDirectory;
  store: CartStore;
  money: Pick<HandlerMap, 'transactions:view'>;
}

export async function adoptPartial(deps: AdoptPartialDeps, { transactionId }: HandlerArg<'cart:adopt-partial'>): Promise<Result<CartView>> {
  const { store } = deps;
  const s = deps.users.require();
  if (!s.ok) return s;
  if (store.cartOfTransaction(transactionId)) return fail('conflict', TENDER_COPY.alreadyInCart);
  const r = await deps.money['transactions:view']({ id: transactionId });
  if (!r.ok) return r;
  const t = r.value;
  if (t.kind !== 'sale' || !t.partial || t.state !== 'approved') return fail('conflict', TENDER_COPY.notPartial);
  const cartId = store.openCartOf(s.value.user.id);
  const cur = store.view(cartId);
  if (cur.lines.length > 0 || cur.tenders.length > 0) return fail('conflict', TENDER_COPY.cartBusy);
  deps.db.transaction(() => {
    // The amount asked already carries its tax (the keyed sale added it): one untaxed line for it.
    store.addOpen(cartId, t.taxCents > 0 ? 'Sale (tax included)' : 'Sale', t.requestedCents, 'exempt');
    const state = store.tenderState(cartId);
    store.saveTenderState(cartId, {
      ...state,
      tenders: [{ id: randomUUID(), kind: 'card', status: 'approved', requestedCents: t.requestedCents, approvedCents: t.amountCents, tenderedCents: 0, changeCents: 0, transactionId: t.id, refundedCents: 0, taxCents: t.taxCents, tipCents: t.tipCents }],
    });
  })();
  return ok(store.view(cartId));
}
