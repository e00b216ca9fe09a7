/**
 * Register or change an EMV terminal: name, serial number, where it is (network address and
 * port, or a serial path), manufacturer and application, the timeouts within the engine's
 * own bounds and the tip percents (all three or none), checked as you type with the same
 * rules the engine applies. Test connection talks to the terminal itself.
 * TLS (issue 20, point 1): a network terminal that offers TLS is pinned to its certificate's
 * SHA-256 fingerprint, typed from the terminal's screen or read from the terminal here (the
 * handshake only) and confirmed by the installer against the terminal's screen before it is used.
 */
import { Fragment, useRef, useState } from 'react';
import { TERMINAL_TIMEOUTS, TIMEOUT_KEYS, defaultTimeouts, tipPercentProblems, type TimeoutKey } from '../../../shared/payments/terminal-timeouts';
import { serialMismatchOf, TERMINAL_SERIAL_MSG, terminalSaveSchema, type InstallerData, type TerminalRecord, type TerminalSave } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { dateAndTime } from '../ui/time-format';
import { useFocusFirstError } from '../ui/focus-first-error';
import { DeviceTerms } from './device-terms';
import { SerialPortPicker } from './serial-port-picker';
import { editorFields, useFreshFormPerDevice } from './editor-form';

interface Draft {
  title: string;
  serialNumber: string;
  kind: 'tcp' | 'serial';
  host: string;
  port: string;
  path: string;
  manufacturerId: string;
  applicationId: string;
  timeouts: Record<TimeoutKey, string>;
  tipsOn: boolean;
  tips: [string, string, string];
  tlsOn: boolean;
  fingerprint: string;
}

function draftOf(t: TerminalRecord | undefined, data: InstallerData): Draft {
  const app = data.applications[0];
  const timeouts = t?.timeouts ?? defaultTimeouts();
  return {
    title: t?.title ?? '',
    serialNumber: t?.serialNumber ?? '',
    kind: t?.address.kind ?? 'tcp',
    host: t?.address.kind === 'tcp' ? t.address.host : '',
    port: String(t?.address.kind === 'tcp' ? t.address.port : 10009),
    path: t?.address.kind === 'serial' ? t.address.path : '',
    manufacturerId: t?.manufacturerId ?? app?.manufacturerId ?? data.manufacturers[0]?.id ?? '',
    applicationId: t?.applicationId ?? app?.id ?? '',
    timeouts: Object.fromEntries(TIMEOUT_KEYS.map((k) => [k, String(timeouts[k])])) as Record<TimeoutKey, string>,
    tipsOn: !!t?.tipPercents,
    tips: (t?.tipPercents ?? [15, 18, 20]).map(String) as [string, string, string],
    tlsOn: t?.address.kind === 'tcp' && !!t.address.tls,
    fingerprint: t?.address.kind === 'tcp' ? (t.address.tls?.fingerprint ?? '') : '',
  };
}

const reportedOf = (t: TerminalRecord | undefined, data: InstallerData): string | null => (t ? (data.reportedSerials[t.id] ?? null) : null);

const num = (s: string) => (/^\d+$/.test(s.trim()) ? Number(s) : NaN);
/** A tip percent as the engine sees it: blank is null, digits a number, anything else as typed. */
const tipValue = (s: string): unknown => (s.trim() === '' ? null : /^\d+$/.test(s.trim()) ? Number(s) : s);
/** The engine's own tip-percent rules, named by the fields' labels. */
const tipProblems = (d: Draft) => (d.tipsOn ? tipPercentProblems(d.tips.map(tipValue), (i) => `Percent ${i + 1}`) : []);

function toSave(d: Draft, id: string | null): unknown {
  return {
    ...(id ? { id } : {}),
    title: d.title,
    serialNumber: d.serialNumber,
    // A fingerprint wrapped across lines in the box reads as one: white space is dropped.
    address:
      d.kind === 'tcp'
        ? { kind: 'tcp', host: d.host.trim(), port: num(d.port), tls: d.tlsOn ? { fingerprint: d.fingerprint.replace(/\s+/g, '') } : null }
        : { kind: 'serial', path: d.path.trim() },
    applicationId: d.applicationId,
    manufacturerId: d.manufacturerId,
    timeouts: Object.fromEntries(TIMEOUT_KEYS.map((k) => [k, num(d.timeouts[k])])),
    // All three blank is no tips, as the engine reads all nulls.
    tipPercents: d.tipsOn && d.tips.some((t) => t.trim() !== '') ? d.tips.map(num) : null,
  };
}

/** Field errors by path (address.host, timeouts.pin_entry_timeout, tipPercents.1 …). */
function check(d: Draft, id: string | null): { value: TerminalSave | null; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  for (const p of tipProblems(d)) for (const i of p.at) errors[`tipPercents.${i}`] ??= p.message;
  const r = terminalSaveSchema.safeParse(toSave(d, id));
  if (r.success) return { value: Object.keys(errors).length ? null : r.data, errors };
  for (const i of r.error.issues) {
    const key = i.path.join('.');
    if (key.startsWith('tipPercents')) continue; // said above, in the engine's words
    const notANumber = i.message.startsWith('Invalid input') || i.message.startsWith('Expected number');
    errors[key] ??= !notANumber ? i.message : key.startsWith('timeouts') ? 'Type a whole number of seconds.' : 'Type a number.';
  }
  return { value: null, errors };
}

export function TerminalEditor({ terminal, data, onSaved }: { terminal: TerminalRecord | undefined; data: InstallerData; onSaved(id: string): void }) {
  const [d, setD] = useState<Draft>(() => draftOf(terminal, data));
  const [touched, setTouched] = useState(false);
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [testing, setTesting] = useState(false);
  /** A fingerprint read from the terminal, waiting for the installer to compare it with the terminal's screen. */
  const [presented, setPresented] = useState<{ fingerprint: string; at: string } | null>(null);
  const [reading, setReading] = useState(false);
  /** When the gateway last reached this terminal (its last_registration_ts). */
  const [lastContact, setLastContact] = useState<number | null>(terminal?.lastRegistrationTs ?? null);
  /** The serial the terminal gave of itself (its record's, then the last test's), against the one typed here. */
  const [reported, setReported] = useState<string | null>(reportedOf(terminal, data));
  // A different terminal opens a fresh form; the one just saved keeps its "Saved." line.
  const formRef = useRef<HTMLFormElement>(null);
  const focusFirstError = useFocusFirstError(formRef);
  const termId = terminal?.id;
  const justSaved = useFreshFormPerDevice(termId, () => {
    setD(draftOf(terminal, data));
    setTouched(false);
    setMessage(null);
    setPresented(null);
    setLastContact(terminal?.lastRegistrationTs ?? null);
    setReported(reportedOf(terminal, data));
  });

  const id = terminal?.id ?? null;
  const { value, errors } = check(d, id);
  const err = (k: string) => (touched ? errors[k] : undefined);
  const { attrs, field } = editorFields('t', err);
  const set = (patch: Partial<Draft>) => {
    setD({ ...d, ...patch });
    setMessage(null);
  };
  const mismatch = serialMismatchOf(d.serialNumber, reported);
  const apps = data.applications.filter((a) => !d.manufacturerId || a.manufacturerId === d.manufacturerId);

  const save = async () => {
    setTouched(true);
    if (!value) {
      focusFirstError();
      return setMessage({ ok: false, text: 'Fix the fields marked in red, then save.' });
    }
    setSaving(true);
    const r = await ringup.devicesTerminalSave(value);
    setSaving(false);
    if (r.ok) {
      setMessage({ ok: true, text: 'Saved.' });
      justSaved.current = r.value.id !== termId;
      onSaved(r.value.id);
    } else setMessage({ ok: false, text: r.error.message });
  };

  const test = async () => {
    setTouched(true);
    if (!value) return setMessage({ ok: false, text: 'Fix the address first.' });
    setTesting(true);
    // A saved terminal at its saved address is initialized by the gateway, which records the contact.
    const r = await ringup.devicesTerminalTest({ address: value.address, ...(terminal ? { terminalId: terminal.id } : {}) });
    setTesting(false);
    if (!r.ok) return setMessage({ ok: false, text: r.error.message });
    if (r.value.lastRegistrationTs !== null) setLastContact(r.value.lastRegistrationTs);
    setReported(r.value.serialNumber);
    const unsaved = terminal && r.value.lastRegistrationTs === null ? ' Save to use this address.' : '';
    setMessage({ ok: true, text: `Connected: ${r.value.model}, serial ${r.value.serialNumber}, ${r.value.application}.${unsaved}` });
  };

  const readCertificate = async () => {
    setTouched(true);
    if (errors['address.host'] || errors['address.port']) return setMessage({ ok: false, text: 'Fix the address first.' });
    const host = d.host.trim();
    const port = num(d.port);
    setReading(true);
    setPresented(null);
    const r = await ringup.devicesTerminalCertificate({ host, port });
    setReading(false);
    if (!r.ok) return setMessage({ ok: false, text: r.error.message });
    setPresented({ fingerprint: r.value.fingerprint, at: `${host}:${port}` });
  };


  return (
    <form ref={formRef} className="device-form" aria-label={terminal ? `Terminal ${terminal.title}` : 'New terminal'} onSubmit={(e) => { e.preventDefault(); void save(); }}>
      <h2 className="section-title">{terminal ? `Terminal: ${terminal.title || terminal.serialNumber}` : 'Register a terminal'}</h2>
      <div className="form-grid">
        {field('title', 'Name', <input {...attrs('title')} value={d.title} onChange={(e) => set({ title: e.target.value })} />)}
        {field('serialNumber', 'Serial number', <input {...attrs('serialNumber')} className="input input-mono" value={d.serialNumber} onChange={(e) => set({ serialNumber: e.target.value })} />)}
        {field('manufacturerId', 'Manufacturer', (
          <select {...attrs('manufacturerId')} value={d.manufacturerId} onChange={(e) => set({ manufacturerId: e.target.value, applicationId: data.applications.find((a) => a.manufacturerId === e.target.value)?.id ?? '' })}>
            {data.manufacturers.map((m) => <option key={m.id} value={m.id}>{m.title}</option>)}
          </select>
        ))}
        {field('applicationId', 'Application', (
          <select {...attrs('applicationId')} value={d.applicationId} onChange={(e) => set({ applicationId: e.target.value })}>
            {apps.map((a) => <option key={a.id} value={a.id}>{a.title}</option>)}
          </select>
        ))}
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
              {field('address.host', 'IP address', <input {...attrs('address.host')} className="input input-mono" inputMode="decimal" value={d.host} placeholder="192.168.1.50" onChange={(e) => set({ host: e.target.value })} />)}
              {field('address.port', 'Port', <input {...attrs('address.port')} className="input input-mono" inputMode="numeric" value={d.port} onChange={(e) => set({ port: e.target.value })} />, 'POSLink terminals listen on 10009.')}
            </>
          ) : (
            <>
              {field('address.path', 'Serial path', <input {...attrs('address.path')} className="input input-mono" value={d.path} placeholder="/dev/ttyUSB0" onChange={(e) => set({ path: e.target.value })} />)}
              <SerialPortPicker value={d.path} onPick={(path) => set({ path })} />
            </>
          )}
        </div>
        {d.kind === 'tcp' && (
          <>
            <label className="switch">
              <input type="checkbox" checked={d.tlsOn} onChange={(e) => set({ tlsOn: e.target.checked })} data-testid="terminal-tls" />
              <span className="switch-track" aria-hidden="true" />
              Secure the link with TLS
            </label>
            <p className="muted field-hint">
              {d.tlsOn
                ? 'Ringup then talks only to the terminal whose certificate has this fingerprint, never in plain TCP. Find it in the terminal\'s network or security settings.'
                : 'Turn on when the terminal offers TLS (its network settings): on a shared network nobody can then read or answer in its place.'}
            </p>
            {d.tlsOn && (
              <>
                {field('address.tls.fingerprint', 'Certificate fingerprint (SHA-256)', (
                  <textarea {...attrs('address.tls.fingerprint')} className="input input-mono textarea fingerprint-input" rows={2} spellCheck={false} autoCapitalize="characters" value={d.fingerprint} placeholder="3F:A2:07:…:9C (32 pairs joined by colons)" onChange={(e) => set({ fingerprint: e.target.value })} data-testid="terminal-fingerprint" />
                ))}
                <div className="form-actions form-actions-tight">
                  <button type="button" className="btn btn-secondary" disabled={reading} onClick={() => void readCertificate()} data-testid="terminal-read-certificate">
                    {reading ? 'Reading…' : 'Read it from the terminal'}
                  </button>
                </div>
                {presented && (
                  <div className="notice notice-info presented-cert" role="group" aria-label="Certificate the terminal presents">
                    <p>The terminal at <span className="mono">{presented.at}</span> presents this fingerprint:</p>
                    <p className="fingerprint-text" data-testid="terminal-presented-fingerprint">
                      {presented.fingerprint.split(':').map((pair, i) => (
                        <Fragment key={i}>
                          {i > 0 && ':'}
                          {i > 0 && <wbr />}
                          {pair}
                        </Fragment>
                      ))}
                    </p>
                    <p>Compare it with the fingerprint on the terminal&apos;s own screen. Use it only if every pair matches: anything else may be answering in the terminal&apos;s place.</p>
                    <div className="form-actions form-actions-tight">
                      <button type="button" className="btn btn-primary" onClick={() => { set({ fingerprint: presented.fingerprint }); setPresented(null); }} data-testid="terminal-use-fingerprint">
                        It matches: use it
                      </button>
                      <button type="button" className="btn btn-secondary" onClick={() => setPresented(null)}>
                        It does not match
                      </button>
                    </div>
                  </div>
                )}
              </>
            )}
          </>
        )}
      </fieldset>

      <fieldset className="device-fieldset">
        <legend>Timeouts (seconds)</legend>
        <div className="form-grid form-grid-3">
          {TIMEOUT_KEYS.map((k) => {
            const s = TERMINAL_TIMEOUTS[k];
            return field(`timeouts.${k}`, s.label, (
              <input {...attrs(`timeouts.${k}`)} className="input input-mono" inputMode="numeric" value={d.timeouts[k]} onChange={(e) => set({ timeouts: { ...d.timeouts, [k]: e.target.value } })} />
            ), `${s.min}–${s.max}, default ${s.default}`);
          })}
        </div>
      </fieldset>

      <fieldset className="device-fieldset">
        <legend>Tips on the terminal</legend>
        <label className="switch">
          <input type="checkbox" checked={d.tipsOn} onChange={(e) => set({ tipsOn: e.target.checked })} />
          <span className="switch-track" aria-hidden="true" />
          Offer three tip percents
        </label>
        <p className="muted field-hint">All three percents or none; each a whole number from 0 to 99 (the gateway's rules).</p>
        {d.tipsOn && (
          <div className="form-grid form-grid-3">
            {[0, 1, 2].map((i) =>
              field(`tipPercents.${i}`, `Percent ${i + 1}`, (
                <input {...attrs(`tipPercents.${i}`)} className="input input-mono" inputMode="numeric" value={d.tips[i]} onChange={(e) => {
                  const tips = [...d.tips] as [string, string, string];
                  tips[i] = e.target.value;
                  set({ tips });
                }} />
              )),
            )}
          </div>
        )}
      </fieldset>

      {mismatch && (
        <p className="notice notice-error" role="alert" data-testid="terminal-serial-mismatch">
          {TERMINAL_SERIAL_MSG.mismatch(mismatch.registered, mismatch.reported)}
        </p>
      )}
      {message && (
        <p className={`notice ${message.ok ? 'notice-ok' : 'notice-error'}`} role={message.ok ? 'status' : 'alert'} data-testid="terminal-message">
          {message.text}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary btn-lg" disabled={saving} data-testid="terminal-save">
          {saving ? 'Saving…' : terminal ? 'Save changes' : 'Register terminal'}
        </button>
        <button type="button" className="btn btn-secondary btn-lg" disabled={testing} onClick={() => void test()} data-testid="terminal-test">
          {testing ? 'Testing…' : 'Test connection'}
        </button>
        {terminal && (
          <span className="muted form-actions-note" data-testid="terminal-last-contact">
            {lastContact !== null ? `Last connected ${dateAndTime(lastContact)}.` : 'Not connected yet: save its address, then test the connection.'}
          </span>
        )}
      </div>
      {terminal && <DeviceTerms terminalId={terminal.id} />}
    </form>
  );
}
