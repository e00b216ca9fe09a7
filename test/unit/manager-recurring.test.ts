/**
 * Recurring payments through the core against the real engine: managers only, created
 * from a saved card or bank account, listed with status, next run, amount and the runs of
 * the next 30 days, every action previewed (the preview matches what the engine then
 * does) and refused actions answered with the gateway's sentence.
 */
import { describe, expect, it } from 'vitest';
import { AUTH_ERRORS } from '../../electron/core/auth/users';
import { RECURRING_FIELD_ERRORS } from '../../shared/ipc/contract';
import { useCoreHarness, value } from '../helpers/core-harness';

const h = useCoreHarness('ringup-recurring-');
const { call, signInAs } = h;

const dayAfter = (days: number) => {
  const ny = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date());
  const t = new Date(`${ny}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + days);
  return t.toISOString().slice(0, 10);
};

describe('recurring payments in the core', () => {
  it('creates, lists, previews and acts; cashiers may not', async () => {
    await signInAs('Morgan', '1234');
    const pat = value(await call('vault:add-contact', { firstName: 'Pat', lastName: 'Doe', email: '' }));
    const card = value(await call('vault:add-card', { contactId: pat.id, holderName: 'Pat Doe', number: '4111111111111111', expiry: '1239' }));
    const bank = value(await call('vault:add-bank', { contactId: pat.id, holderName: 'Pat Doe', routing: '072000326', account: '123456789', accountType: 'checking', isCompany: false }));
    const start = dayAfter(2);

    const bad = await call('recurring:create', { methodId: '', amountCents: 0, interval: 0, intervalType: 'm', startDate: start, installments: null, notificationDays: 0, description: '' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.fields).toMatchObject({ methodId: [RECURRING_FIELD_ERRORS.method], amountCents: [RECURRING_FIELD_ERRORS.amount], interval: [RECURRING_FIELD_ERRORS.interval] });

    const plan = value(await call('recurring:create', { methodId: card.id, amountCents: 2500, interval: 1, intervalType: 'w', startDate: start, installments: 6, notificationDays: 1, description: 'Lessons' }));
    expect(plan).toMatchObject({ customerName: 'Pat Doe', methodLabel: 'Visa •••• 1111', amountCents: 2500, scheduleLabel: 'Every week', kind: 'installment', installments: 6, status: 'active', nextRunDate: start });
    const gym = value(await call('recurring:create', { methodId: bank.id, amountCents: 1000, interval: 1, intervalType: 'm', startDate: start, installments: null, notificationDays: 0, description: '' }));
    expect(gym).toMatchObject({ methodLabel: 'Checking •••• 6789', kind: 'ongoing', endDate: null });

    const list = value(await call('recurring:list'));
    expect(list.recurrings.map((r) => r.id).sort()).toEqual([plan.id, gym.id].sort());
    // Next 30 days: the weekly plan on start, +7, +14, +21, (+28) and the monthly one on start.
    expect(list.upcoming.filter((u) => u.recurringId === plan.id).map((u) => u.date)).toEqual([0, 7, 14, 21, 28].map((d) => dayAfter(2 + d)).filter((d) => d <= addDays(list.today, 30)));
    expect(list.upcoming.filter((u) => u.recurringId === gym.id).map((u) => u.date)).toEqual([start]);
    expect(JSON.stringify(list)).not.toMatch(/4111111111111111|123456789/);

    // Each preview says exactly what the engine then does.
    for (const [action, count] of [['skip', 2], ['defer', 1], ['hold', 1], ['activate', 1]] as const) {
      const p = value(await call('recurring:preview', { id: plan.id, action, count }));
      expect(p.summary.length).toBeGreaterThan(10);
      const done = value(await call('recurring:act', { id: plan.id, action, count }));
      expect({ status: done.status, nextRunDate: done.nextRunDate, endDate: done.endDate }, action).toEqual({ status: p.after.status, nextRunDate: p.after.nextRunDate, endDate: p.after.endDate });
    }
    const skip = value(await call('recurring:preview', { id: plan.id, action: 'skip', count: 1 }));
    expect(skip.before.paymentsLeft).toBe(4);
    expect(skip.after.paymentsLeft).toBe(3);

    const refused = await call('recurring:act', { id: gym.id, action: 'defer', count: 1 });
    expect(refused).toMatchObject({ ok: false, error: { message: expect.stringContaining('Only installment recurrings can defer payments') } });

    await signInAs('Casey', '0000');
    expect(await call('recurring:list')).toEqual({ ok: false, error: { code: 'forbidden', message: AUTH_ERRORS.managerOnly } });
  });
});

function addDays(date: string, days: number): string {
  const t = new Date(`${date}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + days);
  return t.toISOString().slice(0, 10);
}
