/**
 * The first-run choice, shown once on a fresh data folder before anything else: the
 * embedded engine (the default: one click or Enter, nothing to set up) or a remote
 * gateway (sandbox or production base URL and developer id), whose sign-in a manager
 * finishes on the Gateway screen (API key or OAuth). `FirstRunGate` asks the core whether
 * the choice is still open and shows the app once it is made.
 */
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import type { FirstRunState } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { OutcomeNote, type Outcome } from '../sales/outcome-note';
import { TextField } from '../ui/text-field';
import { BareShell } from '../shell/bare-shell';
import { generalMessage } from '../ui/form-failure';

type Environment = 'sandbox' | 'production';

export const FIRST_RUN_UI = {
  title: 'Welcome to Ringup',
  embedded: 'Use the built-in gateway engine',
  remote: 'Connect to a payment gateway',
} as const;

export function FirstRunGate({ children }: { children: ReactNode }) {
  const [state, setState] = useState<FirstRunState | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    void ringup.gatewayFirstRun().then((r) => (r.ok ? setState(r.value) : setFailed(true)));
  }, []);
  // Not connected: the app says so itself.
  if (failed || state?.needed === false) return <>{children}</>;
  if (!state) return null;
  return <FirstRunScreen onDone={setState} />;
}

function FirstRunScreen({ onDone }: { onDone(state: FirstRunState): void }) {
  const [remote, setRemote] = useState(false);
  const [environment, setEnvironment] = useState<Environment>('sandbox');
  const [baseUrl, setBaseUrl] = useState('');
  const [developerId, setDeveloperId] = useState('');
  const [fields, setFields] = useState<Record<string, string[]>>({});
  const [note, setNote] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);

  const choose = async (arg: Parameters<typeof ringup.gatewayFirstRunChoose>[0]) => {
    setBusy(true);
    const r = await ringup.gatewayFirstRunChoose(arg);
    setBusy(false);
    if (!r.ok) {
      setFields(r.error.fields ?? {});
      const text = generalMessage(r.error, ['baseUrl', 'developerId']);
      return setNote(text ? { ok: false, text } : null);
    }
    onDone(r.value);
  };
  const submitRemote = (e: FormEvent) => {
    e.preventDefault();
    void choose({ kind: 'remote', environment, baseUrl, developerId });
  };
  const err = (f: string) => fields[f]?.[0] ?? null;

  return (
    <BareShell>
      <section className="panel panel-narrow first-run-choice" aria-labelledby="first-run-title">
        <h1 id="first-run-title">{FIRST_RUN_UI.title}</h1>
        <p className="muted">Which payment gateway will this counter use? You can change it later on the Gateway screen.</p>
        {!remote ? (
          <div className="first-run-options">
            {/* The default: Enter takes it. */}
            <button type="button" className="btn btn-primary btn-lg first-run-option" autoFocus disabled={busy} onClick={() => void choose({ kind: 'embedded' })}>
              {FIRST_RUN_UI.embedded}
              <span className="segment-sub">Recommended. Works now, no account or setup; a sandbox, so no real money moves.</span>
            </button>
            <button type="button" className="btn btn-secondary btn-lg first-run-option" disabled={busy} onClick={() => setRemote(true)}>
              {FIRST_RUN_UI.remote}
              <span className="segment-sub">A sandbox or production gateway you have an account with.</span>
            </button>
          </div>
        ) : (
          <form onSubmit={submitRemote} aria-label="Remote gateway">
            <div className="segmented" role="radiogroup" aria-label="Environment">
              {(['sandbox', 'production'] as const).map((k) => (
                <button key={k} type="button" role="radio" aria-checked={environment === k} className="segment" onClick={() => setEnvironment(k)}>
                  {k === 'sandbox' ? 'Sandbox' : 'Production'}
                  <span className="segment-sub">{k === 'sandbox' ? 'test cards, no real money' : 'real cards and money'}</span>
                </button>
              ))}
            </div>
            <div className="first-run-fields">
              <TextField id="fr-url" label="Base URL" value={baseUrl} placeholder="https://api.sandbox.example.com/v2" error={err('baseUrl')} onChange={setBaseUrl} />
              <TextField id="fr-dev" label="Developer id" value={developerId} error={err('developerId')} onChange={setDeveloperId} />
            </div>
            <p className="muted">Next, a manager signs in and finishes on the Gateway screen with an API key or with OAuth.</p>
            <OutcomeNote note={note} />
            <div className="form-actions">
              <button type="button" className="btn btn-secondary btn-lg" onClick={() => setRemote(false)} disabled={busy}>
                Back
              </button>
              <button type="submit" className="btn btn-primary btn-lg" disabled={busy}>
                Continue
              </button>
            </div>
          </form>
        )}
        {!remote && <OutcomeNote note={note} />}
      </section>
    </BareShell>
  );
}
