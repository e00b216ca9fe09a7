import { useState, type FormEvent } from 'react';
import { ringup } from '../bridge/bridge';

/** Sends the receipt through the gateway's notification path (transaction edit with notification_email_address). */
export function EmailReceipt({ transactionId, initial }: { transactionId: string; initial?: string | null }) {
  const [email, setEmail] = useState(initial ?? '');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
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
    if (r.ok) setSent(r.value.sentTo);
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
      <p role="status" className="ok-text">
        {sent ? `Receipt sent to ${sent}.` : ''}
      </p>
    </form>
  );
}
