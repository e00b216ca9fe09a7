/**
 * Add or change a serial barcode scanner (issue 23, point 5): a name, the serial path (picked
 * from the system's ports or typed) and the baud rate its set-up sheet gives; "Test scan" waits
 * for a barcode scanned now and shows the code read (or says in words what went wrong);
 * a saved scanner can be removed. The core listens to every saved scanner.
 */
import { useRef, useState } from 'react';
import { BARCODE_BAUDS, DEFAULT_BARCODE_BAUD, barcodeScannerSaveSchema, type BarcodeScannerRecord } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { useFocusFirstError } from '../ui/focus-first-error';
import { barcodeStateWords } from './barcode-scanners-store';
import { SerialPortPicker } from './serial-port-picker';
import { editorFields, issuesByField, useFreshFormPerDevice } from './editor-form';

const STATE_SENTENCE: Record<BarcodeScannerRecord['state'], string> = {
  listening: 'Listening: a code scanned now goes to the sale screen.',
  unplugged: 'Not plugged in, or the port would not open: Ringup tries it again every 2 seconds.',
  testing: 'Lent to a test scan.',
  refused: 'Not opened:',
};

export function BarcodeScannerEditor({ scanner, onSaved, onRemoved, onLookAgain }: { scanner: BarcodeScannerRecord | undefined; onSaved(id: string): void; onRemoved(): void; onLookAgain(): void }) {
  const init = () => ({ name: scanner?.name ?? '', path: scanner?.path ?? '', baud: String(scanner?.baud ?? DEFAULT_BARCODE_BAUD) });
  const [d, setD] = useState(init);
  const [touched, setTouched] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [read, setRead] = useState<string | null>(null);
  const [busy, setBusy] = useState<'save' | 'test' | 'remove' | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const focusFirstError = useFocusFirstError(formRef);
  const scannerId = scanner?.id;
  const justSaved = useFreshFormPerDevice(scannerId, () => {
    setD(init());
    setTouched(false);
    setMessage(null);
    setRead(null);
  });

  const parsed = barcodeScannerSaveSchema.safeParse({ ...(scanner ? { id: scanner.id } : {}), name: d.name, path: d.path.trim(), baud: Number(d.baud) });
  const errors = issuesByField(parsed);
  const err = (k: string) => (touched ? errors[k] : undefined);
  const { attrs, errorText } = editorFields('b', err);

  const save = async () => {
    setTouched(true);
    if (!parsed.success) {
      focusFirstError();
      return setMessage({ ok: false, text: 'Fix the fields marked in red, then save.' });
    }
    setBusy('save');
    const r = await ringup.barcodeSave(parsed.data);
    setBusy(null);
    if (r.ok) {
      setMessage({ ok: true, text: 'Saved. Ringup listens to this scanner now.' });
      justSaved.current = r.value.id !== scannerId;
      onSaved(r.value.id);
    } else setMessage({ ok: false, text: r.error.fields?.path?.[0] ?? r.error.message });
  };
  const test = async () => {
    setTouched(true);
    if (errors.path || errors.baud) return;
    setBusy('test');
    setRead(null);
    setMessage(null);
    const r = await ringup.barcodeTest({ path: d.path.trim(), baud: Number(d.baud) });
    setBusy(null);
    if (r.ok) setRead(r.value.code);
    else setMessage({ ok: false, text: r.error.message });
  };
  const remove = async () => {
    if (!scanner) return;
    setBusy('remove');
    const r = await ringup.barcodeRemove({ id: scanner.id });
    setBusy(null);
    if (r.ok) onRemoved();
    else setMessage({ ok: false, text: r.error.message });
  };

  return (
    <form ref={formRef} className="device-form" aria-label={scanner ? `Barcode scanner ${scanner.name}` : 'New barcode scanner'} onSubmit={(e) => { e.preventDefault(); void save(); }}>
      <h2 className="section-title">{scanner ? `Barcode scanner: ${scanner.name}` : 'Add a barcode scanner'}</h2>
      <p className="muted">A scanner on a serial port (or a USB adapter in serial mode), set to end each code with CR or CR LF. A scanner that types like a keyboard needs nothing here.</p>
      {scanner && (
        <p className={`notice ${scanner.state === 'listening' ? 'notice-ok' : 'notice-info'}`} data-testid="barcode-state">
          {STATE_SENTENCE[scanner.state]} {scanner.state === 'refused' ? scanner.problem : ''}
          <span className="sr-only"> ({barcodeStateWords(scanner)})</span>{' '}
          <button type="button" className="btn btn-quiet" onClick={onLookAgain}>
            Look again
          </button>
        </p>
      )}
      <div className="form-grid">
        <div className="field">
          <label htmlFor="b-name">Name</label>
          <input {...attrs('name')} value={d.name} onChange={(e) => setD({ ...d, name: e.target.value })} />
          {errorText('name')}
        </div>
        <div className="field">
          <label htmlFor="b-baud">Baud rate</label>
          <select {...attrs('baud')} value={d.baud} onChange={(e) => setD({ ...d, baud: e.target.value })}>
            {BARCODE_BAUDS.map((b) => <option key={b} value={b}>{b}</option>)}
          </select>
          {errorText('baud')}
        </div>
        <div className="field">
          <label htmlFor="b-path">Serial path</label>
          <input {...attrs('path')} className="input input-mono" placeholder="/dev/ttyUSB0" value={d.path} onChange={(e) => setD({ ...d, path: e.target.value })} />
          {errorText('path')}
        </div>
        <SerialPortPicker value={d.path} onPick={(path) => setD({ ...d, path })} />
      </div>
      {message && <p className={`notice ${message.ok ? 'notice-ok' : 'notice-error'}`} role={message.ok ? 'status' : 'alert'} data-testid="barcode-message">{message.text}</p>}
      <div role="status" data-testid="barcode-test-result">
        {busy === 'test' && <p className="notice notice-info">Scan a barcode now. Ringup waits 15 seconds for it.</p>}
        {read !== null && (
          <dl className="check-facts">
            <div><dt>Code read</dt><dd className="mono">{read}</dd></div>
          </dl>
        )}
      </div>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary btn-lg" disabled={busy !== null} data-testid="barcode-save">{scanner ? 'Save changes' : 'Add scanner'}</button>
        <button type="button" className="btn btn-secondary btn-lg" disabled={busy !== null} onClick={() => void test()} data-testid="barcode-test">{busy === 'test' ? 'Waiting for a scan…' : 'Test scan'}</button>
        {scanner && <button type="button" className="btn btn-danger btn-lg" disabled={busy !== null} onClick={() => void remove()} data-testid="barcode-remove">Remove scanner</button>}
      </div>
    </form>
  );
}
