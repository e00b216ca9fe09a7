/**
 * Connect this register to a store server (issue 24): the server's address, the code shown on
 * the store server (its setup code, for the store's first register) or on a register already in
 * the store (Add), and a name for this register. The core checks the code against the server's
 * certificate before anything is sent, so a wrong address is said as such; each refusal comes
 * back as the core's sentence, beside its field when it is about one. A register removed from its
 * store joins again here (`notice` says it was removed).
 */
import { useRef, useState, type ReactNode } from 'react';
import { ringup } from '../bridge/bridge';
import { TextField } from '../ui/text-field';
import { generalMessage, type FormError } from '../ui/form-failure';
import { useFocusFirstError } from '../ui/focus-first-error';
import { ErrorNote } from '../sales/outcome-note';
import { useStoreStatusStore } from './store-status-store';

const FIELDS = ['address', 'code', 'registerName'] as const;

export function JoinStoreForm({ notice }: { notice?: ReactNode } = {}) {
  const [address, setAddress] = useState('');
  const [code, setCode] = useState('');
  const [registerName, setRegisterName] = useState('');
  const [error, setError] = useState<FormError | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const focusFirstError = useFocusFirstError(formRef);
  const field = (name: (typeof FIELDS)[number]) => error?.fields?.[name]?.[0] ?? null;

  const submit = async () => {
    setBusy(true);
    const r = await ringup.storeJoin({ address, code, registerName });
    setBusy(false);
    if (r.ok) {
      // The screen turns into the store's list at once; the status event follows too.
      useStoreStatusStore.setState({ status: r.value, known: true });
      return;
    }
    setError({ message: r.error.message, fields: r.error.fields ?? {} });
    focusFirstError();
  };

  return (
    <div className="registers-layout">
      <form
        ref={formRef}
        className="panel"
        aria-labelledby="join-title"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (!busy) void submit();
        }}
      >
        <h1 id="join-title" className="section-title" tabIndex={-1} data-screen-focus>
          Connect this register to a store server
        </h1>
        {notice}
        <p className="muted">This register is on its own: its users, catalogue, stock and sales are kept here only. In a store, every register shares them.</p>
        <div className="join-grid">
          <TextField id="store-address" label="Store server's address" value={address} maxLength={200} placeholder="192.168.1.20:7443" hint="As the store server printed it when it started." error={field('address')} onChange={setAddress} />
          <TextField
            id="store-code"
            label="Code"
            value={code}
            maxLength={30}
            autoCapitalize="characters"
            spellCheck={false}
            className="input input-code"
            placeholder="XXXXX-XXXXX-XXXXX-XXXXX"
            hint="20 letters and digits: the store server's setup code, or one made with Add on a register of the store."
            error={field('code')}
            onChange={setCode}
          />
          <TextField id="store-register-name" label="This register's name" value={registerName} maxLength={40} placeholder="Front counter" hint="How the other registers and the store's reports name it." error={field('registerName')} onChange={setRegisterName} />
        </div>
        <ErrorNote text={error && generalMessage(error, FIELDS)} />
        <div className="form-actions">
          <button type="submit" className="btn btn-primary btn-lg" disabled={busy}>
            {busy ? 'Connecting…' : 'Connect to the store'}
          </button>
        </div>
      </form>
      <section className="panel" aria-labelledby="join-what-title">
        <h2 id="join-what-title" className="section-title">
          What connecting does
        </h2>
        <ul className="join-facts">
          <li>
            <strong>The store's first register</strong> (with the store server's setup code): its counter users, store settings and catalogue become the store's.
          </li>
          <li>
            <strong>Any further register</strong> (with a code from Add): its counter users, settings and catalogue are replaced by the store's. Its past sales stay on it.
          </li>
          <li>It keeps selling when the store server is away; what it does is sent when the server is back.</li>
          <li>Card payments still go through its own gateway, unless the store server hosts one for the store.</li>
        </ul>
      </section>
    </div>
  );
}
