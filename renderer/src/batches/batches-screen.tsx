/**
 * Batches: the open batch's totals (by card brand and entry mode) and transactions,
 * settle with progress (what is being sent, and for how long the processor has been
 * asked) and a plain-word result (a refused settle offers "Try again"), the settled
 * history and a CSV export of any batch. Managers only (the core checks too).
 * The transactions show as soon as their first page comes; the totals follow.
 */
import { useEffect, useState } from 'react';
import type { BatchInfo, MoneyTotals } from '../../../shared/ipc/contract';
import { BatchRowList } from './batch-row-list';
import { BreakdownTable } from '../reports/breakdown-table';
import { MoneyTotalCards } from '../reports/money-total-cards';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { ringup } from '../bridge/bridge';
import { money } from '../ui/money-format';
import { saveTextFile } from '../ui/save-text-file';
import { dateAndTime } from '../ui/time-format';
import { useBatchesStore } from './batches-store';

const STATE_TEXT: Record<BatchInfo['state'], string> = {
  open: 'Open',
  failed: 'Settle refused',
  processing: 'Settling',
  settled: 'Settled',
};

function BatchButton({ b, selected, onPick }: { b: BatchInfo; selected: boolean; onPick(): void }) {
  return (
    <button type="button" className="batch-pick" aria-pressed={selected} onClick={onPick}>
      <strong>Batch {b.number}</strong>
      <span className={`badge badge-batch-${b.state}`}>{STATE_TEXT[b.state]}</span>
      <span className="muted">{b.closedTs ? `Closed ${dateAndTime(b.closedTs)}` : `Opened ${dateAndTime(b.createdTs)}`}</span>
    </button>
  );
}

/**
 * While the processor is asked: what goes (the batch, its transactions and net) and how
 * long it has been waiting. The sentence is announced once; the seconds are for the eye.
 */
function SettleProgress({ batch, totals }: { batch: BatchInfo; totals: MoneyTotals | null }) {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    const started = Date.now();
    const t = setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 1000);
    return () => clearInterval(t);
  }, []);
  const what = totals ? `: ${(totals.sales.count + totals.refunds.count).toLocaleString()} transactions, ${money(totals.netCents)} net` : '';
  return (
    <div className="notice notice-info settle-progress" data-testid="settle-progress">
      <p role="status">
        Sending batch {batch.number} to the processor{what}. Waiting for its answer; keep Ringup open.
      </p>
      <p className="settle-progress-time">
        <progress aria-label={`Settling batch ${batch.number}`} />
        <span aria-hidden="true" data-testid="settle-seconds">
          {seconds === 0 ? 'Just sent' : `${seconds} s so far`}
        </span>
      </p>
    </div>
  );
}

export function BatchesScreen() {
  const st = useBatchesStore();
  const { load } = st;
  const [confirming, setConfirming] = useState(false);
  const [csvError, setCsvError] = useState<string | null>(null);

  useEffect(() => {
    void load();
  }, [load]);

  // The list's entry shows the batch while its totals are still being counted.
  const listed = st.list ? [st.list.open, ...st.list.history].find((b) => b?.id === st.selectedId) : undefined;
  const batch = st.summary?.batch ?? listed ?? null;
  const settleable = batch !== null && (batch.state === 'open' || batch.state === 'failed');

  async function exportCsv() {
    if (!batch) return;
    setCsvError(null);
    const r = await ringup.batchesCsv({ batchId: batch.id });
    if (!r.ok) return setCsvError(r.error.message);
    saveTextFile(r.value.fileName, r.value.csv);
  }

  return (
    <div className="batches-layout">
      <aside className="panel batch-side" aria-labelledby="batches-title">
        <h1 id="batches-title" className="section-title" tabIndex={-1} data-screen-focus>
          Batches
        </h1>
        <h2 className="field-label">Open now</h2>
        {st.list?.open ? (
          <BatchButton b={st.list.open} selected={st.selectedId === st.list.open.id} onPick={() => void st.select(st.list!.open!.id)} />
        ) : (
          <p className="muted">{st.list ? 'No open batch: the next approved card sale opens one.' : 'Loading…'}</p>
        )}
        <h2 className="field-label">Settled</h2>
        {st.list && st.list.history.length === 0 && <p className="muted">No batch settled yet.</p>}
        <ul className="batch-history" aria-label="Settled batches">
          {st.list?.history.map((b) => (
            <li key={b.id}>
              <BatchButton b={b} selected={st.selectedId === b.id} onPick={() => void st.select(b.id)} />
            </li>
          ))}
        </ul>
        <button type="button" className="btn btn-quiet" onClick={() => void load()} disabled={st.loading}>
          {st.loading ? 'Loading…' : 'Refresh'}
        </button>
      </aside>

      <section className="batch-main" aria-label="Selected batch">
        {st.error && (
          <p className="notice notice-error" role="alert">
            {st.error}
          </p>
        )}
        {!batch ? (
          <div className="panel detail-empty">
            <h2 className="section-title">{st.loadingRows ? 'Loading the batch…' : 'No batch to show'}</h2>
            <p className="muted">Approved card sales collect in the open batch until you settle it.</p>
          </div>
        ) : (
          <>
            <div className="tx-head">
              <h2 className="section-title" data-testid="batch-title">
                Batch {batch.number} · {STATE_TEXT[batch.state]}
              </h2>
              <div className="tx-head-actions">
                <button type="button" className="btn btn-secondary btn-lg" onClick={() => void exportCsv()}>
                  Export CSV
                </button>
                {settleable && !(st.outcome && !st.outcome.settled) && (
                  <button type="button" className="btn btn-primary btn-lg" onClick={() => setConfirming(true)} disabled={st.settling || !st.summary}>
                    {st.settling ? 'Settling…' : batch.state === 'failed' ? 'Try settling again' : 'Settle batch'}
                  </button>
                )}
              </div>
            </div>
            {batch.fileName && (
              <p className="muted">
                Settlement file <span className="mono">{batch.fileName}</span>
              </p>
            )}
            {st.settling && <SettleProgress batch={batch} totals={st.summary?.totals ?? null} />}
            {st.outcome && (
              <div className={`notice ${st.outcome.settled ? 'notice-ok' : 'notice-error'}`} role="alert" data-testid="settle-result">
                <p>{st.outcome.message}</p>
                {!st.outcome.settled && (
                  <button type="button" className="btn btn-primary btn-lg" onClick={() => void st.settle()} disabled={st.settling}>
                    Try again
                  </button>
                )}
              </div>
            )}
            {st.settleError && (
              <p className="notice notice-error" role="alert">
                {st.settleError}
              </p>
            )}
            {csvError && (
              <p className="notice notice-error" role="alert">
                {csvError}
              </p>
            )}
            {st.summary ? (
              <MoneyTotalCards totals={st.summary.totals} testId="batch-totals" />
            ) : (
              <p className="muted" role="status" data-testid="batch-counting">
                Counting the batch's totals…
              </p>
            )}
            {st.summary && (
              <div className="breakdowns">
                <BreakdownTable caption="By card brand" keyLabel="Card" rows={st.summary.totals.byBrand} testId="batch-by-brand" />
                <BreakdownTable caption="By entry mode" keyLabel="Entry" rows={st.summary.totals.byEntryMode} testId="batch-by-entry" />
              </div>
            )}
            <div className="tx-toolbar batch-toolbar">
              <h3 className="field-label">Transactions</h3>
              <span className="muted" role="status" data-testid="batch-count">
                {st.rows.length.toLocaleString()} {st.rows.length === 1 ? 'transaction' : 'transactions'}
                {st.loadingRows ? ', loading more…' : ''}
              </span>
            </div>
            <BatchRowList rows={st.rows} />
          </>
        )}
      </section>
      {confirming && batch && st.summary && (
        <ConfirmDialog
          title={`Settle batch ${batch.number}?`}
          confirmLabel="Settle now"
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void st.settle();
          }}
        >
          <p>
            {money(st.summary.totals.netCents)} net from {(st.summary.totals.sales.count + st.summary.totals.refunds.count).toLocaleString()} transactions goes to the
            processor for deposit. Settled sales can no longer be voided, only refunded.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
