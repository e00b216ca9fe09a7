/**
 * Counter users (managers): who may sign in at this counter and as what. Add a user with
 * a first PIN, change a role, reset a forgotten PIN (it also lifts a lockout), remove a
 * user who left. A manager cannot remove or re-role themselves, so a manager always
 * remains; the core enforces every rule (counter-users.ts) and records each change in the
 * audit log.
 */
import { useEffect, useState } from 'react';
import type { CounterUser, Role } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { TextField } from '../ui/text-field';
import { ROLE_LABEL } from '../auth/role-label';
import { useCounterUsersStore, type ChangeError } from './counter-users-store';
import { useSessionStore } from '../auth/session-store';
import { ErrorNote } from '../sales/outcome-note';

const ROLES: readonly Role[] = ['cashier', 'manager', 'installer'];
const ROLE_HINT: Record<Role, string> = {
  cashier: 'Sales and the day’s list; no refunds, voids or settings.',
  manager: 'Everything, including refunds, voids, settle and this screen.',
  installer: 'Only the Devices screen: terminals and check scanners.',
};

const fieldError = (e: ChangeError | null, field: string) => e?.fields[field]?.[0] ?? null;

function AddUserForm() {
  const change = useCounterUsersStore((s) => s.change);
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('cashier');
  const [pin, setPin] = useState('');
  const [error, setError] = useState<ChangeError | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    setBusy(true);
    const e = await change(() => ringup.usersAdd({ name, role, pin }));
    setBusy(false);
    setError(e);
    if (!e) {
      setAdded(`${name.trim()} can now sign in as ${ROLE_LABEL[role].toLowerCase()} with that PIN.`);
      setName('');
      setPin('');
    }
  };

  return (
    <form
      className="panel add-user"
      aria-labelledby="add-user-title"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h2 id="add-user-title" className="section-title">
        Add a user
      </h2>
      <div className="add-user-grid">
        <TextField id="user-name" label="Name" value={name} maxLength={32} error={fieldError(error, 'name')} onChange={setName} />
        <div className="field">
          <label htmlFor="user-role">Role</label>
          <select id="user-role" className="input" value={role} onChange={(e) => setRole(e.target.value as Role)} aria-describedby="user-role-hint">
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABEL[r]}
              </option>
            ))}
          </select>
          <span id="user-role-hint" className="muted field-hint">
            {ROLE_HINT[role]}
          </span>
        </div>
        <TextField id="user-pin" label="First PIN" value={pin} inputMode="numeric" type="password" maxLength={8} hint="4 to 8 digits; they change it on the System screen." error={fieldError(error, 'pin')} onChange={setPin} />
      </div>
      {error && !error.fields.name && !error.fields.pin && (
        <p className="notice notice-error" role="alert">
          {error.message}
        </p>
      )}
      {added && !error && (
        <p className="notice notice-ok" role="status">
          {added}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary btn-lg" disabled={busy}>
          {busy ? 'Adding…' : 'Add user'}
        </button>
      </div>
    </form>
  );
}

function ResetPinDialog({ user, onDone }: { user: CounterUser; onDone(): void }) {
  const change = useCounterUsersStore((s) => s.change);
  const [pin, setPin] = useState('');
  const [error, setError] = useState<ChangeError | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <ConfirmDialog
      title={`New PIN for ${user.name}`}
      confirmLabel="Set the PIN"
      busy={busy}
      error={error && !error.fields.pin ? error.message : null}
      onCancel={onDone}
      onConfirm={async () => {
        setBusy(true);
        const e = await change(() => ringup.usersResetPin({ id: user.id, pin }));
        setBusy(false);
        if (e) setError(e);
        else onDone();
      }}
    >
      <p>{user.locked ? `${user.name} is locked out after wrong PINs; a new PIN lifts that.` : `Tell ${user.name} the new PIN; they can change it on the System screen.`}</p>
      <TextField id="reset-pin" label="New PIN" value={pin} inputMode="numeric" type="password" maxLength={8} hint="4 to 8 digits" error={fieldError(error, 'pin')} onChange={setPin} />
    </ConfirmDialog>
  );
}

function UserRow({ user, isMe }: { user: CounterUser; isMe: boolean }) {
  const change = useCounterUsersStore((s) => s.change);
  const [dialog, setDialog] = useState<'pin' | 'remove' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const roleId = `role-${user.id}`;
  return (
    <li className="user-row" data-testid="counter-user">
      <div className="user-row-name">
        <strong>{user.name}</strong>
        {isMe && <span className="muted"> (you)</span>}
        {user.locked && <span className="badge badge-state-declined">Locked out</span>}
      </div>
      <div className="field field-inline">
        <label htmlFor={roleId} className="sr-only">
          Role of {user.name}
        </label>
        <select
          id={roleId}
          className="input"
          value={user.role}
          disabled={isMe}
          title={isMe ? 'Another manager can change your role.' : undefined}
          onChange={async (e) => {
            const role = e.target.value as Role;
            const r = await change(() => ringup.usersSetRole({ id: user.id, role }));
            setError(r?.message ?? null);
          }}
        >
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABEL[r]}
            </option>
          ))}
        </select>
      </div>
      <div className="user-row-actions">
        <button type="button" className="btn btn-secondary" onClick={() => setDialog('pin')}>
          Reset PIN…
        </button>
        <button type="button" className="btn btn-secondary" onClick={() => setDialog('remove')} disabled={isMe} title={isMe ? 'Another manager can remove you.' : undefined}>
          Remove…
        </button>
      </div>
      {error && (
        <p className="notice notice-error user-row-error" role="alert">
          {error}
        </p>
      )}
      {dialog === 'pin' && <ResetPinDialog user={user} onDone={() => setDialog(null)} />}
      {dialog === 'remove' && (
        <ConfirmDialog
          title={`Remove ${user.name}?`}
          confirmLabel="Remove"
          danger
          busy={busy}
          error={error}
          onCancel={() => setDialog(null)}
          onConfirm={async () => {
            setBusy(true);
            const r = await change(() => ringup.usersRemove({ id: user.id }));
            setBusy(false);
            if (r) setError(r.message);
            else setDialog(null);
          }}
        >
          <p>
            {user.name} will no longer be able to sign in, and any window where they are signed in goes back to the sign-in screen. Their sales stay in the
            records and the audit log.
          </p>
        </ConfirmDialog>
      )}
    </li>
  );
}

export function CounterUsersScreen() {
  const { list, error, load } = useCounterUsersStore();
  const me = useSessionStore((s) => s.session?.user.id);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <div className="users-layout">
      <section className="panel" aria-labelledby="users-title">
        <div className="tx-head">
          <h1 id="users-title" className="section-title" tabIndex={-1} data-screen-focus>
            Counter users
          </h1>
          {list && (
            <span className="muted" role="status" data-testid="users-count">
              {list.length === 1 ? '1 user' : `${list.length} users`}
            </span>
          )}
        </div>
        <ErrorNote text={error} />
        {list === null && !error ? (
          <p role="status">Loading the users…</p>
        ) : (
          <ul className="user-list" aria-label="Counter users">
            {(list ?? []).map((u) => (
              <UserRow key={u.id} user={u} isMe={u.id === me} />
            ))}
          </ul>
        )}
      </section>
      <AddUserForm />
    </div>
  );
}
