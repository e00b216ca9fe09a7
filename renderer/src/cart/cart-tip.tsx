/**
 * The cart's tip (issue 21, point 10a): the sale screen's choices (TipPicker) on the whole
 * sale — its subtotal after discounts and its tax, by the store's tip base, smart tips
 * included. The tip rides on the next card, saved card or terminal tender, on top of its part
 * of the balance (cash takes none), and is offered again as none once a card carried it.
 */
import { tipSuggestions } from '../../../shared/payments/tip-suggestions';
import { useCartStore } from './cart-store';
import { useSaleStore } from '../sales/sale-store';
import { TipPicker } from '../sales/tip-picker';
import { useCustomerTip } from '../display/use-customer-tip';

export function CartTip() {
  const cart = useCartStore((s) => s.cart);
  const tip = useCartStore((s) => s.tip);
  const setTip = useCartStore((s) => s.setTip);
  const busy = useCartStore((s) => s.busy);
  const config = useSaleStore((s) => s.config);
  // The customer may tap a tip on the customer display (issue 23, point 4): it becomes this tip, said here.
  const customerPick = useCustomerTip(cart?.id ?? null, setTip);
  if (!cart || !config?.tipEnabled || cart.balanceCents === 0) return null;
  const offer = tipSuggestions(cart.totals.subtotalCents, cart.totals.taxCents, config.tipRules, config.tipPercents);
  return (
    <>
      <TipPicker offer={offer} value={tip} disabled={busy} onChange={setTip} />
      {customerPick && (
        <p className="notice notice-info" role="status" data-testid="cart-customer-tip">
          {customerPick}
        </p>
      )}
    </>
  );
}
