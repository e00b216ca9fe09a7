import type { BreakdownRow } from '../../../shared/ipc/contract';
import { money } from '../ui/money-format';

/** Sales and refunds per card brand, entry mode or employee (approved money only). */
export function BreakdownTable({ caption, rows, keyLabel, showTips, testId }: { caption: string; rows: BreakdownRow[]; keyLabel: string; showTips?: boolean; testId?: string }) {
  return (
    <table className="breakdown" data-testid={testId}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{keyLabel}</th>
          <th scope="col" className="num">
            Sales
          </th>
          <th scope="col" className="num">
            Refunds
          </th>
          {showTips && (
            <th scope="col" className="num">
              Tips
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr>
            <td colSpan={showTips ? 4 : 3} className="muted">
              Nothing yet.
            </td>
          </tr>
        ) : (
          rows.map((r) => (
            <tr key={r.key}>
              <th scope="row">{r.label}</th>
              <td className="num">
                <span>{money(r.sales.cents)}</span> <span className="muted">({r.sales.count.toLocaleString()})</span>
              </td>
              <td className="num">
                <span>{r.refunds.cents > 0 ? `-${money(r.refunds.cents)}` : money(0)}</span> <span className="muted">({r.refunds.count.toLocaleString()})</span>
              </td>
              {showTips && (
                <td className="num">
                  <span>{money(r.tipsCents)}</span>
                </td>
              )}
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}
