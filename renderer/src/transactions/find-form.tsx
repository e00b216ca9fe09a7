import { useState, type FormEvent } from 'react';
import type { TransactionSearchArgs } from '../../../shared/ipc/contract';
import { parseTypedAmount } from '../ui/money-format';
import { dateInputToUnix } from '../ui/time-format';
import { ErrorNote } from '../sales/outcome-note';
import { useTransactionsStore } from './transactions-store';

/** Find any transaction (not only today's) by last four, amount, date range, the receipt's Ref or auth code, or transaction ID. */
export function FindForm({ onFind, onCancel }: { onFind(args: TransactionSearchArgs): Promise<string | null>; onCancel(): void }) {
  // The fields live in the transactions store: closed and opened again, the form shows what was last asked.
  const { lastFour, amount, from, to, apiId, code } = useTransactionsStore((s) => s.findDraft);
  const setDraft = useTransactionsStore((s) => s.setFindDraft);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const args: TransactionSearchArgs = {};
    if (lastFour) {
      if (!/^\d{4}$/.test(lastFour)) return setError('The last four are four digits.');
      args.lastFour = lastFour;
    }
    if (amount) {
      const cents = parseTypedAmount(amount);
      if (!cents) return setError('Enter the amount like 12.50.');
      args.amountCents = cents;
    }
    const f = dateInputToUnix(from, false);
    const t = dateInputToUnix(to, true);
    if (f !== undefined) args.from = f;
    if (t !== undefined) args.to = t;
    if (f !== undefined && t !== undefined && f > t) return setError('The start date must be before the end date.');
    if (apiId.trim()) args.transactionApiId = apiId.trim();
    // The receipt prints two short codes: the 8-character Ref and the (usually 6-character) auth code.
    const c = code.trim().replace(/^ref\s*/i, '');
    if (c) {
      if (!/^[A-Za-z0-9]{1,12}$/.test(c)) return setError('The Ref and the auth code are letters and digits, as printed on the receipt.');
      if (c.length === 8) args.ref = c;
      else args.authCode = c;
    }
    if (Object.keys(args).length === 0) return setError('Fill in at least one thing to search by.');
    setError(null);
    setBusy(true);
    const err = await onFind(args);
    setBusy(false);
    if (err) setError(err);
  };

  return (
    <form className="find-form panel" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="find-title">
      <h2 id="find-title" className="section-title">
        Find a transaction
      </h2>
      <div className="find-grid">
        <div className="field">
          <label htmlFor="find-last4">Card last four</label>
          <input id="find-last4" className="input input-mono" inputMode="numeric" maxLength={4} value={lastFour} onChange={(e) => setDraft({ lastFour: e.target.value.replace(/\D/g, '') })} />
        </div>
        <div className="field">
          <label htmlFor="find-amount">Amount ($)</label>
          <input id="find-amount" className="input" inputMode="decimal" value={amount} placeholder="0.00" onChange={(e) => setDraft({ amount: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor="find-from">From date</label>
          <input id="find-from" className="input" type="date" value={from} onChange={(e) => setDraft({ from: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor="find-to">To date</label>
          <input id="find-to" className="input" type="date" value={to} onChange={(e) => setDraft({ to: e.target.value })} />
        </div>
        <div className="field find-half">
          <label htmlFor="find-code">Ref or auth code (from the receipt)</label>
          <input id="find-code" className="input input-mono" value={code} spellCheck={false} autoCapitalize="characters" onChange={(e) => setDraft({ code: e.target.value })} />
        </div>
        <div className="field find-half">
          <label htmlFor="find-apiid">Transaction ID</label>
          <input id="find-apiid" className="input input-mono" value={apiId} spellCheck={false} onChange={(e) => setDraft({ apiId: e.target.value })} />
        </div>
      </div>
      <ErrorNote text={error} />
      <div className="form-actions">
        <button type="button" className="btn btn-secondary btn-lg" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary btn-lg" disabled={busy}>
          {busy ? 'Searching…' : 'Find'}
        </button>
      </div>
    </form>
  );
}
