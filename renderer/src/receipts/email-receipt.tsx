import { useState, type FormEvent } from 'react';
import type { ReceiptDelivery } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';

/** What the counter says once the gateway has the e-mail: "sent" only when it went out, else that it waits and why. */
function deliveryText(to: string, d: ReceiptDelivery): string {
  return d.state === 'sent' ? `Receipt sent to ${to}.` : `The receipt to ${to} is waiting to be sent: ${d.why.charAt(0).toLowerCase()}${d.why.slice(1)}`;
}

/**
 * Sends the receipt through the gateway's notification path (transaction edit with
 * notification_email_address) and says whether it went out (receipt-delivery.ts).
 */
export function EmailReceipt({ transactionId, initial }: { transactionId: string; initial?: string | null }) {
  const [email, setEmail] = useState(initial ?? '');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<{ to: string; delivery: ReceiptDelivery } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) {
      setError('Enter an e-mail address like name@example.com.');
      return;
    }
    setBusy(true);
    setError(null);
    const r = await ringup.receiptEmail({ id: transactionId, email: email.trim() });
    setBusy(false);
    if (r.ok) setSent({ to: r.value.sentTo, delivery: r.value.delivery });
    else setError(r.error.fields?.email?.[0] ?? r.error.message);
  };

  return (
    <form className="email-receipt" onSubmit={(e) => void submit(e)} noValidate>
      <label htmlFor={`email-${transactionId}`}>E-mail the receipt</label>
      <div className="input-row">
        <input
          id={`email-${transactionId}`}
          className="input"
          type="email"
          autoComplete="off"
          placeholder="customer@example.com"
          value={email}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `email-${transactionId}-error` : undefined}
          onChange={(e) => {
            setEmail(e.target.value);
            setSent(null);
          }}
        />
        <button type="submit" className="btn btn-secondary" disabled={busy}>
          {busy ? 'Sending…' : 'Send'}
        </button>
      </div>
      {error && (
        <p id={`email-${transactionId}-error`} className="field-error">
          {error}
        </p>
      )}
      <p role="status" className={sent?.delivery.state === 'waiting' ? 'notice notice-info' : 'ok-text'} data-testid="email-receipt-status">
        {sent ? deliveryText(sent.to, sent.delivery) : ''}
      </p>
    </form>
  );
}
