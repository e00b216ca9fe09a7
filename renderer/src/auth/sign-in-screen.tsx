import { useCallback, useState } from 'react';
import { ROLE_LABEL } from './role-label';
import type { PosUser } from '../../../shared/ipc/contract';
import { PinPad } from './pin-pad';
import { useSessionStore } from './session-store';

/** "5 minutes", "1 minute", "12 seconds": how long the window sat idle, in words. */
function describeIdle(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.round(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** Who is at the counter: one tap on your name, then your PIN. */
export function SignInScreen() {
  const { users, defaultPinsActive, signIn, lock } = useSessionStore();
  const [chosen, setChosen] = useState<PosUser | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = useCallback(
    async (pin: string) => {
      if (!chosen) return;
      setBusy(true);
      const err = await signIn(chosen.id, pin);
      setBusy(false);
      // On success nothing to do here: the person changed, so every user store (the screen
      // included) is already back at its start, the sale screen. Going there again when the
      // answer lands would pull back a person who has already moved on (the answer can come
      // after the session event, on a busy machine).
      if (err) setError(err);
    },
    [chosen, signIn],
  );
  const cancel = useCallback(() => {
    setChosen(null);
    setError(null);
  }, []);

  return (
    <div className="content-center">
      <section className="panel panel-narrow sign-in" aria-labelledby="sign-in-title">
        {!chosen ? (
          <>
            <h1 id="sign-in-title">Who is at the counter?</h1>
            {lock && (
              <p className="notice notice-info" role="status" data-testid="idle-lock-notice">
                The counter locked itself after {describeIdle(lock.idleSeconds)} without use. Sign in again to carry on.
              </p>
            )}
            <p className="muted">Tap your name, then enter your PIN.</p>
            <ul className="user-tiles" aria-label="Users">
              {users.map((u) => (
                <li key={u.id}>
                  <button
                    type="button"
                    className="user-tile"
                    onClick={() => {
                      setChosen(u);
                      setError(null);
                    }}
                  >
                    <span className="avatar avatar-lg" aria-hidden="true">
                      {u.name.charAt(0)}
                    </span>
                    <span className="user-tile-name">{u.name}</span>
                    <span className="muted">{ROLE_LABEL[u.role]}</span>
                  </button>
                </li>
              ))}
            </ul>
            {defaultPinsActive && (
              <aside className="notice notice-info first-run" aria-label="First time here">
                <strong>First time here?</strong> Sign in as <strong>Morgan</strong> (manager, PIN <kbd>1234</kbd>) or{' '}
                <strong>Casey</strong> (cashier, PIN <kbd>0000</kbd>). These are the starting PINs of a new install.
              </aside>
            )}
          </>
        ) : (
          <>
            <h1 id="sign-in-title">Hello, {chosen.name}</h1>
            <p className="muted">Enter your PIN and press Sign in.</p>
            <PinPad label={`PIN for ${chosen.name}`} busy={busy} error={error} onSubmit={(p) => void submit(p)} onCancel={cancel} />
            <button type="button" className="btn btn-quiet btn-block" onClick={cancel}>
              Not {chosen.name}? Pick another user
            </button>
          </>
        )}
      </section>
    </div>
  );
}
