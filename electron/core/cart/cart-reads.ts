/**
 * Reading carts: one cart's view, its receipt (each card tender with its own gateway record:
 * brand, last four, auth code, entry mode, signature line), the paid carts list, and the cart a
 * card transaction is a tender of. Any signed-in user may read; nothing here changes a cart.
 */
import { CART_SALES_PAGE_SIZE, type HandlerArg, type HandlerMap, type HandlerResults, type TransactionView } from '../../../shared/ipc/contract';
import { fail, ok, type Result } from '../../../shared/result';
import type { UserDirectory } from '../auth/users';
import { CART_MESSAGES, type CartStore } from './cart-store';

export interface CartReadDeps {
  users: UserDirectory;
  store: CartStore;
}

export async function viewCart(deps: CartReadDeps, { cartId }: HandlerArg<'cart:view'>): Promise<Result<HandlerResults['cart:view']>> {
  const s = deps.users.require();
  if (!s.ok) return s;
  if (!deps.store.exists(cartId)) return fail('not_found', CART_MESSAGES.noCart);
  return ok(deps.store.view(cartId));
}

export async function cartReceipt(deps: CartReadDeps & { money: Pick<HandlerMap, 'transactions:view'> }, { cartId }: HandlerArg<'cart:receipt'>): Promise<Result<HandlerResults['cart:receipt']>> {
  const { store } = deps;
  const s = deps.users.require();
  if (!s.ok) return s;
  if (!store.exists(cartId)) return fail('not_found', CART_MESSAGES.noCart);
  const cart = store.view(cartId);
  // Each card tender's own gateway record: brand, last four, auth code, entry mode, signature line.
  const cardTenders = cart.tenders.filter((t) => t.kind !== 'cash' && t.transactionId && (t.status === 'approved' || t.status === 'reversed'));
  const views = await Promise.all(cardTenders.map((t) => deps.money['transactions:view']({ id: t.transactionId! })));
  const cards: Record<string, TransactionView | null> = {};
  cardTenders.forEach((t, i) => {
    const r = views[i]!;
    cards[t.id] = r.ok ? r.value : null;
  });
  return ok({ cart, cashier: store.cashierOf(cartId), cards });
}

export async function paidCarts(deps: CartReadDeps, { page }: HandlerArg<'cart:sales'>): Promise<Result<HandlerResults['cart:sales']>> {
  const s = deps.users.require();
  if (!s.ok) return s;
  const { rows, total } = deps.store.paidCarts(page, CART_SALES_PAGE_SIZE);
  return ok({ rows, page, pageCount: Math.max(1, Math.ceil(total / CART_SALES_PAGE_SIZE)) });
}

export async function cartOfTransaction(deps: CartReadDeps, { transactionId }: HandlerArg<'cart:of-transaction'>): Promise<Result<HandlerResults['cart:of-transaction']>> {
  const s = deps.users.require();
  if (!s.ok) return s;
  const id = deps.store.cartOfTransaction(transactionId);
  return ok(id ? deps.store.view(id) : null);
}
