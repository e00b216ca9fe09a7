/**
 * Races on recurring runs: two independent runners charging the same due recurrings at
 * once (only the (recurring_id, run_date) claim stands between them), and skips arriving
 * while the runs are in flight. Never a second charge for a run date; a skip either comes
 * before the run (nothing charged) or after it (the next date skipped).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MovableClock } from '../../../electron/gateway/framework/clock';
import { startEngine, type RunningEngine } from '../../../electron/gateway/engine';
import { defaultModules } from '../../../electron/gateway/engine-modules';
import type { PaymentsRuntime } from '../../../electron/gateway/payments/payments-module';
import { RecurringRunner } from '../../../electron/gateway/recurring/recurring-runner';
import { noonNewYork } from './recurring-harness';

let engine: RunningEngine | undefined;
let dir: string | undefined;
afterEach(async () => {
  await engine?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  engine = undefined;
});

async function setup(count: number) {
  dir = mkdtempSync(join(tmpdir(), 'ringup-recurring-race-'));
  const clock = new MovableClock();
  clock.set(noonNewYork('2030-03-10'));
  const modules = defaultModules();
  const payments = modules.find((m) => m.name === 'payments') as unknown as { runtime(): PaymentsRuntime };
  engine = await startEngine({ dataDir: dir, port: 0, clock, schedulerIntervalMs: 0, modules });
  const c = engine.credentials;
  const auth = { 'developer-id': c.developer_id, 'user-id': c.user_id, 'user-api-key': c.user_api_key };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers
  const call = async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await fetch(c.base_url + path, { method, headers: body === undefined ? auth : { ...auth, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: await res.json().catch(() => null) };
  };
  const vault = (await call('POST', '/accountvaults', { accountvault: { location_id: c.location_id, payment_method: 'cc', account_number: '4111111111111111', exp_date: '1239' } })).body.accountvault.id as string;
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = await call('POST', '/recurrings', { recurring: { location_id: c.location_id, account_vault_id: vault, product_transaction_id: c.cc_product_transaction_id, transaction_amount: '3.00', interval: 1, interval_type: 'm', start_date: '2030-03-15' } });
    ids.push(r.body.recurring.id);
  }
  clock.set(noonNewYork('2030-03-15'));
  const db = engine.db;
  const chargesOf = (id: string) => (db.prepare("SELECT COUNT(*) AS n FROM transactions WHERE json_extract(doc, '$.recurring_id') = ?").get(id) as { n: number }).n;
  return { engine, payments, call, ids, chargesOf };
}

describe('recurring run races', () => {
  it('two runners at once charge each run date once', async () => {
    const { engine: e, payments, ids, chargesOf } = await setup(60);
    const a = new RecurringRunner(e.ctx, () => payments.runtime());
    const b = new RecurringRunner(e.ctx, () => payments.runtime());
    await Promise.all([a.runDue(), b.runDue(), a.runDue(e.credentials.location_id), b.runDue()]);
    expect(ids.map(chargesOf)).toEqual(ids.map(() => 1));
    const runs = e.db.prepare('SELECT COUNT(*) AS n FROM recurring_runs').get() as { n: number };
    expect(runs.n).toBe(60);
  });

  it('a skip racing a run: either the run then the next date skipped, or the skip and no charge', async () => {
    const { engine: e, call, ids, chargesOf } = await setup(40);
    const running = e.ctx.runDueWork(e.credentials.location_id);
    const skips = await Promise.all(ids.map((id) => call('POST', `/recurrings/${id}/skipPayment?skip_count=1`)));
    await running;
    await e.ctx.runDueWork(e.credentials.location_id);
    for (const [i, id] of ids.entries()) {
      expect(skips[i].status).toBe(200);
      const next = (await call('GET', `/recurrings/${id}`)).body.recurring.next_run_date;
      const n = chargesOf(id);
      if (n === 1) {
        expect(next).toBe('2030-05-15');
      } else {
        expect(n).toBe(0);
        expect(next).toBe('2030-04-15');
      }
    }
  });
});
