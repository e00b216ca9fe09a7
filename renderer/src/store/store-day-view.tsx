/**
 * One store day (the store's Z, issue 24): when and by whom it was closed, each drawer's count,
 * which registers have closed their own day for it and which not yet. A register closes its own
 * Z when it applies the store's (an offline one as soon as it is back), so "waiting for" empties
 * by itself; the screen asks again while it waits.
 */
import { useEffect } from 'react';
import { STORE_MSG, type StoreDayView as Day } from '../../../shared/ipc/contract';
import { money } from '../ui/money-format';
import { dateAndTime } from '../ui/time-format';
import { useStoreReportStore } from './store-report-store';
import { namesInWords } from './store-report-words';

/** How often the view asks again while registers are still to close. */
const WAITING_RELOAD_MS = 3_000;

export function StoreDayView({ day, registerNames }: { day: Day; registerNames: ReadonlyMap<string, string> }) {
  const loadDays = useStoreReportStore((s) => s.loadDays);
  const waiting = day.waitingFor.length > 0;
  useEffect(() => {
    if (!waiting) return;
    const t = setInterval(() => void loadDays(), WAITING_RELOAD_MS);
    return () => clearInterval(t);
  }, [waiting, loadDays]);
  return (
    <article className="day-report store-day" data-testid="store-day" aria-labelledby="store-day-title">
      <header className="report-head">
        <h2 id="store-day-title">Store day {day.number} — closed</h2>
        <p className="muted">
          {dateAndTime(Math.floor(day.closedTs / 1000))} · by {day.closedBy}
        </p>
      </header>
      {waiting ? (
        <p className="notice notice-warn" role="status" data-testid="store-day-waiting">
          {STORE_MSG.closeWaiting(namesInWords(day.waitingFor))}
        </p>
      ) : (
        <p className="notice notice-ok" role="status" data-testid="store-day-all-closed">
          Every register has closed its day.
        </p>
      )}
      <div className="report-groups">
        <dl className="report-lines" aria-label="Registers closed">
          <div className="report-line report-line-strong">
            <dt>Closed their day</dt>
            <dd data-testid="store-day-closed">{day.closed.length > 0 ? namesInWords(day.closed) : 'none yet'}</dd>
          </div>
          <div className="report-line">
            <dt>Still to close</dt>
            <dd>{waiting ? namesInWords(day.waitingFor) : 'none'}</dd>
          </div>
        </dl>
        <dl className="report-lines" aria-label="Drawers counted">
          {day.counts.length === 0 && (
            <div className="report-line">
              <dt>Drawers</dt>
              <dd>none counted</dd>
            </div>
          )}
          {day.counts.map((c) => (
            <div className="report-line" key={c.registerId}>
              <dt>Counted in {registerNames.get(c.registerId) ?? 'a removed register'}</dt>
              <dd>{money(c.countedCents)}</dd>
            </div>
          ))}
        </dl>
      </div>
    </article>
  );
}
