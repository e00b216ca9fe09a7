import type { CoreStatus } from '../../../shared/ipc/contract';

const HEALTH_TEXT: Record<CoreStatus['gateway']['health'], string> = {
  ok: 'reachable',
  unreachable: 'not reachable',
  starting: 'starting…',
};

export function StatusBar({ status }: { status: CoreStatus | null }) {
  const g = status?.gateway;
  return (
    <footer className="status-bar" aria-label="Status">
      <span className="status-item" data-testid="status-gateway">
        <span className={`dot dot-${g?.health ?? 'starting'}`} aria-hidden="true" />
        Gateway: {g ? `${g.mode === 'embedded' ? 'embedded' : 'remote'}, ${HEALTH_TEXT[g.health]}` : 'connecting…'}
      </span>
      <span className="status-item">Terminal: none</span>
      <span className="status-item">Offline queue: empty</span>
      <span className="status-item status-right">Ringup {status?.version ?? ''}</span>
    </footer>
  );
}
