import { NoSaleButton } from '../devices/no-sale-button';
import { useEffect, useMemo, useRef, useState } from 'react';
import { FindForm } from './find-form';
import { TransactionDetail } from './transaction-detail';
import { TransactionList } from './transaction-list';
import { money } from '../ui/money-format';
import { isTypingTarget } from '../shell/shortcuts';
import { useNavStore } from '../shell/nav-store';
import { useSessionStore } from '../auth/session-store';
import { useStatusStore } from '../shell/status-store';
import { applyFilters, totalsOfRows, type KindFilter } from './transaction-filters';
import { useTransactionsStore } from './transactions-store';

/** Long totals (a very busy day) get a smaller size instead of being cut off. */
function TotalValue({ text, testId }: { text: string; testId?: string }) {
  return (
    <span className={`total-value${text.length > 11 ? ' total-value-long' : ''}`} data-testid={testId}>
      {text}
    </span>
  );
}

const KINDS: ReadonlyArray<{ kind: KindFilter; label: string }> = [
  { kind: 'all', label: 'All' },
  { kind: 'sales', label: 'Sales' },
  { kind: 'refunds', label: 'Refunds' },
  { kind: 'voids', label: 'Voids' },
  { kind: 'declined', label: 'Declined' },
];

/** Today's sales, refunds and voids with totals; find older ones; refund or void as a manager. */
export function TransactionsScreen() {
  const st = useTransactionsStore();
  const session = useSessionStore((s) => s.session);
  const [finding, setFinding] = useState(false);
  const [keyboardIndex, setKeyboardIndex] = useState(-1);
  const filterRef = useRef<HTMLInputElement>(null);
  const { loadToday, mode, today, searchResults, kind, text } = st;

  useEffect(() => {
    void loadToday();
  }, [loadToday]);

  // When the gateway comes back, a list that could not load loads by itself.
  const health = useStatusStore((x) => x.status?.gateway.health);
  useEffect(() => {
    if (health === 'ok' && useTransactionsStore.getState().loadFailed) void loadToday();
  }, [health, loadToday]);
  const failed = st.loadFailed && mode === 'today';

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === '/' && !isTypingTarget(e.target) && !document.querySelector('[role="dialog"],[role="alertdialog"]')) {
        e.preventDefault();
        filterRef.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const source = mode === 'search' ? searchResults : today;
  const rows = useMemo(() => applyFilters(source, kind, text), [source, kind, text]);
  const totals = useMemo(() => totalsOfRows(rows), [rows]);
  const rowsRef = useRef(rows);
  useEffect(() => {
    rowsRef.current = rows;
  }, [rows]);

  // ↑ / ↓ move the selection through the list (outside text fields and dialogs).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.key !== 'ArrowDown' && e.key !== 'ArrowUp') || isTypingTarget(e.target) || document.querySelector('[role="dialog"],[role="alertdialog"]')) return;
      const list = rowsRef.current;
      if (list.length === 0) return;
      e.preventDefault();
      const selectedId = useTransactionsStore.getState().selectedId;
      const at = selectedId ? list.findIndex((r) => r.id === selectedId) : -1;
      const next = Math.max(0, Math.min(list.length - 1, at < 0 ? 0 : at + (e.key === 'ArrowDown' ? 1 : -1)));
      useTransactionsStore.getState().select(list[next]!);
      setKeyboardIndex(next);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div className="tx-layout">
      <div className="tx-main">
        <div className="tx-head">
          <h1 className="section-title" tabIndex={-1} data-screen-focus>
            {mode === 'search' ? 'Search results' : "Today's transactions"}
          </h1>
          <div className="tx-head-actions">
            {mode === 'search' && (
              <button type="button" className="btn btn-secondary" onClick={() => st.showToday()}>
                Back to today
              </button>
            )}
            <button type="button" className="btn btn-secondary" onClick={() => setFinding((f) => !f)} aria-expanded={finding}>
              Find older…
            </button>
            {/* Issue 15: a cart paid all in cash has no gateway transaction; its receipt and returns are there. */}
            <button type="button" className="btn btn-secondary" onClick={() => useNavStore.getState().go('cartsales')}>
              Cart sales…
            </button>
            {/* Issue 23: the drawer opened with no sale (a manager's, audited); only with a receipt printer. */}
            <NoSaleButton />
            {mode === 'today' && (
              <button type="button" className="btn btn-quiet" onClick={() => void loadToday()} disabled={st.loading}>
                {st.loading ? 'Loading…' : 'Refresh'}
              </button>
            )}
          </div>
        </div>
        {finding && (
          <FindForm
            onCancel={() => setFinding(false)}
            onFind={async (args) => {
              const err = await st.search(args);
              if (!err) setFinding(false);
              return err;
            }}
          />
        )}
        {failed ? (
          <div className="panel list-failed" data-testid="tx-load-failed">
            <h2 className="section-title">Today's list cannot be loaded</h2>
            <p role="alert">{st.error}</p>
            <p className="muted">The totals are not shown until the list loads. It loads by itself when the gateway answers again.</p>
            <button type="button" className="btn btn-secondary btn-lg" onClick={() => void loadToday()} disabled={st.loading}>
              {st.loading ? 'Trying…' : 'Try again now'}
            </button>
          </div>
        ) : (
        <>
        <div className="totals" data-testid="tx-totals" aria-label="Totals">
          <div className="total-card">
            <span className="total-label">Sales</span>
            <TotalValue text={money(totals.salesCents)} />
            <span className="muted">{totals.salesCount.toLocaleString()} approved</span>
          </div>
          <div className="total-card">
            <span className="total-label">Refunds</span>
            <TotalValue text={totals.refundsCents > 0 ? `-${money(totals.refundsCents)}` : money(0)} />
            <span className="muted">
              {totals.refundsCount.toLocaleString()} {totals.refundsCount === 1 ? 'refund' : 'refunds'}
            </span>
          </div>
          <div className="total-card">
            <span className="total-label">Voids</span>
            <TotalValue text={totals.voidsCount.toLocaleString()} />
            <span className="muted">{money(totals.voidsCents)} not charged</span>
          </div>
          <div className="total-card total-card-net">
            <span className="total-label">Net</span>
            <TotalValue text={money(totals.netCents)} testId="tx-net" />
            <span className="muted">{totals.declinedCount.toLocaleString()} declined</span>
          </div>
        </div>
        <div className="tx-toolbar">
          <div className="segmented" role="radiogroup" aria-label="Show">
            {KINDS.map((k) => (
              <button key={k.kind} type="button" role="radio" aria-checked={kind === k.kind} className="segment" onClick={() => st.setKind(k.kind)}>
                {k.label}
              </button>
            ))}
          </div>
          <div className="field field-inline filter-field">
            <label htmlFor="tx-filter" className="filter-label">
              Filter
            </label>
            <input
              ref={filterRef}
              id="tx-filter"
              className="input"
              type="search"
              placeholder="Last 4 or amount"
              value={text}
              onChange={(e) => st.setText(e.target.value)}
              aria-keyshortcuts="/"
            />
          </div>
          <span className="muted tx-count" role="status" data-testid="tx-count">
            {rows.length.toLocaleString()} {rows.length === 1 ? 'transaction' : 'transactions'}
            {st.loadingMore ? ', loading more…' : ''}
          </span>
        </div>
        {st.error && (
          <p className="notice notice-error" role="alert">
            {st.error}
          </p>
        )}
        {st.loading && rows.length === 0 ? (
          <p className="empty-list" role="status">
            Loading today's transactions…
          </p>
        ) : (
          <TransactionList
            rows={rows}
            selectedId={st.selectedId}
            selectedIndex={keyboardIndex}
            dated={mode === 'search'}
            onSelect={(r) => {
              setKeyboardIndex(-1);
              st.select(r);
            }}
          />
        )}
        </>
        )}
      </div>
      <aside className="tx-side" aria-label="Selected transaction">
        {st.selected ? (
          <TransactionDetail
            t={st.selected}
            isManager={session?.user.role === 'manager'}
            onChanged={(v) => {
              st.refreshSelected(v);
              void loadToday();
            }}
          />
        ) : (
          <div className="panel detail-empty">
            <h2 className="section-title">No transaction selected</h2>
            <p className="muted">Pick a transaction in the list to see it, print or e-mail its receipt, or refund or void it.</p>
          </div>
        )}
      </aside>
    </div>
  );
}
