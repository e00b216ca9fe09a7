/**
 * The Gateway screen's "Pay links" part (managers): the public address the store's pay links
 * and invoices use, and — in words — whether a customer's phone can open them as they are
 * now (127.0.0.1 or localhost is this computer: a phone cannot). The core keeps the address
 * on the gateway's location (pay-pages.ts); the check and the sentence are shared ones.
 */
import { useEffect, useState, type FormEvent } from 'react';
import type { PayPagesView } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { Fact } from '../ui/fact';
import { OutcomeNote, type Outcome } from '../sales/outcome-note';
import { TextField } from '../ui/text-field';

export function PayPageAddress() {
  const [view, setView] = useState<PayPagesView | null>(null);
  const [address, setAddress] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void ringup.paypagesGet().then((r) => {
      if (r.ok) {
        setView(r.value);
        setAddress(r.value.address);
      } else setNote({ ok: false, text: r.error.message });
    });
  }, []);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setNote(null);
    const r = await ringup.paypagesSet({ address });
    setBusy(false);
    if (!r.ok) return setError(r.error.fields?.address?.[0] ?? r.error.message);
    setView(r.value);
    setAddress(r.value.address);
    setNote({ ok: true, text: r.value.address ? 'Saved: new pay links and invoices use this address.' : 'Saved: pay links use the gateway’s own address again.' });
  };

  return (
    <form className="panel gateway-form" aria-labelledby="paypages-title" onSubmit={(e) => void save(e)} noValidate>
      <h2 id="paypages-title" className="section-title">
        Pay links
      </h2>
      {view && (
        <dl className="facts">
          <Fact label="Links open at" mono testId="paypages-links-at">
            {view.linksAt}
          </Fact>
        </dl>
      )}
      {view?.unreachable && (
        <p className="notice notice-error" data-testid="paypages-unreachable">
          {view.unreachable}
        </p>
      )}
      <TextField
        id="paypages-address"
        label="Public address of the pay pages"
        value={address}
        placeholder="https://pay.yourstore.com"
        hint="Where customers’ phones reach this register (your proxy or tunnel). Blank: the gateway’s own address."
        error={error}
        onChange={(v) => {
          setAddress(v);
          setError(null);
        }}
      />
      <OutcomeNote note={note} />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary btn-lg" disabled={busy || view === null}>
          Use this address
        </button>
      </div>
    </form>
  );
}
