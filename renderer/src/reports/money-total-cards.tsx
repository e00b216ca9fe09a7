import type { MoneyTotals } from '../../../shared/ipc/contract';
import { money } from '../ui/money-format';

/** Sales, refunds, voids and net as the four total cards the Transactions screen uses. */
export function MoneyTotalCards({ totals, testId }: { totals: MoneyTotals; testId?: string }) {
  return (
    <div className="totals" data-testid={testId} aria-label="Totals" role="group">
      <div className="total-card">
        <span className="total-label">Sales</span>
        <span className="total-value" data-testid="total-sales">
          {money(totals.sales.cents)}
        </span>
        <span className="muted">{totals.sales.count.toLocaleString()} approved</span>
      </div>
      <div className="total-card">
        <span className="total-label">Refunds</span>
        <span className="total-value" data-testid="total-refunds">
          {totals.refunds.cents > 0 ? `-${money(totals.refunds.cents)}` : money(0)}
        </span>
        <span className="muted">
          {totals.refunds.count.toLocaleString()} {totals.refunds.count === 1 ? 'refund' : 'refunds'}
        </span>
      </div>
      <div className="total-card">
        <span className="total-label">Voids</span>
        <span className="total-value">{totals.voids.count.toLocaleString()}</span>
        <span className="muted">{money(totals.voids.cents)} not charged</span>
      </div>
      <div className="total-card total-card-net">
        <span className="total-label">Net</span>
        <span className="total-value" data-testid="total-net">
          {money(totals.netCents)}
        </span>
        <span className="muted">{totals.declinedCount.toLocaleString()} declined</span>
      </div>
    </div>
  );
}
