import type { DayReport, MoneyLine, PaperSize } from '../../../shared/ipc/contract';
import { money } from '../ui/money-format';
import { dateAndTime } from '../ui/time-format';
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

const minus = (cents: number) => (cents > 0 ? `-${money(cents)}` : money(0));
const counted = (label: string, l: MoneyLine) => `${label} (${l.count.toLocaleString()})`;

/**
 * An X or Z report as a printable document (80 mm roll or A4: see the print rules in styles.css).
 * Card and cash are shown apart and together; a report closed before cash entered the totals
 * (no `allTenders`) shows its card totals as they were printed.
 */
export function DayReportView({ report, paper }: { report: DayReport; paper: PaperSize }) {
  const t = report.totals;
  const all = report.allTenders ?? { sales: t.sales, refunds: t.refunds, netCents: t.netCents, taxCents: t.taxCents };
  const cashT = report.cashTenders;
  const earlier = report.earlier;
  const count = report.cashCount;
  const store = report.store;
  return (
    <article className="day-report" data-paper={paper} data-testid="day-report" aria-labelledby="report-title">
      <header className="report-head">
        {store && (
          <p className="report-store" data-testid="report-store">
            <strong>{store.name}</strong>
            {store.address && <span>{store.address}</span>}
            {store.phone && <span>Phone {store.phone}</span>}
          </p>
        )}
        <h2 id="report-title">{report.kind === 'z' ? `Z report ${report.number} — day closed` : 'X report — the day so far'}</h2>
        <p className="muted">
          {dateAndTime(report.from)} to {dateAndTime(report.to)} · by {report.generatedBy}
        </p>
        {report.kind === 'x' && <p className="muted">An X report closes nothing: print it as often as you like.</p>}
      </header>
      <div className="report-groups">
        <dl className="report-lines" aria-label="Sales">
          {cashT && <Line label={counted('Card sales', t.sales)} value={money(t.sales.cents)} testId="report-card-sales" />}
          {cashT && <Line label={counted('Cash taken', cashT.sales)} value={money(cashT.sales.cents)} testId="report-cash-sales" />}
          <Line label={counted(cashT ? 'Sales, card + cash' : 'Sales', all.sales)} value={money(all.sales.cents)} testId="report-sales" strong={!!cashT} />
          <Line label={cashT ? 'Tax collected, card + cash' : 'Taxes (in sales)'} value={money(all.taxCents)} testId="report-tax" />
          <Line label="Tips (on cards)" value={money(t.tipsCents)} testId="report-tips" />
        </dl>
        <dl className="report-lines" aria-label="Refunds and net">
          <Line label={counted(cashT ? 'Card refunds' : 'Refunds', t.refunds)} value={minus(t.refunds.cents)} testId="report-refunds" />
          {cashT && <Line label={counted('Cash given back', cashT.refunds)} value={minus(cashT.refunds.cents)} testId="report-cash-refunds" />}
          {earlier && earlier.voidedSales.count > 0 && <Line label={counted('Sold on an earlier day, voided now', earlier.voidedSales)} value={minus(earlier.voidedSales.cents)} testId="report-earlier-voids" />}
          {earlier && earlier.voidedRefunds.count > 0 && (
            <Line label={counted('Refunded on an earlier day, voided now', earlier.voidedRefunds)} value={money(earlier.voidedRefunds.cents)} testId="report-earlier-refund-voids" />
          )}
          <Line label={cashT ? 'Net, card + cash' : 'Net'} value={money(all.netCents)} testId="report-net" strong />
        </dl>
      </div>
      {earlier && (earlier.voidedSales.count > 0 || earlier.voidedRefunds.count > 0 || earlier.refunds.count > 0) && (
        <p className="report-note" data-testid="report-earlier-note">
          {earlier.refunds.count > 0 && `${earlier.refunds.count.toLocaleString()} of the refunds (${money(earlier.refunds.cents)}) were for sales of an earlier day. `}
          {(earlier.voidedSales.count > 0 || earlier.voidedRefunds.count > 0) && 'A void counts on the day it is made: the earlier day’s Z report stays as it was printed.'}
        </p>
      )}
      <div className="report-groups">
        <dl className="report-lines" aria-label="Also in this period">
          <Line label={counted('Voids', t.voids) + ', not charged'} value={money(t.voids.cents)} />
          <Line label="Declined" value={t.declinedCount.toLocaleString()} />
          {report.achPending && report.achPending.count > 0 && (
            <Line label={counted('ACH debits pending at the bank', report.achPending)} value={money(report.achPending.cents)} testId="report-ach-pending" />
          )}
          {!!report.offlineCount && <Line label="Taken offline" value={report.offlineCount.toLocaleString()} />}
          {!!report.declinedAfterForwardCount && <Line label="Declined after forwarding" value={report.declinedAfterForwardCount.toLocaleString()} />}
        </dl>
        {report.cash && (
          <dl className="report-lines" aria-label="Cash drawer">
            <Line label="Expected cash (above the float)" value={money(report.cash.expectedCents)} testId="report-cash-expected" strong={!count} />
            {count && (
              <>
                <Line label="Opening float" value={money(count.floatCents)} testId="report-cash-float" />
                <Line label="Cash counted" value={money(count.countedCents)} testId="report-cash-counted" />
                <Line
                  label={count.overShortCents === 0 ? 'Drawer balances' : count.overShortCents > 0 ? 'Over' : 'Short'}
                  value={count.overShortCents < 0 ? minus(-count.overShortCents) : money(count.overShortCents)}
                  testId="report-cash-over-short"
                  strong
                />
              </>
            )}
          </dl>
        )}
      </div>
      {report.achPending && report.achPending.count > 0 && <p className="report-note">ACH debits count in no total above until the bank settles them.</p>}
      <div className="report-tables">
        {report.cartSales && <ItemsSoldTable sales={report.cartSales} />}
        <BreakdownTable caption="Card sales and tips by employee" keyLabel="Employee" rows={report.byEmployee} showTips testId="report-by-employee" />
        <BreakdownTable caption="Card brands" keyLabel="Card" rows={t.byBrand} testId="report-by-brand" />
        <BreakdownTable caption="Entry modes" keyLabel="Entry" rows={t.byEntryMode} />
      </div>
      <HourChart hours={report.byHour} withCash={!!cashT} />
      <p className="report-foot muted">
        Card money counts what the card issuer approved, after any partial approval or tip change{cashT ? '; cash comes from the drawer’s records.' : '.'}
      </p>
    </article>
  );
}
