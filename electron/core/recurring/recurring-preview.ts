/**
 * What a recurring action would change, computed from the recurring's public record (its
 * start date, interval, next run and end dates) with the engine's own date arithmetic,
 * so the manager sees the effect before confirming. It follows the engine's rules
 * (electron/gateway/recurring/recurring-actions.ts); the engine's answer after the action
 * is what the list then shows. Simplification: a schedule re-anchored by a PUT is stepped
 * from its next run date.
 */
import type { RecurringAction, RecurringPreview, RecurringView } from '../../../shared/ipc/contract';
import { runDate, type IntervalType } from '../../common/run-dates';

export interface RecurringRecord {
  id: string;
  status: RecurringView['status'];
  recurring_type_id: 'o' | 'i';
  interval: number;
  interval_type: IntervalType;
  start_date: string;
  next_run_date: string;
  end_date: string;
  installment_total_count: number | null;
}

const NONE = '0000-00-00';

function dayBefore(date: string): string {
  const t = new Date(`${date}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() - 1);
  return t.toISOString().slice(0, 10);
}

/** The schedule as positions: dateAt(k), the position of the next run, the last chargeable one. */
export function positions(r: RecurringRecord) {
  let anchor = r.start_date;
  let k0 = -1;
  for (let k = 0; k < 5000; k++) {
    const d = runDate(anchor, r.interval, r.interval_type, k);
    if (d === r.next_run_date) {
      k0 = k;
      break;
    }
    if (d > r.next_run_date) break;
  }
  if (k0 < 0) {
    anchor = r.next_run_date;
    k0 = 0;
  }
  const dateAt = (k: number) => runDate(anchor, r.interval, r.interval_type, k);
  const hasEnd = r.end_date !== NONE && r.end_date !== '';
  let last = Infinity;
  if (hasEnd) {
    last = k0 - 1;
    while (last < k0 + 10_000 && dateAt(last + 1) <= r.end_date) last++;
  }
  return { dateAt, k0, last, hasEnd };
}

/** The run dates of an active recurring from its next run up to `until` (inclusive). */
export function datesUntil(r: RecurringRecord, until: string): string[] {
  const { dateAt, k0, last } = positions(r);
  const out: string[] = [];
  for (let k = k0; k <= last; k++) {
    const d = dateAt(k);
    if (d > until) break;
    out.push(d);
  }
  return out;
}

function joinDates(dates: string[]): string {
  if (dates.length <= 1) return dates.join('');
  return `${dates.slice(0, -1).join(', ')} and ${dates[dates.length - 1]}`;
}

export function previewAction(r: RecurringRecord, action: RecurringAction, count: number, today: string): RecurringPreview {
  const { dateAt, k0, last, hasEnd } = positions(r);
  const installment = r.recurring_type_id === 'i';
  const left = (from: number, lastK: number) => (Number.isFinite(lastK) ? Math.max(0, lastK - from + 1) : null);
  const ended = r.status === 'ended';
  const before = { status: r.status, nextRunDate: ended ? null : r.next_run_date, endDate: hasEnd ? r.end_date : null, paymentsLeft: ended ? 0 : left(k0, last) };
  let after = { ...before };
  let summary = '';
  const endAfter = (k: number, lastK: number) => (k > lastK ? { status: 'ended' as const, nextRunDate: null } : { status: 'active' as const, nextRunDate: dateAt(k) });
  switch (action) {
    case 'hold':
      after = { ...before, status: 'on hold' };
      summary = `No payment runs while it is on hold. The payment of ${r.next_run_date} will not be charged unless it is activated by then.`;
      break;
    case 'activate': {
      let k = k0;
      while (dateAt(k) < today && k <= last) k++;
      const missed = k - k0;
      const lastK = installment ? last + missed : last;
      after = { ...endAfter(k, lastK), endDate: installment && hasEnd ? dayBefore(dateAt(lastK + 1)) : before.endDate, paymentsLeft: left(k, lastK) };
      summary = after.nextRunDate ? `Payments start again on ${after.nextRunDate}.` : 'No payment is left to run; it ends.';
      if (missed > 0) summary += installment ? ` The ${missed === 1 ? 'payment' : `${missed} payments`} missed while on hold move to the end.` : ` The ${missed === 1 ? 'payment' : `${missed} payments`} missed while on hold are not charged.`;
      break;
    }
    case 'skip': {
      const skipped: string[] = [];
      for (let k = k0; k < k0 + count && k <= last; k++) skipped.push(dateAt(k));
      after = { ...endAfter(k0 + count, last), endDate: before.endDate, paymentsLeft: left(k0 + count, last) };
      summary = `The ${skipped.length === 1 ? 'payment' : 'payments'} of ${joinDates(skipped)} ${skipped.length === 1 ? 'is' : 'are'} not charged.`;
      summary += after.nextRunDate ? ` The next payment is on ${after.nextRunDate}.` : ' No payment is left; it ends.';
      if (installment) summary += ` ${after.paymentsLeft === 1 ? '1 payment is' : `${after.paymentsLeft ?? 0} payments are`} left, ending ${before.endDate} as before.`;
      break;
    }
    case 'defer': {
      const moved: string[] = [];
      for (let k = k0; k < k0 + count && k <= last; k++) moved.push(dateAt(k));
      const lastK = last + count;
      const endDate = dayBefore(dateAt(lastK + 1));
      after = { ...endAfter(k0 + count, lastK), endDate, paymentsLeft: left(k0 + count, lastK) };
      summary = `The ${moved.length === 1 ? 'payment' : 'payments'} of ${joinDates(moved)} ${moved.length === 1 ? 'moves' : 'move'} to the end. The next payment is on ${after.nextRunDate}; the plan now ends ${endDate} instead of ${before.endDate}. All payments are still collected.`;
      break;
    }
  }
  return { id: r.id, action, count, summary, before, after };
}
