/**
 * How a cart's lines and discounts change: on the signed-in user's open, still editable cart,
 * in one database transaction, so a change refused (a discount that does not fit, or one that
 * wants a manager's approval) leaves the cart as it was. Every discount is checked to still fit
 * what it discounts after each edit (discount-guard.ts).
 */
import { DISCOUNT_COPY, discountFit } from '../../../shared/cart/discount-guard';
import type { CartView, Session } from '../../../shared/ipc/contract';
import { fail, ok, type Result } from '../../../shared/result';
import type { UserDirectory } from '../auth/users';
import type { PosDatabase } from '../platform/pos-database';
import { CART_MESSAGES, type CartStore } from './cart-store';

export interface CartEditDeps {
  db: PosDatabase;
  users: UserDirectory;
  store: CartStore;
}

class Rollback extends Error {}

/** Runs a line/discount change on the signed-in user's open, still editable cart. */
export function edit(deps: CartEditDeps, fn: (cartId: string, s: Session) => Result<null>): Promise<Result<CartView>> {
  const { store } = deps;
  const s = deps.users.require();
  if (!s.ok) return Promise.resolve(s);
  const cartId = store.openCartOf(s.value.user.id);
  if (!store.editable(cartId)) return Promise.resolve(fail('conflict', store.view(cartId).status === 'due' ? CART_MESSAGES.dueLocked : CART_MESSAGES.locked));
  let r: Result<null> = ok(null);
  // One transaction: a discount refused for want of approval leaves the cart as it was.
  try {
    deps.db.transaction(() => {
      r = fn(cartId, s.value);
      if (!r.ok) throw new Rollback();
      store.linesChanged(cartId);
    })();
  } catch (err) {
    if (!(err instanceof Rollback)) throw err;
  }
  return Promise.resolve(r.ok ? ok(store.view(cartId)) : r);
}

/**
 * Every discount of the cart still fits what it discounts (discount-guard.ts), checked after
 * each edit inside its transaction: a discount set on `target` that does not fit is refused in
 * its own words; anything else that no longer fits was shrunk under a discount by the edit.
 * Comps came through `cart:comp` and always fit.
 */
export function fitCheck(store: CartStore, cartId: string, target: 'cart' | string | null): Result<null> {
  const v = store.view(cartId);
  const t = v.totals;
  const places = [
    ...v.lines.map((l, i) => ({ id: l.id, what: l.name, base: t.lines[i]!.grossCents, d: l.discount })),
    { id: 'cart', what: DISCOUNT_COPY.wholeSale, base: t.grossCents - t.lineDiscountCents, d: v.cartDiscount },
  ];
  for (const p of places) {
    if (!p.d || p.d.kind === 'comp') continue;
    const fit = discountFit(p.base, p.d);
    if (fit === 'fits') continue;
    const cents = p.d.kind === 'amount' ? p.d.cents : p.base;
    const msg = p.id !== target ? DISCOUNT_COPY.shrinks(p.what, cents, p.base) : fit === 'over' ? DISCOUNT_COPY.over(p.what, cents, p.base) : DISCOUNT_COPY.whole(p.what);
    return fail('discount_too_large', msg, { discount: [msg] });
  }
  return ok(null);
}

export function lineOf(store: CartStore, cartId: string, lineId: string): Result<null> {
  return store.hasLine(cartId, lineId) ? ok(null) : fail('not_found', CART_MESSAGES.noLine);
}
