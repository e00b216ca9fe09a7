/**
 * The cart's discounts: on a line, on the whole sale, a comp (free), and a manager's approval
 * of a discount above what a cashier may give. Each is checked to fit what it discounts and
 * held to the store's limit in the same transaction as the change (cart-edit.ts,
 * cart-approval.ts); a manager's PIN is checked before the transaction.
 */
import type { Discount } from '../../../shared/cart/cart-math';
import { DISCOUNT_COPY } from '../../../shared/cart/discount-guard';
import type { CartView, HandlerArg } from '../../../shared/ipc/contract';
import { fail, ok, type Result } from '../../../shared/result';
import { approvalCheck, approverOf, discountRefusal, managerPin } from './cart-approval';
import { edit, fitCheck, lineOf, type CartEditDeps } from './cart-edit';
import { CART_MESSAGES } from './cart-store';
import { TENDER_COPY } from './tender-copy';

export async function approveDiscount(deps: CartEditDeps, { approval }: HandlerArg<'cart:approve'>): Promise<Result<CartView>> {
  const s = deps.users.require();
  if (!s.ok) return s;
  const cartId = deps.store.openCartOf(s.value.user.id);
  const r = approvalCheck(deps, s.value, cartId, await approverOf(deps.users, approval), TENDER_COPY.tenderNeedsApproval);
  return r.ok ? ok(deps.store.view(cartId)) : r;
}

export async function setLineDiscount(deps: CartEditDeps, { lineId, discount, approval }: HandlerArg<'cart:set-line-discount'>): Promise<Result<CartView>> {
  const approver = await approverOf(deps.users, approval);
  return edit(deps, (cartId, s) => {
    const l = lineOf(deps.store, cartId, lineId);
    if (!l.ok) return l;
    deps.store.setLineDiscount(lineId, discount as Discount | null);
    const fits = fitCheck(deps.store, cartId, lineId);
    return fits.ok ? approvalCheck(deps, s, cartId, approver, discountRefusal) : fits;
  });
}

export async function setCartDiscount(deps: CartEditDeps, { discount, approval }: HandlerArg<'cart:set-cart-discount'>): Promise<Result<CartView>> {
  const approver = await approverOf(deps.users, approval);
  return edit(deps, (cartId, s) => {
    deps.store.setCartDiscount(cartId, discount as Discount | null);
    const fits = fitCheck(deps.store, cartId, 'cart');
    return fits.ok ? approvalCheck(deps, s, cartId, approver, discountRefusal) : fits;
  });
}

export async function compCart(deps: CartEditDeps, { lineId, approval }: HandlerArg<'cart:comp'>): Promise<Result<CartView>> {
  const { store } = deps;
  // The PIN is checked before the cart's transaction (as approverOf does), in a comp's own words.
  const manager = approval && deps.users.require().ok ? await managerPin(deps.users, approval, DISCOUNT_COPY.compRefused) : undefined;
  return edit(deps, (cartId, s) => {
    const what = lineId === undefined ? DISCOUNT_COPY.wholeSale : store.view(cartId).lines.find((l) => l.id === lineId)?.name;
    if (what === undefined) return fail('not_found', CART_MESSAGES.noLine);
    let by = s.user.name;
    if (s.user.role !== 'manager') {
      if (!manager) return fail('approval_needed', DISCOUNT_COPY.compNeedsManager(what), { approval: [DISCOUNT_COPY.compNeedsManager(what)] });
      if (!manager.ok) return manager;
      by = manager.value.name;
    }
    if (lineId === undefined) store.setCartDiscount(cartId, { kind: 'comp' });
    else store.setLineDiscount(lineId, { kind: 'comp' });
    store.setApproval(cartId, { by, basisPoints: 10_000 });
    // Nothing left to pay: the sale closes at $0.00 (the tenders' machine takes no $0.00 payment).
    const state = store.tenderState(cartId);
    if (state.totalCents === 0) store.saveTenderState(cartId, { ...state, status: 'paid' });
    return ok(null);
  });
}
