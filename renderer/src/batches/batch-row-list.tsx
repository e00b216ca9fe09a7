import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import type { BatchRow } from '../../../shared/ipc/contract';
import { money } from '../ui/money-format';
import { timeOfDay } from '../ui/time-format';

const ROW_HEIGHT = 52;

/** A batch's transactions, virtualised like the Transactions list: 100,000 rows keep only the visible ones in the page. */
export function BatchRowList({ rows }: { rows: BatchRow[] }) {
  const parentRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => parentRef.current, estimateSize: () => ROW_HEIGHT, overscan: 8 });
  if (rows.length === 0) return <p className="empty-list">No transactions in this batch yet.</p>;
  return (
    <div ref={parentRef} className="tx-scroll batch-scroll" data-testid="batch-scroll" aria-label="Transactions in this batch" role="region" tabIndex={0}>
      <ul className="tx-list" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((v) => {
          const r = rows[v.index]!;
          return (
            // Keyed by position, not by id: a jump far down the list reuses the drawn rows' elements (their text
            // changes) instead of building new ones, which keeps a scroll step within a frame (bench:ui).
            <li key={v.key} className="tx-item batch-row" style={{ transform: `translateY(${v.start}px)`, height: ROW_HEIGHT }} aria-setsize={rows.length} aria-posinset={v.index + 1} data-testid="batch-row">
              <span className="tx-time">{timeOfDay(r.createdTs)}</span>
              <span className={`tx-kind tx-kind-${r.kind}`}>{r.kind === 'refund' ? 'Refund' : 'Sale'}</span>
              <span className="tx-card">
                {r.cardBrand} •••• {r.lastFour} <span className="muted">· {r.entryMode}</span>
              </span>
              <span className="batch-state">{r.stateLabel}</span>
              <span className="tx-amount">
                {r.kind === 'refund' ? `-${money(r.approvedCents)}` : money(r.approvedCents)}
                {r.approvedCents !== r.askedCents && r.approvedCents > 0 && <span className="muted batch-asked"> of {money(r.askedCents)}</span>}
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
