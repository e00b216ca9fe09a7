/**
 * "Charge a saved card" on the sale screen: find the customer, pick a saved card or bank
 * account (masked), charge the total. The result shows on the usual result screen.
 * Kept in its own component so the sale screen only hosts it.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { needsLargeConfirm, type GuardConfirmations } from '../../../shared/amount-guards';
import type { ContactView } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { AttemptRef, settleWhenKnown } from '../sales/attempt-ref';
import { money } from '../ui/money-format';
import { isTopmostModal } from '../ui/topmost-modal';
import { useFocusTrap } from '../ui/use-focus-trap';
import { DECLINED_BY_CASHIER, sendConfirmed } from '../sales/amount-question-store';
import { useSaleStore } from '../sales/sale-store';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { TextField } from '../ui/text-field';
import { ErrorNote } from '../sales/outcome-note';

export function SavedMethodCharge({ blockedReason }: { blockedReason: string | null }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="btn btn-secondary btn-lg saved-charge-open" disabled={blockedReason !== null} onClick={() => setOpen(true)}>
        Charge a saved card…
      </button>
      {open && <SaleSavedMethodDialog onClose={() => setOpen(false)} />}
    </>
  );
}

/** A retry after a lost answer (the dialog closed and opened again too) is the same sale at the gateway. */
const savedAttempt = new AttemptRef();

function SaleSavedMethodDialog({ onClose }: { onClose(): void }) {
  // Read once: the amount cannot change while this modal dialog is open (a selector returning a new object each time would loop).
  const [totals] = useState(() => useSaleStore.getState().totals());
  async function charge(id: string, already: GuardConfirmations): Promise<string | null> {
    const clientRef = savedAttempt.for(`${id}|${totals.subtotalCents}|${totals.taxCents}|${totals.tipCents}`);
    const r = await sendConfirmed(
      totals,
      async (c) => {
        useSaleStore.setState({ phase: 'charging' });
        const sent = await ringup.vaultCharge({ id, subtotalCents: totals.subtotalCents, taxCents: totals.taxCents, tipCents: totals.tipCents, clientRef, ...c });
        settleWhenKnown(savedAttempt, sent);
        return sent;
      },
      'charge',
      already,
    );
    if (!r.ok) {
      useSaleStore.setState({ phase: 'entry' });
      return r.error.code === DECLINED_BY_CASHIER ? '' : r.error.message;
    }
    useSaleStore.setState((st) => ({ phase: 'result', outcome: r.value, cardResetToken: st.cardResetToken + 1 }));
    return null;
  }
  return <SavedMethodDialog amountCents={totals.totalCents} onCharge={charge} onClose={onClose} />;
}

/** A saved method picked in the list, waiting for the cashier's Yes. */
interface Picked {
  methodId: string;
  customer: string;
  label: string;
}

/**
 * Finds a customer and charges one of their saved methods `amountCents` through `onCharge`
 * (which answers an error sentence; '' when the cashier said no to a question (the tip's),
 * and the dialog stays open to pick again; or null when done: the dialog closes). Picking a
 * card only asks — the amount, the card and the customer, Cancel focused — as every other way
 * to take money does; a large amount is confirmed on that same question, not on a second one.
 * Shared by the keypad sale and the cart's saved-card tender.
 */
export function SavedMethodDialog({ amountCents, onCharge, onClose }: { amountCents: number; onCharge(methodId: string, already: GuardConfirmations): Promise<string | null>; onClose(): void }) {
  const ref = useRef<HTMLDivElement>(null);
  useFocusTrap(ref);
  const config = useSaleStore((s) => s.config);
  const [text, setText] = useState('');
  const [contacts, setContacts] = useState<ContactView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [picked, setPicked] = useState<Picked | null>(null);
  const large = config !== null && needsLargeConfirm(config, amountCents);
  const cancelPick = useCallback(() => setPicked(null), []);

  useEffect(() => {
    let live = true;
    void ringup.vaultContacts({ text }).then((r) => {
      if (!live) return;
      if (r.ok) setContacts(r.value.filter((c) => c.methods.length > 0));
      else setError(r.error.message);
    });
    return () => {
      live = false;
    };
  }, [text]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // The large-amount question may be open over this dialog: its Escape is its own.
      if (e.key === 'Escape' && isTopmostModal(ref.current)) {
        e.stopPropagation();
        onClose();
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [onClose]);

  async function charge(p: Picked) {
    setBusy(true);
    setError(null);
    const problem = await onCharge(p.methodId, large ? { confirmedCents: amountCents } : {});
    setBusy(false);
    setPicked(null);
    if (problem !== null) return setError(problem || null);
    onClose();
  }

  return (
    <div className="overlay">
      <div ref={ref} className="dialog dialog-wide" role="dialog" aria-modal="true" aria-labelledby="saved-charge-title">
        <div className="dialog-head">
          <h2 id="saved-charge-title">Charge {money(amountCents)} to a saved card</h2>
          <button type="button" className="btn btn-quiet" onClick={onClose}>
            Close
          </button>
        </div>
        <TextField id="saved-find" label="Customer" type="search" placeholder="Name, e-mail or last 4" value={text} onChange={setText} autoFocus />
        <ErrorNote text={error} />
        {contacts && contacts.length === 0 && <p className="muted">No saved cards match. Managers save cards on Manage → Saved cards.</p>}
        <ul className="saved-charge-list" aria-label="Saved payment methods">
          {contacts?.flatMap((c) =>
            c.methods.map((m) => (
              <li key={m.id}>
                <button type="button" className="batch-pick" disabled={busy} onClick={() => setPicked({ methodId: m.id, customer: c.name, label: m.label })}>
                  <strong>{c.name}</strong>
                  <span>{m.label}</span>
                  <span className="muted">{m.kind === 'card' ? `Expires ${m.expiry ?? '—'}` : 'Bank account'} · Charge {money(amountCents)}</span>
                </button>
              </li>
            )),
          )}
        </ul>
      </div>
      {picked && (
        <ConfirmDialog title="Charge this saved card?" busy={busy} confirmLabel={`Yes, charge ${money(amountCents)}`} onCancel={cancelPick} onConfirm={() => void charge(picked)}>
          <p className="confirm-amount" data-testid="confirm-amount">
            {money(amountCents)}
          </p>
          <p data-testid="saved-charge-who">
            {picked.label} of <strong>{picked.customer}</strong>
          </p>
          {large && config && <p>Check the amount with the customer: it is above {money(config.confirmAboveCents)}.</p>}
        </ConfirmDialog>
      )}
    </div>
  );
}
