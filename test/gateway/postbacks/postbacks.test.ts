/**
 * Postbacks over real HTTP: a real engine (port 0) posts to a real local receiver.
 * Events of contacts, transactions, batches and account vaults; the url-encoded body;
 * Basic authorization; retries exactly number_of_attempts times, attempt_interval apart
 * (driven by the sandbox clock); the receiver time-out; the delivery log and redeliver.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OUTBOX_MSG } from '../../../electron/gateway/postbacks/postback-outbox';
import { POSTBACK_TIMEOUT_MS, SENDER_MSG } from '../../../electron/gateway/postbacks/postback-sender';
import { errorsOf, TestEngine } from '../helpers/engine-fixture';
import { Receiver } from './receiver';

const engines: TestEngine[] = [];
const receivers: Receiver[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
  for (const r of receivers.splice(0)) await r.close();
});

async function setup(opts: { failures?: number; timeoutMs?: number; vaultKey?: Buffer; dataDir?: string } = {}) {
  const te = await TestEngine.start({
    schedulerIntervalMs: 0,
    postbackPollMs: 0,
    ...(opts.timeoutMs ? { postbackTimeoutMs: opts.timeoutMs } : {}),
    ...(opts.vaultKey ? { vaultKey: opts.vaultKey } : {}),
    ...(opts.dataDir ? { dataDir: opts.dataDir } : {}),
  });
  engines.push(te);
  const rx = await Receiver.start(opts.failures ?? 0);
  receivers.push(rx);
  const loc = te.locationId;
  const origin = te.engine.baseUrl.replace(/\/v2$/, '');
  /** Runs what is due (the first attempt is kicked right after the write; this waits for it). */
  const settle = () => te.engine.ctx.runDueWork(loc);
  const advance = async (seconds: number) => {
    const r = await te.post(`${origin}/sandbox/clock/advance`, { clock: { location_id: loc, seconds } });
    expect(r.status).toBe(200);
  };
  const config = async (c: Record<string, unknown>) => {
    const r = await te.post('/postbackconfigs', { postbackconfig: { location_id: loc, url: rx.url, on_create: 1, on_update: 1, on_delete: 1, attempt_interval: 60, number_of_attempts: 3, ...c } });
    expect(r.status, r.text).toBe(201);
    return r.body.postbackconfig as { id: string };
  };
  return { te, rx, loc, settle, advance, config };
}

describe('postbacks', () => {
  it('posts contact create, update and delete as url-encoded type/resource/number_of_attempts/data with Basic authorization; the password is never returned', async () => {
    const { te, rx, loc, settle, config } = await setup();
    const cfg = await config({ resource: 'contact', basic_auth_username: 'hook', basic_auth_password: 's3cret-pw' });
    const view = await te.get(`/postbackconfigs/${cfg.id}`);
    expect(view.text).not.toContain('s3cret-pw');
    expect(view.body.postbackconfig.basic_auth_password).toBeUndefined();

    const created = await te.post('/contacts', { contact: { location_id: loc, last_name: 'Jones', email: 'jones@example.com' } });
    expect(created.status).toBe(201);
    const id = created.body.contact.id as string;
    expect((await te.put(`/contacts/${id}`, { contact: { first_name: 'Pat' } })).status).toBe(200);
    expect((await te.del(`/contacts/${id}`)).status).toBe(204);
    await settle();

    expect(rx.received).toHaveLength(3);
    for (const r of rx.received) {
      expect(r.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(r.headers.authorization).toBe(`Basic ${Buffer.from('hook:s3cret-pw').toString('base64')}`);
      expect(Object.keys(r.form).sort()).toEqual(['data', 'number_of_attempts', 'resource', 'type']);
    }
    const recs = rx.records();
    expect(recs.map((r) => [r.type, r.attempts, r.data.id])).toEqual([['CREATE', 1, id], ['UPDATE', 1, id], ['DELETE', 1, id]]);
    expect(recs[0]!.data).toMatchObject({ id, location_id: loc, last_name: 'Jones', first_name: null, header_message_type_id: 0 });
    expect(recs[0]!.data).not.toHaveProperty('header_message_type');
    expect(recs[1]!.data.first_name).toBe('Pat');
    expect(recs[2]!.data.first_name).toBe('Pat'); // the record as it was when deleted
  });

  it("embedded in the app, the receiver's password is sealed in the engine's files, yet deliveries still authenticate (also after a restart)", async () => {
    const vaultKey = Buffer.alloc(32, 9);
    const { te, rx, loc, settle, config } = await setup({ vaultKey });
    const password = 'receiver-pw-7Q2x';
    await config({ resource: 'contact', on_update: 0, on_delete: 0, basic_auth_username: 'hook', basic_auth_password: password });
    expect((await te.post('/contacts', { contact: { location_id: loc, last_name: 'Sealed' } })).status).toBe(201);
    await settle();
    expect(rx.received.map((r) => r.headers.authorization)).toEqual([`Basic ${Buffer.from(`hook:${password}`).toString('base64')}`]);
    const dataDir = te.dataDir;
    const filesHolding = () =>
      readdirSync(dataDir, { recursive: true, encoding: 'utf8' })
        .map((f) => join(dataDir, f))
        .filter((f) => statSync(f).isFile() && readFileSync(f).includes(password));
    expect(filesHolding()).toEqual([]);
    await engines.splice(engines.indexOf(te), 1)[0]!.close(false);
    expect(filesHolding()).toEqual([]);
    const again = await TestEngine.start({ schedulerIntervalMs: 0, postbackPollMs: 0, vaultKey, dataDir });
    engines.push(again);
    expect((await again.post('/contacts', { contact: { location_id: loc, last_name: 'Again' } })).status).toBe(201);
    await again.engine.ctx.runDueWork(loc);
    expect(rx.received.map((r) => r.headers.authorization)).toEqual(Array(2).fill(`Basic ${Buffer.from(`hook:${password}`).toString('base64')}`));
  });

  it("an older folder's plaintext receiver password is sealed on the next start with the app's key", async () => {
    const { te, rx, loc, config } = await setup();
    const password = 'older-plain-pw-3k';
    await config({ resource: 'contact', on_update: 0, on_delete: 0, basic_auth_username: 'hook', basic_auth_password: password });
    const dataDir = te.dataDir;
    await engines.splice(engines.indexOf(te), 1)[0]!.close(false);
    const holding = () =>
      readdirSync(dataDir, { recursive: true, encoding: 'utf8' })
        .map((f) => join(dataDir, f))
        .filter((f) => statSync(f).isFile() && readFileSync(f).includes(password));
    expect(holding().length).toBeGreaterThan(0);
    const sealed = await TestEngine.start({ schedulerIntervalMs: 0, postbackPollMs: 0, vaultKey: Buffer.alloc(32, 4), dataDir });
    engines.push(sealed);
    await sealed.engine.close();
    engines.splice(engines.indexOf(sealed), 1);
    expect(holding()).toEqual([]);
    const again = await TestEngine.start({ schedulerIntervalMs: 0, postbackPollMs: 0, vaultKey: Buffer.alloc(32, 4), dataDir });
    engines.push(again);
    expect((await again.post('/contacts', { contact: { location_id: loc, last_name: 'Later' } })).status).toBe(201);
    await again.engine.ctx.runDueWork(loc);
    expect(rx.received.map((r) => r.headers.authorization)).toEqual([`Basic ${Buffer.from(`hook:${password}`).toString('base64')}`]);
  });

  it('on the wall clock, retries come attempt_interval seconds after the failed attempt began: never early, not a poll tick late', async () => {
    // The real clock (no sandbox advance) and the engine's own timers, as in production.
    const te = await TestEngine.start({ schedulerIntervalMs: 0 });
    engines.push(te);
    const rx = await Receiver.start(99);
    receivers.push(rx);
    const loc = te.locationId;
    const made = await te.post('/postbackconfigs', { postbackconfig: { location_id: loc, url: rx.url, resource: 'contact', on_update: 0, on_delete: 0, attempt_interval: 1, number_of_attempts: 3 } });
    expect(made.status).toBe(201);
    // Late in a second: whole-second bookkeeping would make the next try due ~0.05 s later.
    while (Date.now() % 1000 < 930) await new Promise((r) => setTimeout(r, 5));
    expect((await te.post('/contacts', { contact: { location_id: loc, last_name: 'Clock' } })).status).toBe(201);
    const deadline = Date.now() + 15_000;
    while (rx.received.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(rx.received).toHaveLength(3);
    const gaps = rx.received.slice(1).map((r, i) => r.at - rx.received[i]!.at);
    for (const gap of gaps) {
      // Measured at the receiver: the first request may spend tens of ms more on its way (a new connection).
      expect(gap, `gaps ${gaps.join(', ')} ms`).toBeGreaterThanOrEqual(950);
      expect(gap, `gaps ${gaps.join(', ')} ms`).toBeLessThan(2500); // a poll tick late would be up to 2 s on a busy machine
    }
    await new Promise((r) => setTimeout(r, 1500));
    expect(rx.received).toHaveLength(3); // number_of_attempts, exactly
  });

  it('sends only the events a config listens to, only while active, and no Authorization header without credentials', async () => {
    const { te, rx, loc, settle, config } = await setup();
    const cfg = await config({ resource: 'contact', on_update: 0, on_delete: 0 });
    const c = await te.post('/contacts', { contact: { location_id: loc, last_name: 'A' } });
    await te.put(`/contacts/${c.body.contact.id}`, { contact: { first_name: 'B' } });
    await settle();
    expect(rx.records().map((r) => r.type)).toEqual(['CREATE']);
    expect(rx.received[0]!.headers.authorization).toBeUndefined();
    await te.put(`/postbackconfigs/${cfg.id}`, { postbackconfig: { is_active: 0 } });
    await te.post('/contacts', { contact: { location_id: loc, last_name: 'C' } });
    await settle();
    expect(rx.received).toHaveLength(1);
  });

  it('retries exactly number_of_attempts times, attempt_interval seconds apart on the sandbox clock, then stops', async () => {
    const { te, rx, loc, settle, advance, config } = await setup({ failures: 100 });
    // Pinned: the attempts' times are the sandbox clock's alone. Left running, the real
    // seconds that pass between the calls (a busy machine) showed as 61 instead of 60.
    te.clock.set(te.clock.now());
    const cfg = await config({ resource: 'contact', number_of_attempts: 3, attempt_interval: 60, on_update: 0 });
    await te.post('/contacts', { contact: { location_id: loc, last_name: 'Retry' } });
    await settle();
    expect(rx.received).toHaveLength(1);
    await advance(59);
    expect(rx.received).toHaveLength(1); // not one second early
    await advance(1);
    expect(rx.received).toHaveLength(2);
    await advance(60);
    expect(rx.received).toHaveLength(3);
    await advance(3600);
    expect(rx.received).toHaveLength(3); // three attempts, no more
    expect(rx.records().map((r) => r.attempts)).toEqual([1, 2, 3]);

    const log = await te.get(`/postbackdeliveries?postback_config_id=${cfg.id}`);
    expect(log.status).toBe(200);
    expect(log.body.postbackdeliveries).toHaveLength(1);
    const d = log.body.postbackdeliveries[0];
    expect(d).toMatchObject({ postback_config_id: cfg.id, type: 'CREATE', resource: 'contact', status: 'failed', number_of_attempts: 3, last_status_code: 500 });
    expect(d.attempts_log.map((a: { attempt: number }) => a.attempt)).toEqual([1, 2, 3]);
    const ts = d.attempts_log.map((a: { attempted_ts: number }) => a.attempted_ts);
    expect([ts[1] - ts[0], ts[2] - ts[1]]).toEqual([60, 60]);
  });

  it('a receiver that fails twice and then accepts gets the event on the third attempt', async () => {
    const { te, rx, loc, settle, advance, config } = await setup({ failures: 2 });
    const cfg = await config({ resource: 'contact', number_of_attempts: 5, attempt_interval: 1 });
    await te.post('/contacts', { contact: { location_id: loc, last_name: 'Later' } });
    await settle();
    await advance(1);
    await advance(1);
    await advance(1);
    expect(rx.records().map((r) => r.attempts)).toEqual([1, 2, 3]);
    const d = (await te.get(`/postbackdeliveries?postback_config_id=${cfg.id}`)).body.postbackdeliveries[0];
    expect(d).toMatchObject({ status: 'delivered', number_of_attempts: 3, last_status_code: 200 });
  });

  it('redeliver sends a delivered or failed postback again and answers with the outcome; unknown ids are 404', async () => {
    const { te, rx, loc, settle, config } = await setup();
    const cfg = await config({ resource: 'contact' });
    await te.post('/contacts', { contact: { location_id: loc, last_name: 'Again' } });
    await settle();
    const d = (await te.get(`/postbackdeliveries?postback_config_id=${cfg.id}`)).body.postbackdeliveries[0];
    const again = await te.post(`/postbackdeliveries/${d.id}/redeliver`);
    expect(again.status).toBe(200);
    expect(again.body.postbackdelivery).toMatchObject({ id: d.id, status: 'delivered', number_of_attempts: 1 });
    expect(again.body.postbackdelivery.attempts_log).toHaveLength(2);
    expect(rx.received).toHaveLength(2);
    expect(rx.received[1]!.form.data).toBe(rx.received[0]!.form.data);
    const missing = await te.post('/postbackdeliveries/00000000-0000-4000-8000-000000000000/redeliver');
    expect(missing.status).toBe(404);
    expect(errorsOf(missing).length).toBeGreaterThan(0);
  });

  it('a receiver that does not answer fails the attempt at the time-out (10 s by default)', async () => {
    expect(POSTBACK_TIMEOUT_MS).toBe(10_000);
    const { te, rx, loc, settle, config } = await setup({ timeoutMs: 300 });
    rx.hang = true;
    const cfg = await config({ resource: 'contact', number_of_attempts: 2 });
    await te.post('/contacts', { contact: { location_id: loc, last_name: 'Slow' } });
    await settle();
    const d = (await te.get(`/postbackdeliveries?postback_config_id=${cfg.id}`)).body.postbackdeliveries[0];
    expect(d).toMatchObject({ status: 'pending', number_of_attempts: 1, last_status_code: null, last_error: SENDER_MSG.TIMEOUT.replace('{seconds}', '0.3') });
  });

  it('attempt_interval below 1 second is refused', async () => {
    const { te, loc, rx } = await setup();
    const r = await te.post('/postbackconfigs', { postbackconfig: { location_id: loc, url: rx.url, resource: 'contact', attempt_interval: 0 } });
    expect(r.status).toBe(422);
    expect(errorsOf(r, 'attempt_interval').length).toBe(1);
  });

  it('transactions (with the configured expands), batches (with changelogs and user) and account vaults', async () => {
    const { te, rx, loc, settle, config } = await setup();
    const pt = te.engine.credentials.cc_product_transaction_id;
    await config({ resource: 'transaction', product_transaction_id: pt, expands: 'contact,changelogs' });
    await config({ resource: 'transactionbatch', product_transaction_id: pt });
    await config({ resource: 'accountvault' });
    const contact = (await te.post('/contacts', { contact: { location_id: loc, last_name: 'Buyer' } })).body.contact;
    const sale = await te.post('/transactions', { transaction: { action: 'sale', account_number: '4111111111111111', exp_date: '1230', transaction_amount: '10.00', contact_id: contact.id, location_id: loc } });
    expect(sale.status).toBe(201);
    const tid = sale.body.transaction.id as string;
    expect((await te.put(`/transactions/${tid}`, { transaction: { action: 'edit', description: 'gift' } })).status).toBe(200);
    const batchId = sale.body.transaction.transaction_batch_id as string;
    expect((await te.post(`/transactionbatches/${batchId}/settle`)).status).toBe(200);
    const vault = await te.post('/accountvaults', { accountvault: { location_id: loc, payment_method: 'cc', account_number: '5454545454545454', exp_date: '1230' } });
    expect(vault.status).toBe(201);
    const vid = vault.body.accountvault.id as string;
    await te.put(`/accountvaults/${vid}`, { accountvault: { title: 'Work card' } });
    await te.del(`/accountvaults/${vid}`);
    await settle();

    const tx = rx.records('transaction');
    expect(tx.map((r) => r.type)).toEqual(['CREATE', 'UPDATE']);
    expect(tx[0]!.data).toMatchObject({ id: tid, transaction_amount: '10.00', status_id: 101, last_four: '1111', contact: { id: contact.id, last_name: 'Buyer' } });
    expect(tx[1]!.data.description).toBe('gift');
    expect(tx[1]!.data.changelogs.length).toBe(1);
    expect(JSON.stringify(rx.received)).not.toContain('4111111111111111');

    const batches = rx.records('transactionbatch');
    expect(batches.map((r) => r.type)).toEqual(['CREATE', 'UPDATE']);
    expect(batches[1]!.data).toMatchObject({ id: batchId, is_open: 0, processing_status_id: 2 });
    const log = batches[1]!.data.changelogs[0];
    expect(log).toMatchObject({ action: 'settle', user_id: te.creds.userId, user: { id: te.creds.userId } });
    expect(log.changelog_details).toContainEqual({ field: 'is_open', old_value: 1, new_value: 0 });

    const vaults = rx.records('accountvault');
    expect(vaults.map((r) => [r.type, r.data.id])).toEqual([['CREATE', vid], ['UPDATE', vid], ['DELETE', vid]]);
    expect(vaults[1]!.data.title).toBe('Work card');
    expect(JSON.stringify(vaults)).not.toContain('5454545454545454');
  });

  it('a config made, paused or resumed while sales go on is heard from the next sale on (the engine remembers which locations listen)', async () => {
    const { te, rx, loc, settle, config } = await setup();
    const pt = te.engine.credentials.cc_product_transaction_id;
    const sale = async (amount: string) => {
      const r = await te.post('/transactions', { transaction: { action: 'sale', account_number: '4111111111111111', exp_date: '1230', transaction_amount: amount, location_id: loc } });
      expect(r.status).toBe(201);
      return r.body.transaction.id as string;
    };
    await sale('1.00'); // nobody listens yet: the engine now knows this location has no config
    const cfg = await config({ resource: 'transaction', product_transaction_id: pt, on_update: 0, on_delete: 0 });
    const heard = await sale('2.00');
    expect((await te.put(`/postbackconfigs/${cfg.id}`, { postbackconfig: { is_active: 0 } })).status).toBe(200);
    await sale('3.00');
    expect((await te.put(`/postbackconfigs/${cfg.id}`, { postbackconfig: { is_active: 1 } })).status).toBe(200);
    const heardAgain = await sale('4.00');
    await settle();
    expect(rx.records('transaction').map((r) => r.data.id)).toEqual([heard, heardAgain]);
  });

  it('a transaction config bound to another product transaction hears nothing of this one', async () => {
    const { te, rx, loc, settle, config } = await setup();
    await config({ resource: 'transaction', product_transaction_id: te.engine.credentials.ach_product_transaction_id });
    await te.post('/transactions', { transaction: { action: 'sale', account_number: '4111111111111111', exp_date: '1230', transaction_amount: '3.00', location_id: loc } });
    await settle();
    expect(rx.received).toHaveLength(0);
  });

  it('pending deliveries survive a restart of the engine and go out after it', async () => {
    const { te, rx, loc, settle, config } = await setup({ failures: 1 });
    const cfg = await config({ resource: 'contact', number_of_attempts: 3, attempt_interval: 1 });
    await te.post('/contacts', { contact: { location_id: loc, last_name: 'Restart' } });
    await settle();
    expect(rx.received).toHaveLength(1);
    engines.splice(engines.indexOf(te), 1);
    await te.close(false);
    const again = await TestEngine.start({ dataDir: te.dataDir, schedulerIntervalMs: 0, postbackPollMs: 0 });
    engines.push(again);
    const advanced = await again.post(`${again.engine.baseUrl.replace(/\/v2$/, '')}/sandbox/clock/advance`, { clock: { location_id: loc, seconds: 1 } });
    expect(advanced.status).toBe(200);
    expect(rx.accepted).toHaveLength(1);
    expect(rx.records().map((r) => r.attempts)).toEqual([1, 2]);
    const d = (await again.get(`/postbackdeliveries?postback_config_id=${cfg.id}`)).body.postbackdeliveries[0];
    expect(d).toMatchObject({ status: 'delivered', number_of_attempts: 2 });
  });

  it('a deleted config sends nothing more: its pending deliveries end as failed', async () => {
    const { te, rx, loc, settle, advance, config } = await setup({ failures: 100 });
    const cfg = await config({ resource: 'contact', number_of_attempts: 5, attempt_interval: 1, on_update: 0 });
    await te.post('/contacts', { contact: { location_id: loc, last_name: 'Gone' } });
    await settle();
    const d = (await te.get(`/postbackdeliveries?postback_config_id=${cfg.id}`)).body.postbackdeliveries[0];
    expect((await te.del(`/postbackconfigs/${cfg.id}`)).status).toBe(204);
    await advance(5);
    expect(rx.received).toHaveLength(1);
    const after = (await te.get(`/postbackdeliveries/${d.id}`)).body.postbackdelivery;
    expect(after).toMatchObject({ status: 'failed', last_error: OUTBOX_MSG.CONFIG_DELETED });
  });
});
