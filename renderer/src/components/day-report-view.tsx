import type { DayReport, PaperSize } from '../../../shared/ipc/contract';
import { money } from '../lib/money-format';
import { dateAndTime } from '../lib/time-format';
import { BreakdownTable } from './breakdown-table';
import { HourChart } from './hour-chart';
import { ItemsSoldTable } from './items-sold-table';

function Line({ label, value, testId, strong }: { label: string; value: string; testId?: string; strong?: boolean }) {
  return (
    <div className={strong ? 'report-line report-line-strong' : 'report-line'}>
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}

/** An X or Z report as a printable document (80 mm roll or A4: see the print rules in styles.css). */
export function DayReportView({ report, paper }: { report: DayReport; paper: PaperSize }) {
  const t = report.totals;
  return (
    <article className="day-report" data-paper={paper} data-testid="day-report" aria-labelledby="report-title">
      <header className="report-head">
        <h2 id="report-title">{report.kind === 'z' ? `Z report ${report.number} — day closed` : 'X report — the day so far'}</h2>
        <p className="muted">
          {dateAndTime(report.from)} to {dateAndTime(report.to)} · by {report.generatedBy}
        </p>
        {report.kind === 'x' && <p className="muted">An X report closes nothing: print it as often as you like.</p>}
      </header>
      <dl className="report-lines">
        <Line label={`Sales (${t.sales.count.toLocaleString()})`} value={money(t.sales.cents)} testId="report-sales" />
        <Line label={`Refunds (${t.refunds.count.toLocaleString()})`} value={t.refunds.cents > 0 ? `-${money(t.refunds.cents)}` : money(0)} testId="report-refunds" />
        <Line label="Net" value={money(t.netCents)} testId="report-net" strong />
        <Line label="Tips (in sales)" value={money(t.tipsCents)} testId="report-tips" />
        <Line label="Taxes (in sales)" value={money(t.taxCents)} testId="report-tax" />
        <Line label={`Voids (${t.voids.count.toLocaleString()}), not charged`} value={money(t.voids.cents)} />
        <Line label="Declined" value={t.declinedCount.toLocaleString()} />
        {report.offlineCount !== null && <Line label="Taken offline" value={report.offlineCount.toLocaleString()} />}
        {report.declinedAfterForwardCount !== null && <Line label="Declined after forwarding" value={report.declinedAfterForwardCount.toLocaleString()} />}
        {/* cart hook-in (issue 15): cash is not card money, so it is listed apart from the totals above */}
        {report.cash && (
          <>
            <Line label="Cash taken (cart sales)" value={money(report.cash.salesCents)} testId="report-cash-sales" />
            <Line label="Cash given back" value={report.cash.refundsCents > 0 ? `-${money(report.cash.refundsCents)}` : money(0)} />
            <Line label="Expected cash (count and compare)" value={money(report.cash.expectedCents)} testId="report-cash-expected" strong />
          </>
        )}
      </dl>
      <div className="report-tables">
        {report.cartSales && <ItemsSoldTable sales={report.cartSales} />}
        <BreakdownTable caption="Tips by employee" keyLabel="Employee" rows={report.byEmployee} showTips testId="report-by-employee" />
        <BreakdownTable caption="Card brands" keyLabel="Card" rows={t.byBrand} testId="report-by-brand" />
        <BreakdownTable caption="Entry modes" keyLabel="Entry" rows={t.byEntryMode} />
      </div>
      <HourChart hours={report.byHour} />
      <p className="report-foot muted">Counts approved money only: what the card issuer approved, after any partial approval or tip change.</p>
    </article>
  );
}
