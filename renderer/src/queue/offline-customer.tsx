import { useState, type FormEvent } from 'react';
import type { Tender } from '../../../shared/cart/tender-machine';
import { isOfflinePlaceholder } from '../../../shared/offline-ref';
import { ringup } from '../bridge/bridge';
import { TextField } from '../ui/text-field';

/**
 * On a sale approved offline (issue 13): the customer's name and phone or e-mail, both
 * optional, asked while they are still at the counter. Should the card be declined once the
 * sale reaches the gateway, the manager's offline queue lists them to collect another way.
 */
export function OfflineCustomer({ clientRefs }: { clientRefs: readonly string[] }) {
  const [name, setName] = useState('');
  const [contact, setContact] = useState('');
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const [errors, setErrors] = useState<{ name?: string; contact?: string; general?: string }>({});

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    // One customer, every card payment of theirs that waits (a cart may hold more than one).
    let r: Awaited<ReturnType<typeof ringup.queueSetCustomer>> | undefined;
    for (const clientRef of clientRefs) {
      r = await ringup.queueSetCustomer({ clientRef, name, contact });
      if (!r.ok) break;
    }
    setBusy(false);
    if (!r) return;
    if (r.ok) {
      setErrors({});
      setSaved(true);
    } else setErrors({ name: r.error.fields?.name?.[0], contact: r.error.fields?.contact?.[0], general: r.error.fields ? undefined : r.error.message });
  };
  const id = `offline-customer-${clientRefs[0] ?? ''}`;

  return (
    <form className="offline-customer" onSubmit={(e) => void submit(e)} noValidate aria-labelledby={`${id}-title`} data-testid="offline-customer">
      <h2 id={`${id}-title`} className="offline-customer-title">
        How to reach the customer
      </h2>
      <p className="muted">Optional. If the card is declined once the gateway answers, the manager sees these to collect another way.</p>
      <div className="offline-customer-fields">
        <TextField id={`${id}-name`} label="Customer's name" value={name} maxLength={64} error={errors.name} onChange={(v) => (setName(v), setSaved(false))} />
        <TextField id={`${id}-contact`} label="Phone or e-mail" value={contact} maxLength={64} inputMode="email" error={errors.contact} onChange={(v) => (setContact(v), setSaved(false))} />
      </div>
      <button type="submit" className="btn btn-secondary btn-lg" disabled={busy || (!name.trim() && !contact.trim())}>
        {busy ? 'Saving…' : 'Save contact'}
      </button>
      {errors.general && (
        <p className="field-error" role="alert">
          {errors.general}
        </p>
      )}
      <p role="status" className="ok-text">
        {saved ? 'Saved with the sale.' : ''}
      </p>
    </form>
  );
}

/** The form for a cart whose card payments were approved offline (none: nothing shown). */
export function OfflineTenderCustomer({ tenders }: { tenders: readonly Tender[] }) {
  const refs = tenders.filter((t) => t.status === 'approved' && isOfflinePlaceholder(t.transactionId)).map((t) => t.id);
  return refs.length > 0 ? <OfflineCustomer key={refs.join(',')} clientRefs={refs} /> : null;
}
