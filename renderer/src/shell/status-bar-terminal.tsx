import { useEffect } from 'react';
import { TERMINAL_SERIAL_MSG, type Session } from '../../../shared/ipc/contract';
import { useTerminalStore } from '../devices/terminal-store';

const TEXT = { none: 'none', connected: 'connected', busy: 'busy', offline: 'offline' } as const;
const DOT = { none: 'starting', connected: 'ok', busy: 'starting', offline: 'unreachable' } as const;

/** The status bar's terminal slot: name and connected / busy / offline (and another serial than the registered one), kept live by `terminal:status`. */
export function StatusBarTerminal({ session }: { session: Session | null }) {
  const status = useTerminalStore((s) => s.status);
  const load = useTerminalStore((s) => s.load);
  useEffect(() => {
    if (session) void load();
  }, [session, load]);
  const c = status?.connection ?? 'none';
  return (
    <span className="status-item" data-testid="status-terminal">
      {c !== 'none' && <span className={`dot dot-${DOT[c]}`} aria-hidden="true" />}
      Terminal: {c === 'none' ? 'none' : `${status?.title ?? ''}, ${TEXT[c]}`}
      {c !== 'none' && status?.serialMismatch && `, ${TERMINAL_SERIAL_MSG.short(status.serialMismatch.reported)}`}
    </span>
  );
}
