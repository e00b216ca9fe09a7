import type { CartView } from '../../../shared/ipc/contract';
import { formatPercentBp, money } from '../ui/money-format';

/** A cart's sales tax per rate and its total, as rows of a summary list (the cart panel and the receipt). */
export function CartTaxAndTotal({ totals, totalTestId }: { totals: CartView['totals']; totalTestId: string }) {
  return (
    <>
      {totals.taxByCategory
        .filter((x) => x.rateBasisPoints > 0)
        .map((x) => (
          <div key={x.category}>
            <dt>Sales tax ({formatPercentBp(x.rateBasisPoints)})</dt>
            <dd>{money(x.taxCents)}</dd>
          </div>
        ))}
      <div className="summary-total">
        <dt>Total</dt>
        <dd data-testid={totalTestId}>{money(totals.totalCents)}</dd>
      </div>
    </>
  );
}
