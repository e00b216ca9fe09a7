import type { CoreStatus, Session } from '../../../shared/ipc/contract';
import { ROLE_LABEL } from '../auth/role-label';
import { StatusBarQueue } from './status-bar-queue';
import { StatusBarTerminal } from './status-bar-terminal';
import { StatusBarPrinter } from './status-bar-printer';
import { StatusBarStore } from './status-bar-store';

const HEALTH_TEXT: Record<CoreStatus['gateway']['health'], string> = {
  ok: 'reachable',
  unreachable: 'not reachable',
  refused: 'refusing our credentials',
  starting: 'starting…',
  restarting: 'restarting…',
};

/**
 * On every screen: the gateway, who is signed in, and the slots later work fills
 * (the payment terminal, the offline queue, the printer, the store server).
 */
export function StatusBar({ status, session }: { status: CoreStatus | null; session: Session | null }) {
  const g = status?.gateway;
  return (
    <footer className="status-bar" aria-label="Status">
      <span className="status-item" data-testid="status-gateway">
        <span className={`dot dot-${g?.health ?? 'starting'}`} aria-hidden="true" />
        Gateway: {!g ? 'connecting…' : status.registerCopy ? 'none (this data folder is a copy)' : `${g.mode === 'embedded' ? 'embedded' : 'remote'}, ${g.signedOut && g.health === 'refused' ? 'signed out' : HEALTH_TEXT[g.health]}`}
      </span>
      <span className="status-item" data-testid="status-user">
        {session ? (
          <>
            <span className="status-label">Signed in: </span>
            <strong>{session.user.name}</strong> ({ROLE_LABEL[session.user.role]})
          </>
        ) : (
          'Nobody signed in'
        )}
      </span>
      <StatusBarTerminal session={session} />
      <StatusBarQueue session={session} />
      <StatusBarStore session={session} />
      <StatusBarPrinter session={session} />
      <span className="status-item status-right">Ringup {status?.version ?? ''}</span>
    </footer>
  );
}
