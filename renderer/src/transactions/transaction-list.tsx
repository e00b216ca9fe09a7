import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import type { TransactionView } from '../../../shared/ipc/contract';
import { money } from '../ui/money-format';
import { dateOnly, timeOfDay } from '../ui/time-format';

export const STATE_LABELS: Record<TransactionView['state'], string> = {
  approved: 'Approved',
  declined: 'Declined',
  voided: 'Voided',
  refunded: 'Refunded',
  partially_refunded: 'Part refunded',
  pending: 'Pending',
  other: 'Other',
};

// 52 px: a touch target with room to spare, and 8 rows in view at 1024×768.
const ROW_HEIGHT = 52;

/**
 * The day's transactions, virtualised: only the rows in view (plus a few) are in the
 * DOM, so 100,000 rows scroll as smoothly as 10.
 */
export function TransactionList({
  rows,
  selectedId,
  selectedIndex,
  dated = false,
  onSelect,
}: {
  rows: TransactionView[];
  /** Rows from any day (Find older…): each shows its date above its time (issue 21, point 13). */
  dated?: boolean;
  selectedId: string | null;
  /** Index of the selection in `rows` when it moved by keyboard: scrolled into view and focused. */
  selectedIndex: number;
  onSelect(row: TransactionView): void;
}) {
  const parentRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => parentRef.current, estimateSize: () => ROW_HEIGHT, overscan: 8 });

  useEffect(() => {
    if (selectedIndex < 0) return;
    virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
    const id = requestAnimationFrame(() =>
      parentRef.current?.querySelector<HTMLButtonElement>(`[aria-posinset="${selectedIndex + 1}"] button`)?.focus({ preventScroll: true }),
    );
    return () => cancelAnimationFrame(id);
  }, [selectedIndex, virtualizer]);

  if (rows.length === 0) {
    return <p className="empty-list">No transactions match.</p>;
  }
  return (
    <div ref={parentRef} className={`tx-scroll${dated ? ' tx-scroll-dated' : ''}`} data-testid="tx-scroll" aria-label="Transactions" role="region">
      <ul className="tx-list" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((v) => {
          const r = rows[v.index]!;
          return (
            <li key={r.id} className="tx-item" style={{ transform: `translateY(${v.start}px)`, height: ROW_HEIGHT }} aria-setsize={rows.length} aria-posinset={v.index + 1} data-testid="tx-row">
              <button type="button" className="tx-row" aria-pressed={selectedId === r.id} onClick={() => onSelect(r)}>
                <span className="tx-time">
                  {dated && <span className="tx-date">{dateOnly(r.createdTs)}</span>}
                  {timeOfDay(r.createdTs)}
                </span>
                <span className={`tx-kind tx-kind-${r.kind}`}>{r.kind === 'refund' ? 'Refund' : 'Sale'}</span>
                <span className="tx-card">
                  {r.cardBrand} •••• {r.lastFour}
                  {r.clerkName && <span className="tx-clerk"> · {r.clerkName}</span>}
                </span>
                <span className={`badge badge-state-${r.state}`}>{r.partial && r.state === 'approved' ? 'Partly approved' : STATE_LABELS[r.state]}</span>
                <span className="tx-amount">{r.kind === 'refund' ? `-${money(r.amountCents)}` : money(r.amountCents)}</span>
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
