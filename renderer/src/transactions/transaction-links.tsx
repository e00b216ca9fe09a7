/**
 * What a transaction is linked to, in the transaction detail: the original sale of a
 * refund, the refunds of a sale, its batch (opens the Batches screen), its Level 3 data
 * (managers only: shown and edited in the Level 3 form) and its receipt.
 */
import { useEffect, useRef, useState } from 'react';
import type { TransactionLinks as Links, TransactionView } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { useFocusTrap } from '../ui/use-focus-trap';
import { money } from '../ui/money-format';
import { dateAndTime } from '../ui/time-format';
import { useBatchesStore } from '../batches/batches-store';
import { useNavStore } from '../shell/nav-store';
import { Level3Form } from '../level3/level3-form';
import { Receipt, type ReceiptHeader } from '../receipts/receipt';

const BATCH_STATE: Record<string, string> = { open: 'open', failed: 'settle refused, still open', processing: 'settling', settled: 'settled' };

function ReceiptDialog({ t, header, onClose }: { t: TransactionView; header: ReceiptHeader; onClose(): void }) {
  const ref = useRef<HTMLDivElement>(null);
  useFocusTrap(ref);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        onClose();
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [onClose]);
  return (
    <div className="overlay">
      <div ref={ref} className="dialog receipt-dialog" role="dialog" aria-modal="true" aria-labelledby="receipt-dialog-title">
        <div className="dialog-head">
          <h2 id="receipt-dialog-title">Receipt</h2>
          <button type="button" className="btn btn-quiet" onClick={onClose} autoFocus>
            Close
          </button>
        </div>
        <div className="receipt-column">
          <Receipt t={t} header={header} />
        </div>
      </div>
    </div>
  );
}

export function TransactionLinks({ t, isManager, header, onOpen }: { t: TransactionView; isManager: boolean; header: ReceiptHeader; onOpen(v: TransactionView): void }) {
  const [links, setLinks] = useState<Links | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [showReceipt, setShowReceipt] = useState(false);
  const go = useNavStore((s) => s.go);

  useEffect(() => {
    let live = true;
    setLinks(null);
    void ringup.linksTransaction({ id: t.id }).then((r) => {
      if (!live) return;
      if (r.ok) setLinks(r.value);
      else setError(r.error.message);
    });
    return () => {
      live = false;
    };
  }, [t.id, t.state, t.refundedCents]);

  // A linked record carries no refund totals of its own: open it through the core's full view.
  const open = async (v: TransactionView) => {
    const r = await ringup.transactionsView({ id: v.id });
    onOpen(r.ok ? r.value : v);
  };
  const l3 = links?.level3;
  return (
    <section className="tx-links" aria-labelledby="links-title" data-testid="tx-links">
      <h3 id="links-title">Linked</h3>
      {error && <p className="field-error">{error}</p>}
      {!links && !error && <p className="muted">Looking up…</p>}
      {links && (
        <ul className="link-list">
          {links.original && (
            <li>
              <span className="muted">Original sale</span>
              <button type="button" className="btn btn-secondary" onClick={() => void open(links.original!)}>
                {money(links.original.amountCents)} sale, {dateAndTime(links.original.createdTs)}
              </button>
            </li>
          )}
          {links.refunds.map((r) => (
            <li key={r.id}>
              <span className="muted">Refund</span>
              <button type="button" className="btn btn-secondary" onClick={() => void open(r)}>
                {money(r.amountCents)} refund, {dateAndTime(r.createdTs)}
              </button>
            </li>
          ))}
          <li>
            <span className="muted">Batch</span>
            {links.batch ? (
              isManager ? (
                <button
                  type="button"
                  className="btn btn-secondary"
                  onClick={() => {
                    go('batches');
                    void useBatchesStore.getState().select(links.batch!.id);
                  }}
                >
                  Batch {links.batch.number} ({BATCH_STATE[links.batch.state]})
                </button>
              ) : (
                <span>
                  Batch {links.batch.number} ({BATCH_STATE[links.batch.state]})
                </span>
              )
            ) : (
              <span>Not in a batch (declined, voided before one opened, or not a card payment).</span>
            )}
          </li>
          {/* Level 3 data is a manager's (the core returns none to a cashier). */}
          {l3 && (
            <li>
              <span className="muted">Level 3</span>
              {l3.applies ? (
                <span className="link-l3">
                  <span data-testid="l3-summary">{l3.data ? `${l3.data.line_items.length.toLocaleString()} line ${l3.data.line_items.length === 1 ? 'item' : 'items'}` : 'None yet'}</span>
                  {isManager && (
                    <button type="button" className="btn btn-secondary" onClick={() => setEditing(true)}>
                      {l3.data ? 'Edit Level 3 data…' : 'Add Level 3 data…'}
                    </button>
                  )}
                </span>
              ) : (
                <span data-testid="l3-reason">{l3.reason}</span>
              )}
            </li>
          )}
          <li>
            <span className="muted">Receipt</span>
            <button type="button" className="btn btn-secondary" onClick={() => setShowReceipt(true)}>
              Show receipt
            </button>
          </li>
        </ul>
      )}
      {editing && l3 && (
        <Level3Form
          view={l3}
          onClose={() => setEditing(false)}
          onSaved={(v) => {
            setEditing(false);
            setLinks((cur) => (cur ? { ...cur, level3: v } : cur));
          }}
        />
      )}
      {showReceipt && <ReceiptDialog t={t} header={header} onClose={() => setShowReceipt(false)} />}
    </section>
  );
}
