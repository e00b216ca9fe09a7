import { useEffect, useRef } from 'react';
import { isTopmostModal } from '../ui/topmost-modal';
import { useApprovalRetry } from '../auth/use-approval-retry';
import { VoidReturnApproval } from '../auth/manager-approval-dialog';
import { money } from '../ui/money-format';
import { useFocusTrap } from '../ui/use-focus-trap';
import { useNavStore } from '../shell/nav-store';
import { useSaleStore } from './sale-store';
import { useSessionStore } from '../auth/session-store';
import { ErrorNote } from './outcome-note';

/**
 * The question a partly approved sale asks before anyone walks away from it (F2, the Sale
 * tab, New sale, Switch user): void the approved part, or keep it and collect the rest.
 * The safe answer (keep) has the focus; Escape closes it with nothing changed. Switch user
 * may also leave it as it is: it stays "Partly approved" in Transactions, where a manager
 * can void it (so does an idle lock, which cannot ask).
 */
export function PartialLeaveDialog() {
  const sale = useSaleStore();
  const leaving = sale.leaving;
  const open = leaving ? sale.openPartial() : null;
  const ref = useRef<HTMLDivElement>(null);
  const keepRef = useRef<HTMLButtonElement>(null);
  // What the question was opened for, kept past the void (which starts the sale over and closes the question).
  const leavingRef = useRef(leaving);
  if (leaving) leavingRef.current = leaving;
  // A partial approval that paid part of a cart already paid is a return: a manager's PIN first (issue 20, point 4).
  const voiding = useApprovalRetry(
    (approval) => useSaleStore.getState().voidPartial(approval),
    () => {
      if (leavingRef.current === 'switch-user') void useSessionStore.getState().signOut();
      else useNavStore.setState({ screen: 'sale' });
    },
  );
  const busy = voiding.busy;
  const error = voiding.asking ? null : voiding.error;
  useFocusTrap(ref);

  useEffect(() => {
    if (!leaving) return;
    const previous = document.activeElement as HTMLElement | null;
    keepRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      // A manager's PIN dialog opened over this one takes its own Escape.
      if (e.key === 'Escape' && isTopmostModal(ref.current)) {
        e.stopPropagation();
        useSaleStore.getState().stayPut();
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      if (previous?.isConnected) previous.focus();
    };
  }, [leaving]);

  if (!leaving || !open) return null;
  const t = open.transaction;
  const approved = money(t.amountCents);

  const keep = () => {
    useSaleStore.getState().keepPartial();
    // Straight to collecting the rest, on whatever screen the question came up.
    useNavStore.setState({ screen: 'sale' });
  };
  const voidIt = () => void voiding.run();
  const leaveAsItIs = () => {
    useSaleStore.getState().stayPut();
    void useSessionStore.getState().signOut();
  };

  return (
    <div className="overlay">
      <div ref={ref} className="dialog" role="alertdialog" aria-modal="true" aria-labelledby="partial-leave-title" aria-describedby="partial-leave-body">
        <h2 id="partial-leave-title">
          Void the {approved}, or keep it and collect the rest?
        </h2>
        <div id="partial-leave-body" className="dialog-body">
          <p>
            {approved} of the {money(t.requestedCents)} sale was approved on {t.cardBrand}&nbsp;••••&nbsp;{t.lastFour}. {money(open.restCents)} is still to collect.
          </p>
          {leaving === 'switch-user' && <p>Switching user now leaves it partly approved in Transactions, where a manager can void it.</p>}
        </div>
        <ErrorNote text={error} />
        <div className="dialog-actions dialog-actions-stack">
          <button ref={keepRef} type="button" className="btn btn-primary btn-lg" onClick={keep} disabled={busy}>
            Keep it and collect the rest
          </button>
          <button type="button" className="btn btn-danger btn-lg" onClick={voidIt} disabled={busy}>
            {busy && !voiding.asking ? 'Voiding…' : `Void the ${approved}`}
          </button>
          {leaving === 'switch-user' && (
            <button type="button" className="btn btn-secondary btn-lg" onClick={leaveAsItIs} disabled={busy}>
              Switch user and leave it partly approved
            </button>
          )}
        </div>
      </div>
      <VoidReturnApproval amount={approved} retry={voiding} />
    </div>
  );
}
