/** Add or change a check scanner (serial) and run a test scan. */
import { useRef, useState } from 'react';
import { scannerSaveSchema, type InstallerData, type ScannedCheck, type ScannerRecord } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { useFocusFirstError } from '../ui/focus-first-error';
import { SerialPortPicker } from './serial-port-picker';
import { editorFields, issuesByField, useFreshFormPerDevice } from './editor-form';

export function ScannerEditor({ scanner, data, onSaved }: { scanner: ScannerRecord | undefined; data: InstallerData; onSaved(id: string): void }) {
  const init = () => ({ title: scanner?.title ?? '', serialNumber: scanner?.serialNumber ?? '', modelId: String(scanner?.modelId ?? data.scannerModels[0]?.id ?? '1'), path: scanner?.path ?? '' });
  const [d, setD] = useState(init);
  const [touched, setTouched] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [scan, setScan] = useState<ScannedCheck | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const focusFirstError = useFocusFirstError(formRef);
  const scannerId = scanner?.id;
  const justSaved = useFreshFormPerDevice(scannerId, () => {
    setD(init());
    setTouched(false);
    setMessage(null);
    setScan(null);
  });

  const parsed = scannerSaveSchema.safeParse({ ...(scanner ? { id: scanner.id } : {}), ...d, modelId: Number(d.modelId) });
  const errors = issuesByField(parsed);
  const err = (k: string) => (touched ? errors[k] : undefined);
  const { attrs, errorText } = editorFields('s', err);

  const save = async () => {
    setTouched(true);
    if (!parsed.success) {
      focusFirstError();
      return setMessage({ ok: false, text: 'Fix the fields marked in red, then save.' });
    }
    setBusy(true);
    const r = await ringup.devicesScannerSave(parsed.data);
    setBusy(false);
    if (r.ok) {
      setMessage({ ok: true, text: 'Saved.' });
      justSaved.current = r.value.id !== scannerId;
      onSaved(r.value.id);
    } else setMessage({ ok: false, text: r.error.message });
  };
  const test = async () => {
    setTouched(true);
    if (errors.path) return;
    setBusy(true);
    setScan(null);
    setMessage(null);
    const r = await ringup.devicesScannerTest({ path: d.path.trim() });
    setBusy(false);
    if (r.ok) setScan(r.value);
    else setMessage({ ok: false, text: r.error.message });
  };

  return (
    <form ref={formRef} className="device-form" aria-label={scanner ? `Scanner ${scanner.title}` : 'New check scanner'} onSubmit={(e) => { e.preventDefault(); void save(); }}>
      <h2 className="section-title">{scanner ? `Check scanner: ${scanner.title}` : 'Add a check scanner'}</h2>
      <div className="form-grid">
        <div className="field">
          <label htmlFor="s-title">Name</label>
          <input {...attrs('title')} value={d.title} onChange={(e) => setD({ ...d, title: e.target.value })} />
          {errorText('title')}
        </div>
        <div className="field">
          <label htmlFor="s-serialNumber">Serial number</label>
          <input {...attrs('serialNumber')} className="input input-mono" value={d.serialNumber} onChange={(e) => setD({ ...d, serialNumber: e.target.value })} />
          {errorText('serialNumber')}
        </div>
        <div className="field">
          <label htmlFor="s-modelId">Model</label>
          <select {...attrs('modelId')} value={d.modelId} onChange={(e) => setD({ ...d, modelId: e.target.value })}>
            {data.scannerModels.map((m) => <option key={m.id} value={m.id}>{m.title}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor="s-path">Serial path</label>
          <input {...attrs('path')} className="input input-mono" placeholder="/dev/ttyUSB1" value={d.path} onChange={(e) => setD({ ...d, path: e.target.value })} />
          {errorText('path')}
        </div>
        <SerialPortPicker value={d.path} onPick={(path) => setD({ ...d, path })} />
      </div>
      {message && <p className={`notice ${message.ok ? 'notice-ok' : 'notice-error'}`} role={message.ok ? 'status' : 'alert'} data-testid="scanner-message">{message.text}</p>}
      {scan && (
        <div role="status" data-testid="scanner-result">
        <dl className="check-facts">
          <div><dt>Routing</dt><dd className="mono">{scan.routing}</dd></div>
          <div><dt>Account</dt><dd className="mono">•••• {scan.account.slice(-4)}</dd></div>
          <div><dt>Check no.</dt><dd className="mono">{scan.checkNumber ?? '—'}</dd></div>
        </dl>
        </div>
      )}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary btn-lg" disabled={busy} data-testid="scanner-save">{scanner ? 'Save changes' : 'Add scanner'}</button>
        <button type="button" className="btn btn-secondary btn-lg" disabled={busy} onClick={() => void test()} data-testid="scanner-test">{busy ? 'Scanning…' : 'Test scan'}</button>
      </div>
    </form>
  );
}
