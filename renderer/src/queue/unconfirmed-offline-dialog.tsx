import { useCallback, useEffect, useRef, useState } from 'react';
import type { QueueItem, Role } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { money } from '../ui/money-format';
import { dateAndTime } from '../ui/time-format';
import { useFocusTrap } from '../ui/use-focus-trap';
import { useQueueStore } from './queue-store';
import { ErrorNote } from '../sales/outcome-note';

/** How often a signed-in counter looks again: a sale whose window went away becomes unconfirmed after the core's grace (30 s). */
const LOOK_EVERY_MS = 10_000;

export const UNCONFIRMED_DIALOG = {
  title: 'A sale was never confirmed on screen',
  keep: 'Keep it — the customer was told',
  cancel: 'Cancel it — never charged',
  later: 'Decide later',
} as const;

/**
 * The power-cut window of the offline queue (issue 20, point 3): sales approved offline whose
 * screen never said "Approved offline" (the power went, the app was killed, the window
 * closed) wait in the queue unsent. This dialog shows them, one at a time, to whoever signs in
 * next — and to anyone signed in at the counter once they turn up — in words: the amount and
 * card, who rang it up and when, and that the screen never said it was approved. They choose:
 * keep it (the customer was told: it is sent) or cancel it (never charged). The core audits
 * either choice with who made it.
 *
 * "Decide later" (or Escape) hides the dialog until the next sign-in (a cashier in the middle of a sale);
 * the sales stay unsent meanwhile. Focus starts on the dialog itself, not on either choice, so
 * a stray Enter decides nothing.
 */
export function UnconfirmedOfflineDialog({ userId, role }: { userId: string; role: Role }) {
  const counter = role === 'cashier' || role === 'manager';
  const [items, setItems] = useState<QueueItem[]>([]);
  const [later, setLater] = useState(false);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const ref = useRef<HTMLDivElement>(null);
  const pending = useQueueStore((s) => s.status?.pendingCount);
  useFocusTrap(ref);

  const look = useCallback(async () => {
    const r = await ringup.queueUnconfirmed();
    // Not a counter user, or the core is away: nothing to ask now.
    if (r.ok) setItems(r.value);
  }, []);

  // A new person: asked afresh (an earlier "Decide later" was theirs).
  useEffect(() => {
    setLater(false);
    setDone(null);
    setError(null);
  }, [userId]);

  useEffect(() => {
    if (!counter) return;
    void look();
    const timer = setInterval(() => void look(), LOOK_EVERY_MS);
    return () => clearInterval(timer);
  }, [counter, userId, pending, look]);

  const open = counter && !later && (items.length > 0 || done !== null);
  useEffect(() => {
    if (!open) return;
    // Back where the person was once the dialog goes (the sale screen's amount, a list).
    const previous = document.activeElement as HTMLElement | null;
    ref.current?.focus();
    return () => {
      if (previous?.isConnected && previous !== document.body) previous.focus();
    };
  }, [open]);

  if (!open) return null;
  const it = items[0];

  const choose = async (choice: 'keep' | 'cancel') => {
    if (!it) return;
    setBusy(true);
    const r = await ringup.queueResolveUnconfirmed({ clientRef: it.clientRef, choice });
    setBusy(false);
    if (r.ok) {
      setDone(r.value.message);
      setError(null);
    } else setError(r.error.message);
    // Whatever happened, the list as the core has it now (another counter may have chosen first).
    await look();
    ref.current?.focus();
  };

  return (
    <div className="overlay">
      <div
        ref={ref}
        className="dialog unconfirmed-dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="unconfirmed-title"
        aria-describedby="unconfirmed-body"
        tabIndex={-1}
        data-testid="unconfirmed-offline"
        onKeyDown={(e) => {
          // Escape puts the choice off, as "Decide later" does; it never keeps or cancels.
          if (e.key === 'Escape' && !busy) {
            e.stopPropagation();
            if (it) setLater(true);
            else setDone(null);
          }
        }}
      >
        <h2 id="unconfirmed-title">{it ? UNCONFIRMED_DIALOG.title : 'Done'}</h2>
        {done && (
          <p className="notice notice-ok" role="status" data-testid="unconfirmed-done" {...(it ? {} : { id: 'unconfirmed-body' })}>
            {done}
          </p>
        )}
        {it ? (
          <>
            <div id="unconfirmed-body" className="dialog-body">
              {items.length > 1 && <p className="muted">{`${items.length} sales are waiting for this choice; this is the oldest.`}</p>}
              <p className="unconfirmed-amount" data-testid="unconfirmed-amount">
                {money(it.amountCents)}
              </p>
              <p>
                On {it.cardBrand}&nbsp;••••&nbsp;{it.lastFour}, rung up by <strong>{it.clerkName}</strong> at {dateAndTime(it.queuedTs)}, approved offline while the gateway could not be
                reached.
              </p>
              <p>
                <strong>The screen never said it was approved</strong> (the power went, or Ringup or its window closed first), so it has not been sent and the card has not been charged.
                Was the customer told it was approved?
              </p>
            </div>
            <ErrorNote text={error} />
            <div className="dialog-actions dialog-actions-stack">
              <button type="button" className="btn btn-primary btn-lg" onClick={() => void choose('keep')} disabled={busy}>
                {UNCONFIRMED_DIALOG.keep}
              </button>
              <button type="button" className="btn btn-danger btn-lg" onClick={() => void choose('cancel')} disabled={busy}>
                {UNCONFIRMED_DIALOG.cancel}
              </button>
              <button type="button" className="btn btn-secondary btn-lg" onClick={() => setLater(true)} disabled={busy}>
                {UNCONFIRMED_DIALOG.later}
              </button>
            </div>
          </>
        ) : (
          <div className="dialog-actions">
            <button type="button" className="btn btn-primary btn-lg" onClick={() => setDone(null)}>
              Close
            </button>
          </div>
        )}
      </div>
    </div>
  );
}
