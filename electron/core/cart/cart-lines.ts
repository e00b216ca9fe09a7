/**
 * The cart's lines: an item from the catalogue (by id, or by a scanned code), an open amount
 * typed in, a quantity changed, a line removed, the cart cleared. A change that makes a
 * discount no longer fit, or its share larger than a manager approved, is refused and leaves
 * the cart as it was (cart-edit.ts, cart-approval.ts).
 */
import type { GuardSettings } from '../../../shared/amount-guards';
import type { CartView, HandlerArg } from '../../../shared/ipc/contract';
import { luhnValid } from '../../../shared/payments/luhn';
import { fail, ok, type Result } from '../../../shared/result';
import type { Catalogue } from '../catalogue/catalogue';
import { resolveChoice, type ChoiceArgs, type ResolvedLine } from '../../../shared/cart/line-choice';
import type { CatalogueItem } from '../../../shared/ipc/catalogue';
import type { CartPick } from '../../../shared/ipc/cart';
import { refuseAmount } from '../sales/amount-refusal';
import { approvalCheck, approverOf } from './cart-approval';
import { edit, fitCheck, lineOf, type CartEditDeps } from './cart-edit';
import { TENDER_COPY } from './tender-copy';

export interface AddItemDeps extends CartEditDeps {
  catalogue: Catalogue;
}

/** Whether the item is one the counter may sell now. */
const sellable = (item: CatalogueItem | undefined): item is CatalogueItem => item !== undefined && !item.archived;

/** The choice checked against the catalogue and the line priced (line-choice.ts); a refusal in words. */
function resolved(catalogue: Catalogue, item: CatalogueItem, choice: ChoiceArgs): Result<ResolvedLine> {
  const r = resolveChoice(item, catalogue.groups.list(), choice);
  if (!r.ok) return fail('bad_request', r.message, { choice: [r.message] });
  return ok(r.line);
}

export async function addItem(deps: AddItemDeps, { itemId, quantity, choice }: HandlerArg<'cart:add-item'>): Promise<Result<CartView>> {
  return edit(deps, (cartId) => {
    const item = deps.catalogue.get(itemId);
    if (!sellable(item)) return fail('not_found', TENDER_COPY.noItem);
    const line = resolved(deps.catalogue, item, choice ?? { variantId: null, optionIds: [] });
    if (!line.ok) return line;
    deps.store.addItem(cartId, item, quantity, line.value);
    return ok(null);
  });
}

/**
 * A scanned code: an item's SKU or product code, or a variant's SKU (issue 23), which adds that
 * variant. An item that still needs a choice (its sizes, when the code was the item's own, or a
 * group that requires one) is not added: the answer's `pick` opens the screen's picker on it.
 */
export async function addCode(deps: AddItemDeps, { code }: HandlerArg<'cart:add-code'>): Promise<Result<CartView & { pick?: CartPick }>> {
  let pick: CartPick | undefined;
  const r = await edit(deps, (cartId) => {
    const found = deps.catalogue.byCode(code);
    if (!found || !sellable(found.item)) return fail('not_found', /^\d{13,19}$/.test(code) && luhnValid(code) ? TENDER_COPY.noCodeUnsaid : TENDER_COPY.noCode(code));
    const variantId = found.variant?.id ?? null;
    const line = resolveChoice(found.item, deps.catalogue.groups.list(), { variantId, optionIds: [] });
    if (!line.ok) {
      // Not a refusal: the cashier chooses on the screen what the code could not say.
      pick = { itemId: found.item.id, variantId };
      return ok(null);
    }
    deps.store.addItem(cartId, found.item, 1, line.line);
    return ok(null);
  });
  return r.ok && pick ? ok({ ...r.value, pick }) : r;
}

export interface AddOpenDeps extends CartEditDeps {
  /** The store's amount guards: an open amount typed in is held to them like a keyed sale. */
  guards: () => GuardSettings;
}

export async function addOpen(deps: AddOpenDeps, { name, amountCents, taxCategory, confirmedCents }: HandlerArg<'cart:add-open'>): Promise<Result<CartView>> {
  return edit(deps, (cartId) => {
    // A typed amount is held to the store's guards like a keyed sale's: refused above the cap, confirmed above the threshold.
    const refused = refuseAmount(deps.guards(), { subtotalCents: amountCents, tipCents: 0, totalCents: amountCents }, { confirmedCents });
    if (refused) return refused;
    deps.store.addOpen(cartId, name, amountCents, taxCategory);
    return ok(null);
  });
}

export async function setQuantity(deps: CartEditDeps, { lineId, quantity, approval }: HandlerArg<'cart:set-quantity'>): Promise<Result<CartView>> {
  const approver = await approverOf(deps.users, approval);
  return edit(deps, (cartId, s) => {
    const l = lineOf(deps.store, cartId, lineId);
    if (!l.ok) return l;
    deps.store.setQuantity(lineId, quantity);
    const fits = fitCheck(deps.store, cartId, null);
    return fits.ok ? approvalCheck(deps, s, cartId, approver, TENDER_COPY.shareGrew) : fits;
  });
}

export async function removeLine(deps: CartEditDeps, { lineId, approval }: HandlerArg<'cart:remove-line'>): Promise<Result<CartView>> {
  const approver = await approverOf(deps.users, approval);
  return edit(deps, (cartId, s) => {
    const l = lineOf(deps.store, cartId, lineId);
    if (!l.ok) return l;
    deps.store.removeLine(lineId);
    const fits = fitCheck(deps.store, cartId, null);
    return fits.ok ? approvalCheck(deps, s, cartId, approver, TENDER_COPY.shareGrew) : fits;
  });
}

export async function clearCart(deps: CartEditDeps): Promise<Result<CartView>> {
  return edit(deps, (cartId) => {
    deps.store.clear(cartId);
    return ok(null);
  });
}
