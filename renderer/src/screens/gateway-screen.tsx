/**
 * Gateway (managers): which payment gateway this counter uses, and a change of it: the
 * embedded engine (no account needed) or a remote gateway with its base URL, developer
 * id, user id and API key. Test connection asks the gateway with those credentials;
 * Save tests again and applies at the next start. The key is typed here and goes to the
 * core once; it is never shown again (the core keeps it in the secret store).
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { GatewayConnectionView } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { Fact } from '../components/fact';
import { OutcomeNote, type Outcome } from '../components/outcome-note';
import { TextField } from '../components/text-field';

type Kind = 'embedded' | 'remote';

export const GATEWAY_UI = {
  savedEmbedded: 'Saved: the embedded engine. Close Ringup and start it again to use it.',
  savedRemote: 'Saved. Close Ringup and start it again to use this gateway.',
  envWins: 'Environment variables (RINGUP_GATEWAY_URL …) choose the gateway of this run; a saved choice applies when they are not set.',
} as const;

export function GatewayScreen() {
  const [view, setView] = useState<GatewayConnectionView | null>(null);
  const [kind, setKind] = useState<Kind>('embedded');
  const [baseUrl, setBaseUrl] = useState('');
  const [developerId, setDeveloperId] = useState('');
  const [userId, setUserId] = useState('');
  const [userApiKey, setUserApiKey] = useState('');
  const [fields, setFields] = useState<Record<string, string[]>>({});
  const [note, setNote] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    const r = await ringup.gatewayConnection();
    if (!r.ok) return setNote({ ok: false, text: r.error.message });
    setView(r.value);
    const saved = r.value.saved;
    setKind(saved?.kind ?? r.value.mode);
    setBaseUrl(saved?.baseUrl ?? '');
    setDeveloperId(saved?.developerId ?? '');
    setUserId(saved?.userId ?? '');
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const remoteArgs = () => ({ baseUrl, developerId, userId, userApiKey });
  const test = async () => {
    setBusy(true);
    const r = await ringup.gatewayTest(remoteArgs());
    setBusy(false);
    if (!r.ok) {
      setFields(r.error.fields ?? {});
      return setNote({ ok: false, text: r.error.message });
    }
    setFields({});
    setNote({ ok: r.value.ok, text: r.value.message });
  };
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const r = await ringup.gatewaySave(kind === 'embedded' ? { kind } : { kind, ...remoteArgs() });
    setBusy(false);
    if (!r.ok) {
      setFields(r.error.fields ?? {});
      return setNote({ ok: false, text: r.error.message });
    }
    setFields({});
    setUserApiKey('');
    setView(r.value);
    setNote({ ok: true, text: kind === 'embedded' ? GATEWAY_UI.savedEmbedded : GATEWAY_UI.savedRemote });
  };
  const err = (f: string) => fields[f]?.[0] ?? null;

  return (
    <div className="system-layout">
      <section className="screen panel" aria-labelledby="gateway-title">
        <h1 id="gateway-title" tabIndex={-1} data-screen-focus>
          Gateway
        </h1>
        {view && (
          <dl className="facts" data-testid="gateway-now">
            <Fact label="In use now">{view.mode === 'embedded' ? 'Embedded gateway engine' : 'Remote gateway'}</Fact>
            <Fact label="Address" mono>
              {view.baseUrl}
            </Fact>
            {view.mode === 'remote' && <Fact label="Developer id" mono>{view.developerId}</Fact>}
            {view.mode === 'remote' && <Fact label="Gateway user" mono>{view.userId}</Fact>}
            <Fact label="Signs in with">{view.mode === 'embedded' ? 'Its own keys (made on first start)' : 'API key (kept in the secret store)'}</Fact>
          </dl>
        )}
        {view?.fromEnvironment && <p className="notice notice-info">{GATEWAY_UI.envWins}</p>}
        {view?.restartNeeded && !note && <p className="notice notice-info">A saved change applies at the next start of Ringup.</p>}
      </section>

      <form className="panel gateway-form" aria-labelledby="gateway-change-title" onSubmit={save}>
        <h2 id="gateway-change-title" className="section-title">
          Change the gateway
        </h2>
        <div className="segmented" role="radiogroup" aria-label="Gateway">
          {(['embedded', 'remote'] as const).map((k) => (
            <button key={k} type="button" role="radio" aria-checked={kind === k} className="segment" onClick={() => setKind(k)}>
              {k === 'embedded' ? 'Embedded engine' : 'Remote gateway'}
              <span className="segment-sub">{k === 'embedded' ? 'no account needed' : 'sandbox or production'}</span>
            </button>
          ))}
        </div>
        {kind === 'remote' && (
          <div className="settings-grid gateway-grid">
            <TextField id="gw-url" label="Base URL" value={baseUrl} placeholder="https://api.sandbox.example.com/v2" error={err('baseUrl')} onChange={setBaseUrl} />
            <TextField id="gw-dev" label="Developer id" value={developerId} error={err('developerId')} onChange={setDeveloperId} />
            <TextField id="gw-user" label="User id" value={userId} error={err('userId')} onChange={setUserId} />
            <TextField id="gw-key" label="API key" type="password" value={userApiKey} hint="Kept only in this computer’s secret store." error={err('userApiKey')} onChange={setUserApiKey} />
          </div>
        )}
        <OutcomeNote note={note} />
        <div className="form-actions">
          {kind === 'remote' && (
            <button type="button" className="btn btn-secondary btn-lg" onClick={() => void test()} disabled={busy}>
              Test connection
            </button>
          )}
          <button type="submit" className="btn btn-primary btn-lg" disabled={busy}>
            Save
          </button>
        </div>
      </form>
    </div>
  );
}
