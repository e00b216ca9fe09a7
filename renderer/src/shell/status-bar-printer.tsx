import { useEffect } from 'react';
import { drawerOpenWords, PRINTER_STATE_WORDS, type PrinterState, type Session } from '../../../shared/ipc/contract';
import { usePrinterStatusStore } from '../devices/printer-status-store';

const DOT: Record<PrinterState, string> = { none: 'starting', ready: 'ok', 'paper-low': 'starting', 'paper-out': 'unreachable', 'cover-open': 'unreachable', offline: 'unreachable' };

/**
 * The status bar's receipt printer slot (issue 23): "Printer: ready / paper low / out of paper /
 * cover open / offline", how many receipts wait for it, and the cash drawer when it is open —
 * as a warning once it has been open longer than the store's setting ("Drawer open 2 min").
 * Nothing shows without a registered printer. Kept live by `printer:status`. Where the bar keeps
 * to one line (narrow and short screens) a warning makes it take a second line rather than be
 * cut off; "Printer: ready" may be cut off there (simplification: it is the least urgent word).
 */
export function StatusBarPrinter({ session }: { session: Session | null }) {
  const status = usePrinterStatusStore((s) => s.status);
  const load = usePrinterStatusStore((s) => s.load);
  useEffect(() => {
    if (session) void load();
  }, [session, load]);
  if (!session || !status || status.state === 'none') return null;
  // A printer that cannot print, or a drawer left open, is a warning: the bar makes room for it (styles.css .status-alert).
  const cannotPrint = status.state === 'paper-out' || status.state === 'cover-open' || status.state === 'offline';
  return (
    <>
      <span className={`status-item${cannotPrint ? ' status-alert' : ''}`} data-testid="status-printer">
        <span className={`dot dot-${DOT[status.state]}`} aria-hidden="true" />
        Printer: {PRINTER_STATE_WORDS[status.state]}
        {status.waiting > 0 && <strong> · {status.waiting} waiting</strong>}
      </span>
      {status.drawer === 'open' && (
        <span className={`status-item${status.drawerFlagged ? ' status-warn status-alert' : ''}`} data-testid="status-drawer">
          <span className={`dot dot-${status.drawerFlagged ? 'unreachable' : 'starting'}`} aria-hidden="true" />
          {status.drawerFlagged ? <strong>{drawerOpenWords(status.drawerOpenSeconds)}</strong> : 'Drawer open'}
        </span>
      )}
    </>
  );
}
