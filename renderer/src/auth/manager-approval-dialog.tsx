import { useCallback, useState } from 'react';
import type { Approval } from '../../../shared/ipc/contract';
import { useSessionStore } from './session-store';
import { ConfirmDialog } from '../ui/confirm-dialog';

/** What the dialog asks when a card payment of a paid sale is voided (issue 20, point 4): the core answered `approval_needed`. */
export const VOID_RETURN_SENTENCE = (amount: string) =>
  `This card payment of ${amount} paid part of a sale that is already paid, so voiding it is a return: a manager approves it with their PIN. The sale then has ${amount} due, collected from Cart sales.`;

/**
 * A manager approves a step at a cashier's counter (a large discount, an edit that makes a
 * discount's share larger, cancelling a sale a card paid for): they pick their name and type
 * their PIN; the core checks it (wrong PINs count toward the same lockout as at sign-in).
 * Enter in the PIN field approves. The PIN lives only here, never in a store.
 */
export function ManagerApprovalDialog({
  sentence,
  confirmLabel,
  busy,
  error,
  onApprove,
  onCancel,
}: {
  sentence: string;
  confirmLabel: string;
  busy: boolean;
  error: string | null;
  onApprove(approval: Approval): void;
  onCancel(): void;
}) {
  const managers = useSessionStore((s) => s.users).filter((u) => u.role === 'manager');
  const [approver, setApprover] = useState('');
  const [pin, setPin] = useState('');
  const managerId = approver || managers[0]?.id || '';
  // Stable callbacks: the dialog moves the focus to Cancel whenever they change, which would pull it out of the PIN field as it is typed.
  const approve = useCallback(() => onApprove({ managerId, pin }), [onApprove, managerId, pin]);
  const cancel = useCallback(() => onCancel(), [onCancel]);
  return (
    <ConfirmDialog title="Manager approval" busy={busy} error={error} confirmLabel={confirmLabel} onCancel={cancel} onConfirm={approve}>
      <p>{sentence}</p>
      <div className="field">
        <label htmlFor="approver">Manager</label>
        <select id="approver" className="input" value={managerId} onChange={(e) => setApprover(e.target.value)}>
          {managers.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="approver-pin">Manager PIN</label>
        <input
          id="approver-pin"
          className="input input-secret"
          inputMode="numeric"
          autoComplete="off"
          value={pin}
          onChange={(e) => setPin(e.target.value.replace(/\D/g, '').slice(0, 8))}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && pin.length > 0 && !busy) {
              e.preventDefault();
              approve();
            }
          }}
        />
      </div>
    </ConfirmDialog>
  );
}

/**
 * The manager's PIN for voiding a card payment of a paid sale (a return, issue 20 point 4), as
 * every screen that voids one asks it: `retry` is that screen's useApprovalRetry; `onCancel`
 * defaults to its cancel. Shown only while the core asks for the approval.
 */
export function VoidReturnApproval({
  amount,
  retry,
  onCancel,
}: {
  /** The payment's amount, as shown (money()). */
  amount: string;
  retry: { asking: boolean; busy: boolean; error: string | null; approve(a: Approval): void; cancel(): void };
  onCancel?: () => void;
}) {
  if (!retry.asking) return null;
  return (
    <ManagerApprovalDialog
      sentence={VOID_RETURN_SENTENCE(amount)}
      confirmLabel={`Approve and void the ${amount}`}
      busy={retry.busy}
      error={retry.error}
      onApprove={retry.approve}
      onCancel={onCancel ?? retry.cancel}
    />
  );
}
