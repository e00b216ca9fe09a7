import { useEffect } from 'react';
import type { Session } from '../../../shared/ipc/contract';
import { money } from '../ui/money-format';
import { useQueueStore } from '../queue/queue-store';

/**
 * The status bar's offline-queue slot (issue 13): "empty", or how many sales wait and
 * their amount, or the forwarding progress while it runs ("sending 12 of 120"), and a
 * warning when one is about to expire. Kept live by `queue:status`.
 */
export function StatusBarQueue({ session }: { session: Session | null }) {
  const status = useQueueStore((s) => s.status);
  const load = useQueueStore((s) => s.load);
  useEffect(() => {
    if (session) void load();
  }, [session, load]);
  const n = status?.pendingCount ?? 0;
  let text = 'empty';
  if (n > 0) text = `${n === 1 ? '1 sale' : `${n.toLocaleString()} sales`}, ${money(status!.pendingCents)}`;
  // While sending, the progress says it all (what waits is its "of"): the bar keeps to one line.
  if (status?.forwarding && status.progress && n > 0) text = `sending ${status.progress.done.toLocaleString()} of ${status.progress.total.toLocaleString()}`;
  const alert = (status?.expiringSoonCount ?? 0) > 0;
  return (
    <span className="status-item" data-testid="status-offline-queue">
      {n > 0 && <span className={`dot dot-${alert ? 'unreachable' : 'starting'}`} aria-hidden="true" />}
      Offline queue: {text}
      {alert && <strong data-testid="status-queue-expiring"> · {status!.expiringSoonCount} expiring soon</strong>}
    </span>
  );
}
