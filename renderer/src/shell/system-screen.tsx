import { ChangePinForm } from '../auth/change-pin-form';
import { KeyBackupPanel } from '../keys/key-backup-panel';
import { AuditCheckPanel } from '../audit/audit-check-panel';
import { useSessionStore } from '../auth/session-store';
import { useStatusStore } from './status-store';
import { Fact } from '../ui/fact';

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
            <Fact label="Version" testId="status-version">{status.version}</Fact>
            <Fact label="Running as">{status.shell === 'electron' ? 'Desktop app' : 'Node host (browser)'}</Fact>
            <Fact label="Data folder" mono testId="status-data-dir">{status.dataDir}</Fact>
            <Fact label="Gateway" testId="status-gateway-mode">{g.mode === 'embedded' ? 'Embedded gateway engine' : 'Remote gateway'}</Fact>
            <Fact label="Gateway address" mono testId="status-gateway-url">{g.baseUrl}</Fact>
            <Fact label="Gateway health" testId="status-gateway-health">
              <span className={`badge badge-${g.health}`}>{g.health === 'ok' ? 'Healthy' : g.health === 'starting' ? 'Starting' : g.health === 'restarting' ? 'Restarting' : 'Not reachable'}</span>
              {g.latencyMs !== null && <span className="muted"> answered in {g.latencyMs} ms</span>}
            </Fact>
          </dl>
        )}
        <button type="button" className="btn btn-primary btn-lg" onClick={() => void recheck()} disabled={checking || !status}>
          {checking ? 'Checking…' : 'Check gateway again'}
        </button>
      </section>
      {session && <ChangePinForm name={session.user.name} />}
      {session?.user.role === 'manager' && <KeyBackupPanel />}
      {session?.user.role === 'manager' && <AuditCheckPanel />}
    </div>
  );
}
