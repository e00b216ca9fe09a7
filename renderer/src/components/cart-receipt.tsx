import type { CartView } from '../../../shared/ipc/contract';
import { money } from '../lib/money-format';
import { tenderLabel } from '../../../shared/cart/tender-label';
import { CartTaxAndTotal } from './cart-tax-total';

/** A paid cart as the customer's receipt: items, discounts, tax, each tender and the change. */
export function CartReceipt({ cart, storeName }: { cart: CartView; storeName: string }) {
  const t = cart.totals;
  const approved = cart.tenders.filter((x) => x.status === 'approved' || x.status === 'reversed');
  return (
    <article className="receipt cart-receipt" aria-label="Receipt" data-testid="cart-receipt">
      <h2 className="receipt-store">{storeName}</h2>
      <p className="muted">{new Date(cart.createdTs).toLocaleString()}</p>
      <table className="cart-receipt-lines">
        <caption className="sr-only">Items</caption>
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">Qty</th>
            <th scope="col">Amount</th>
          </tr>
        </thead>
        <tbody>
          {cart.lines.map((l, i) => (
            <tr key={l.id}>
              <td>
                {l.name}
                {(t.lines[i]?.lineDiscountCents ?? 0) > 0 && <div className="muted">Discount −{money(t.lines[i]!.lineDiscountCents)}</div>}
                {l.refunded && <div className="muted">Returned</div>}
              </td>
              <td>{l.quantity} × {money(l.unitCents)}</td>
              <td>{money(t.lines[i]?.grossCents ?? 0)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="receipt-lines">
        {t.cartDiscountCents > 0 && (
          <div>
            <dt>Sale discount</dt>
            <dd>−{money(t.cartDiscountCents)}</dd>
          </div>
        )}
        <div>
          <dt>Subtotal</dt>
          <dd>{money(t.subtotalCents)}</dd>
        </div>
        <CartTaxAndTotal totals={t} totalTestId="receipt-total" />
        {approved.map((x) => (
          <div key={x.id}>
            <dt>{x.kind === 'cash' ? `Cash tendered ${money(x.tenderedCents)}` : `${tenderLabel(x.kind)}${x.transactionId ? ` · Ref ${x.transactionId.replace(/-/g, '').slice(-8).toUpperCase()}` : ''}`}</dt>
            <dd>{money(x.approvedCents)}</dd>
          </div>
        ))}
        {cart.changeCents > 0 && (
          <div>
            <dt>Change</dt>
            <dd data-testid="receipt-change">{money(cart.changeCents)}</dd>
          </div>
        )}
      </dl>
      {cart.level3.map((n) => (
        <p key={n.transactionId} className="muted" data-testid="receipt-level3">
          {n.note}
        </p>
      ))}
    </article>
  );
}
