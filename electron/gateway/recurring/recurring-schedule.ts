/**
 * The schedule of one recurring, as positions: position k runs on
 * runDate(anchor_date, interval, interval_type, k - anchor_index). Runs charge positions in
 * order (next_index is the next one to charge); skipping or deferring moves next_index
 * forward without charging.
 *
 * - Installment (`i`, installment_total_count N): positions 0 … N-1+deferred are
 *   chargeable. A skipped payment is one of the N (fewer are collected, end_date stays); a
 *   deferred payment is appended after the last one (the N are still collected, end_date
 *   moves one interval later). end_date is the day before position N+deferred, as the
 *   family's documentation shows it (20 monthly payments from 2019-02-23 end 2020-10-22).
 * - Ongoing (`o`): no last position; end_date (yyyy-mm-dd, or 0000-00-00 for none) stops it.
 *
 * Re-anchoring (PUT of interval, interval_type, next_run_date) sets anchor_date to the new
 * next run date and anchor_index to next_index, so the count of remaining positions holds.
 */
import { runDate, type IntervalType } from '../../common/run-dates';

export const NO_DATE = '0000-00-00';

export interface ScheduleState {
  recurring_type_id: 'o' | 'i';
  interval: number;
  interval_type: IntervalType;
  anchor_date: string;
  anchor_index: number;
  next_index: number;
  deferred_count: number;
  installment_total_count: number | null;
  end_date: string;
}

export function dateAt(s: ScheduleState, k: number): string {
  return runDate(s.anchor_date, s.interval, s.interval_type, k - s.anchor_index);
}

/** Position of the last chargeable payment (installments), Infinity for ongoing. */
export function lastIndex(s: ScheduleState): number {
  if (s.recurring_type_id !== 'i') return Infinity;
  return (s.installment_total_count ?? 0) - 1 + s.deferred_count;
}

export function dayBefore(date: string): string {
  const t = new Date(`${date}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() - 1);
  return t.toISOString().slice(0, 10);
}

/** An installment recurring's end date: the day before the position after its last. */
export function installmentEndDate(s: ScheduleState): string {
  return dayBefore(dateAt(s, lastIndex(s) + 1));
}

/** True when position `k` is past the end of the schedule. */
export function isPastEnd(s: ScheduleState, k: number): boolean {
  if (k > lastIndex(s)) return true;
  return s.end_date !== NO_DATE && dateAt(s, k) > s.end_date;
}

/** The next `count` run dates from position next_index on (fewer when the schedule ends). */
export function upcomingDates(s: ScheduleState, count: number, until?: string): string[] {
  const out: string[] = [];
  for (let k = s.next_index; out.length < count && !isPastEnd(s, k); k++) {
    const d = dateAt(s, k);
    if (until !== undefined && d > until) break;
    out.push(d);
  }
  return out;
}
