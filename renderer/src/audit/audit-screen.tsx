/**
 * The audit log (managers): who did what and when, newest first, a page at a time,
 * filtered by user, kind of event and dates. Read-only: the log has no edit or delete,
 * on screen or in the core.
 */
import { useEffect, useState } from 'react';
import { AUDIT_KIND_LABELS, AUDIT_KINDS, type AuditKind, type AuditListArgs } from '../../../shared/ipc/contract';
import { money } from '../ui/money-format';
import { dateInputToUnix } from '../ui/time-format';
import { NO_AUDIT_FILTERS, useAuditStore, type AuditFilters } from './audit-store';
import { useSessionStore } from '../auth/session-store';
import { NewerOlderPager } from '../transactions/newer-older-pager';

export const AUDIT_MESSAGES = {
  badRange: 'The start date must be before the end date.',
  empty: 'Nothing in the audit log matches these filters.',
} as const;

const WHEN = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

function toArgs(f: AuditFilters, page: number): AuditListArgs | string {
  const args: AuditListArgs = { page };
  if (f.userId) args.userId = f.userId;
  if (f.kind) args.kind = f.kind;
  const from = dateInputToUnix(f.from, false);
  const to = dateInputToUnix(f.to, true);
  if (from !== undefined) args.from = from * 1000;
  if (to !== undefined) args.to = (to + 1) * 1000;
  if (args.from !== undefined && args.to !== undefined && args.from >= args.to) return AUDIT_MESSAGES.badRange;
  return args;
}

export function AuditScreen() {
  const { filters, page, loading, error, setFilters, load } = useAuditStore();
  const users = useSessionStore((s) => s.users);
  const [pageNo, setPageNo] = useState(1);
  const args = toArgs(filters, pageNo);
  const argsKey = JSON.stringify(args);

  useEffect(() => {
    const a = JSON.parse(argsKey) as AuditListArgs | string;
    if (typeof a !== 'string') void load(a);
  }, [argsKey, load]);

  const filter = (patch: Partial<AuditFilters>) => {
    setFilters(patch);
    setPageNo(1);
  };
  const rangeError = typeof args === 'string' ? args : null;

  return (
    <section className="screen panel audit-screen" aria-labelledby="audit-title">
      <div className="tx-head">
        <h1 id="audit-title" tabIndex={-1} data-screen-focus>
          Audit log
        </h1>
        {page && (
          <span className="muted" role="status" data-testid="audit-count">
            {page.total === 1 ? '1 entry' : `${page.total.toLocaleString()} entries`} · page {page.page} of {page.pageCount}
          </span>
        )}
      </div>
      <div className="audit-filters" role="group" aria-label="Filters">
        <div className="field">
          <label htmlFor="audit-user">User</label>
          <select id="audit-user" className="input" value={filters.userId} onChange={(e) => filter({ userId: e.target.value })}>
            <option value="">Everyone</option>
            {users.map((u) => (
              <option key={u.id} value={u.id}>
                {u.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="audit-kind">What happened</label>
          <select id="audit-kind" className="input" value={filters.kind} onChange={(e) => filter({ kind: e.target.value as AuditKind | '' })}>
            <option value="">Everything</option>
            {AUDIT_KINDS.map((k) => (
              <option key={k} value={k}>
                {AUDIT_KIND_LABELS[k]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="audit-from">From date</label>
          <input id="audit-from" className="input" type="date" value={filters.from} aria-invalid={rangeError ? true : undefined} onChange={(e) => filter({ from: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor="audit-to">To date</label>
          <input id="audit-to" className="input" type="date" value={filters.to} aria-invalid={rangeError ? true : undefined} onChange={(e) => filter({ to: e.target.value })} />
        </div>
        <button type="button" className="btn btn-secondary audit-clear" onClick={() => filter(NO_AUDIT_FILTERS)}>
          Clear filters
        </button>
      </div>
      {(rangeError ?? error) && (
        <p className="notice notice-error" role="alert">
          {rangeError ?? error}
        </p>
      )}
      <div className="audit-table-wrap">
        <table className="audit-table" aria-busy={loading}>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col" className="audit-num">
                Amount
              </th>
              <th scope="col">Transaction</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {page?.rows.map((r) => (
              <tr key={r.seq} data-testid="audit-row">
                <td className="audit-when">{WHEN.format(r.ts)}</td>
                <td>{r.userName ?? <span className="muted">Nobody</span>}</td>
                <td>
                  <span className={`badge audit-kind audit-kind-${r.kind}`}>{AUDIT_KIND_LABELS[r.kind]}</span>
                </td>
                <td className="audit-num">{r.amountCents === null ? '' : money(r.amountCents)}</td>
                <td className="mono audit-tx" title={r.transactionId ?? undefined}>
                  {r.transactionId ?? ''}
                </td>
                <td className="audit-detail">{r.detail}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {page && page.rows.length === 0 && <p className="empty-list muted">{AUDIT_MESSAGES.empty}</p>}
      </div>
      <NewerOlderPager page={page} onPage={setPageNo} />
    </section>
  );
}
