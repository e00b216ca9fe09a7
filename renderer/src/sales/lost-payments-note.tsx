import { useEffect } from 'react';
import type { LostPaymentView, LostPaymentWay, Session } from '../../../shared/ipc/contract';
import { money } from '../ui/money-format';
import { timeOfDay } from '../ui/time-format';
import { useLostPaymentsStore } from './lost-payments-store';

const WAY_LABEL: Record<LostPaymentWay, string> = { keyed: 'Keyed card', saved: 'Saved card or account', terminal: 'Terminal', check: 'Check' };
const STATE_LABEL: Record<LostPaymentView['state'], string> = {
  checking: 'Checking…',
  approved: 'Approved',
  declined: 'Declined',
  not_charged: 'Not charged',
  not_counted: 'Not counted',
};

/**
 * Payments whose answer from the gateway was lost (issue 20, point 3), on top of every counter
 * screen for everyone signed in, also after a restart, an idle lock or another sign-in: who
 * rang each up, the amount, and what became of it — "checking" while the core asks the
 * gateway, then approved, declined or not charged. Nobody charges the customer again on a
 * guess; once someone has read a conclusion they mark it seen and it leaves the note.
 */
export function LostPaymentsNote({ session }: { session: Session | null }) {
  const items = useLostPaymentsStore((s) => s.items);
  const error = useLostPaymentsStore((s) => s.error);
  const load = useLostPaymentsStore((s) => s.load);
  const seen = useLostPaymentsStore((s) => s.seen);
  const counter = session?.user.role === 'manager' || session?.user.role === 'cashier';
  useEffect(() => {
    if (counter) void load();
  }, [counter, session?.user.id, load]);
  if (!counter || items.length === 0) return null;
  return (
    <section className="lost-note" aria-labelledby="lost-note-title" data-testid="lost-payments">
      <h2 id="lost-note-title" className="lost-note-title">
        {items.length === 1 ? 'A payment whose answer was lost' : `${items.length} payments whose answer was lost`}
      </h2>
      <ul className="lost-note-list" aria-live="polite">
        {items.map((l) => (
          <li key={l.id} className={`lost-item lost-${l.state}`} data-testid="lost-payment" data-state={l.state}>
            <div className="lost-item-head">
              <span className="lost-amount">{money(l.amountCents)}</span>
              <span className="lost-state">{STATE_LABEL[l.state]}</span>
              <span className="muted">
                {WAY_LABEL[l.way]} · {l.cashierName} · {timeOfDay(Math.floor(l.sentAt / 1000))}
              </span>
            </div>
            <p className="lost-message">{l.message}</p>
            {l.state !== 'checking' && (
              <button type="button" className="btn btn-secondary" onClick={() => void seen(l.id)}>
                Seen
              </button>
            )}
          </li>
        ))}
      </ul>
      {error && (
        <p role="alert" className="notice notice-error">
          {error}
        </p>
      )}
    </section>
  );
}
