import type { CartSalesSummary } from '../../../shared/ipc/contract';
import { money } from '../ui/money-format';

/** The end-of-day report's items sold (cart sales), by item and variant: quantity and amount after discounts, before tax; then the modifiers sold with them. */
export function ItemsSoldTable({ sales }: { sales: CartSalesSummary }) {
  return (
    <table className="breakdown" data-testid="report-items">
      <caption>Items sold ({sales.carts.toLocaleString()} cart {sales.carts === 1 ? 'sale' : 'sales'})</caption>
      <thead>
        <tr>
          <th scope="col">Item</th>
          <th scope="col" className="num">
            Qty
          </th>
          <th scope="col" className="num">
            Amount
          </th>
        </tr>
      </thead>
      <tbody>
        {sales.items.length === 0 ? (
          <tr>
            <td colSpan={3} className="muted">
              Nothing yet.
            </td>
          </tr>
        ) : (
          sales.items.map((r, i) => (
            <tr key={`${r.name}-${i}`}>
              <th scope="row">{r.name}</th>
              <td className="num">{r.quantity.toLocaleString()}</td>
              <td className="num">{money(r.cents)}</td>
            </tr>
          ))
        )}
      </tbody>
      {/* Modifier options sold with the items (issue 23): how many items carried each, and what they added. */}
      {(sales.modifiers?.length ?? 0) > 0 && (
        <tbody data-testid="report-modifiers">
          <tr>
            <th scope="colgroup" colSpan={3} className="report-subhead">
              Modifiers
            </th>
          </tr>
          {sales.modifiers!.map((m, i) => (
            <tr key={`${m.name}-${i}`}>
              <th scope="row">
                + {m.name}
              </th>
              <td className="num">{m.quantity.toLocaleString()}</td>
              <td className="num">{money(m.cents)}</td>
            </tr>
          ))}
        </tbody>
      )}
      <tfoot>
        <tr>
          <th scope="row">Discounts given</th>
          <td />
          <td className="num" data-testid="report-discounts">
            {sales.discountsCents > 0 ? `-${money(sales.discountsCents)}` : money(0)}
          </td>
        </tr>
      </tfoot>
    </table>
  );
}
