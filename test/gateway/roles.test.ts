/**
 * Roles (issue 11, point 3): a plain user (user_type_id 100, the counter's cashier) may
 * sell but not refund, credit, void, reverse or settle; a manager (200) and a client admin
 * (250) may; a device installer (50) may set up terminals, scanners and device terms but
 * move no money at all. Forbidden actions answer 403 in the error envelope and change nothing.
 * (Issue 19 moved these rules into the one declaration per operation, framework/permissions.ts;
 * the refusals now name the operation and who may perform it.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fmt } from '../../electron/gateway/framework/errors';
import { describeTypes, MANAGERS, PERMISSION_MSG, SELLERS, type Allow } from '../../electron/gateway/framework/permissions';
import { REF } from '../../electron/gateway/merchant/schema-migrations';
import { TestEngine, errorsOf, type Creds } from './helpers/engine-fixture';

let t: TestEngine;
let cashier: Creds;
let manager: Creds;
let installer: Creds;

async function newUser(userType: number, name: string): Promise<Creds> {
  const key = `key-${name}-${'k'.repeat(20)}`;
  const r = await t.post('/users', { user: { username: name, email: `${name}@example.com`, last_name: name, user_type_id: userType, primary_location_id: t.locationId, password: 'Secret123', user_api_key: key } });
  expect(r.status, r.text).toBe(201);
  return { developerId: t.creds.developerId, userId: r.body.user.id as string, apiKey: key };
}
const card = { payment_method: 'cc', account_number: '4111111111111111', exp_date: '1230', cvv: '999' };
const sale = (creds: Creds, amount = '10.00', action = 'sale') => t.post('/transactions', { transaction: { ...card, action, transaction_amount: amount } }, { creds });
const POST_TXN = 'POST /v2/transactions';
const PUT_TXN = 'PUT /v2/transactions/{id}';
const SETTLE = 'call POST /v2/transactionbatches/{id}/settle';
const forbidden = (a: { status: number; text: string }, type: number, what: string, allow: Allow = MANAGERS) => {
  expect(a.status, a.text).toBe(403);
  expect(errorsOf(a as never)).toEqual([fmt(PERMISSION_MSG.FORBIDDEN, { type, what, who: describeTypes(allow) })]);
};

beforeAll(async () => {
  t = await TestEngine.start();
  cashier = await newUser(100, 'cashier');
  manager = await newUser(200, 'manager');
  installer = await newUser(50, 'installer');
});
afterAll(async () => {
  await t.close();
});

describe('a plain user (100)', () => {
  it('sells, authorizes, completes and edits a tip', async () => {
    expect((await sale(cashier)).status).toBe(201);
    const auth = await sale(cashier, '20.00', 'authonly');
    expect(auth.status).toBe(201);
    expect((await t.put(`/transactions/${auth.body.transaction.id}`, { transaction: { action: 'authcomplete' } }, { creds: cashier })).status).toBe(200);
  });

  it('may not refund, void, reverse, credit or settle: 403, and nothing changes', async () => {
    const s = (await sale(cashier, '12.00')).body.transaction;
    forbidden(await t.post('/transactions', { transaction: { action: 'refund', previous_transaction_id: s.id, transaction_amount: '1.00' } }, { creds: cashier }), 100, `refund (${POST_TXN})`);
    forbidden(await t.post('/transactions', { transaction: { ...card, action: 'refund', transaction_amount: '1.00' } }, { creds: cashier }), 100, `refund (${POST_TXN})`);
    forbidden(await t.put(`/transactions/${s.id}`, { transaction: { action: 'void' } }, { creds: cashier }), 100, `void (${PUT_TXN})`);
    forbidden(await t.put(`/transactions/${s.id}`, { transaction: { action: 'partialreversal', transaction_amount: '5.00' } }, { creds: cashier }), 100, `partialreversal (${PUT_TXN})`);
    forbidden(
      await t.post('/transactions', { transaction: { action: 'credit', payment_method: 'ach', account_number: '2079951060953', routing: '072000326', account_type: 'checking', account_holder_name: 'Pat', transaction_amount: '1.00' } }, { creds: cashier }),
      100,
      `credit (${POST_TXN})`,
    );
    forbidden(await t.post(`/transactionbatches/${s.transaction_batch_id}/settle`, undefined, { creds: cashier }), 100, SETTLE);
    const after = (await t.get(`/transactions/${s.id}`)).body.transaction;
    expect(after).toMatchObject({ status_id: 101, auth_amount: '12.00' });
    const refunds = await t.get(`/transactions?previous_transaction_id=${s.id}`);
    expect(refunds.body.transactions ?? []).toHaveLength(0);
  });
});

describe('a manager (200) and the client admin (250)', () => {
  it('refund, void and settle', async () => {
    for (const who of [manager, t.creds]) {
      const s = (await sale(who, '11.00')).body.transaction;
      const refund = await t.post('/transactions', { transaction: { action: 'refund', previous_transaction_id: s.id, transaction_amount: '1.00' } }, { creds: who });
      expect(refund.status, refund.text).toBe(201);
      const v = (await sale(who, '13.00')).body.transaction;
      expect((await t.put(`/transactions/${v.id}`, { transaction: { action: 'void' } }, { creds: who })).status).toBe(200);
      expect((await t.post(`/transactionbatches/${s.transaction_batch_id}/settle`, undefined, { creds: who })).status).toBe(200);
    }
  });
});

describe('a device installer (50)', () => {
  it('sets up a terminal, a scanner and device terms', async () => {
    const term = await t.post('/terminals', {
      terminal: { location_id: t.locationId, serial_number: 'SN-INSTALL1', title: 'Back counter', terminal_application_id: REF.PAX_BROADPOS, terminal_manufacturer_id: REF.PAX },
    }, { creds: installer });
    expect(term.status, term.text).toBe(201);
    const id = term.body.terminal.id as string;
    expect((await t.put(`/terminals/${id}`, { terminal: { tip_percents: { percent_1: 10, percent_2: 15, percent_3: 20 } } }, { creds: installer })).status).toBe(200);
    const terms = await t.post('/deviceterms', { deviceterm: { location_id: t.locationId, terminal_id: id, require_signature: false, terms_conditions: 'I agree.' } }, { creds: installer });
    expect(terms.status, terms.text).toBe(201);
    const scanner = await t.post('/scanners', { scanner: { location_id: t.locationId, scanner_model_id: 1, title: 'Front desk', serial_number: 'SN-SCAN-INSTALL' } }, { creds: installer });
    expect(scanner.status, scanner.text).toBe(201);
    expect((await t.get(`/terminals/${id}/state`, { creds: installer })).status).toBe(200);
  });

  it('moves no money: sale, authonly, force, refund, void and settle are 403, and nothing is stored', async () => {
    const before = (await t.get('/transactions?page_size=1')).body.meta.pagination.totalCount as number;
    forbidden(await sale(installer), 50, `sale (${POST_TXN})`, SELLERS);
    forbidden(await sale(installer, '5.00', 'authonly'), 50, `authonly (${POST_TXN})`, SELLERS);
    forbidden(await t.post('/transactions', { transaction: { ...card, action: 'force', auth_code: '123456', transaction_amount: '3.00' } }, { creds: installer }), 50, `force (${POST_TXN})`, SELLERS);
    const s = (await sale(t.creds, '14.00')).body.transaction;
    forbidden(await t.post('/transactions', { transaction: { action: 'refund', previous_transaction_id: s.id, transaction_amount: '1.00' } }, { creds: installer }), 50, `refund (${POST_TXN})`);
    forbidden(await t.put(`/transactions/${s.id}`, { transaction: { action: 'void' } }, { creds: installer }), 50, `void (${PUT_TXN})`);
    forbidden(await t.put(`/transactions/${s.id}`, { transaction: { action: 'edit', tip_amount: '1.00' } }, { creds: installer }), 50, `edit (${PUT_TXN})`, SELLERS);
    forbidden(await t.post(`/transactionbatches/${s.transaction_batch_id}/settle`, undefined, { creds: installer }), 50, SETTLE);
    expect((await t.get('/transactions?page_size=1')).body.meta.pagination.totalCount).toBe(before + 1);
    expect((await t.get(`/transactions/${s.id}`)).body.transaction).toMatchObject({ status_id: 101, auth_amount: '14.00' });
  });
});
