/**
 * The End of day screen's store part in its side panel (issue 24), for a register in a store:
 * the store's report, Close the store's day, and the store's past days. Nothing for a register
 * in no store (or one removed from it): End of day is then as it always was.
 */
import { useEffect, useState } from 'react';
import { useStoreStatusStore } from './store-status-store';
import { useStoreReportStore } from './store-report-store';
import { StoreCloseDialog } from './store-close-dialog';
import { dateAndTime } from '../ui/time-format';

export function useInStore(): boolean {
  const status = useStoreStatusStore((s) => s.status);
  return status.joined && status.connection !== 'removed';
}

export function StoreReportSide({ onShow }: { onShow(): void }) {
  const inStore = useInStore();
  const st = useStoreReportStore();
  const { loadDays } = st;
  const [closing, setClosing] = useState(false);
  const [closeError, setCloseError] = useState<string | null>(null);
  useEffect(() => {
    if (inStore) void loadDays();
  }, [inStore, loadDays]);
  if (!inStore) return null;
  return (
    <>
      <h2 className="field-label">The store</h2>
      <button
        type="button"
        className="btn btn-secondary btn-lg"
        aria-pressed={st.view === 'store'}
        disabled={st.loading}
        onClick={() => {
          onShow();
          void st.showReport();
        }}
      >
        {st.loading ? 'Asking the store…' : 'Store report'}
      </button>
      <button
        type="button"
        className="btn btn-primary btn-lg"
        onClick={async () => {
          // The form lists the store's registers as its report has them: fetched first when not on screen yet.
          setCloseError(null);
          if (!st.report) await st.showReport();
          if (useStoreReportStore.getState().report) setClosing(true);
          else setCloseError(useStoreReportStore.getState().error);
        }}
      >
        Close the store's day…
      </button>
      {closeError && (
        <p className="field-error" role="alert">
          {closeError}
        </p>
      )}
      <h2 className="field-label">Past store days</h2>
      {st.days.length === 0 && <p className="muted">No store day closed yet.</p>}
      <ul className="batch-history" aria-label="Past store days">
        {st.days.map((d) => (
          <li key={d.number}>
            <button
              type="button"
              className="batch-pick"
              aria-pressed={st.view === 'day' && st.day?.number === d.number}
              onClick={() => {
                onShow();
                st.showDay(d);
              }}
            >
              <strong>Store day {d.number}</strong>
              <span className="muted">{d.waitingFor.length > 0 ? `${d.waitingFor.length} to close` : 'all closed'}</span>
              <span className="muted">
                Closed {dateAndTime(Math.floor(d.closedTs / 1000))} by {d.closedBy}
              </span>
            </button>
          </li>
        ))}
      </ul>
      {closing && st.report && (
        <StoreCloseDialog
          registers={st.report.registers}
          onDone={() => {
            setClosing(false);
            onShow();
          }}
        />
      )}
    </>
  );
}
