/**
 * Batches close by themselves once a day at their product transaction's batch_close_time
 * (default 23:59, location time), driven here by the sandbox clock; the close is announced
 * to postbacks within the same clock advance.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MovableClock } from '../../../electron/gateway/framework/clock';
import { DEFAULT_BATCH_CLOSE_TIME, lastCloseMoment } from '../../../electron/gateway/payments/batch-auto-close';
import { BATCH_CLOSE_MSG } from '../../../electron/gateway/payments/batch-close-module';
import { errorsOf, TestEngine } from '../helpers/engine-fixture';
import { Receiver } from './receiver';

const engines: TestEngine[] = [];
const receivers: Receiver[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
  for (const r of receivers.splice(0)) await r.close();
});

// 2026-01-15 12:00 UTC = 07:00 in New York (EST, UTC-5).
const NOON_UTC = Date.UTC(2026, 0, 15, 12, 0, 0) / 1000;

async function setup() {
  const clock = new MovableClock();
  clock.set(NOON_UTC);
  const te = await TestEngine.start({ clock, schedulerIntervalMs: 0, postbackPollMs: 0 });
  engines.push(te);
  const loc = te.locationId;
  expect((await te.get(`/locations/${loc}`)).body.location.tz).toBe('America/New_York');
  const origin = te.engine.baseUrl.replace(/\/v2$/, '');
  const advance = async (seconds: number) => {
    const r = await te.post(`${origin}/sandbox/clock/advance`, { clock: { location_id: loc, seconds } });
    expect(r.status).toBe(200);
  };
  const sale = async (amount = '10.00') => {
    const r = await te.post('/transactions', { transaction: { action: 'sale', account_number: '4111111111111111', exp_date: '1230', transaction_amount: amount, location_id: loc } });
    expect(r.status).toBe(201);
    return r.body.transaction.transaction_batch_id as string;
  };
  const batch = async (id: string) => (await te.get(`/transactionbatches/${id}`)).body.transactionbatch;
  return { te, loc, advance, sale, batch };
}

describe('batch auto-close', () => {
  it('computes the latest close moment in the location time zone', () => {
    expect(DEFAULT_BATCH_CLOSE_TIME).toBe('23:59');
    // 07:00 New York: the last 23:59 was the evening before (04:59 UTC on the 15th).
    expect(lastCloseMoment(NOON_UTC, '23:59', 'America/New_York')).toBe(Date.UTC(2026, 0, 15, 4, 59) / 1000);
    expect(lastCloseMoment(NOON_UTC, '06:30', 'America/New_York')).toBe(Date.UTC(2026, 0, 15, 11, 30) / 1000);
    expect(lastCloseMoment(NOON_UTC, '12:00', 'UTC')).toBe(NOON_UTC);
  });

  it('closes the open batch at 23:59 location time, not before, and tells the postback receiver', async () => {
    const { te, loc, advance, sale, batch } = await setup();
    const rx = await Receiver.start();
    receivers.push(rx);
    const pt = te.engine.credentials.cc_product_transaction_id;
    expect((await te.post('/postbackconfigs', { postbackconfig: { location_id: loc, url: rx.url, resource: 'transactionbatch', product_transaction_id: pt, on_create: 0 } })).status).toBe(201);
    const id = await sale();
    await advance(16 * 3600 + 58 * 60); // 23:58 New York
    expect(await batch(id)).toMatchObject({ is_open: 1, batch_close_ts: null });
    expect(rx.received).toHaveLength(0);
    await advance(60); // 23:59
    expect(await batch(id)).toMatchObject({ is_open: 0, processing_status_id: 2 });
    const recs = rx.records('transactionbatch');
    expect(recs.map((r) => r.type)).toEqual(['UPDATE']);
    expect(recs[0]!.data.changelogs[0]).toMatchObject({ action: 'auto_close', user_id: null, user: null });
    // The next sale opens a new batch, which waits for the next day's close.
    const next = await sale();
    expect(next).not.toBe(id);
    await advance(3600);
    expect((await batch(next)).is_open).toBe(1);
  });

  it('follows the time set on the product transaction (PUT /v2/producttransactions/{id}, bad input refused)', async () => {
    const { te, advance, sale, batch } = await setup();
    const pt = te.engine.credentials.cc_product_transaction_id;
    const bad = await te.put(`/producttransactions/${pt}`, { producttransaction: { batch_close_time: '24:00' } });
    expect(bad.status).toBe(422);
    expect(errorsOf(bad, 'batch_close_time')).toEqual([BATCH_CLOSE_MSG.TIME_INVALID]);
    const other = await te.put(`/producttransactions/${pt}`, { producttransaction: { batch_close_time: '08:00', processor: 'x' } });
    expect(other.status).toBe(422);
    expect(errorsOf(other, 'processor')).toEqual([BATCH_CLOSE_MSG.ONLY_TIME]);
    expect((await te.put('/producttransactions/nope', { producttransaction: { batch_close_time: '08:00' } })).status).toBe(404);
    const key = `key-cashier-${'k'.repeat(20)}`;
    const u = await te.post('/users', { user: { username: 'cashier1', email: 'c1@example.com', last_name: 'C', user_type_id: 100, primary_location_id: te.locationId, password: 'Secret123', user_api_key: key } });
    expect(u.status, u.text).toBe(201);
    const cashier = { developerId: te.creds.developerId, userId: u.body.user.id as string, apiKey: key };
    expect((await te.put(`/producttransactions/${pt}`, { producttransaction: { batch_close_time: '08:00' } }, { creds: cashier })).status).toBe(403);
    const set = await te.put(`/producttransactions/${pt}`, { producttransaction: { batch_close_time: '08:00' } });
    expect(set.status).toBe(200);
    expect(set.body.producttransaction).toMatchObject({ id: pt, batch_close_time: '08:00' });
    const id = await sale();
    await advance(59 * 60); // 07:59
    expect((await batch(id)).is_open).toBe(1);
    await advance(60); // 08:00
    expect((await batch(id)).is_open).toBe(0);
    const loc = (await te.get(`/locations/${te.locationId}?expand=product_transactions`)).body.location;
    expect(JSON.stringify(loc)).toContain('"batch_close_time":"08:00"');
  });

  it('a batch whose settle fails (6.30) is tried once at the close and again at the next day\'s close, not in a loop', async () => {
    const { advance, sale, batch } = await setup();
    const id = await sale('6.30');
    await advance(17 * 3600); // 00:00, past 23:59
    expect(await batch(id)).toMatchObject({ is_open: 1, processing_status_id: 3 });
    await advance(12 * 3600);
    expect(await batch(id)).toMatchObject({ is_open: 1, processing_status_id: 3 });
    await advance(12 * 3600); // past the next 23:59
    expect(await batch(id)).toMatchObject({ is_open: 0, processing_status_id: 2 });
  });

  it('a batch opened after the last close of a newly set time zone waits for that zone\'s next close', async () => {
    // The batch opens at 07:00 New York (12:00 UTC). In Los Angeles the last 23:59 was at 07:59 UTC,
    // before the batch opened: moving the location there must not settle the fresh batch.
    const { te, loc, advance, sale, batch } = await setup();
    const id = await sale();
    expect((await te.put(`/locations/${loc}`, { location: { tz: 'America/Los_Angeles' } })).status).toBe(200);
    await advance(60);
    expect(await batch(id)).toMatchObject({ is_open: 1, batch_close_ts: null });
    await advance(19 * 3600 + 57 * 60); // 07:58 UTC next day = 23:58 Los Angeles
    expect((await batch(id)).is_open).toBe(1);
    await advance(60); // 23:59 Los Angeles
    expect((await batch(id)).is_open).toBe(0);
  });

  it('a manual settle before the close leaves nothing for the close to do', async () => {
    const { te, advance, sale, batch } = await setup();
    const id = await sale();
    expect((await te.post(`/transactionbatches/${id}/settle`)).status).toBe(200);
    const closedAt = (await batch(id)).batch_close_ts;
    await advance(2 * 86_400);
    expect((await batch(id)).batch_close_ts).toBe(closedAt);
  });
});
