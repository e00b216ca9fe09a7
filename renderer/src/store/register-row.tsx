/**
 * One register of the store on the Registers screen: its name (and "This register"), connected
 * or away, when it last reached the store server, what it still has to send; Rename and Remove.
 * This register's own line reads the live status (store:status), the others what the store
 * server last saw of them. A register is removed from another one (the core refuses the other
 * way round, STORE_MSG.notThisOne), so this register's Remove is off and says why.
 */
import { useState } from 'react';
import { STORE_MSG, type RegisterView } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { TextField } from '../ui/text-field';
import { generalMessage, type FormError } from '../ui/form-failure';
import { useRegistersStore } from './registers-store';
import { syncAgeWords, waitingWords } from './sync-age';

function RenameDialog({ register, onDone }: { register: RegisterView; onDone(): void }) {
  const change = useRegistersStore((s) => s.change);
  const [name, setName] = useState(register.name);
  const [error, setError] = useState<FormError | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <ConfirmDialog
      title={`Rename ${register.name}`}
      confirmLabel="Rename"
      busy={busy}
      error={error && generalMessage(error, ['name'])}
      onCancel={onDone}
      onConfirm={async () => {
        setBusy(true);
        const e = await change(() => ringup.storeRenameRegister({ id: register.id, name }));
        setBusy(false);
        if (e) setError(e);
        else onDone();
      }}
    >
      <p>The store's reports and every register show the new name.</p>
      <TextField id="register-new-name" label="New name" value={name} maxLength={40} error={error?.fields?.name?.[0] ?? null} onChange={setName} />
    </ConfirmDialog>
  );
}

export interface LiveLine {
  connected: boolean;
  lastMs: number | null;
  waiting: number;
}

export function RegisterRow({ register, live, nowMs }: { register: RegisterView; live: LiveLine; nowMs: number }) {
  const change = useRegistersStore((s) => s.change);
  const [dialog, setDialog] = useState<'rename' | 'remove' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const me = register.thisRegister;
  return (
    <li className="register-row" data-testid="store-register" data-register-id={register.id}>
      <div className="register-row-name">
        <strong>{register.name}</strong>
        {me && <span className="badge badge-state-other">This register</span>}
      </div>
      <div className="register-row-state" data-testid="store-register-state">
        <span className={`badge ${live.connected ? 'badge-ok' : 'badge-starting'}`}>
          <span className={`dot dot-${live.connected ? 'ok' : 'starting'}`} aria-hidden="true" /> {live.connected ? 'Connected' : 'Away'}
        </span>
        <span className="muted">
          Last sync {syncAgeWords(live.lastMs, nowMs)} · {waitingWords(live.waiting)}
        </span>
      </div>
      <div className="register-row-actions">
        <button type="button" className="btn btn-secondary" aria-label={`Rename ${register.name}…`} onClick={() => setDialog('rename')}>
          Rename…
        </button>
        <button type="button" className="btn btn-secondary" aria-label={`Remove ${register.name}…`} onClick={() => setDialog('remove')} disabled={me} title={me ? STORE_MSG.notThisOne : undefined}>
          Remove…
        </button>
      </div>
      {error && !dialog && (
        <p className="notice notice-error register-row-error" role="alert">
          {error}
        </p>
      )}
      {dialog === 'rename' && <RenameDialog register={register} onDone={() => setDialog(null)} />}
      {dialog === 'remove' && (
        <ConfirmDialog
          title={`Remove ${register.name} from the store?`}
          confirmLabel="Remove"
          danger
          busy={busy}
          error={error}
          onCancel={() => {
            setDialog(null);
            setError(null);
          }}
          onConfirm={async () => {
            setBusy(true);
            const r = await change(() => ringup.storeRemoveRegister({ id: register.id }));
            setBusy(false);
            if (r) setError(r.message);
            else setDialog(null);
          }}
        >
          <p>Its credentials stop working at once: it no longer gets the store's changes and sends nothing more. Its sales stay on it.</p>
          {live.waiting > 0 && <p className="notice notice-warn">It still has {waitingWords(live.waiting)}: they stay on it and do not reach the store.</p>}
        </ConfirmDialog>
      )}
    </li>
  );
}
