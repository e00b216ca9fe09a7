import { useState, type FormEvent } from 'react';
import { ringup } from '../bridge/bridge';
import { useSessionStore } from './session-store';
import { ErrorNote } from '../sales/outcome-note';

export const PIN_MESSAGES = {
  format: 'A PIN is 4 to 8 digits.',
  mismatch: 'The two new PINs are not the same.',
  done: 'Your PIN is changed. Use it the next time you sign in.',
} as const;

/** The signed-in user changes their own PIN (the starting PINs of a new install should not stay). */
export function ChangePinForm({ name }: { name: string }) {
  const reload = useSessionStore((s) => s.load);
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setDone(false);
    if (!/^\d{4,8}$/.test(current) || !/^\d{4,8}$/.test(next)) return setError(PIN_MESSAGES.format);
    if (next !== again) return setError(PIN_MESSAGES.mismatch);
    setBusy(true);
    const r = await ringup.authChangePin({ currentPin: current, newPin: next });
    setBusy(false);
    if (!r.ok) return setError(r.error.fields?.newPin?.[0] ?? r.error.message);
    setError(null);
    setDone(true);
    setCurrent('');
    setNext('');
    setAgain('');
    void reload();
  };

  const digits = (v: string) => v.replace(/\D/g, '').slice(0, 8);
  return (
    <form className="panel change-pin" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="pin-title">
      <h2 id="pin-title" className="section-title">
        Your PIN, {name}
      </h2>
      <div className="pin-grid">
        <div className="field">
          <label htmlFor="pin-current">Current PIN</label>
          <input id="pin-current" className="input input-mono input-secret" inputMode="numeric" autoComplete="off" value={current} onChange={(e) => setCurrent(digits(e.target.value))} />
        </div>
        <div className="field">
          <label htmlFor="pin-new">New PIN</label>
          <input id="pin-new" className="input input-mono input-secret" inputMode="numeric" autoComplete="off" value={next} onChange={(e) => setNext(digits(e.target.value))} />
        </div>
        <div className="field">
          <label htmlFor="pin-again">New PIN again</label>
          <input id="pin-again" className="input input-mono input-secret" inputMode="numeric" autoComplete="off" value={again} onChange={(e) => setAgain(digits(e.target.value))} />
        </div>
      </div>
      <ErrorNote text={error} />
      <p role="status" className="ok-text">
        {done ? PIN_MESSAGES.done : ''}
      </p>
      <button type="submit" className="btn btn-primary btn-lg" disabled={busy}>
        {busy ? 'Saving…' : 'Change PIN'}
      </button>
    </form>
  );
}
