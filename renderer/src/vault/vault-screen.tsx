/**
 * Saved cards: find a customer, see their saved cards and bank accounts (masked), add one,
 * update a card's expiry, delete one (the gateway may refuse, e.g. while a recurring
 * payment uses it: its sentence is shown). Charging a saved method is on the sale screen.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { addContactArgsSchema, expirySchema, type SavedMethod } from '../../../shared/ipc/contract';
import { AddMethodForm } from './add-method-form';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { TextField } from '../ui/text-field';
import { ringup } from '../bridge/bridge';
import { expiryMMYY, formatExpiryInput } from '../sales/card-entry';
import { schemaError } from '../ui/schema-check';
import { useVaultStore } from './vault-store';
import { ErrorNote } from '../sales/outcome-note';

function ExpiryEditor({ method, onDone }: { method: SavedMethod; onDone(msg: string | null): void }) {
  const [text, setText] = useState(method.expiry ?? '');
  const [error, setError] = useState<string | null>(null);
  const id = `expiry-${method.id}`;
  async function save(e: FormEvent) {
    e.preventDefault();
    const mmyy = expiryMMYY(text);
    const err = schemaError(expirySchema, mmyy);
    if (err) return setError(err);
    const r = await ringup.vaultUpdateExpiry({ id: method.id, expiry: mmyy });
    if (!r.ok) return setError(r.error.message);
    onDone(`${r.value.label} now expires ${r.value.expiry}.`);
  }
  return (
    <form className="expiry-editor" onSubmit={(e) => void save(e)}>
      <TextField id={id} label={`New expiry for ${method.label}`} className="input input-mono" placeholder="MM/YY" value={text} maxLength={5} error={error} onChange={(v) => setText(formatExpiryInput(v, text))} autoFocus />
      <button type="submit" className="btn btn-primary">
        Save expiry
      </button>
      <button type="button" className="btn btn-quiet" onClick={() => onDone(null)}>
        Cancel
      </button>
    </form>
  );
}

function AddCustomerForm({ onAdded, onCancel }: { onAdded(id: string): void; onCancel(): void }) {
  const [first, setFirst] = useState('');
  const [last, setLast] = useState('');
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  async function save(e: FormEvent) {
    e.preventDefault();
    const args = addContactArgsSchema.safeParse({ firstName: first, lastName: last, email });
    if (!args.success) {
      setErrors(Object.fromEntries(args.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    const r = await ringup.vaultAddContact(args.data);
    if (!r.ok) return setError(r.error.message);
    onAdded(r.value.id);
  }
  return (
    <form className="panel add-customer" onSubmit={(e) => void save(e)} aria-labelledby="add-customer-title" noValidate>
      <h2 id="add-customer-title" className="section-title">
        New customer
      </h2>
      <div className="add-method-grid">
        <TextField id="customer-first" label="First name" value={first} maxLength={64} onChange={setFirst} autoFocus />
        <TextField id="customer-last" label="Last name" value={last} maxLength={64} error={errors.lastName} onChange={setLast} />
        <TextField id="customer-email" label="E-mail (optional)" type="email" value={email} maxLength={64} error={errors.email} onChange={setEmail} />
      </div>
      <ErrorNote text={error} />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary btn-lg">
          Add customer
        </button>
        <button type="button" className="btn btn-secondary btn-lg" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function VaultScreen() {
  const st = useVaultStore();
  const { load } = st;
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<SavedMethod | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);

  useEffect(() => {
    void load();
  }, [load]);

  const contact = st.contacts.find((c) => c.id === st.selectedId) ?? null;

  return (
    <div className="batches-layout">
      <aside className="panel batch-side" aria-labelledby="vault-title">
        <h1 id="vault-title" className="section-title" tabIndex={-1} data-screen-focus>
          Saved cards
        </h1>
        <TextField id="vault-find" label="Find a customer" type="search" placeholder="Name, e-mail or last 4" value={st.text} onChange={st.setText} />
        <button type="button" className="btn btn-secondary btn-lg" onClick={() => setAdding(true)}>
          New customer
        </button>
        {st.contacts.length === 0 && !st.loading && <p className="muted">{st.text ? 'No customer matches.' : 'No customers yet. Add the first one.'}</p>}
        <ul className="batch-history" aria-label="Customers">
          {st.contacts.map((c) => (
            <li key={c.id}>
              <button
                type="button"
                className="batch-pick"
                aria-pressed={c.id === st.selectedId}
                onClick={() => {
                  setAdding(false);
                  setNote(null);
                  st.select(c.id);
                }}
              >
                <strong>{c.name}</strong>
                <span className="muted">{c.methods.length === 1 ? '1 saved' : `${c.methods.length} saved`}</span>
                {c.email && <span className="muted">{c.email}</span>}
              </button>
            </li>
          ))}
        </ul>
      </aside>
      <section className="batch-main" aria-label="Customer">
        {st.error && (
          <p className="notice notice-error" role="alert">
            {st.error}
          </p>
        )}
        {adding ? (
          <AddCustomerForm
            onCancel={() => setAdding(false)}
            onAdded={(id) => {
              setAdding(false);
              st.select(id);
              void load();
            }}
          />
        ) : !contact ? (
          <div className="panel detail-empty">
            <h2 className="section-title">No customer selected</h2>
            <p className="muted">Add a customer, then save their card or bank account to charge it later from the sale screen.</p>
          </div>
        ) : (
          <div className="panel customer-panel">
            <h2 className="section-title" data-testid="customer-name">
              {contact.name}
            </h2>
            {contact.email && <p className="muted">{contact.email}</p>}
            {note && (
              <p className="notice notice-ok" role="status">
                {note}
              </p>
            )}
            <h3>Saved payment methods</h3>
            {contact.methods.length === 0 ? (
              <p className="muted">Nothing saved yet.</p>
            ) : (
              <ul className="method-list" aria-label="Saved payment methods">
                {contact.methods.map((m) => (
                  <li key={m.id} className="method-item" data-testid="saved-method">
                    <div className="method-text">
                      <strong>{m.label}</strong>
                      <span className="muted">
                        {m.kind === 'card' ? `Expires ${m.expiry ?? '—'}${m.expiringInMonths !== null && m.expiringInMonths <= 1 ? ' (soon)' : ''}` : 'Bank account'}
                        {m.holderName ? ` · ${m.holderName}` : ''}
                      </span>
                    </div>
                    <div className="method-actions">
                      {m.kind === 'card' && contact.id !== 'none' && (
                        <button type="button" className="btn btn-secondary" onClick={() => setEditing(m.id)} aria-label={`Update expiry of ${m.label}`}>
                          Update expiry
                        </button>
                      )}
                      <button type="button" className="btn btn-secondary" onClick={() => setDeleting(m)} aria-label={`Delete ${m.label}`}>
                        Delete
                      </button>
                    </div>
                    {editing === m.id && (
                      <ExpiryEditor
                        method={m}
                        onDone={(msg) => {
                          setEditing(null);
                          setNote(msg);
                          if (msg) void load();
                        }}
                      />
                    )}
                  </li>
                ))}
              </ul>
            )}
            {contact.id !== 'none' && (
              <AddMethodForm
                contactId={contact.id}
                onAdded={(m) => {
                  setNote(`${m.label} saved for ${contact.name}.`);
                  void load();
                }}
              />
            )}
          </div>
        )}
      </section>
      {deleting && (
        <ConfirmDialog
          title={`Delete ${deleting.label}?`}
          confirmLabel="Delete"
          danger
          busy={busy}
          error={deleteError}
          onCancel={() => {
            setDeleting(null);
            setDeleteError(null);
          }}
          onConfirm={async () => {
            setBusy(true);
            const r = await ringup.vaultDelete({ id: deleting.id });
            setBusy(false);
            if (!r.ok) return setDeleteError(`It was not deleted: ${r.error.message}`);
            setNote(`${deleting.label} deleted.`);
            setDeleting(null);
            void load();
          }}
        >
          <p>The customer will need to give the card or account again to be charged with it.</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
