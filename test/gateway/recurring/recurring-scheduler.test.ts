/**
 * The recurring due work driven by the sandbox clock (day by day, as an integrator would):
 * charges on exactly the right dates across month ends and a leap day, installments stop
 * after their count, skip and defer change what is charged, declines are recorded, holds
 * pause, notices go out notification_days before, and runs missed while the engine was
 * stopped are caught up at start, once each.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MovableClock } from '../../../electron/gateway/framework/clock';
import { startEngine } from '../../../electron/gateway/engine';
import { startRecurringEngine, type RecurringHarness } from './recurring-harness';

let h: RecurringHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Advances one day at a time; returns, per recurring, the location dates on which a new charge appeared. */
async function chargeDays(hh: RecurringHarness, ids: string[], days: number, startDate: string): Promise<Record<string, string[]>> {
  const seen: Record<string, string[]> = Object.fromEntries(ids.map((id) => [id, []]));
  const count = async (id: string) => (await hh.call('GET', `/v2/recurrings/${id}?expand=transactions`)).body.recurring.transactions.length as number;
  const counts = Object.fromEntries(await Promise.all(ids.map(async (id) => [id, await count(id)] as const)));
  for (let d = 0; d <= days; d++) {
    if (d > 0) expect((await hh.advanceDays(1)).status).toBe(200);
    else await hh.engine.ctx.runDueWork(hh.location);
    const today = new Date(Date.parse(`${startDate}T00:00:00Z`) + d * 86_400_000).toISOString().slice(0, 10);
    for (const id of ids) {
      const n = await count(id);
      for (let k = counts[id] as number; k < n; k++) (seen[id] as string[]).push(today);
      counts[id] = n;
    }
  }
  return seen;
}

describe('recurring runs with the sandbox clock', () => {
  it('charges monthly on exactly the right dates across month ends and a leap year, then ends', async () => {
    h = await startRecurringEngine('2031-12-31');
    const monthly = (await h.createRecurring({ installment_total_count: 5 })).body.recurring;
    const weekly = (await h.createRecurring({ interval: 2, interval_type: 'w', end_date: '2032-02-20' })).body.recurring;
    const daily = (await h.createRecurring({ interval: 10, interval_type: 'd', start_date: '2032-01-05', account_vault_id: h.bankVault, product_transaction_id: h.achPt })).body.recurring;
    const seen = await chargeDays(h, [monthly.id, weekly.id, daily.id], 130, '2031-12-31');
    expect(seen[monthly.id]).toEqual(['2031-12-31', '2032-01-31', '2032-02-29', '2032-03-31', '2032-04-30']);
    expect(seen[weekly.id]).toEqual(['2031-12-31', '2032-01-14', '2032-01-28', '2032-02-11']);
    expect(seen[daily.id]).toEqual(Array.from({ length: 13 }, (_, k) => new Date(Date.parse('2032-01-05T00:00:00Z') + k * 10 * 86_400_000).toISOString().slice(0, 10)));
    const m = (await h.call('GET', `/v2/recurrings/${monthly.id}?expand=transactions`)).body.recurring;
    expect(m.status).toBe('ended');
    expect(m.end_date).toBe('2032-05-30');
    for (const t of m.transactions) expect(t).toMatchObject({ recurring_id: monthly.id, is_recurring: true, trx_source_id: 13, status_id: 101, action: 'sale', account_vault_id: h.cardVault });
    expect((await h.call('GET', `/v2/recurrings/${weekly.id}`)).body.recurring.status).toBe('ended');
    const ach = (await h.call('GET', `/v2/recurrings/${daily.id}?expand=transactions`)).body.recurring;
    expect(ach.status).toBe('active');
    expect(ach.transactions[0]).toMatchObject({ action: 'debit', payment_method: 'ach', type_id: 50, trx_source_id: 13 });
  });

  it('a jump of the sandbox clock charges every missed run once, in order, and a second advance adds nothing', async () => {
    h = await startRecurringEngine('2030-01-31');
    const r = (await h.createRecurring({})).body.recurring;
    await h.advanceDays(100); // Jan 31 … May 11: Jan 31, Feb 28, Mar 31, Apr 30
    const runs = (await h.call('GET', `/v2/recurrings/${r.id}?expand=runs,transactions`)).body.recurring;
    expect(runs.runs.map((x: { run_date: string }) => x.run_date)).toEqual(['2030-01-31', '2030-02-28', '2030-03-31', '2030-04-30']);
    expect(runs.runs.map((x: { transaction_id: string }) => x.transaction_id)).toEqual(runs.transactions.map((t: { id: string }) => t.id));
    expect(runs.runs.every((x: { status_id: number; error: null }) => x.status_id === 101 && x.error === null)).toBe(true);
    expect(await h.chargesOf(r.id)).toHaveLength(4);
    await h.engine.ctx.runDueWork(h.location);
    await Promise.all([h.engine.ctx.runDueWork(), h.engine.ctx.runDueWork(h.location)]);
    expect(await h.chargesOf(r.id)).toHaveLength(4);
    expect((await h.call('GET', `/v2/recurrings/${r.id}`)).body.recurring.next_run_date).toBe('2030-05-31');
  });

  it('skip collects fewer installments; defer collects them all, later', async () => {
    h = await startRecurringEngine('2030-03-10');
    const skipped = (await h.createRecurring({ installment_total_count: 3, start_date: '2030-03-15' })).body.recurring;
    const deferred = (await h.createRecurring({ installment_total_count: 3, start_date: '2030-03-15' })).body.recurring;
    expect((await h.call('POST', `/v2/recurrings/${skipped.id}/skipPayment?skip_count=1`)).body.recurring.end_date).toBe('2030-06-14');
    expect((await h.call('POST', `/v2/recurrings/${deferred.id}/deferPayment?defer_count=1`)).body.recurring.end_date).toBe('2030-07-14');
    const seen = await chargeDays(h, [skipped.id, deferred.id], 130, '2030-03-10');
    expect(seen[skipped.id]).toEqual(['2030-04-15', '2030-05-15']);
    expect(seen[deferred.id]).toEqual(['2030-04-15', '2030-05-15', '2030-06-15']);
  });

  it('records declines as runs (installments count them), ends an ongoing recurring at its end_date', async () => {
    h = await startRecurringEngine('2030-01-01');
    const declined = (await h.createRecurring({ installment_total_count: 2, transaction_amount: '5.00' })).body.recurring;
    const ongoing = (await h.createRecurring({ end_date: '2030-02-15' })).body.recurring;
    await h.advanceDays(70);
    const d = await h.chargesOf(declined.id);
    expect(d.map((t) => t.status_id)).toEqual([301, 301]);
    expect((await h.call('GET', `/v2/recurrings/${declined.id}`)).body.recurring.status).toBe('ended');
    const runs = h.engine.db.prepare('SELECT status_id FROM recurring_runs WHERE recurring_id = ?').all(declined.id) as { status_id: number }[];
    expect(runs.map((r) => r.status_id)).toEqual([301, 301]);
    expect(await h.chargesOf(ongoing.id)).toHaveLength(2); // Jan 1, Feb 1
    expect((await h.call('GET', `/v2/recurrings/${ongoing.id}`)).body.recurring.status).toBe('ended');
    expect((await h.call('GET', '/v2/recurrings?status=ended')).body.recurrings).toHaveLength(2);
  });

  it('a run the transaction path refuses is recorded with its reason and counts as a run', async () => {
    h = await startRecurringEngine('2030-01-01');
    const r = (await h.createRecurring({ installment_total_count: 2 })).body.recurring;
    // The vault disappears behind the API's back (the API itself refuses to delete it).
    h.engine.db.prepare('UPDATE account_vaults SET location_id = ? WHERE id = ?').run('elsewhere', h.cardVault);
    await h.advanceDays(1);
    const runs = h.engine.db.prepare('SELECT run_date, transaction_id, status_id, error FROM recurring_runs WHERE recurring_id = ?').all(r.id) as Record<string, unknown>[];
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ run_date: '2030-01-01', transaction_id: null, status_id: null });
    expect(String(runs[0]?.error)).toContain('Account Vault Id');
    expect((await h.call('GET', `/v2/recurrings/${r.id}`)).body.recurring.next_run_date).toBe('2030-02-01');
    expect(await h.chargesOf(r.id)).toHaveLength(0);
  });

  it('nothing runs on hold or inactive; activate resumes at the next date (an installment defers what it missed)', async () => {
    h = await startRecurringEngine('2030-01-10');
    const i = (await h.createRecurring({ installment_total_count: 3, start_date: '2030-01-20' })).body.recurring;
    const o = (await h.createRecurring({ start_date: '2030-01-20' })).body.recurring;
    await h.call('POST', `/v2/recurrings/${i.id}/placeOnHold`);
    await h.call('PUT', `/v2/recurrings/${o.id}`, { recurring: { active: 0 } });
    await h.advanceDays(45); // Feb 24: Jan 20 and Feb 20 passed
    expect(await h.chargesOf(i.id)).toHaveLength(0);
    expect(await h.chargesOf(o.id)).toHaveLength(0);
    const act = await h.call('POST', `/v2/recurrings/${i.id}/activate`);
    expect(act.body.recurring).toMatchObject({ status: 'active', next_run_date: '2030-03-20', end_date: '2030-06-19' });
    const seen = await chargeDays(h, [i.id], 120, '2030-02-24');
    expect(seen[i.id]).toEqual(['2030-03-20', '2030-04-20', '2030-05-20']);
  });

  it('notifies the contact notification_days before each run, once, through the outbox', async () => {
    h = await startRecurringEngine('2030-01-01');
    const r = (await h.createRecurring({ start_date: '2030-01-10', notification_days: 3, description: 'Gym' })).body.recurring;
    const notices = () => h!.engine.db.prepare("SELECT channel, to_address, subject, body, kind, resource_id FROM notification_outbox WHERE kind = 'recurring_notice' ORDER BY created_ts, channel").all() as Record<string, string>[];
    await h.advanceDays(5); // Jan 6: not yet
    expect(notices()).toHaveLength(0);
    await h.advanceDays(1); // Jan 7: three days before Jan 10
    expect(notices()).toHaveLength(2);
    expect(notices()[0]).toMatchObject({ channel: 'email', to_address: 'pat@example.com', kind: 'recurring_notice', resource_id: r.id, subject: 'Upcoming payment of $10.00 on 2030-01-10' });
    expect(notices()[0]?.body).toContain('ending in 1111');
    expect(notices()[0]?.body).not.toContain('4111111111111111');
    expect(notices()[1]).toMatchObject({ channel: 'sms', to_address: '3525551234' });
    await h.advanceDays(1);
    await h.engine.ctx.runDueWork(h.location);
    expect(notices()).toHaveLength(2);
    await h.advanceDays(30); // Feb 7: three days before Feb 10
    expect(notices().filter((n) => (n.subject ?? '').endsWith('2030-02-10'))).toHaveLength(2);
  });

  it('catches up runs missed while the engine was stopped, at start, once each', async () => {
    h = await startRecurringEngine('2030-01-31', { keepDir: true });
    const r = (await h.createRecurring({})).body.recurring;
    await h.engine.ctx.runDueWork();
    const dir = h.dir;
    await h.engine.close();
    // Three months later the engine starts again with its scheduler on.
    const clock = new MovableClock();
    clock.set(Date.parse('2030-05-01T17:00:00Z') / 1000);
    const engine = await startEngine({ dataDir: dir, port: 0, clock, schedulerIntervalMs: 3_600_000 });
    try {
      const dates = () => (engine.db.prepare('SELECT run_date FROM recurring_runs WHERE recurring_id = ? ORDER BY run_date').all(r.id) as { run_date: string }[]).map((x) => x.run_date);
      for (let i = 0; i < 200 && dates().length < 4; i++) await new Promise((res) => setTimeout(res, 25));
      expect(dates()).toEqual(['2030-01-31', '2030-02-28', '2030-03-31', '2030-04-30']);
      await engine.ctx.runDueWork();
      const txns = engine.db.prepare("SELECT COUNT(*) AS n FROM transactions WHERE json_extract(doc, '$.recurring_id') = ?").get(r.id) as { n: number };
      expect(txns.n).toBe(4);
    } finally {
      await engine.close();
      h = undefined;
      const { rmSync } = await import('node:fs');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
