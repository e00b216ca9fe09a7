/**
 * The outbox (managers): every e-mail and SMS the gateway queued for this store —
 * receipts, pay links, invoices, reminders — newest first, with the link it carries and
 * whether it went out. Read-only; a message's text opens in place.
 */
import { useEffect, useState } from 'react';
import { OUTBOX_KIND_LABELS, OUTBOX_TEXT, type OutboxChannel, type OutboxMessage } from '../../../shared/ipc/contract';
import { useOutboxStore } from './outbox-store';
import { NewerOlderPager } from '../transactions/newer-older-pager';
import { ErrorNote } from '../sales/outcome-note';

const WHEN = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const CHANNEL_LABEL: Record<OutboxChannel, string> = { email: 'E-mail', sms: 'SMS' };
const FILTERS: { value: OutboxChannel | ''; label: string }[] = [
  { value: '', label: 'All' },
  { value: 'email', label: 'E-mail' },
  { value: 'sms', label: 'SMS' },
];

function Status({ m }: { m: OutboxMessage }) {
  if (m.sentTs !== null) return <span className="badge outbox-sent">Sent {WHEN.format(m.sentTs * 1000)}</span>;
  if (m.error) return <span className="badge outbox-failed" title={m.error}>Not sent: {m.error}</span>;
  return <span className="badge outbox-queued">{m.channel === 'sms' ? OUTBOX_TEXT.smsQueued : OUTBOX_TEXT.queued}</span>;
}

export function OutboxScreen() {
  const { channel, page, loading, error, setChannel, load } = useOutboxStore();
  const [pageNo, setPageNo] = useState(1);

  useEffect(() => {
    void load({ page: pageNo, ...(channel ? { channel } : {}) });
  }, [channel, pageNo, load]);

  return (
    <section className="screen panel outbox-screen" aria-labelledby="outbox-title">
      <div className="tx-head">
        <h1 id="outbox-title" tabIndex={-1} data-screen-focus>
          Outbox
        </h1>
        {page && (
          <span className="muted" role="status" data-testid="outbox-count">
            {page.total === 1 ? '1 message' : `${page.total.toLocaleString()} messages`} · page {page.page} of {page.pageCount}
          </span>
        )}
      </div>
      <div className="outbox-filters" role="group" aria-label="Show">
        {FILTERS.map((f) => (
          <button
            key={f.label}
            type="button"
            className={`btn ${channel === f.value ? 'btn-primary' : 'btn-secondary'}`}
            aria-pressed={channel === f.value}
            onClick={() => {
              setChannel(f.value);
              setPageNo(1);
            }}
          >
            {f.label}
          </button>
        ))}
      </div>
      <ErrorNote text={error} />
      <div className="audit-table-wrap">
        <table className="audit-table outbox-table" aria-busy={loading}>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">To</th>
              <th scope="col">Message and link</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {page?.rows.map((m) => (
              <tr key={m.id} data-testid="outbox-row">
                <td className="audit-when">
                  {WHEN.format(m.createdTs * 1000)}
                  <span className="outbox-channel muted">{CHANNEL_LABEL[m.channel]}</span>
                </td>
                <td className="outbox-to">{m.to}</td>
                <td className="outbox-message">
                  <span className="badge audit-kind">{OUTBOX_KIND_LABELS[m.kind] ?? m.kind}</span>
                  <details>
                    <summary>{m.subject}</summary>
                    <pre className="outbox-body">{m.body}</pre>
                  </details>
                  {m.link && (
                    <a href={m.link} target="_blank" rel="noreferrer" className="mono outbox-link">
                      {m.link}
                    </a>
                  )}
                </td>
                <td className="outbox-status">
                  <Status m={m} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {page && page.rows.length === 0 && <p className="empty-list muted">{channel ? OUTBOX_TEXT.emptyFiltered : OUTBOX_TEXT.empty}</p>}
      </div>
      <NewerOlderPager page={page} onPage={setPageNo} />
    </section>
  );
}
