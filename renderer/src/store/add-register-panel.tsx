/**
 * Add a register (issue 24): makes a one-time code on this register and shows it once, big and
 * grouped in fives for reading out, with the store server's address and how long it works. The
 * core keeps no copy of the code (the store server has only its proof), so once this panel is
 * closed, or someone else signs in, it is gone: a lost code is replaced by making another.
 */
import { useEffect, useRef, useState } from 'react';
import { INVITE_TTL_MS } from '../../../shared/store/store-wire';
import { timeOfDay } from '../ui/time-format';
import { ErrorNote } from '../sales/outcome-note';
import { useRegistersStore } from './registers-store';

const TTL_MINUTES = Math.round(INVITE_TTL_MS / 60_000);

export function AddRegisterPanel() {
  const { invitation, invite, closeInvitation } = useRegistersStore();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const codeTitle = useRef<HTMLHeadingElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const shown = invitation !== null;
  const wasShown = useRef(shown);
  useEffect(() => {
    // Keyboard first: the code takes the focus when it appears, Add again when it is closed.
    if (shown) codeTitle.current?.focus();
    else if (wasShown.current) addButton.current?.focus();
    wasShown.current = shown;
  }, [shown]);

  if (invitation) {
    return (
      <section className="panel add-register" aria-labelledby="invite-title" data-testid="store-invitation">
        <h2 id="invite-title" ref={codeTitle} tabIndex={-1} className="section-title">
          Code for the new register
        </h2>
        <p className="join-code" data-testid="invite-code" aria-describedby="invite-valid">
          {invitation.code}
        </p>
        <p id="invite-valid" className="notice notice-info">
          Works once, for {TTL_MINUTES} minutes: until {timeOfDay(Math.floor(invitation.expiresMs / 1000))}. It is shown only now.
        </p>
        <dl className="facts facts-compact">
          <div>
            <dt>Store server</dt>
            <dd className="mono" data-testid="invite-address">
              {invitation.address}
            </dd>
          </div>
        </dl>
        <ol className="join-steps">
          <li>On the new register, sign in as a manager and open Manage → Registers.</li>
          <li>Type the store server's address and this code, and a name for the register.</li>
          <li>Press Connect to the store: it takes the store's users, settings and catalogue.</li>
        </ol>
        <div className="form-actions">
          <button type="button" className="btn btn-primary btn-lg" onClick={closeInvitation}>
            Done
          </button>
        </div>
      </section>
    );
  }
  return (
    <section className="panel add-register" aria-labelledby="add-register-title">
      <h2 id="add-register-title" className="section-title">
        Add a register
      </h2>
      <p className="muted">Makes a one-time code for the new register. It works once, for {TTL_MINUTES} minutes.</p>
      <ErrorNote text={error} />
      <div className="form-actions">
        <button
          ref={addButton}
          type="button"
          className="btn btn-primary btn-lg"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            setError(await invite());
            setBusy(false);
          }}
        >
          {busy ? 'Making the code…' : 'Add a register'}
        </button>
      </div>
    </section>
  );
}
