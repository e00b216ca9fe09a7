/**
 * Register or change a receipt printer (issue 23): name, where it is (a network address on raw
 * port 9100, or a serial port and its speed), the paper (80 or 58 mm) and the characters a line
 * it holds, whether it cuts, a logo printed on top, and whether it is the one in use. Checked as
 * it is typed with the rules the core applies. **Test print** prints a page with these settings
 * (saved or not) and says what the printer answers, in words; so does the live status of the
 * printer in use.
 */
import { useRef, useState } from 'react';
import {
  CPL_CHOICES,
  LOGO_MAX_CHARS,
  PRINTER_BAUDS,
  PRINTER_MSG,
  PRINTER_PORT,
  printerSettingsSchema,
  type PaperWidth,
  type PrinterRecord,
  type PrinterSettings,
  type PrinterStatusView,
} from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { useFocusFirstError } from '../ui/focus-first-error';
import { SerialPortPicker } from './serial-port-picker';
import { usePrinterStatusStore } from './printer-status-store';
import { editorFields, useFreshFormPerDevice } from './editor-form';

interface Draft {
  name: string;
  kind: 'tcp' | 'serial';
  host: string;
  port: string;
  path: string;
  baud: string;
  paper: PaperWidth;
  charsPerLine: string;
  cut: boolean;
  logo: string | null;
  active: boolean;
}

function draftOf(p: PrinterRecord | undefined): Draft {
  return {
    name: p?.name ?? '',
    kind: p?.address.kind ?? 'tcp',
    host: p?.address.kind === 'tcp' ? p.address.host : '',
    port: String(p?.address.kind === 'tcp' ? p.address.port : PRINTER_PORT),
    path: p?.address.kind === 'serial' ? p.address.path : '',
    baud: String(p?.address.kind === 'serial' ? p.address.baud : 9600),
    paper: p?.paper ?? '80mm',
    charsPerLine: String(p?.charsPerLine ?? 48),
    cut: p?.cut ?? true,
    logo: p?.logo ?? null,
    active: p?.active ?? true,
  };
}

const num = (s: string) => (/^\d+$/.test(s.trim()) ? Number(s) : NaN);

function toSettings(d: Draft): unknown {
  return {
    name: d.name,
    address: d.kind === 'tcp' ? { kind: 'tcp', host: d.host.trim(), port: num(d.port) } : { kind: 'serial', path: d.path.trim(), baud: num(d.baud) },
    paper: d.paper,
    charsPerLine: num(d.charsPerLine),
    cut: d.cut,
    logo: d.logo,
    active: d.active,
  };
}

function check(d: Draft): { value: PrinterSettings | null; errors: Record<string, string> } {
  const r = printerSettingsSchema.safeParse(toSettings(d));
  if (r.success) return { value: r.data, errors: {} };
  const errors: Record<string, string> = {};
  for (const i of r.error.issues) {
    const key = i.path.join('.');
    errors[key] ??= i.message.startsWith('Invalid input') || i.message.startsWith('Expected number') ? 'Type a number.' : i.message;
  }
  return { value: null, errors };
}

/** The printer's answer in a sentence: what to do when it cannot print. */
export function printerStatusSentence(s: PrinterStatusView): { ok: boolean; text: string } {
  const drawer = s.drawer === 'open' ? ' The cash drawer is open.' : s.drawer === 'closed' ? ' The cash drawer is closed.' : '';
  switch (s.state) {
    case 'ready':
      return { ok: true, text: `Ready.${drawer}` };
    case 'paper-low':
      return { ok: true, text: `Ready, but the paper roll is near its end: have a new roll at hand.${drawer}` };
    case 'paper-out':
      return { ok: false, text: `Out of paper: put in a new roll and close the cover.${drawer}` };
    case 'cover-open':
      return { ok: false, text: `The cover is open: close it.${drawer}` };
    case 'offline':
      return { ok: false, text: 'Offline: the printer does not answer. Check that it is on, its cable, and its address.' };
    case 'none':
      return { ok: false, text: PRINTER_MSG.noPrinter };
  }
}

export function PrinterEditor({ printer, onSaved, onRemoved }: { printer: PrinterRecord | undefined; onSaved(id: string): void; onRemoved(): void }) {
  const [d, setD] = useState<Draft>(() => draftOf(printer));
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState<'save' | 'test' | 'remove' | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const live = usePrinterStatusStore((s) => s.status);
  const formRef = useRef<HTMLFormElement>(null);
  const logoInput = useRef<HTMLInputElement>(null);
  const focusFirstError = useFocusFirstError(formRef);
  const printerId = printer?.id;
  const justSaved = useFreshFormPerDevice(printerId, () => {
    setD(draftOf(printer));
    setTouched(false);
    setMessage(null);
  });

  const { value, errors } = check(d);
  const err = (k: string) => (touched ? errors[k] : undefined);
  const { attrs, field } = editorFields('p', err);
  const set = (patch: Partial<Draft>) => {
    setD({ ...d, ...patch });
    setMessage(null);
  };

  const save = async () => {
    setTouched(true);
    if (!value) {
      focusFirstError();
      return setMessage({ ok: false, text: 'Fix the fields marked in red, then save.' });
    }
    setBusy('save');
    const r = await ringup.printersSave({ ...(printer ? { id: printer.id } : {}), printer: value });
    setBusy(null);
    if (!r.ok) return setMessage({ ok: false, text: r.error.message });
    setMessage({ ok: true, text: 'Saved.' });
    justSaved.current = r.value.id !== printerId;
    onSaved(r.value.id);
  };

  const test = async () => {
    setTouched(true);
    if (!value) {
      focusFirstError();
      return setMessage({ ok: false, text: 'Fix the fields marked in red first.' });
    }
    setBusy('test');
    const r = await ringup.printersTestPrint(value);
    setBusy(null);
    if (!r.ok) return setMessage({ ok: false, text: r.error.message });
    const s = printerStatusSentence(r.value);
    setMessage({ ok: s.ok, text: s.ok ? `Test page printed. ${s.text}` : `Nothing printed. ${s.text}` });
  };

  const remove = async () => {
    if (!printer) return;
    setBusy('remove');
    const r = await ringup.printersRemove({ id: printer.id });
    setBusy(null);
    if (!r.ok) return setMessage({ ok: false, text: r.error.message });
    onRemoved();
  };

  const pickLogo = (file: File | undefined) => {
    if (!file) return;
    if (file.type !== 'image/png') return setMessage({ ok: false, text: PRINTER_MSG.logo });
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      if (url.length > LOGO_MAX_CHARS) return setMessage({ ok: false, text: PRINTER_MSG.logo });
      set({ logo: url });
    };
    reader.readAsDataURL(file);
  };

  const inUse = printer && live && live.printerId === printer.id ? printerStatusSentence(live) : null;

  return (
    <form ref={formRef} className="device-form" aria-label={printer ? `Printer ${printer.name}` : 'New receipt printer'} onSubmit={(e) => { e.preventDefault(); void save(); }}>
      <h2 className="section-title">{printer ? `Receipt printer: ${printer.name}` : 'Register a receipt printer'}</h2>
      {inUse && (
        <p className={`notice ${inUse.ok ? 'notice-ok' : 'notice-error'}`} data-testid="printer-live-status">
          Printer now: {inUse.text}
        </p>
      )}
      <div className="form-grid">
        {field('name', 'Name', <input {...attrs('name')} value={d.name} placeholder="Counter printer" onChange={(e) => set({ name: e.target.value })} />)}
      </div>

      <fieldset className="device-fieldset">
        <legend>Connection</legend>
        <div className="segmented" role="radiogroup" aria-label="Connection">
          <button type="button" role="radio" aria-checked={d.kind === 'tcp'} className="segment" onClick={() => set({ kind: 'tcp' })}>Network (TCP)</button>
          <button type="button" role="radio" aria-checked={d.kind === 'serial'} className="segment" onClick={() => set({ kind: 'serial' })}>Serial cable</button>
        </div>
        <div className="form-grid">
          {d.kind === 'tcp' ? (
            <>
              {field('address.host', 'IP address', <input {...attrs('address.host')} className="input input-mono" inputMode="decimal" value={d.host} placeholder="192.168.1.60" onChange={(e) => set({ host: e.target.value })} data-testid="printer-host" />)}
              {field('address.port', 'Port', <input {...attrs('address.port')} className="input input-mono" inputMode="numeric" value={d.port} onChange={(e) => set({ port: e.target.value })} data-testid="printer-port" />, `Network receipt printers listen on ${PRINTER_PORT}.`)}
            </>
          ) : (
            <>
              {field('address.path', 'Serial path', <input {...attrs('address.path')} className="input input-mono" value={d.path} placeholder="/dev/ttyUSB0" onChange={(e) => set({ path: e.target.value })} />)}
              {field('address.baud', 'Speed (baud)', (
                <select {...attrs('address.baud')} value={d.baud} onChange={(e) => set({ baud: e.target.value })}>
                  {PRINTER_BAUDS.map((b) => <option key={b} value={b}>{b}</option>)}
                </select>
              ), 'As set on the printer (its self-test page says).')}
              <SerialPortPicker value={d.path} onPick={(path) => set({ path })} />
            </>
          )}
        </div>
      </fieldset>

      <fieldset className="device-fieldset">
        <legend>Paper</legend>
        <div className="segmented" role="radiogroup" aria-label="Paper width">
          {(['80mm', '58mm'] as const).map((w) => (
            <button key={w} type="button" role="radio" aria-checked={d.paper === w} className="segment" onClick={() => set({ paper: w, charsPerLine: String(CPL_CHOICES[w][0]) })}>
              {w === '80mm' ? '80 mm' : '58 mm'}
            </button>
          ))}
        </div>
        <div className="form-grid">
          {field('charsPerLine', 'Characters per line', (
            <select {...attrs('charsPerLine')} value={d.charsPerLine} onChange={(e) => set({ charsPerLine: e.target.value })}>
              {CPL_CHOICES[d.paper].map((c) => <option key={c} value={c}>{c}</option>)}
            </select>
          ), d.paper === '80mm' ? 'Most 80 mm printers hold 48; some 42. The test page shows which.' : '58 mm paper holds 32.')}
        </div>
        <label className="switch">
          <input type="checkbox" checked={d.cut} onChange={(e) => set({ cut: e.target.checked })} />
          <span className="switch-track" aria-hidden="true" />
          Cut the paper after each receipt
        </label>
        <div className="printer-logo">
          {d.logo ? <img src={d.logo} alt="The logo printed on receipts" /> : <span className="muted">No logo: the store’s name heads the receipt.</span>}
          <button type="button" className="btn btn-secondary" onClick={() => logoInput.current?.click()}>{d.logo ? 'Change the logo' : 'Add a logo (PNG)'}</button>
          <input ref={logoInput} type="file" accept="image/png" hidden aria-label="Logo file" onChange={(e) => pickLogo(e.target.files?.[0])} data-testid="printer-logo-file" />
          {d.logo && <button type="button" className="btn btn-quiet" onClick={() => set({ logo: null })}>Remove the logo</button>}
        </div>
      </fieldset>

      <label className="switch">
        <input type="checkbox" checked={d.active} onChange={(e) => set({ active: e.target.checked })} />
        <span className="switch-track" aria-hidden="true" />
        In use: receipts print here
      </label>

      {message && (
        <p className={`notice ${message.ok ? 'notice-ok' : 'notice-error'}`} role={message.ok ? 'status' : 'alert'} data-testid="printer-message">
          {message.text}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary btn-lg" disabled={busy !== null} data-testid="printer-save">
          {busy === 'save' ? 'Saving…' : printer ? 'Save changes' : 'Register printer'}
        </button>
        <button type="button" className="btn btn-secondary btn-lg" disabled={busy !== null} onClick={() => void test()} data-testid="printer-test">
          {busy === 'test' ? 'Printing…' : 'Test print'}
        </button>
        {printer && (
          <button type="button" className="btn btn-quiet btn-lg" disabled={busy !== null} onClick={() => void remove()} data-testid="printer-remove">
            Remove
          </button>
        )}
      </div>
    </form>
  );
}
