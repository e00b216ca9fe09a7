import { useEffect } from 'react';
import { storeStatusWords, type Session, type StoreStatus } from '../../../shared/ipc/contract';
import { useStoreStatusStore } from '../store/store-status-store';

const DOT: Record<StoreStatus['connection'], string> = { none: 'starting', connected: 'ok', away: 'starting', removed: 'unreachable' };

/**
 * The status bar's store slot (issue 24): "Store: connected", "Store: away, 12 changes waiting",
 * "Store: this register was removed" (storeStatusWords, the one wording). Nothing shows for a
 * register in no store. Kept live by `store:status`. Away and removed are warnings: in the
 * warning colour, and where the bar keeps to one line (800×480) it takes a second line rather
 * than cut them off (styles.css .status-alert); "Store: connected" may be cut off there, as
 * "Printer: ready" is (the least urgent words).
 */
export function StatusBarStore({ session }: { session: Session | null }) {
  const status = useStoreStatusStore((s) => s.status);
  const load = useStoreStatusStore((s) => s.load);
  useEffect(() => {
    if (session) void load();
  }, [session, load]);
  const words = storeStatusWords(status);
  if (!session || !words) return null;
  const warn = status.connection !== 'connected';
  return (
    <span className={`status-item ${warn ? 'status-alert status-store-warn' : 'status-store-quiet'}`} data-testid="status-store">
      <span className={`dot dot-${DOT[status.connection]}`} aria-hidden="true" />
      {warn ? <strong>{words}</strong> : words}
    </span>
  );
}
