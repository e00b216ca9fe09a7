/**
 * End of day: the X report (any time), closing the day with a Z report (asked twice: it
 * cannot be undone; the drawer's count can go with it, and the Z says over or short),
 * past Z reports, and printing on an 80 mm roll or A4 (a PDF in the desktop app, the
 * browser's print in the node host). Managers only; the core checks too. A register in a store
 * also shows the store's part (issue 24, renderer/src/store/): every register's figures, the
 * store's Z and its past days, in the report's place (simplification: the store's report is for
 * the screen; what prints is this register's X or Z).
 */
import { noteOf } from '../receipts/print-receipt';
import { useEffect, useState } from 'react';
import { PAPER_SIZES, type PaperSize } from '../../../shared/ipc/contract';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { DayReportView } from './day-report-view';
import { ringup } from '../bridge/bridge';
import { TextField } from '../ui/text-field';
import { money, parseTypedAmount } from '../ui/money-format';
import { dateAndTime } from '../ui/time-format';
import { useReportsStore } from './reports-store';
import { StoreReportSide, useInStore } from '../store/store-report-side';
import { StoreReportView } from '../store/store-report-view';
import { StoreDayView } from '../store/store-day-view';
import { useStoreReportStore } from '../store/store-report-store';

const PAPER_LABELS: Record<PaperSize, string> = { '80mm': '80 mm roll', a4: 'A4 page' };

/** The @page rule follows the chosen paper (a class cannot pick a page size). */
function usePageSize(paper: PaperSize) {
  useEffect(() => {
    const style = document.createElement('style');
    style.dataset.reportPage = paper;
    style.textContent = `@media print { @page { size: ${paper === 'a4' ? 'A4' : '80mm auto'}; margin: ${paper === 'a4' ? '12mm' : '3mm'}; } }`;
    document.head.appendChild(style);
    return () => style.remove();
  }, [paper]);
}

export function ReportsScreen() {
  const st = useReportsStore();
  const { runX, loadHistory } = st;
  // A register in a store also shows the store's part (issue 24): its report or one of its days, in place of this register's.
  const store = useStoreReportStore();
  const inStore = useInStore();
  const storeView = inStore ? store.view : 'register';
  const [confirming, setConfirming] = useState(false);
  const [closeError, setCloseError] = useState<string | null>(null);
  const [counted, setCounted] = useState('');
  const [float, setFloat] = useState('');
  const countedCents = counted.trim() ? parseTypedAmount(counted) : undefined;
  const floatCents = float.trim() ? parseTypedAmount(float) : undefined;
  const countedError = countedCents === null ? 'Type the cash counted as an amount, like 250.00.' : null;
  const floatError = floatCents === null ? 'Type the float as an amount, like 100.00.' : floatCents !== undefined && countedCents === undefined ? 'Type the cash counted too, or leave both empty.' : null;
  const [printNote, setPrintNote] = useState<string | null>(null);
  usePageSize(st.paper);
  // Asked for a report (X, a past Z, or the day just closed): where the side panel stacks above
  // the report (800×480, portrait), the report would come out below the fold, as if nothing
  // had happened; it is brought up once it is shown.
  const [asked, setAsked] = useState(0);
  const ask = () => setAsked((n) => n + 1);
  const shown = storeView === 'store' ? store.report : storeView === 'day' ? store.day : st.report;
  useEffect(() => {
    if (asked === 0 || !shown) return;
    const title = document.querySelector('.report-main .report-head h2');
    if (title && title.getBoundingClientRect().top > window.innerHeight * 0.6) title.scrollIntoView({ block: 'start' });
  }, [asked, shown]);

  useEffect(() => {
    void runX();
    void loadHistory();
  }, [runX, loadHistory]);

  async function print() {
    if (!st.report) return;
    setPrintNote(null);
    const name = st.report.kind === 'z' ? `z-report-${st.report.number}` : 'x-report';
    const r = await ringup.reportsPrint({ paper: st.paper, name });
    // On the receipt printer (80 mm, issue 23): printed, or waiting for the printer and why.
    if (r.ok) setPrintNote(r.value.printer ? noteOf(r.value.printer).text : r.value.savedTo ? `Saved as ${r.value.savedTo}` : null);
    else if (r.error.code === 'use_browser_print') window.print();
    else setPrintNote(r.error.message);
  }

  return (
    <div className="reports-layout">
      <aside className="panel batch-side" aria-labelledby="reports-title">
        <h1 id="reports-title" className="section-title" tabIndex={-1} data-screen-focus>
          End of day
        </h1>
        <button
          type="button"
          className="btn btn-secondary btn-lg"
          onClick={() => {
            ask();
            store.showRegister();
            void runX();
          }}
          disabled={st.loading}
        >
          {st.loading ? 'Counting…' : 'X report (day so far)'}
        </button>
        <button type="button" className="btn btn-primary btn-lg" onClick={() => setConfirming(true)} disabled={st.closing}>
          {st.closing ? 'Closing…' : 'Close the day (Z report)'}
        </button>
        <h2 className="field-label">Past Z reports</h2>
        {st.history.length === 0 && <p className="muted">No day closed yet.</p>}
        <ul className="batch-history" aria-label="Past Z reports">
          {st.history.map((z) => (
            <li key={z.number}>
              <button
                type="button"
                className="batch-pick"
                aria-pressed={storeView === 'register' && st.report?.kind === 'z' && st.report.number === z.number}
                onClick={() => {
                  ask();
                  store.showRegister();
                  void st.viewZ(z.number);
                }}
              >
                <strong>Z {z.number}</strong>
                <span>{money(z.netCents)}</span>
                <span className="muted">Closed {dateAndTime(z.to)} by {z.closedBy}</span>
              </button>
            </li>
          ))}
        </ul>
        <StoreReportSide onShow={ask} />
      </aside>
      <section className="report-main" aria-label="Report">
        {storeView === 'register' && (
          <div className="tx-toolbar report-toolbar">
            <div className="segmented" role="radiogroup" aria-label="Paper">
              {PAPER_SIZES.map((p) => (
                <button key={p} type="button" role="radio" aria-checked={st.paper === p} className="segment" onClick={() => st.setPaper(p)}>
                  {PAPER_LABELS[p]}
                </button>
              ))}
            </div>
            <button type="button" className="btn btn-primary btn-lg" onClick={() => void print()} disabled={!st.report}>
              Print or save as PDF
            </button>
          </div>
        )}
        {printNote && (
          <p className="notice notice-info" role="status">
            {printNote}
          </p>
        )}
        {storeView === 'register' && st.error && (
          <p className="notice notice-error" role="alert">
            {st.error}
          </p>
        )}
        {storeView === 'register' && (st.report ? <DayReportView report={st.report} paper={st.paper} /> : <p className="empty-list">{st.loading ? 'Counting the day…' : 'No report yet.'}</p>)}
        {storeView !== 'register' && store.error && (
          <p className="notice notice-error" role="alert">
            {store.error}
          </p>
        )}
        {storeView === 'store' && (store.report ? <StoreReportView report={store.report} /> : <p className="empty-list">{store.loading ? 'Asking the store server…' : 'No store report yet.'}</p>)}
        {storeView === 'day' && store.day && <StoreDayView day={store.day} registerNames={new Map((store.report?.registers ?? []).map((r) => [r.registerId, r.name]))} />}
      </section>
      {confirming && (
        <ConfirmDialog
          title="Close the day?"
          confirmLabel="Close the day"
          busy={st.closing}
          error={closeError}
          onCancel={() => {
            setConfirming(false);
            setCloseError(null);
          }}
          onConfirm={async () => {
            if (countedError || floatError) {
              setCloseError(countedError ?? floatError);
              return;
            }
            const err = await st.closeDay(countedCents !== undefined && countedCents !== null ? { countedCashCents: countedCents, ...(floatCents ? { floatCents } : {}) } : {});
            if (err) setCloseError(err);
            else {
              ask();
              store.showRegister();
              setConfirming(false);
              setCounted('');
              setFloat('');
            }
          }}
        >
          <p>The Z report totals everything since the last close and starts a new day. It cannot be undone. Settle the batch separately on the Batches screen.</p>
          <p className="muted">Counted the drawer? Type what it holds and its opening float: the Z report says whether the cash is over or short.</p>
          <div className="count-fields">
            <TextField id="z-counted-cash" label="Cash counted (optional)" inputMode="decimal" value={counted} onChange={setCounted} error={countedError} placeholder="0.00" />
            <TextField id="z-float" label="Opening float" inputMode="decimal" value={float} onChange={setFloat} error={floatError} placeholder="0.00" />
          </div>
        </ConfirmDialog>
      )}
    </div>
  );
}
