import { useEffect, useState } from 'react';
import type { CartView } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { money } from '../ui/money-format';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { ErrorNote } from '../sales/outcome-note';

/**
 * In a card sale's detail, when it was one tender of a cart: the cart's lines, and (for
 * managers) returning chosen lines (see CartReturnLines).
 */
export function CartLineReturn({ transactionId, isManager, onChanged }: { transactionId: string; isManager: boolean; onChanged(): void }) {
  const [cart, setCart] = useState<CartView | null>(null);
  useEffect(() => {
    let live = true;
    void ringup.cartOfTransaction({ transactionId }).then((r) => live && r.ok && setCart(r.value));
    return () => {
      live = false;
    };
  }, [transactionId]);
  if (!cart || cart.status !== 'paid') return null;
  return <CartReturnLines key={cart.id} initial={cart} isManager={isManager} onChanged={onChanged} />;
}

/**
 * A paid cart's lines, and (for managers) returning chosen lines — the core gives back each
 * line's share of every tender of that sale (cards refunded through the gateway, cash from
 * the drawer). Used in a card sale's detail and on the Cart sales screen (cash-only carts).
 */
export function CartReturnLines({ initial, isManager, onChanged }: { initial: CartView; isManager: boolean; onChanged(cart: CartView): void }) {
  const [cart, setCart] = useState<CartView>(initial);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const paymentCount = cart.tenders.filter((t) => t.status === 'approved').length;
  const lineTotal = cart.totals.lines.filter((l) => chosen.has(l.id)).reduce((a, l) => a + l.totalCents, 0);
  const submit = async () => {
    setBusy(true);
    setError(null);
    const r = await ringup.cartRefundLines({ cartId: cart.id, lineIds: [...chosen] });
    setBusy(false);
    setAsking(false);
    if (!r.ok) return setError(r.error.message);
    setCart(r.value.cart);
    setChosen(new Set());
    setDone(r.value.message);
    onChanged(r.value.cart);
  };

  return (
    <div className="cart-return" role="group" aria-labelledby="cart-return-title" data-testid="cart-return">
      <h3 id="cart-return-title" className="subsection-title">
        Items in this sale ({paymentCount} {paymentCount === 1 ? 'payment' : 'payments'})
      </h3>
      <ul className="cart-lines">
        {cart.lines.map((l, i) => (
          <li key={l.id} className="cart-return-line">
            <label className="switch">
              <input
                type="checkbox"
                disabled={!isManager || l.refunded || busy}
                checked={chosen.has(l.id)}
                onChange={(e) => {
                  const next = new Set(chosen);
                  if (e.target.checked) next.add(l.id);
                  else next.delete(l.id);
                  setChosen(next);
                }}
              />
              <span className="switch-track" aria-hidden="true" />
              {l.quantity} × {l.name} · {money(cart.totals.lines[i]?.totalCents ?? 0)}
              {l.refunded ? ' (returned)' : ''}
            </label>
          </li>
        ))}
      </ul>
      {done && (
        <p className="notice notice-ok" role="status" data-testid="cart-return-done">
          {done}
        </p>
      )}
      <ErrorNote text={error} />
      {isManager && (
        <button type="button" className="btn btn-secondary btn-lg" disabled={chosen.size === 0 || busy} onClick={() => setAsking(true)}>
          Return chosen items {chosen.size > 0 ? money(lineTotal) : ''}
        </button>
      )}
      {asking && (
        <ConfirmDialog title="Return these items?" busy={busy} confirmLabel={`Yes, return ${money(lineTotal)}`} onCancel={() => setAsking(false)} onConfirm={() => void submit()}>
          <p>Each item's share goes back to each payment of the sale: cards are refunded, cash comes from the drawer.</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
