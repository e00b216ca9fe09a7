import type { CoreStatus, Session } from '../../../shared/ipc/contract';

const HEALTH_TEXT: Record<CoreStatus['gateway']['health'], string> = {
  ok: 'reachable',
  unreachable: 'not reachable',
  refused: 'refusing our credentials',
  starting: 'starting…',
};

/**
 * On every screen: the gateway, who is signed in, and the slots later work fills
 * (the payment terminal, the offline queue).
 */
export function StatusBar({ status, session }: { status: CoreStatus | null; session: Session | null }) {
  const g = status?.gateway;
  return (
    <footer className="status-bar" aria-label="Status">
      <span className="status-item" data-testid="status-gateway">
        <span className={`dot dot-${g?.health ?? 'starting'}`} aria-hidden="true" />
        Gateway: {g ? `${g.mode === 'embedded' ? 'embedded' : 'remote'}, ${HEALTH_TEXT[g.health]}` : 'connecting…'}
      </span>
      <span className="status-item" data-testid="status-user">
        {session ? (
          <>
            Signed in: <strong>{session.user.name}</strong> ({session.user.role === 'manager' ? 'Manager' : 'Cashier'})
          </>
        ) : (
          'Nobody signed in'
        )}
      </span>
      <span className="status-item" data-testid="status-terminal">
        Terminal: none
      </span>
      <span className="status-item" data-testid="status-offline-queue">
        Offline queue: empty
      </span>
      <span className="status-item status-right">Ringup {status?.version ?? ''}</span>
    </footer>
  );
}
