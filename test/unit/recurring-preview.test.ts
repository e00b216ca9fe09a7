/**
 * The core's preview of a recurring action, from the record's public dates: month-end
 * anchoring, skip and defer on installments and ongoing plans, activate after missed dates.
 * (test/unit/manager-recurring.test.ts checks against the real engine that the preview
 * matches what it then does.)
 */
import { describe, expect, it } from 'vitest';
import { datesUntil, previewAction, type RecurringRecord } from '../../electron/core/recurring/recurring-preview';

const base: RecurringRecord = {
  id: 'r1', status: 'active', recurring_type_id: 'i', interval: 1, interval_type: 'm',
  start_date: '2032-01-31', next_run_date: '2032-02-29', end_date: '2032-05-30', installment_total_count: 4,
};

describe('recurring preview', () => {
  it('steps from the start date, so month ends hold (Feb 29 → Mar 31 → Apr 30)', () => {
    expect(datesUntil(base, '2032-12-31')).toEqual(['2032-02-29', '2032-03-31', '2032-04-30']);
    const p = previewAction(base, 'skip', 1, '2032-02-20');
    expect(p.after).toEqual({ status: 'active', nextRunDate: '2032-03-31', endDate: '2032-05-30', paymentsLeft: 2 });
    expect(p.before.paymentsLeft).toBe(3);
    expect(p.summary).toBe('The payment of 2032-02-29 is not charged. The next payment is on 2032-03-31. 2 payments are left, ending 2032-05-30 as before.');
  });

  it('defer appends at the end and moves the end date; skipping them all ends it', () => {
    const d = previewAction(base, 'defer', 2, '2032-02-20');
    expect(d.after).toEqual({ status: 'active', nextRunDate: '2032-04-30', endDate: '2032-07-30', paymentsLeft: 3 });
    expect(d.summary).toContain('All payments are still collected.');
    const end = previewAction(base, 'skip', 3, '2032-02-20');
    expect(end.after).toMatchObject({ status: 'ended', nextRunDate: null, paymentsLeft: 0 });
  });

  it('activate after missed dates: an installment defers them, an ongoing plan skips them', () => {
    const held = { ...base, status: 'on hold' as const };
    const i = previewAction(held, 'activate', 1, '2032-04-15');
    expect(i.after).toEqual({ status: 'active', nextRunDate: '2032-04-30', endDate: '2032-07-30', paymentsLeft: 3 });
    expect(i.summary).toBe('Payments start again on 2032-04-30. The 2 payments missed while on hold move to the end.');
    const o = previewAction({ ...held, recurring_type_id: 'o', end_date: '0000-00-00', installment_total_count: null }, 'activate', 1, '2032-04-15');
    expect(o.after).toEqual({ status: 'active', nextRunDate: '2032-04-30', endDate: null, paymentsLeft: null });
    expect(o.summary).toContain('The 2 payments missed while on hold are not charged.');
  });

  it('hold keeps the dates and says what waits', () => {
    const h = previewAction({ ...base, recurring_type_id: 'o', end_date: '0000-00-00', installment_total_count: null }, 'hold', 1, '2032-02-20');
    expect(h.after).toEqual({ status: 'on hold', nextRunDate: '2032-02-29', endDate: null, paymentsLeft: null });
    expect(h.summary).toContain('No payment runs while it is on hold.');
  });
});
