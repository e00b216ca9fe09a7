import { ChangePinForm } from '../components/change-pin-form';
import { useSessionStore } from '../stores/session-store';
import { useStatusStore } from '../stores/status-store';
import { Fact } from '../components/fact';

export function SystemScreen() {
  const { status, error, checking, recheck } = useStatusStore();
  const g = status?.gateway;
  const session = useSessionStore((s) => s.session);
  return (
    <div className="system-layout">
      <section className="screen panel" aria-labelledby="system-title">
        <h1 id="system-title" tabIndex={-1} data-screen-focus>
          System
        </h1>
        {error && (
          <p role="alert" className="notice notice-error">
            {error}
          </p>
        )}
        {!status && !error && <p className="muted">Connecting to Ringup…</p>}
        {status && g && (
          <dl className="facts" data-testid="core-status">
            <div>
              <dt>Version</dt>
              <dd data-testid="status-version">{status.version}</dd>
            </div>
            <Fact label="Running as">{status.shell === 'electron' ? 'Desktop app' : 'Node host (browser)'}</Fact>
            <div>
              <dt>Data folder</dt>
              <dd className="mono" data-testid="status-data-dir">
                {status.dataDir}
              </dd>
            </div>
            <div>
              <dt>Gateway</dt>
              <dd data-testid="status-gateway-mode">{g.mode === 'embedded' ? 'Embedded gateway engine' : 'Remote gateway'}</dd>
            </div>
            <div>
              <dt>Gateway address</dt>
              <dd className="mono" data-testid="status-gateway-url">
                {g.baseUrl}
              </dd>
            </div>
            <div>
              <dt>Gateway health</dt>
              <dd data-testid="status-gateway-health">
                <span className={`badge badge-${g.health}`}>{g.health === 'ok' ? 'Healthy' : g.health === 'starting' ? 'Starting' : 'Not reachable'}</span>
                {g.latencyMs !== null && <span className="muted"> answered in {g.latencyMs} ms</span>}
              </dd>
            </div>
          </dl>
        )}
        <button type="button" className="btn btn-primary btn-lg" onClick={() => void recheck()} disabled={checking || !status}>
          {checking ? 'Checking…' : 'Check gateway again'}
        </button>
      </section>
      {session && <ChangePinForm name={session.user.name} />}
    </div>
  );
}
