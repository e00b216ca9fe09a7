/**
 * Each installment is charged exactly once whatever runs at the same time: sandbox clock
 * advances (POST /sandbox/clock/advance) sent together, with the scheduler's own run
 * racing them. Every pass of one due-work run (charge the runs, send notices, end the
 * plans whose end date passed) works at the same moment of the location, so the pass
 * that ends plans never ends one whose runs the charging pass has not reached.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MovableClock } from '../../../electron/gateway/framework/clock';
import { startEngine, type RunningEngine } from '../../../electron/gateway/engine';
import { noonNewYork, startRecurringEngine, type RecurringHarness } from './recurring-harness';

let h: RecurringHarness | undefined;
let engine: RunningEngine | undefined;
let dir: string | undefined;
afterEach(async () => {
  await h?.close();
  await engine?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  h = undefined;
  engine = undefined;
  dir = undefined;
});

const PLANS = 5;
const PAYMENTS = 4;
const DATES = ['2030-03-11', '2030-03-12', '2030-03-13', '2030-03-14'];

/**
 * A clock whose sleeps (the simulated processor's delays: 8.01 answers after one second)
 * wait until the test lets them go, so a charge can be held in flight deterministically.
 */
class GateClock extends MovableClock {
  private held: (() => void)[] = [];
  private open = false;
  private firstHeld!: () => void;
  readonly holding = new Promise<void>((r) => (this.firstHeld = r));
  override sleep(): Promise<void> {
    if (this.open) return Promise.resolve();
    return new Promise<void>((r) => {
      this.held.push(r);
      this.firstHeld();
    });
  }
  letGo(): void {
    this.open = true;
    for (const r of this.held.splice(0)) r();
  }
}

/** Charges (one transaction each) per run date of a recurring. */
function runDates(db: RunningEngine['db'], id: string): string[] {
  return (
    db.prepare('SELECT r.run_date FROM recurring_runs r JOIN transactions t ON t.id = r.transaction_id WHERE r.recurring_id = ? ORDER BY r.run_date').all(id) as { run_date: string }[]
  ).map((r) => r.run_date);
}

function chargesOf(db: RunningEngine['db'], id: string): number {
  return (db.prepare("SELECT COUNT(*) AS n FROM transactions WHERE json_extract(doc, '$.recurring_id') = ?").get(id) as { n: number }).n;
}

describe('installments under concurrent clock advances and scheduler runs', () => {
  it('an advance landing while a run is charging: the plans are not ended before their runs are charged (was 5 of 20)', async () => {
    dir = mkdtempSync(join(tmpdir(), 'ringup-recurring-gate-'));
    const clock = new GateClock();
    clock.set(noonNewYork('2030-03-10'));
    engine = await startEngine({ dataDir: dir, port: 0, clock, schedulerIntervalMs: 0 });
    const c = engine.credentials;
    const origin = c.base_url.replace(/\/v2$/, '');
    const headers = { 'developer-id': c.developer_id, 'user-id': c.user_id, 'user-api-key': c.user_api_key, 'content-type': 'application/json' };
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers
    const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
      const res = await fetch(origin + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, body: await res.json() };
    };
    const vault = (await call('POST', '/v2/accountvaults', { accountvault: { location_id: c.location_id, payment_method: 'cc', account_number: '4111111111111111', exp_date: '1239' } })).body.accountvault.id;
    const ids: string[] = [];
    for (let i = 0; i < PLANS; i++) {
      // 8.01: the sandbox answers after one second (a decline, which counts as the run).
      const r = await call('POST', '/v2/recurrings', {
        recurring: { location_id: c.location_id, account_vault_id: vault, product_transaction_id: c.cc_product_transaction_id, transaction_amount: '8.01', interval: 1, interval_type: 'd', start_date: DATES[0], installment_total_count: PAYMENTS },
      });
      expect(r.status).toBe(201);
      ids.push(r.body.recurring.id);
    }
    const advance = (days: number) => call('POST', '/sandbox/clock/advance', { clock: { location_id: c.location_id, seconds: days * 86_400 } });
    const first = advance(1);
    await clock.holding; // the first day's charges are at the processor
    const second = advance(11);
    // Wait on state: the second advance has moved the location's clock (its due work waits for the first run).
    for (;;) {
      const now = await call('GET', `/sandbox/clock?location_id=${c.location_id}`);
      if (now.body.clock.offset_seconds === 12 * 86_400) break;
    }
    clock.letGo();
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    for (const id of ids) {
      expect(runDates(engine.db, id), id).toEqual(DATES);
      expect(chargesOf(engine.db, id)).toBe(PAYMENTS);
      expect((await call('GET', `/v2/recurrings/${id}`)).body.recurring.status).toBe('ended');
    }
  });

  it(`${PLANS} plans of ${PAYMENTS} daily payments, 12 one-day advances and 3 scheduler runs at once: each installment once`, async () => {
    h = await startRecurringEngine('2030-03-10');
    const hh = h;
    const ids: string[] = [];
    for (let i = 0; i < PLANS; i++) {
      const r = await hh.createRecurring({ installment_total_count: PAYMENTS, interval: 1, interval_type: 'd', start_date: DATES[0] });
      expect(r.status).toBe(201);
      ids.push(r.body.recurring.id);
    }
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 12; i++) {
      work.push(hh.advanceDays(1).then((a) => expect(a.status).toBe(200)));
      if (i % 4 === 0) work.push(hh.engine.ctx.runDueWork()); // the scheduler's run over every location
    }
    await Promise.all(work);
    for (const id of ids) {
      expect(runDates(hh.engine.db, id), id).toEqual(DATES);
      expect(chargesOf(hh.engine.db, id)).toBe(PAYMENTS);
      expect((await hh.call('GET', `/v2/recurrings/${id}`)).body.recurring.status).toBe('ended');
    }
  });
});
