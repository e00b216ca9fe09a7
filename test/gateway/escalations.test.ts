/**
 * Issue 19's escalations, each as it was reproduced (all of them answered 2xx before the
 * permissions were declared per operation): a cashier or an installer making a manager
 * with a key of its own choosing; an installer raising an admin's recurring and advancing
 * the sandbox clock (which charges it and auto-settles the open batch); cashier and
 * installer writing saved cards, recurrings, pay links, quick invoices and postback
 * configs, and a cashier changing the location, its keys and its children; a cashier's
 * tip edit cutting an admin's sale. Each refusal is a 403 in the envelope that changes no
 * row; the sandbox routes are absent from a production engine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MovableClock } from '../../electron/gateway/framework/clock';
import { ErrorCollector, MSG, fmt } from '../../electron/gateway/framework/errors';
import { describeTypes, MANAGERS, PERMISSION_MSG, SELLERS } from '../../electron/gateway/framework/permissions';
import { MERCHANT_MSG } from '../../electron/gateway/merchant/messages';
import { startEngine } from '../../electron/gateway/engine';
import { defaultModules } from '../../electron/gateway/engine-modules';
import type { AuthInfo } from '../../electron/gateway/framework/context';
import type { PaymentsRuntime } from '../../electron/gateway/payments/payments-module';
import { readTableFields } from '../../electron/gateway/payments/transaction-fields';
import { changedTables, digestTables } from './helpers/db-digest';
import { TestEngine, errorsOf, type ApiAnswer, type Creds } from './helpers/engine-fixture';
import { noonNewYork } from './recurring/recurring-harness';

const TODAY = '2030-03-01';
let t: TestEngine;
let cashier: Creds;
let installer: Creds;
let manager: Creds;

async function newUser(by: Creds, userType: number, name: string, key = `key-${name}-${'k'.repeat(20)}`): Promise<ApiAnswer & { creds: Creds }> {
  const r = await t.post(
    '/users',
    { user: { username: name, email: `${name}@example.com`, last_name: name, user_type_id: userType, primary_location_id: t.locationId, password: 'Secret123', user_api_key: key } },
    { creds: by },
  );
  return { ...r, creds: { developerId: t.creds.developerId, userId: r.body?.user?.id as string, apiKey: key } };
}

/** 403 in the envelope, and not a row changed anywhere by the request. */
async function refusedUnchanged(send: () => Promise<ApiAnswer>, what = ''): Promise<ApiAnswer> {
  const before = digestTables(t.engine.db);
  const a = await send();
  expect(a.status, `${what} ${a.text}`).toBe(403);
  expect(Object.values((a.body as { errors: Record<string, string[]> }).errors).flat()).toHaveLength(1);
  expect(changedTables(before, digestTables(t.engine.db)), what).toEqual([]);
  return a;
}

const card = { payment_method: 'cc', account_number: '4111111111111111', exp_date: '1239', cvv: '999' };

beforeAll(async () => {
  const clock = new MovableClock();
  clock.set(noonNewYork(TODAY));
  t = await TestEngine.start({ clock, schedulerIntervalMs: 0, postbackPollMs: 0 });
  cashier = (await newUser(t.creds, 100, 'cashier')).creds;
  installer = (await newUser(t.creds, 50, 'installer')).creds;
  manager = (await newUser(t.creds, 200, 'manager')).creds;
});
afterAll(async () => {
  await t.close();
});

describe('a user creates, edits or re-keys only users of a type below its own', () => {
  it('a cashier or an installer cannot make a manager with a key it chose (and so cannot refund with one)', async () => {
    for (const [who, by] of [['cashier', cashier], ['installer', installer]] as const) {
      const made = await refusedUnchanged(() => newUser(by, 200, `boss-by-${who}`), who);
      expect(errorsOf(made)).toEqual([fmt(PERMISSION_MSG.FORBIDDEN, { type: who === 'cashier' ? 100 : 50, what: 'call POST /v2/users', who: describeTypes(MANAGERS) })]);
      const key = `key-boss-by-${who}-${'k'.repeat(20)}`;
      expect((await t.get('/users?page_size=100')).body.users.map((u: { username: string }) => u.username)).not.toContain(`boss-by-${who}`);
      // The key it chose opens nothing.
      expect((await t.get('/users/me', { creds: { developerId: t.creds.developerId, userId: 'anything', apiKey: key } })).status).toBe(401);
    }
  });

  it('only declared types exist: 999 is a 422 even from an admin', async () => {
    const r = await newUser(t.creds, 999, 'nine-nine-nine');
    expect(r.status, r.text).toBe(422);
    expect(errorsOf(r, 'user_type_id')).toEqual([fmt(MSG.INVALID, { attribute: 'User Type Id' })]);
  });

  it('a manager makes cashiers and installers, not managers or admins; an admin makes managers', async () => {
    for (const type of [200, 250]) {
      const r = await refusedUnchanged(() => newUser(manager, type, `peer-${type}`), `manager → ${type}`);
      expect(errorsOf(r, 'user_type_id')).toEqual([MERCHANT_MSG.USER_TYPE_NOT_BELOW]);
    }
    expect((await newUser(manager, 100, 'made-by-manager')).status).toBe(201);
    expect((await newUser(manager, 50, 'installer-by-manager')).status).toBe(201);
    expect((await newUser(t.creds, 200, 'second-manager')).status).toBe(201);
    expect((await refusedUnchanged(() => newUser(t.creds, 250, 'second-admin'), 'admin → 250')).status).toBe(403);
  });

  it('a manager cannot re-key, edit or delete the admin or another manager; it may a cashier', async () => {
    const other = (await newUser(t.creds, 200, 'other-manager')).creds;
    for (const target of [t.creds.userId, other.userId]) {
      await refusedUnchanged(() => t.post(`/users/${target}/generateuserapikey`, undefined, { creds: manager }), 're-key');
      await refusedUnchanged(() => t.put(`/users/${target}`, { user: { email: 'mine@evil.example' } }, { creds: manager }), 'edit');
      await refusedUnchanged(() => t.del(`/users/${target}`, { creds: manager }), 'delete');
    }
    expect((await t.put(`/users/${cashier.userId}`, { user: { first_name: 'Cass' } }, { creds: manager })).status).toBe(200);
    // Nor may it raise a cashier to its own type.
    await refusedUnchanged(() => t.put(`/users/${cashier.userId}`, { user: { user_type_id: 200 } }, { creds: manager }), 'promote');
  });

  it('a cashier cannot touch another user, nor its own type; its own details, password and key stay its own', async () => {
    const other = (await newUser(t.creds, 100, 'other-cashier')).creds;
    await refusedUnchanged(() => t.put(`/users/${other.userId}`, { user: { password: 'Hacked123' } }, { creds: cashier }), 'password');
    await refusedUnchanged(() => t.post(`/users/${other.userId}/generateuserapikey`, undefined, { creds: cashier }), 're-key');
    const own = await refusedUnchanged(() => t.put(`/users/${cashier.userId}`, { user: { user_type_id: 200 } }, { creds: cashier }), 'own type');
    expect(errorsOf(own, 'user_type_id')).toEqual([MERCHANT_MSG.USER_TYPE_OWN]);
    expect((await t.put(`/users/${cashier.userId}`, { user: { first_name: 'Me', password: 'Better123', old_password: 'Secret123' } }, { creds: cashier })).status).toBe(200);
    const g = await t.post(`/users/${cashier.userId}/generateuserapikey`, undefined, { creds: cashier });
    expect(g.status).toBe(200);
    cashier = { ...cashier, apiKey: g.body.user.user_api_key as string };
    expect((await t.get('/users/me', { creds: cashier })).status).toBe(200);
  });
});

describe('an installer moves no money, and the sandbox clock is an admin\'s', () => {
  let vaultId = '';
  let recurringId = '';
  let batchId = '';
  beforeAll(async () => {
    const contact = await t.post('/contacts', { contact: { location_id: t.locationId, first_name: 'Pat', last_name: 'Doe', email: 'pat@example.com' } });
    const vault = await t.post('/accountvaults', { accountvault: { location_id: t.locationId, contact_id: contact.body.contact.id, payment_method: 'cc', account_number: '4111111111111111', exp_date: '1239' } });
    vaultId = vault.body.accountvault.id;
    const rec = await t.post('/recurrings', {
      recurring: { location_id: t.locationId, account_vault_id: vaultId, product_transaction_id: t.engine.credentials.cc_product_transaction_id, transaction_amount: '10.00', interval: 1, interval_type: 'd', start_date: '2030-03-02' },
    });
    expect(rec.status, rec.text).toBe(201);
    recurringId = rec.body.recurring.id;
    batchId = (await t.post('/transactions', { transaction: { ...card, transaction_amount: '20.00' } })).body.transaction.transaction_batch_id;
  });

  it("an installer cannot raise an admin's recurring", async () => {
    await refusedUnchanged(() => t.put(`/recurrings/${recurringId}`, { recurring: { transaction_amount: '4097.00', interval_type: 'd' } }, { creds: installer }), 'installer PUT recurring');
    expect((await t.get(`/recurrings/${recurringId}`)).body.recurring.transaction_amount).toBe('10.00');
  });

  it('nor a cashier nor an installer advances the sandbox clock: nothing is charged and the open batch stays open', async () => {
    const origin = t.engine.baseUrl.replace(/\/v2$/, '');
    for (const who of [installer, cashier, manager]) {
      await refusedUnchanged(() => t.call('POST', `${origin}/sandbox/clock/advance`, { clock: { location_id: t.locationId, seconds: 3 * 86_400 } }, { creds: who }), 'advance');
      await refusedUnchanged(() => t.get(`${origin}/sandbox/clock?location_id=${t.locationId}`, { creds: who }), 'read clock');
    }
    expect((await t.get(`/transactions?recurring_id=${recurringId}`)).body.transactions).toEqual([]);
    expect((await t.get(`/transactionbatches/${batchId}`)).body.transactionbatch).toMatchObject({ is_open: 1, batch_close_ts: null });
  });

  it('a production engine has no sandbox routes at all (404, with or without credentials)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ringup-prod-'));
    const engine = await startEngine({ dataDir: dir, port: 0, production: true, schedulerIntervalMs: 0 });
    try {
      const c = engine.credentials;
      const origin = c.base_url.replace(/\/v2$/, '');
      const headers = { 'developer-id': c.developer_id, 'user-id': c.user_id, 'user-api-key': c.user_api_key, 'content-type': 'application/json' };
      for (const h of [headers, { 'content-type': 'application/json' }]) {
        expect((await fetch(`${origin}/sandbox/clock?location_id=${c.location_id}`, { headers: h })).status).toBe(404);
        const adv = await fetch(`${origin}/sandbox/clock/advance`, { method: 'POST', headers: h, body: JSON.stringify({ clock: { location_id: c.location_id, seconds: 60 } }) });
        expect(adv.status).toBe(404);
        expect(await adv.json()).toEqual({ errors: { general: [MSG.PATH_NOT_FOUND] } });
      }
      expect(Object.keys((engine.openapi() as { paths: Record<string, unknown> }).paths).filter((p) => p.startsWith('/sandbox'))).toEqual([]);
    } finally {
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('saved cards, recurrings, pay links, quick invoices, postback configs; the location', () => {
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    const contact = await t.post('/contacts', { contact: { location_id: t.locationId, last_name: 'Customer' } });
    ids.contact = contact.body.contact.id;
    const vault = (extra = {}) => t.post('/accountvaults', { accountvault: { location_id: t.locationId, contact_id: ids.contact, payment_method: 'cc', account_number: '4111111111111111', exp_date: '1239', ...extra } });
    ids.vault = (await vault({ title: 'Kept' })).body.accountvault.id;
    const rec = () =>
      t.post('/recurrings', { recurring: { location_id: t.locationId, account_vault_id: ids.vault, product_transaction_id: t.engine.credentials.cc_product_transaction_id, transaction_amount: '10.00', interval: 1, interval_type: 'm', start_date: '2030-03-05' } });
    ids.recurring = (await rec()).body.recurring.id;
    ids.paylink = (await t.post('/paylinks', { paylink: { location_id: t.locationId, delivery_method: 1, amount_due: '100.00', email: 'pat@example.com' } })).body.paylink.id;
    ids.invoice = (await t.post('/quickinvoices', { quickinvoice: { location_id: t.locationId, title: 'Work', due_date: '2030-04-01', item_list: { Labour: 100 }, email: 'pat@example.com' } })).body.quickinvoice.id;
    ids.sale = (await t.post('/transactions', { transaction: { ...card, transaction_amount: '5.00' } })).body.transaction.id;
    ids.postback = (await t.post('/postbackconfigs', { postbackconfig: { location_id: t.locationId, url: 'http://127.0.0.1:9/hook', resource: 'contact' } })).body.postbackconfig.id;
    for (const [k, v] of Object.entries(ids)) expect(v, k).toEqual(expect.any(String));
  });

  /** Every write to these five kinds of record (the 17, and their siblings). */
  const writes = (): [string, string, unknown][] => [
    ['POST', '/accountvaults', { accountvault: { location_id: t.locationId, contact_id: ids.contact, payment_method: 'cc', account_number: '4012888888881881', exp_date: '1239' } }],
    ['PUT', `/accountvaults/${ids.vault}`, { accountvault: { title: 'Mine now', account_holder_name: 'Someone Else' } }],
    ['DELETE', `/accountvaults/${ids.vault}`, undefined],
    ['POST', '/recurrings', { recurring: { location_id: t.locationId, account_vault_id: ids.vault, product_transaction_id: t.engine.credentials.cc_product_transaction_id, transaction_amount: '4097.00', interval: 1, interval_type: 'd', start_date: '2030-03-02' } }],
    ['PUT', `/recurrings/${ids.recurring}`, { recurring: { transaction_amount: '4097.00' } }],
    ['DELETE', `/recurrings/${ids.recurring}`, undefined],
    ['POST', `/recurrings/${ids.recurring}/placeOnHold`, undefined],
    ['POST', `/recurrings/${ids.recurring}/skipPayment`, undefined],
    ['POST', `/recurrings/${ids.recurring}/deferPayment`, undefined],
    ['PUT', `/paylinks/${ids.paylink}`, { paylink: { amount_due: '0.01' } }],
    ['DELETE', `/paylinks/${ids.paylink}`, undefined],
    ['PUT', `/quickinvoices/${ids.invoice}`, { quickinvoice: { status_id: 0 } }],
    ['DELETE', `/quickinvoices/${ids.invoice}`, undefined],
    ['POST', `/quickinvoices/${ids.invoice}/reopen`, undefined],
    ['PUT', `/quickinvoices/${ids.invoice}/addTransaction`, { quickinvoice: { transaction_id: ids.sale } }],
    ['POST', '/postbackconfigs', { postbackconfig: { location_id: t.locationId, url: 'http://127.0.0.1:9/all', resource: 'transaction', product_transaction_id: t.engine.credentials.cc_product_transaction_id, expands: 'account_vault,contact' } }],
    ['PUT', `/postbackconfigs/${ids.postback}`, { postbackconfig: { url: 'http://127.0.0.1:9/contacts' } }],
    ['DELETE', `/postbackconfigs/${ids.postback}`, undefined],
  ];
  /** What the counter's cashier does with links: make them and send them again. */
  const sends = (): [string, string, unknown][] => [
    ['POST', '/paylinks', { paylink: { location_id: t.locationId, delivery_method: 1, amount_due: '12.00', email: 'pat@example.com' } }],
    ['POST', `/paylinks/${ids.paylink}/resend`, undefined],
    ['POST', '/quickinvoices', { quickinvoice: { location_id: t.locationId, title: 'Counter', due_date: '2030-04-01', item_list: { Goods: 12 }, email: 'pat@example.com' } }],
    ['POST', `/quickinvoices/${ids.invoice}/resend`, undefined],
  ];

  it('a cashier and an installer are refused every one of them, and nothing changes', async () => {
    for (const [name, who] of [['cashier', cashier], ['installer', installer]] as const) {
      for (const [method, path, body] of writes()) await refusedUnchanged(() => t.call(method, path, body, { creds: who }), `${name} ${method} ${path}`);
    }
    for (const [method, path, body] of sends()) await refusedUnchanged(() => t.call(method, path, body, { creds: installer }), `installer ${method} ${path}`);
    expect((await t.get(`/paylinks/${ids.paylink}`)).body.paylink.amount_due).toBe('100.00');
    expect((await t.get(`/quickinvoices/${ids.invoice}`)).body.quickinvoice.status_id).toBe(1);
  });

  it('a cashier still makes and sends pay links and invoices, as the counter does', async () => {
    for (const [method, path, body] of sends()) {
      const a = await t.call(method, path, body, { creds: cashier });
      expect([200, 201, 204], `${method} ${path} ${a.text}`).toContain(a.status);
    }
  });

  it('a manager may each write', async () => {
    for (const [method, path, body] of writes().reverse()) {
      const a = await t.call(method, path, body, { creds: manager });
      expect(a.status, `${method} ${path} ${a.text}`).not.toBe(403);
      expect(a.status, `${method} ${path} ${a.text}`).toBeLessThan(500);
    }
    // No config left listening: a delivery attempt in the background would change rows under later digests.
    for (const c of (await t.get('/postbackconfigs?page_size=100')).body.postbackconfigs as { id: string }[]) expect((await t.del(`/postbackconfigs/${c.id}`)).status).toBe(204);
  });

  it('a cashier cannot rename the location, change its keys or give it a child location', async () => {
    const loc = t.locationId;
    await refusedUnchanged(() => t.put(`/locations/${loc}`, { location: { name: 'Cashier Co' } }, { creds: cashier }), 'rename');
    await refusedUnchanged(() => t.put(`/locations/${loc}/credentials`, { location: { ticket_hash_key: 'cashier-chose-this' } }, { creds: cashier }), 'ticket hash key');
    await refusedUnchanged(() => t.post('/locations', { location: { name: 'Side Shop', parent_id: loc, branding_domain_url: 'side.example' } }, { creds: cashier }), 'child');
    for (const who of [installer]) await refusedUnchanged(() => t.put(`/locations/${loc}`, { location: { name: 'Installer Co' } }, { creds: who }), 'installer rename');
    expect((await t.put(`/locations/${loc}/credentials`, { location: { ticket_hash_key: 'manager-chose-this' } }, { creds: manager })).status).toBe(200);
  });
});

describe('a tip edit that lowers the amount is a partial reversal', () => {
  it("a cashier cannot cut an admin's 15.00 sale to 10.00 with a tip of 0.00; it may raise a tip; a manager may lower it", async () => {
    const sale = await t.post('/transactions', { transaction: { ...card, transaction_amount: '15.00', tip_amount: '5.00' } });
    expect(sale.status, sale.text).toBe(201);
    const id = sale.body.transaction.id as string;
    const cut = await refusedUnchanged(() => t.put(`/transactions/${id}`, { transaction: { action: 'edit', tip_amount: '0.00' } }, { creds: cashier }), 'cashier lowers');
    expect(errorsOf(cut)).toEqual([
      fmt(PERMISSION_MSG.FORBIDDEN, { type: 100, what: 'edit here, which is a partialreversal (PUT /v2/transactions/{id})', who: describeTypes(MANAGERS) }),
    ]);
    expect((await t.get(`/transactions/${id}`)).body.transaction).toMatchObject({ transaction_amount: '15.00', auth_amount: '15.00', tip_amount: '5.00' });
    const raised = await t.put(`/transactions/${id}`, { transaction: { action: 'edit', tip_amount: '6.00' } }, { creds: cashier });
    expect(raised.status, raised.text).toBe(200);
    expect(raised.body.transaction.transaction_amount).toBe('16.00');
    // The same tip again lowers nothing.
    expect((await t.put(`/transactions/${id}`, { transaction: { action: 'edit', tip_amount: '6.00' } }, { creds: cashier })).status).toBe(200);
    const lowered = await t.put(`/transactions/${id}`, { transaction: { action: 'edit', tip_amount: '0.00' } }, { creds: manager });
    expect(lowered.status, lowered.text).toBe(200);
    expect(lowered.body.transaction).toMatchObject({ transaction_amount: '10.00', tip_amount: '0.00' });
  });

  it('the action is read as the handler reads it, and an action the table does not know fails closed', async () => {
    const sale = (await t.post('/transactions', { transaction: { ...card, transaction_amount: '12.34' } })).body.transaction;
    // An action that is not the table's string as sent (an array, another case) names no action: the check fails closed.
    await refusedUnchanged(() => t.post('/transactions', { transaction: { action: ['refund'], previous_transaction_id: sale.id, transaction_amount: '12.34' } }, { creds: cashier }), 'array action');
    await refusedUnchanged(() => t.post('/transactions', { transaction: { action: 'REFUND', previous_transaction_id: sale.id, transaction_amount: '12.34' } }, { creds: cashier }), 'upper case');
    await refusedUnchanged(() => t.put(`/transactions/${sale.id}`, { transaction: { action: ['void'] } }, { creds: cashier }), 'array void');
    const unknown = await refusedUnchanged(() => t.post('/transactions', { transaction: { ...card, action: 'bogus', transaction_amount: '1.00' } }, { creds: cashier }), 'unknown action');
    expect(errorsOf(unknown)).toEqual([fmt(PERMISSION_MSG.FORBIDDEN, { type: 100, what: 'call POST /v2/transactions with this action', who: describeTypes(MANAGERS) })]);
    expect((await t.post('/transactions', { transaction: { ...card, action: 'bogus', transaction_amount: '1.00' } }, { creds: manager })).status).toBe(422);
    // An action no string can be made of is no action either (the check itself never fails).
    const odd = await refusedUnchanged(() => t.post('/transactions', { transaction: { ...card, action: { toString: 1, valueOf: 1 }, transaction_amount: '1.00' } }, { creds: cashier }), 'odd action');
    expect(errorsOf(odd)[0]).toContain('with this action');
    expect((await t.get(`/transactions/${sale.id}`)).body.transaction).toMatchObject({ status_id: 101, auth_amount: '12.34' });
  });

  it('a tip the validator refuses (spaces around it) is a 422 for everyone, never judged as a lowering first', async () => {
    const id = (await t.post('/transactions', { transaction: { ...card, transaction_amount: '12.00', tip_amount: '2.00' } })).body.transaction.id as string;
    const spaced = await t.put(`/transactions/${id}`, { transaction: { action: 'edit', tip_amount: ' 1.00' } }, { creds: cashier });
    expect(spaced.status, spaced.text).toBe(422);
    expect(errorsOf(spaced, 'tip_amount')).toHaveLength(1);
    expect((await t.get(`/transactions/${id}`)).body.transaction).toMatchObject({ transaction_amount: '12.00', tip_amount: '2.00' });
  });

  it('an installer edits nothing, not even a raise', async () => {
    const id = (await t.post('/transactions', { transaction: { ...card, transaction_amount: '12.00', tip_amount: '2.00' } })).body.transaction.id as string;
    const a = await refusedUnchanged(() => t.put(`/transactions/${id}`, { transaction: { action: 'edit', tip_amount: '3.00' } }, { creds: installer }), 'installer raises');
    expect(errorsOf(a)).toEqual([fmt(PERMISSION_MSG.FORBIDDEN, { type: 50, what: 'edit (PUT /v2/transactions/{id})', who: describeTypes(SELLERS) })]);
  });
});

describe('the write judges a tip edit again on the committed record', () => {
  it('an edit that lowers the tip and reaches the write as a cashier (the check read an older record) is refused there', async () => {
    // The check before the handler reads the record; another write may change it before the
    // edit's own write runs. Here the edit reaches the service directly, as it would then.
    const dir = mkdtempSync(join(tmpdir(), 'ringup-recheck-'));
    const modules = defaultModules();
    const payments = modules.find((m) => m.name === 'payments') as unknown as { runtime(): PaymentsRuntime };
    const engine = await startEngine({ dataDir: dir, port: 0, modules, schedulerIntervalMs: 0 });
    try {
      const c = engine.credentials;
      const headers = { 'developer-id': c.developer_id, 'user-id': c.user_id, 'user-api-key': c.user_api_key, 'content-type': 'application/json' };
      const post = async (path: string, body: unknown) => (await fetch(`${c.base_url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })).json();
      const made = await post('/users', { user: { username: 'late-cashier', email: 'l@example.com', last_name: 'Late', user_type_id: 100, primary_location_id: c.location_id, password: 'Secret123' } });
      const sale = (await post('/transactions', { transaction: { ...card, transaction_amount: '15.00', tip_amount: '5.00' } })).transaction;
      const user = engine.db.prepare('SELECT * FROM users WHERE id = ?').get(made.user.id) as Record<string, unknown>;
      const auth: AuthInfo = { userId: String(user.id), developerId: c.developer_id, user, locationIds: [c.location_id], locationSet: new Set([c.location_id]), directLocationIds: [c.location_id], locationsJson: JSON.stringify([c.location_id]) };
      const body = { action: 'edit', tip_amount: '0.00' };
      const req = { auth, body: { transaction: body }, query: {}, params: { id: sale.id } } as never;
      // As the declared route hands it over: the record found, the body read by the one validator.
      const transactions = payments.runtime().transactions;
      const errs = new ErrorCollector();
      const input = { action: 'edit', body, values: readTableFields(body, 'edit', errs, true), errs };
      const err = await transactions.act(req, transactions.findForRequest(req, sale.id), input).then(() => undefined, (e: unknown) => e as { status: number; errors: Record<string, string[]> });
      expect(err?.status).toBe(403);
      expect(err?.errors.general?.[0]).toMatch(/^Your user type \(100\) may not lower a tip/);
      const after = engine.db.prepare('SELECT amount, auth_amount FROM transactions WHERE id = ?').get(sale.id);
      expect(after).toEqual({ amount: 1500, auth_amount: 1500 });
    } finally {
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
