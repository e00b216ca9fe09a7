/**
 * Pay links and invoices (phone and mail orders, cashiers and managers): create a pay link
 * or a quick invoice and send it by e-mail and/or SMS, see which are paid or unpaid and an
 * invoice's remaining balance, send one again, open its payment page. Fields are checked
 * as typed with the contract's own schemas; the gateway's refusals are shown in its words.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { createInvoiceArgsSchema, createPaylinkArgsSchema, type BillingPayment, type PaylinkView } from '../../../shared/ipc/contract';
import { TextField } from '../ui/text-field';
import { ringup } from '../bridge/bridge';
import { money, parseTypedAmount } from '../ui/money-format';
import { useBillingLinksStore } from './billing-links-store';
import { ErrorNote } from '../sales/outcome-note';

type Kind = 'paylink' | 'invoice';

const issuesOf = (issues: readonly { path: readonly PropertyKey[]; message: string }[]) =>
  Object.fromEntries(issues.map((i) => [i.path.map(String).join('.'), i.message]));

function inAWeek(): string {
  const d = new Date(Date.now() + 7 * 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

function PaylinkForm({ onDone }: { onDone(msg: string): void }) {
  const [amount, setAmount] = useState('');
  const [description, setDescription] = useState('');
  const [email, setEmail] = useState('');
  const [phone, setPhone] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function send(e: FormEvent) {
    e.preventDefault();
    const cents = amount.trim() === '' ? 0 : parseTypedAmount(amount);
    if (cents === null) return setErrors({ amount: 'Type the amount like 25.00, or leave it empty.' });
    const args = createPaylinkArgsSchema.safeParse({ amountCents: cents, description, email: email.trim(), cellPhone: phone.replace(/\D/g, '') });
    if (!args.success) return setErrors(issuesOf(args.error.issues));
    setErrors({});
    setBusy(true);
    const r = await ringup.paylinksCreateLink(args.data);
    setBusy(false);
    if (!r.ok) return setError(r.error.message);
    setError(null);
    onDone(`Pay link${r.value.amountCents ? ` for ${money(r.value.amountCents)}` : ''} sent to ${r.value.recipient}.`);
  }
  return (
    <form className="billing-form" onSubmit={(e) => void send(e)} aria-label="New pay link" noValidate>
      <TextField id="pl-amount" label="Amount (empty: the customer types it)" className="input input-mono" inputMode="decimal" value={amount} error={errors.amount} onChange={setAmount} autoFocus />
      <TextField id="pl-description" label="What it is for" value={description} maxLength={255} onChange={setDescription} />
      <TextField id="pl-email" label="Customer e-mail" type="email" value={email} maxLength={128} error={errors.email} onChange={setEmail} />
      <TextField id="pl-phone" label="Customer cell phone (SMS)" inputMode="tel" value={phone} maxLength={14} error={errors.cellPhone} onChange={setPhone} />
      <ErrorNote text={error} />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary btn-lg" disabled={busy}>
          Send pay link
        </button>
      </div>
    </form>
  );
}

interface Line {
  name: string;
  amount: string;
}

function InvoiceForm({ onDone }: { onDone(msg: string): void }) {
  const [title, setTitle] = useState('');
  const [due, setDue] = useState(inAWeek);
  const [lines, setLines] = useState<Line[]>([{ name: '', amount: '' }]);
  const [email, setEmail] = useState('');
  const [phone, setPhone] = useState('');
  const [partial, setPartial] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const setLine = (i: number, l: Partial<Line>) => setLines((ls) => ls.map((x, j) => (j === i ? { ...x, ...l } : x)));
  const total = lines.reduce((t, l) => t + (parseTypedAmount(l.amount) ?? 0), 0);
  async function send(e: FormEvent) {
    e.preventDefault();
    const bad = lines.findIndex((l) => parseTypedAmount(l.amount) === null);
    if (bad >= 0) return setErrors({ [`items.${bad}.amountCents`]: 'Type the amount like 12.50.' });
    const args = createInvoiceArgsSchema.safeParse({
      title,
      dueDate: due,
      items: lines.map((l) => ({ name: l.name, amountCents: parseTypedAmount(l.amount) ?? 0 })),
      email: email.trim(),
      cellPhone: phone.replace(/\D/g, ''),
      allowPartial: partial,
    });
    if (!args.success) return setErrors(issuesOf(args.error.issues));
    setErrors({});
    setBusy(true);
    const r = await ringup.paylinksCreateInvoice(args.data);
    setBusy(false);
    if (!r.ok) return setError(r.error.message);
    setError(null);
    onDone(`Invoice "${r.value.title}" for ${money(r.value.amountDueCents)} sent to ${r.value.recipient}.`);
  }
  return (
    <form className="billing-form" onSubmit={(e) => void send(e)} aria-label="New invoice" noValidate>
      <TextField id="qi-title" label="Invoice for" value={title} maxLength={64} error={errors.title} onChange={setTitle} autoFocus />
      <TextField id="qi-due" label="Due date" type="date" value={due} error={errors.dueDate} onChange={setDue} />
      <fieldset className="invoice-lines">
        <legend>Lines</legend>
        {lines.map((l, i) => (
          <div className="add-method-grid" key={i}>
            <TextField id={`qi-line-${i}-name`} label={`Line ${i + 1}`} value={l.name} maxLength={128} error={errors[`items.${i}.name`]} onChange={(v) => setLine(i, { name: v })} />
            <TextField id={`qi-line-${i}-amount`} label={`Amount ${i + 1}`} className="input input-mono" inputMode="decimal" value={l.amount} error={errors[`items.${i}.amountCents`]} onChange={(v) => setLine(i, { amount: v })} />
          </div>
        ))}
        {errors.items && <p className="field-error">{errors.items}</p>}
        <button type="button" className="btn btn-secondary" onClick={() => setLines((ls) => [...ls, { name: '', amount: '' }])}>
          Add a line
        </button>
        <p>
          Total: <strong data-testid="invoice-total">{money(total)}</strong>
        </p>
      </fieldset>
      <TextField id="qi-email" label="Customer e-mail" type="email" value={email} maxLength={128} error={errors.email} onChange={setEmail} />
      <TextField id="qi-phone" label="Customer cell phone (SMS)" inputMode="tel" value={phone} maxLength={14} error={errors.cellPhone} onChange={setPhone} />
      <label className="switch">
        <input type="checkbox" checked={partial} onChange={(e) => setPartial(e.target.checked)} />
        <span className="switch-track" aria-hidden="true" />
        The customer may pay part of it
      </label>
      <ErrorNote text={error} />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary btn-lg" disabled={busy}>
          Send invoice
        </button>
      </div>
    </form>
  );
}

function Actions({ kind, id, label, pageUrl, paid, onNote }: { kind: Kind; id: string; label: string; pageUrl: string; paid: boolean; onNote(msg: string, bad?: boolean): void }) {
  const [busy, setBusy] = useState(false);
  return (
    <div className="method-actions">
      {/* Sending a paid link or invoice again would ask the customer to pay twice. */}
      {paid ? (
        <span className="muted">Paid: nothing to send</span>
      ) : (
      <button
        type="button"
        className="btn btn-secondary"
        disabled={busy}
        aria-label={`Send again: ${label}`}
        onClick={async () => {
          setBusy(true);
          const r = await ringup.paylinksResend({ kind, id });
          setBusy(false);
          onNote(r.ok ? `${label.charAt(0).toUpperCase()}${label.slice(1)} sent again.` : `It was not sent: ${r.error.message}`, !r.ok);
        }}
      >
        Send again
      </button>
      )}
      <a className="btn btn-secondary" href={pageUrl} target="_blank" rel="noopener noreferrer" aria-label={`Payment page: ${label}`}>
        Payment page
      </a>
    </div>
  );
}

const paymentText: Record<BillingPayment, string> = { unpaid: 'Unpaid', partial: 'Partly paid', paid: 'Paid' };
const BADGE: Record<BillingPayment, string> = { unpaid: 'badge-state-other', partial: 'badge-starting', paid: 'badge-ok' };

export function BillingLinksScreen() {
  const st = useBillingLinksStore();
  const { load } = st;
  const [kind, setKind] = useState<Kind>('paylink');
  const [note, setNote] = useState<{ text: string; bad: boolean } | null>(null);
  const [formKey, setFormKey] = useState(0);

  useEffect(() => {
    void load();
  }, [load]);

  const done = (text: string) => {
    setNote({ text, bad: false });
    setFormKey((k) => k + 1);
    void load();
  };
  const onNote = (text: string, bad = false) => setNote({ text, bad });

  const plLabel = (p: PaylinkView) => `pay link ${p.amountCents ? money(p.amountCents) : '(any amount)'} to ${p.recipient || 'no one'}`;

  return (
    <div className="batches-layout">
      <aside className="panel batch-side" aria-labelledby="billing-title">
        <h1 id="billing-title" className="section-title" tabIndex={-1} data-screen-focus>
          Pay links and invoices
        </h1>
        <div className="segmented" role="radiogroup" aria-label="What to send">
          <button type="button" role="radio" className="segment" aria-checked={kind === 'paylink'} onClick={() => setKind('paylink')}>
            Pay link
          </button>
          <button type="button" role="radio" className="segment" aria-checked={kind === 'invoice'} onClick={() => setKind('invoice')}>
            Invoice
          </button>
        </div>
        {kind === 'paylink' ? <PaylinkForm key={`pl-${formKey}`} onDone={done} /> : <InvoiceForm key={`qi-${formKey}`} onDone={done} />}
      </aside>
      <section className="batch-main" aria-label="Sent">
        {note && (
          <p className={`notice ${note.bad ? 'notice-error' : 'notice-ok'}`} role={note.bad ? 'alert' : 'status'}>
            {note.text}
          </p>
        )}
        {st.error && (
          <p className="notice notice-error" role="alert">
            {st.error}
          </p>
        )}
        <div className="panel">
          <h2 className="section-title">Invoices</h2>
          {st.view.invoices.length === 0 ? (
            <p className="muted">No invoices yet.</p>
          ) : (
            <ul className="method-list" aria-label="Invoices">
              {st.view.invoices.map((q) => (
                <li key={q.id} className="method-item" data-testid="invoice-row">
                  <div className="method-text">
                    <strong>
                      {q.title} · {money(q.amountDueCents)}
                    </strong>
                    <span className="muted">
                      <span className={`badge ${BADGE[q.payment]}`}>{paymentText[q.payment]}</span> · remaining {money(q.remainingCents)} · due {q.dueDate}
                      {q.recipient ? ` · ${q.recipient}` : ''}
                    </span>
                  </div>
                  <Actions kind="invoice" id={q.id} label={`invoice "${q.title}"`} pageUrl={q.pageUrl} paid={q.payment === 'paid'} onNote={onNote} />
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="panel">
          <h2 className="section-title">Pay links</h2>
          {st.view.paylinks.length === 0 ? (
            <p className="muted">No pay links yet.</p>
          ) : (
            <ul className="method-list" aria-label="Pay links">
              {st.view.paylinks.map((p) => (
                <li key={p.id} className="method-item" data-testid="paylink-row">
                  <div className="method-text">
                    <strong>
                      {p.amountCents ? money(p.amountCents) : 'Any amount'}
                      {p.description ? ` · ${p.description}` : ''}
                    </strong>
                    <span className="muted">
                      <span className={`badge ${BADGE[p.payment]}`}>{paymentText[p.payment]}</span>
                      {p.payment === 'partial' && p.remainingCents !== null ? ` · remaining ${money(p.remainingCents)}` : ''}
                      {p.recipient ? ` · ${p.recipient}` : ''}
                    </span>
                  </div>
                  <Actions kind="paylink" id={p.id} label={plLabel(p)} pageUrl={p.pageUrl} paid={p.payment === 'paid'} onNote={onNote} />
                </li>
              ))}
            </ul>
          )}
        </div>
      </section>
    </div>
  );
}
