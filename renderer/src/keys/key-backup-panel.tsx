/**
 * Key backup (managers, System screen): write a passphrase-protected backup of the keys
 * (the saved-card vault key and the gateway users the counter made) into the data
 * folder's backups/, and restore one on a replacement register. Only file names and
 * dates come here; the keys and the file stay in the main process.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { MIN_BACKUP_PASSPHRASE, type KeyBackupState } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { OutcomeNote, type Outcome } from '../sales/outcome-note';
import { TextField } from '../ui/text-field';

export const KEY_BACKUP_UI = {
  mismatch: 'The two passphrases are not the same.',
  noBackups: 'No backup files in the backups folder yet. To restore on this computer, copy the file into it.',
} as const;

const WHEN = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function KeyBackupPanel() {
  const [state, setState] = useState<KeyBackupState | null>(null);
  const [pass, setPass] = useState('');
  const [again, setAgain] = useState('');
  const [exportMsg, setExportMsg] = useState<Outcome | null>(null);
  const [file, setFile] = useState('');
  const [restorePass, setRestorePass] = useState('');
  const [restoreMsg, setRestoreMsg] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    const r = await ringup.keysBackups();
    if (r.ok) {
      setState(r.value);
      setFile((f) => f || r.value.backups[0]?.fileName || '');
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const backUp = async (e: FormEvent) => {
    e.preventDefault();
    if (pass !== again) return setExportMsg({ ok: false, text: KEY_BACKUP_UI.mismatch });
    setBusy(true);
    const r = await ringup.keysExport({ passphrase: pass });
    setBusy(false);
    if (!r.ok) return setExportMsg({ ok: false, text: r.error.fields?.passphrase?.[0] ?? r.error.message });
    setPass('');
    setAgain('');
    setFile(r.value.fileName); // the backup just made is the one to restore from
    setExportMsg({ ok: true, text: `Saved as ${r.value.fileName} in ${r.value.folder}. Keep a copy off this computer, and the passphrase somewhere safe: without it the file opens nothing.` });
    void load();
  };

  const restore = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const r = await ringup.keysRestore({ fileName: file, passphrase: restorePass });
    setBusy(false);
    setRestorePass('');
    setRestoreMsg(r.ok ? { ok: true, text: r.value.message } : { ok: false, text: r.error.fields?.fileName?.[0] ?? r.error.fields?.passphrase?.[0] ?? r.error.message });
  };

  return (
    <section className="panel key-backup" aria-labelledby="key-backup-title">
      <h2 id="key-backup-title" className="section-title">
        Key backup
      </h2>
      <p className="muted">Saved cards can only be charged with this register’s keys. A backup lets a replacement register open them.</p>
      <form onSubmit={backUp} aria-label="Back up the keys">
        <TextField id="backup-pass" label="Passphrase" type="password" value={pass} hint={`At least ${MIN_BACKUP_PASSPHRASE} characters.`} onChange={setPass} />
        <TextField id="backup-again" label="Passphrase again" type="password" value={again} onChange={setAgain} />
        <OutcomeNote note={exportMsg} />
        <div className="form-actions">
          <button type="submit" className="btn btn-primary btn-lg" disabled={busy}>
            Back up the keys
          </button>
        </div>
      </form>
      <form onSubmit={restore} aria-label="Restore keys" className="key-restore">
        <h3 className="section-title">Restore on this register</h3>
        {state?.awaitingKeys && (
          <p className="notice notice-info" role="status">
            {state.awaitingKeys}
          </p>
        )}
        {state && state.backups.length === 0 ? (
          <p className="muted">{KEY_BACKUP_UI.noBackups}</p>
        ) : (
          <div className="field">
            <label htmlFor="restore-file">Backup file</label>
            <select id="restore-file" className="input" value={file} onChange={(e) => setFile(e.target.value)}>
              {(state?.backups ?? []).map((b) => (
                <option key={b.fileName} value={b.fileName}>
                  {b.fileName} ({WHEN.format(b.modified)})
                </option>
              ))}
            </select>
          </div>
        )}
        {state && <p className="muted mono">Backups folder: {state.folder}</p>}
        <TextField id="restore-pass" label="Passphrase of the backup" type="password" value={restorePass} onChange={setRestorePass} />
        <OutcomeNote note={restoreMsg} />
        <div className="form-actions">
          <button type="submit" className="btn btn-secondary btn-lg" disabled={busy || !file}>
            Restore the keys
          </button>
        </div>
      </form>
    </section>
  );
}
