/**
 * The offline queue (managers, issue 13): every sale taken while the gateway could not be
 * reached, its state (waiting, approved, declined, refused, expired), forwarding progress,
 * the expiry alert, and — first — the sales that came back declined (or expired) after the
 * customer left, with what is known of the customer (the name and phone or e-mail given at
 * the counter, the ZIP of a keyed card), so the money can be collected another way.
 * The list follows the core's `queue:status` events. A waiting sale whose screen never said
 * "Approved offline" (issue 20, point 3) is marked "Not confirmed on screen": it is not sent
 * until someone at the counter keeps it (unconfirmed-offline-dialog.tsx).
 */
import { useCallback, useEffect, useState } from 'react';
import type { QueueItem, QueueItemState } from '../../../shared/ipc/contract';
import { ringup } from '../bridge/bridge';
import { money } from '../ui/money-format';
import { dateAndTime } from '../ui/time-format';
import { useQueueStore } from './queue-store';
import { useSettingsStore } from '../settings/settings-store';
import { ErrorNote } from '../sales/outcome-note';

const STATE_TEXT: Record<QueueItemState, string> = { pending: 'Waiting', approved: 'Approved', declined: 'Declined', error: 'Refused', expired: 'Expired', withdrawn: 'Cancelled' };
const STATE_BADGE: Record<QueueItemState, string> = { pending: 'pending', approved: 'approved', declined: 'declined', error: 'declined', expired: 'other', withdrawn: 'other' };
const ENTRY_TEXT: Record<QueueItem['entryMode'], string> = { K: 'keyed', S: 'swiped', C: 'chip', P: 'contactless' };
const PROBLEM: ReadonlySet<QueueItemState> = new Set(['declined', 'error', 'expired']);
/** Waiting for a choice at the counter: its screen never said "Approved offline" (issue 20, point 3). */
const unconfirmed = (i: QueueItem) => i.state === 'pending' && !i.acknowledged;

export function QueueScreen() {
  const status = useQueueStore((s) => s.status);
  const alertHours = useSettingsStore((s) => s.settings?.offlineAlertHours ?? 24);
  const [items, setItems] = useState<QueueItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    const r = await ringup.queueList();
    if (r.ok) {
      setItems(r.value.items);
      useQueueStore.setState({ status: r.value.status });
      setError(null);
    } else setError(r.error.message);
  }, []);

  // Reload on open and whenever the core says the queue changed (its events are throttled).
  const pending = status?.pendingCount;
  const problems = status?.problemCount;
  const forwarding = status?.forwarding;
  useEffect(() => {
    void load();
  }, [load, pending, problems, forwarding]);

  const forwardNow = async () => {
    const r = await ringup.queueForwardNow();
    if (!r.ok) setError(r.error.message);
  };

  const problemItems = (items ?? []).filter((i) => PROBLEM.has(i.state));
  const progress = status?.forwarding ? status.progress : null;
  return (
    <section className="screen panel queue-screen" aria-labelledby="queue-title">
      <div className="tx-head">
        <h1 id="queue-title" tabIndex={-1} data-screen-focus>
          Offline queue
        </h1>
        <span className="muted" role="status" data-testid="queue-summary">
          {!status || status.pendingCount === 0
            ? 'Nothing waiting to be sent.'
            : `${status.pendingCount === 1 ? '1 sale' : `${status.pendingCount.toLocaleString()} sales`} waiting, ${money(status.pendingCents)}`}
        </span>
      </div>
      {progress && (
        <div className="queue-progress" data-testid="queue-progress">
          <label htmlFor="queue-progress-bar">
            Sending to the gateway: {progress.done.toLocaleString()} of {progress.total.toLocaleString()}
          </label>
          <progress id="queue-progress-bar" max={Math.max(progress.total, 1)} value={progress.done} />
        </div>
      )}
      {(status?.expiringSoonCount ?? 0) > 0 && (
        <p className="notice notice-error" role="alert" data-testid="queue-expiry-alert">
          {status!.expiringSoonCount === 1 ? '1 offline sale expires' : `${status!.expiringSoonCount} offline sales expire`} within {alertHours} hours
          {status!.nextExpiryTs ? ` (the first at ${dateAndTime(status!.nextExpiryTs)})` : ''}. Get the gateway back, or collect the money another way before then.
        </p>
      )}
      <ErrorNote text={error} />
      <div className="queue-actions">
        <button type="button" className="btn btn-secondary btn-lg" onClick={() => void forwardNow()} disabled={!status || status.pendingCount === 0}>
          Send now
        </button>
        <span className="muted">Waiting sales are sent by themselves as soon as the gateway answers.</span>
      </div>

      <h2 className="section-title">Declined after the customer left</h2>
      {problemItems.length === 0 ? (
        <p className="muted" data-testid="queue-no-problems">
          None. Every forwarded sale was approved.
        </p>
      ) : (
        <>
          <p className="notice notice-error" data-testid="queue-problems-note">
            These sales were approved offline, but the gateway declined or refused them later, or they expired unsent: the card was not charged. Collect the money another way.
          </p>
          <QueueTable items={problemItems} testId="queue-problem-row" caption="Sales to collect another way" />
        </>
      )}

      <h2 className="section-title">All offline sales</h2>
      {items && items.length === 0 ? <p className="muted">No sale has been taken offline.</p> : <QueueTable items={items ?? []} testId="queue-row" caption="Every offline sale, newest first" />}
    </section>
  );
}

function QueueTable({ items, testId, caption }: { items: QueueItem[]; testId: string; caption: string }) {
  return (
    <div className="audit-table-wrap">
      <table className="audit-table">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Taken</th>
            <th scope="col">Cashier</th>
            <th scope="col">Card</th>
            <th scope="col">Customer</th>
            <th scope="col" className="audit-num">
              Amount
            </th>
            <th scope="col">State</th>
            <th scope="col">What happened</th>
          </tr>
        </thead>
        <tbody>
          {items.map((i) => (
            <tr key={i.seq} data-testid={testId}>
              <td className="audit-when">{dateAndTime(i.queuedTs)}</td>
              <td>{i.clerkName}</td>
              <td className="queue-card">
                {i.cardBrand} •••• {i.lastFour}
                <span className="muted queue-entry">{ENTRY_TEXT[i.entryMode]}</span>
              </td>
              <td className="queue-customer" data-testid="queue-customer">
                {i.customerName && <span>{i.customerName}</span>}
                {i.customerContact && <span>{i.customerContact}</span>}
                {i.zip && <span className="muted">ZIP {i.zip}</span>}
                {!i.customerName && !i.customerContact && !i.zip && <span className="muted">Not given</span>}
              </td>
              <td className="audit-num">{money(i.amountCents)}</td>
              <td>
                {unconfirmed(i) ? (
                  <span className="badge badge-state-declined badge-unconfirmed" data-testid="queue-state">
                    Not confirmed on screen
                  </span>
                ) : (
                  <span className={`badge badge-state-${STATE_BADGE[i.state]}`} data-testid="queue-state">
                    {STATE_TEXT[i.state]}
                  </span>
                )}
              </td>
              <td className="queue-what">
                {unconfirmed(i)
                  ? `The screen never said it was approved: not sent until someone at the counter keeps or cancels it. Expires ${dateAndTime(i.expiresTs)}.`
                  : i.state === 'pending'
                    ? `${i.attempts === 0 ? 'Not tried yet' : `Tried ${i.attempts} time${i.attempts === 1 ? '' : 's'}`}; expires ${dateAndTime(i.expiresTs)}`
                    : (i.message ?? '')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
