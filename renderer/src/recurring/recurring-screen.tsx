/**
 * Recurring payments (managers): the list with status, next run and amount; a new one
 * from a customer's saved card or bank account; hold / activate / skip / defer, each with
 * what it would change shown (from the core's preview) before it is confirmed; and every
 * run of the next 30 days.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { recurringCreateArgsSchema, type ContactView, type RecurringAction, type RecurringPreview, type RecurringView } from '../../../shared/ipc/contract';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { Fact } from '../ui/fact';
import { TextField } from '../ui/text-field';
import { ringup } from '../bridge/bridge';
import { money, parseTypedAmount } from '../ui/money-format';
import { useRecurringStore } from './recurring-store';
import { ErrorNote } from '../sales/outcome-note';

const STATUS_BADGE: Record<RecurringView['status'], string> = { active: 'badge badge-ok', 'on hold': 'badge badge-starting', ended: 'badge badge-state-other' };
const ACTION_LABEL: Record<RecurringAction, string> = { hold: 'Put on hold', activate: 'Activate', skip: 'Skip payments', defer: 'Defer payments' };

const localToday = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

function statusText(r: RecurringView): string {
  if (r.status === 'active' && !r.active) return 'inactive';
  return r.status;
}

function NewRecurringForm({ onCreated, onCancel }: { onCreated(r: RecurringView): void; onCancel(): void }) {
  const [contacts, setContacts] = useState<ContactView[]>([]);
  const [methodId, setMethodId] = useState('');
  const [amount, setAmount] = useState('');
  const [every, setEvery] = useState('1');
  const [unit, setUnit] = useState<'d' | 'w' | 'm'>('m');
  const [start, setStart] = useState(localToday());
  const [installments, setInstallments] = useState('');
  const [notice, setNotice] = useState('0');
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Editing a field clears its message: the one shown was about the old value.
  const edit = (key: string, set: (v: string) => void) => (v: string) => {
    set(v);
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => k !== key)));
  };

  useEffect(() => {
    void ringup.vaultContacts({ text: '' }).then((r) => {
      if (!r.ok) return setError(r.error.message);
      setContacts(r.value.filter((c) => c.methods.length > 0));
    });
  }, []);

  async function save(e: FormEvent) {
    e.preventDefault();
    const toInt = (s: string) => (/^\d{1,3}$/.test(s.trim()) ? Number(s.trim()) : NaN);
    const args = recurringCreateArgsSchema.safeParse({
      methodId,
      amountCents: parseTypedAmount(amount) ?? 0,
      interval: toInt(every),
      intervalType: unit,
      startDate: start,
      installments: installments.trim() === '' ? null : toInt(installments),
      notificationDays: notice.trim() === '' ? 0 : toInt(notice),
      description,
    });
    if (!args.success) {
      setErrors(Object.fromEntries(args.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    setBusy(true);
    const r = await ringup.recurringCreate(args.data);
    setBusy(false);
    if (!r.ok) {
      setError(r.error.message);
      if (r.error.fields) setErrors(Object.fromEntries(Object.entries(r.error.fields).map(([k, v]) => [k, v[0] ?? ''])));
      return;
    }
    onCreated(r.value);
  }

  return (
    <form className="panel customer-panel" onSubmit={(e) => void save(e)} aria-labelledby="new-recurring-title" noValidate>
      <h2 id="new-recurring-title" className="section-title">
        New recurring payment
      </h2>
      {contacts.length === 0 && <p className="muted">No customer has a saved card or bank account yet. Save one under Manage → Saved cards first.</p>}
      <div className="field">
        <label htmlFor="recurring-method">Charge</label>
        <select id="recurring-method" className="input" value={methodId} onChange={(e) => edit('methodId', setMethodId)(e.target.value)} aria-invalid={errors.methodId ? true : undefined} aria-describedby={errors.methodId ? 'recurring-method-error' : undefined} autoFocus>
          <option value="">Choose a saved card or bank account</option>
          {contacts.map((c) => (
            <optgroup key={c.id} label={c.name}>
              {c.methods.map((m) => (
                <option key={m.id} value={m.id}>
                  {c.name} — {m.label}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
        {errors.methodId && (
          <p id="recurring-method-error" className="field-error">
            {errors.methodId}
          </p>
        )}
      </div>
      <div className="add-method-grid">
        <TextField id="recurring-amount" label="Amount each time" inputMode="decimal" placeholder="0.00" value={amount} error={errors.amountCents} onChange={edit('amountCents', setAmount)} />
        <TextField id="recurring-every" label="Every" inputMode="numeric" value={every} maxLength={2} error={errors.interval} onChange={edit('interval', setEvery)} />
        <div className="field">
          <label htmlFor="recurring-unit">Unit</label>
          <select id="recurring-unit" className="input" value={unit} onChange={(e) => setUnit(e.target.value as 'd' | 'w' | 'm')}>
            <option value="d">days</option>
            <option value="w">weeks</option>
            <option value="m">months</option>
          </select>
        </div>
        <TextField id="recurring-start" label="First payment" type="date" value={start} error={errors.startDate} onChange={edit('startDate', setStart)} />
        <TextField id="recurring-installments" label="Number of payments (optional)" inputMode="numeric" maxLength={2} value={installments} error={errors.installments} hint="Empty: until you stop it." onChange={edit('installments', setInstallments)} />
        <TextField id="recurring-notice" label="Notify the customer (days before)" inputMode="numeric" maxLength={2} value={notice} error={errors.notificationDays} onChange={edit('notificationDays', setNotice)} />
        <TextField id="recurring-description" label="Description (optional)" maxLength={36} value={description} error={errors.description} onChange={edit('description', setDescription)} />
      </div>
      <ErrorNote text={error} />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary btn-lg" disabled={busy}>
          Start recurring payment
        </button>
        <button type="button" className="btn btn-secondary btn-lg" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function PreviewBody({ preview }: { preview: RecurringPreview }) {
  const row = (label: string, a: string, b: string) => (
    <tr>
      <th scope="row">{label}</th>
      <td>{a}</td>
      <td>{b}</td>
    </tr>
  );
  const left = (n: number | null) => (n === null ? 'until stopped' : String(n));
  return (
    <>
      <p data-testid="preview-summary">{preview.summary}</p>
      <table className="breakdown">
        <thead>
          <tr>
            <th scope="col">What</th>
            <th scope="col">Now</th>
            <th scope="col">After</th>
          </tr>
        </thead>
        <tbody>
          {row('Status', preview.before.status, preview.after.status)}
          {row('Next payment', preview.before.nextRunDate ?? '—', preview.after.nextRunDate ?? '—')}
          {row('Ends', preview.before.endDate ?? 'no end date', preview.after.endDate ?? 'no end date')}
          {row('Payments left', left(preview.before.paymentsLeft), left(preview.after.paymentsLeft))}
        </tbody>
      </table>
    </>
  );
}

function Detail({ r, onChanged }: { r: RecurringView; onChanged(note: string): void }) {
  const [count, setCount] = useState('1');
  const [preview, setPreview] = useState<RecurringPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const countNumber = /^\d{1,2}$/.test(count) && Number(count) >= 1 ? Number(count) : null;

  async function ask(action: RecurringAction) {
    setError(null);
    const n = action === 'skip' || action === 'defer' ? countNumber : 1;
    if (n === null) return setError('Choose 1 to 99 payments.');
    const p = await ringup.recurringPreview({ id: r.id, action, count: n });
    if (!p.ok) return setError(p.error.message);
    setPreview(p.value);
  }

  const actions: RecurringAction[] = r.status === 'active' ? ['hold', 'skip', ...(r.kind === 'installment' ? (['defer'] as const) : [])] : r.status === 'on hold' ? ['activate'] : [];
  return (
    <div className="panel customer-panel" data-testid="recurring-detail">
      <h2 className="section-title">
        {r.customerName} · {money(r.amountCents)}
      </h2>
      <dl className="facts facts-compact">
        <Fact label="Status">
          <span className={STATUS_BADGE[r.status]}>{statusText(r)}</span>
        </Fact>
        <Fact label="Charged to">{r.methodLabel}</Fact>
        <Fact label="Schedule">
          {r.scheduleLabel}
          {r.kind === 'installment' ? `, ${r.installments} payments` : ', until stopped'}
        </Fact>
        <Fact label="Next payment" testId="detail-next">
          {r.nextRunDate ?? '—'}
        </Fact>
        <Fact label="Ends">{r.endDate ?? 'no end date'}</Fact>
        {r.description && <Fact label="Description">{r.description}</Fact>}
      </dl>
      {actions.length > 0 && (
        <div className="form-actions recurring-actions">
          {(actions.includes('skip') || actions.includes('defer')) && (
            <TextField id="recurring-count" label="Payments to skip or defer" inputMode="numeric" maxLength={2} value={count} onChange={setCount} className="input recurring-count" />
          )}
          {actions.map((a) => (
            <button key={a} type="button" className="btn btn-secondary btn-lg" onClick={() => void ask(a)}>
              {ACTION_LABEL[a]}…
            </button>
          ))}
        </div>
      )}
      {error && !preview && (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      )}
      {preview && (
        <ConfirmDialog
          title={`${ACTION_LABEL[preview.action]}: ${r.customerName}, ${money(r.amountCents)}?`}
          confirmLabel={ACTION_LABEL[preview.action]}
          busy={busy}
          error={error}
          onCancel={() => {
            setPreview(null);
            setError(null);
          }}
          onConfirm={async () => {
            setBusy(true);
            const done = await ringup.recurringAct({ id: r.id, action: preview.action, count: preview.count });
            setBusy(false);
            if (!done.ok) return setError(`Nothing changed: ${done.error.message}`);
            setPreview(null);
            onChanged(`${ACTION_LABEL[preview.action]}: done. Next payment ${done.value.nextRunDate ?? 'none'}.`);
          }}
        >
          <PreviewBody preview={preview} />
        </ConfirmDialog>
      )}
    </div>
  );
}

export function RecurringScreen() {
  const st = useRecurringStore();
  const { load } = st;
  const [creating, setCreating] = useState(false);
  const [note, setNote] = useState<string | null>(null);

  useEffect(() => {
    void load();
  }, [load]);

  const list = st.data?.recurrings ?? [];
  const selected = list.find((r) => r.id === st.selectedId) ?? null;
  const upcoming = st.data?.upcoming ?? [];

  return (
    <div className="batches-layout">
      <aside className="panel batch-side" aria-labelledby="recurring-title">
        <h1 id="recurring-title" className="section-title" tabIndex={-1} data-screen-focus>
          Recurring payments
        </h1>
        <button
          type="button"
          className="btn btn-primary btn-lg"
          onClick={() => {
            setNote(null);
            setCreating(true);
          }}
        >
          New recurring payment
        </button>
        {list.length === 0 && !st.loading && <p className="muted">No recurring payments yet.</p>}
        <ul className="batch-history" aria-label="Recurring payments">
          {list.map((r) => (
            <li key={r.id}>
              <button
                type="button"
                className="batch-pick"
                aria-pressed={r.id === st.selectedId && !creating}
                data-testid="recurring-row"
                onClick={() => {
                  setCreating(false);
                  setNote(null);
                  st.select(r.id);
                }}
              >
                <strong>{r.customerName}</strong>
                <span className={STATUS_BADGE[r.status]}>{statusText(r)}</span>
                <span className="muted">
                  {money(r.amountCents)} · {r.scheduleLabel.toLowerCase()} · {r.nextRunDate ? `next ${r.nextRunDate}` : 'no next payment'}
                </span>
              </button>
            </li>
          ))}
        </ul>
      </aside>
      <section className="batch-main recurring-main" aria-label="Recurring payment">
        {st.error && (
          <p className="notice notice-error" role="alert">
            {st.error}
          </p>
        )}
        {note && (
          <p className="notice notice-ok" role="status">
            {note}
          </p>
        )}
        {creating ? (
          <NewRecurringForm
            onCancel={() => setCreating(false)}
            onCreated={(r) => {
              setCreating(false);
              setNote(`Recurring payment for ${r.customerName} started: ${money(r.amountCents)}, ${r.scheduleLabel.toLowerCase()}, first on ${(r.nextRunDate ?? '—').replace(/-/g, '\u2011')}.`); // non-breaking hyphens: the date never splits across lines
              st.select(r.id);
              void load();
            }}
          />
        ) : selected ? (
          <Detail
            key={selected.id}
            r={selected}
            onChanged={(msg) => {
              setNote(msg);
              void load();
            }}
          />
        ) : (
          <div className="panel detail-empty">
            <h2 className="section-title">No recurring payment selected</h2>
            <p className="muted">Start one from a customer's saved card or bank account.</p>
          </div>
        )}
        <div className="panel">
          <h2 className="section-title" id="upcoming-title">
            Next 30 days
          </h2>
          {upcoming.length === 0 ? (
            <p className="muted">No payment is due in the next 30 days.</p>
          ) : (
            <table className="breakdown" aria-labelledby="upcoming-title">
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">Customer</th>
                  <th scope="col">Charged to</th>
                  <th scope="col" className="num">
                    Amount
                  </th>
                </tr>
              </thead>
              <tbody>
                {upcoming.map((u) => (
                  <tr key={`${u.recurringId}-${u.date}`} data-testid="upcoming-run">
                    <td>{u.date}</td>
                    <td>{u.customerName}</td>
                    <td>{u.methodLabel}</td>
                    <td className="num">{money(u.amountCents)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      </section>
    </div>
  );
}
