import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { TransactionView } from '../../../shared/ipc/contract';
import { formatMoney } from '../../../shared/payments/money';
import { ringup } from '../bridge/bridge';
import { money, parseTypedAmount } from '../ui/money-format';
import { useApprovalRetry } from '../auth/use-approval-retry';
import { ManagerApprovalDialog } from '../auth/manager-approval-dialog';

/** What the manager approval dialog asks when a cashier lowers a tip (the core answered `approval_needed`). */
export const LOWER_TIP_SENTENCE = (from: string, to: string) =>
  `The cashier asks to lower the tip from ${from} to ${to}. That collects less than the card approved, so a manager approves it with their PIN.`;

/** Whether a sale's tip may still be adjusted: approved in full, by card, not refunded, its batch not settled (the core checks again). */
export function tipAdjustable(t: TransactionView): boolean {
  return t.kind === 'sale' && t.state === 'approved' && !t.partial && !t.settled && t.entryMode !== 'check';
}

/**
 * Tip adjust (issue 21, point 10b): the tip written on the signed slip, added to the approved
 * sale before its batch settles. The gateway holds the new total to its tip tolerance and its
 * refusal is shown as it comes; a lowered tip asks for a manager's PIN when a cashier lowers it.
 */
export function TipAdjust({ t, onAdjusted }: { t: TransactionView; onAdjusted(view: TransactionView): void }) {
  const [text, setText] = useState(formatMoney(t.tipCents));
  const [fieldError, setFieldError] = useState<string | null>(null);
  // Said beside the field (the detail panel may be scrolled down to it), not at the panel's top.
  const [done, setDone] = useState<string | null>(null);
  useEffect(() => setDone(null), [t.id]);
  useEffect(() => {
    setText(formatMoney(t.tipCents));
    setFieldError(null);
  }, [t.id, t.tipCents]);
  const typed = parseTypedAmount(text) ?? 0;
  const step = useApprovalRetry(
    (approval) => ringup.transactionsAdjustTip({ id: t.id, tipCents: typed, ...(approval ? { approval } : {}) }),
    (r) => {
      setDone(`Tip ${money(r.previousTipCents)} → ${money(r.transaction.tipCents)}: the sale is now ${money(r.transaction.amountCents)}.`);
      onAdjusted(r.transaction);
    },
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    // An empty field is no tip; anything else must read as an amount.
    if (text.trim() !== '' && parseTypedAmount(text) === null) return setFieldError('Enter the tip like 3.50.');
    setFieldError(null);
    setDone(null);
    void step.run();
  };
  const error = fieldError ?? (step.asking ? null : step.error);
  // The detail panel scrolls: a refusal comes into view where the tip was typed.
  const errorRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (error) errorRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [error]);

  return (
    <>
      <form className="tip-adjust" onSubmit={submit} noValidate aria-labelledby="tip-adjust-title">
        <h3 id="tip-adjust-title" className="tip-adjust-title">
          Tip from the signed slip
        </h3>
        <div className="field">
          <label htmlFor="tip-adjust-amount">Tip ($)</label>
          <div className="input-row">
            <input
              id="tip-adjust-amount"
              className="input"
              inputMode="decimal"
              value={text}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'tip-adjust-error' : 'tip-adjust-hint'}
              onChange={(e) => setText(e.target.value)}
            />
            <button type="submit" className="btn btn-secondary btn-lg" disabled={step.busy}>
              {step.busy ? 'Adjusting…' : 'Adjust tip'}
            </button>
          </div>
          <p id="tip-adjust-hint" className="muted">
            Before the batch settles. A total far above what the card approved is refused.
          </p>
          {done && !error && (
            <p className="notice notice-ok" role="status" data-testid="tip-adjust-done">
              {done}
            </p>
          )}
          {error && (
            <p id="tip-adjust-error" ref={errorRef} className="field-error" role="alert" data-testid="tip-adjust-error">
              {error}
            </p>
          )}
        </div>
      </form>
      {step.asking && (
        <ManagerApprovalDialog
          sentence={LOWER_TIP_SENTENCE(money(t.tipCents), money(typed))}
          confirmLabel={`Approve the ${money(typed)} tip`}
          busy={step.busy}
          error={step.error}
          onApprove={step.approve}
          onCancel={step.cancel}
        />
      )}
    </>
  );
}
