/**
 * The store's report on the End of day screen (issue 24): every register of the store on its
 * own line — sales, card, cash, tax, tips, net and its drawer as its last Z counted it — and
 * the store's totals; the card tenders against the shared gateway's records; and the registers
 * whose changes had not all reached the store server yet (their figures may still grow).
 */
import type { StoreReport } from '../../../shared/ipc/contract';
import { money } from '../ui/money-format';
import { dateAndTime } from '../ui/time-format';
import { cardCheckWords } from './store-report-words';

type Row = StoreReport['registers'][number];

/** "counted $250.00", then "expected $250.00" or over/short by how much. */
function DrawerCell({ z }: { z: Row['lastZ'] }) {
  if (!z) return <span className="muted">No Z yet</span>;
  if (z.countedCents === null) return <span className="muted">Z {z.number}: not counted</span>;
  const diff = z.expectedCents === null ? null : z.countedCents - z.expectedCents;
  return (
    <>
      <span>{money(z.countedCents)}</span>
      <span className="muted store-drawer-note">
        Z {z.number}
        {z.expectedCents !== null && `, expected ${money(z.expectedCents)}`}
        {diff !== null && diff !== 0 && <strong className="store-drawer-off">{diff > 0 ? ` over ${money(diff)}` : ` short ${money(-diff)}`}</strong>}
      </span>
    </>
  );
}

export function StoreReportView({ report }: { report: StoreReport }) {
  const t = report.totals;
  const check = cardCheckWords(report.cardCheck);
  return (
    <article className="day-report store-report" data-testid="store-report" aria-labelledby="store-report-title">
      <header className="report-head">
        <h2 id="store-report-title">The store — every register</h2>
        <p className="muted">
          {dateAndTime(report.from)} to {dateAndTime(report.to)} · from the store server
        </p>
      </header>
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Each register's figures">
        <table className="breakdown store-figures" data-testid="store-figures">
          <caption>Each register</caption>
          <thead>
            <tr>
              <th scope="col">Register</th>
              <th scope="col" className="num">
                Sales
              </th>
              <th scope="col" className="num">
                Card
              </th>
              <th scope="col" className="num">
                Cash
              </th>
              <th scope="col" className="num">
                Tax
              </th>
              <th scope="col" className="num">
                Tips
              </th>
              <th scope="col" className="num">
                Net
              </th>
              <th scope="col" className="num">
                Drawer
              </th>
            </tr>
          </thead>
          <tbody>
            {report.registers.map((r) => (
              <tr key={r.registerId} data-testid="store-figures-row" data-register-id={r.registerId}>
                <th scope="row">
                  {r.name}
                  {r.thisRegister && <span className="muted store-this">this register</span>}
                </th>
                <td className="num">{r.sales.toLocaleString()}</td>
                <td className="num" data-testid="store-card">
                  {money(r.cardCents)}
                </td>
                <td className="num" data-testid="store-cash">
                  {money(r.cashCents)}
                </td>
                <td className="num">{money(r.taxCents)}</td>
                <td className="num">{money(r.tipCents)}</td>
                <td className="num" data-testid="store-net">
                  <strong>{money(r.netCents)}</strong>
                </td>
                <td className="num store-drawer">
                  <DrawerCell z={r.lastZ} />
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr data-testid="store-figures-total">
              <th scope="row">The store</th>
              <td className="num">{t.sales.toLocaleString()}</td>
              <td className="num" data-testid="store-total-card">
                {money(t.cardCents)}
              </td>
              <td className="num" data-testid="store-total-cash">
                {money(t.cashCents)}
              </td>
              <td className="num">{money(t.taxCents)}</td>
              <td className="num">{money(t.tipCents)}</td>
              <td className="num" data-testid="store-total-net">
                <strong>{money(t.netCents)}</strong>
              </td>
              <td />
            </tr>
          </tfoot>
        </table>
      </div>
      <p className={`notice notice-${check.tone}`} data-testid="store-card-check">
        {check.text}
      </p>
      {report.behind.map((name) => (
        <p key={name} className="notice notice-warn" data-testid="store-behind">
          {name} has changes still to send: its figures may grow when they arrive.
        </p>
      ))}
      <p className="report-foot muted">Card money is what each register's card tenders took, less the card refunds it made (a refund counts on the register that made it); cash is the cash taken less cash given back.</p>
    </article>
  );
}
