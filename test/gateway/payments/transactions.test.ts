import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAY_MSG } from '../../../electron/gateway/payments/payment-messages';
import { startHarness, VISA, EXP, type Harness } from './engine-harness';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });

const sale = (extra: Record<string, unknown> = {}) =>
  h.call('POST', '/transactions', { transaction: { action: 'sale', payment_method: 'cc', account_number: VISA, exp_date: EXP, transaction_amount: '10.00', ...extra } });

describe('card transactions', () => {
  it('approves a sale with the full record and never returns the number', async () => {
    const r = await sale({ cvv: '999', billing_street: '5800 NW 39th AVE', billing_zip: '32606' });
    expect(r.status).toBe(201);
    const t = r.body.transaction;
    expect(t).toMatchObject({ status_id: 101, type_id: 20, reason_code_id: 1000, verbiage: 'APPROVED', avs: 'GOOD', cvv_response: 'M',
      first_six: '411111', last_four: '1111', entry_mode_id: 'K', transaction_amount: '10.00', payment_method: 'cc' });
    expect(t.auth_code).toMatch(/^[A-Z0-9]{6}$/);
    expect(t.batch).toMatch(/^\d+$/);
    expect(t._links.self.href).toContain(`/v2/transactions/${t.id}`);
    expect(r.text).not.toContain(VISA);
    expect(r.text).not.toContain('"999"');
    const v = await h.call('GET', `/transactions/${t.id}`);
    expect(v.status).toBe(200);
    expect(v.body.transaction.id).toBe(t.id);
  });

  it('stores declines with status 301 and answers 201', async () => {
    const r = await sale({ transaction_amount: '5.00' });
    expect(r.status).toBe(201);
    expect(r.body.transaction).toMatchObject({ status_id: 301, reason_code_id: 1500, auth_code: null, batch: null });
    const p = await sale({ transaction_amount: '6.16' });
    expect(p.body.transaction.reason_code_id).toBe(1616);
    const partial = await sale({ transaction_amount: '2.01' });
    expect(partial.body.transaction).toMatchObject({ status_id: 101, reason_code_id: 1201, auth_amount: '1.00' });
  });

  it('validates card data with named messages', async () => {
    const bad = await sale({ account_number: '4111111111111112' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.account_number).toEqual([PAY_MSG.CARD_NUMBER_INVALID]);
    const noExp = await sale({ exp_date: undefined });
    expect(noExp.body.errors.exp_date).toEqual([PAY_MSG.EXP_DATE_BLANK]);
    const amt = await sale({ transaction_amount: '1.234' });
    expect(amt.body.errors.transaction_amount).toEqual([PAY_MSG.AMOUNT_INVALID]);
    const act = await h.call('POST', '/transactions', { transaction: { action: 'steal' } });
    expect(act.status).toBe(422);
    const expired = await sale({ exp_date: '0120' });
    expect(expired.body.transaction).toMatchObject({ status_id: 301, reason_code_id: 1622 });
    const cvv = await sale({ cvv: '12' });
    expect(cvv.body.errors.cvv).toEqual([PAY_MSG.CVV_INVALID]);
  });

  it('runs authonly → authincrement → authcomplete (lower amount)', async () => {
    const a = (await sale({ action: 'authonly', transaction_amount: '20.00' })).body.transaction;
    expect([a.status_id, a.type_id, a.batch]).toEqual([102, 20, null]);
    const inc = await h.call('PUT', `/transactions/${a.id}`, { transaction: { action: 'authincrement', transaction_amount: '5.50' } });
    expect(inc.body.transaction).toMatchObject({ transaction_amount: '25.50', auth_amount: '25.50' });
    const over = await h.call('PUT', `/transactions/${a.id}`, { transaction: { action: 'authcomplete', transaction_amount: '30.00' } });
    expect(over.status).toBe(422);
    expect(over.body.errors.transaction_amount).toEqual([PAY_MSG.AUTHCOMPLETE_EXCEEDS.replace('{authorized}', '25.50')]);
    const done = await h.call('PUT', `/transactions/${a.id}`, { transaction: { action: 'authcomplete', transaction_amount: '18.00' } });
    expect(done.status).toBe(200);
    expect(done.body.transaction).toMatchObject({ status_id: 101, reason_code_id: 1001, transaction_amount: '18.00' });
    expect(done.body.transaction.batch).not.toBeNull();
    const again = await h.call('PUT', `/transactions/${a.id}`, { transaction: { action: 'authcomplete' } });
    expect(again.body.errors.id).toEqual([PAY_MSG.AUTHCOMPLETE_NOT_AUTHONLY]);
    const s = (await sale()).body.transaction;
    const notAuth = await h.call('PUT', `/transactions/${s.id}`, { transaction: { action: 'authcomplete' } });
    expect(notAuth.body.errors.id).toEqual([PAY_MSG.AUTHCOMPLETE_NOT_AUTHONLY]);
  });

  it('partial reversal, tip adjust and edit', async () => {
    const s = (await sale({ transaction_amount: '40.00' })).body.transaction;
    const pr = await h.call('PUT', `/transactions/${s.id}`, { transaction: { action: 'partialreversal', transaction_amount: '30.00' } });
    expect(pr.body.transaction).toMatchObject({ transaction_amount: '30.00', auth_amount: '30.00' });
    const tip = await h.call('PUT', `/transactions/${s.id}`, { transaction: { action: 'edit', tip_amount: '5.00', description: 'Table 4', transaction_c1: 'x' } });
    expect(tip.body.transaction).toMatchObject({ transaction_amount: '35.00', tip_amount: '5.00', description: 'Table 4', transaction_c1: 'x' });
    const tip2 = await h.call('PUT', `/transactions/${s.id}`, { transaction: { action: 'edit', tip_amount: '3.00' } });
    expect(tip2.body.transaction).toMatchObject({ transaction_amount: '33.00', tip_amount: '3.00' });
  });

  it('avsonly and force', async () => {
    const avs = await sale({ action: 'avsonly', transaction_amount: undefined, billing_street: '1 Main', billing_zip: '32606' });
    expect(avs.body.transaction).toMatchObject({ status_id: 121, type_id: 21, avs: 'STREET', transaction_amount: '0.00' });
    const badForce = await sale({ action: 'force', auth_code: '123' });
    expect(badForce.body.errors.auth_code).toEqual([PAY_MSG.AUTH_CODE_INVALID]);
    const force = await sale({ action: 'force', auth_code: 'ABC123' });
    expect(force.body.transaction).toMatchObject({ status_id: 101, reason_code_id: 1002, auth_code: 'ABC123' });
  });

  it('refunds never exceed what remains; blind refund; void of a refund frees the amount', async () => {
    const s = (await sale({ transaction_amount: '50.00' })).body.transaction;
    const r1 = await h.call('POST', '/transactions', { transaction: { action: 'refund', previous_transaction_id: s.id, transaction_amount: '20.00' } });
    expect(r1.status).toBe(201);
    expect(r1.body.transaction).toMatchObject({ status_id: 111, type_id: 30, last_four: '1111', previous_transaction_id: s.id });
    const tooMuch = await h.call('POST', '/transactions', { transaction: { action: 'refund', previous_transaction_id: s.id, transaction_amount: '30.01' } });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.errors.transaction_amount).toEqual([PAY_MSG.REFUND_EXCEEDS.replace('{remaining}', '30.00')]);
    const v = await h.call('PUT', `/transactions/${r1.body.transaction.id}`, { transaction: { action: 'void' } });
    expect(v.body.transaction).toMatchObject({ status_id: 201, reason_code_id: 1200 });
    const rest = await h.call('POST', '/transactions', { transaction: { action: 'refund', previous_transaction_id: s.id } });
    expect(rest.body.transaction.transaction_amount).toBe('50.00');
    const none = await h.call('POST', '/transactions', { transaction: { action: 'refund', previous_transaction_id: s.id, transaction_amount: '0.01' } });
    expect(none.body.errors.transaction_amount).toEqual([PAY_MSG.REFUND_EXCEEDS.replace('{remaining}', '0.00')]);
    const blind = await sale({ action: 'refund', transaction_amount: '3.00' });
    expect(blind.body.transaction).toMatchObject({ status_id: 111, type_id: 30, previous_transaction_id: null });
    const declined = (await sale({ transaction_amount: '5.00' })).body.transaction;
    const refDeclined = await h.call('POST', '/transactions', { transaction: { action: 'refund', previous_transaction_id: declined.id } });
    expect(refDeclined.body.errors.previous_transaction_id).toEqual([PAY_MSG.REFUND_NOT_REFUNDABLE]);
  });

  it('charges from a previous transaction and views by transaction_api_id', async () => {
    const s = (await sale({ transaction_api_id: 'order-77' })).body.transaction;
    const again = await h.call('POST', '/transactions', { transaction: { action: 'sale', previous_transaction_id: s.id, transaction_amount: '4.00' } });
    expect(again.body.transaction).toMatchObject({ status_id: 101, last_four: '1111', first_six: '411111' });
    const loc = h.engine.credentials.location_id;
    const byApi = await h.call('GET', `/transactions/order-77?api_id=true&location_id=${loc}`);
    expect(byApi.body.transaction.id).toBe(s.id);
    expect((await h.call('GET', '/transactions/nope')).status).toBe(404);
  });

  it('lists with filters, sort and paging', async () => {
    const l = await h.call('GET', '/transactions?page_size=3');
    expect(l.status).toBe(200);
    expect(l.body.transactions).toHaveLength(3);
    expect(l.body.meta.pagination.perPage).toBe(3);
    expect(l.body.meta.sort.attributes).toEqual({ created_ts: 'desc' });
    const f = await h.call('GET', '/transactions?last_four=1111&transaction_amount=40.00|50.00&status_id=101');
    expect(f.body.transactions.length).toBeGreaterThan(0);
    for (const t of f.body.transactions) {
      expect(t.last_four).toBe('1111');
      expect(Number(t.transaction_amount)).toBeGreaterThanOrEqual(33);
    }
    const today = await h.call('GET', '/transactions?created_ts=today&transaction_api_id=order-77');
    expect(today.body.transactions).toHaveLength(1);
    const desc = await h.call('GET', '/transactions?description=able 4');
    expect(desc.body.transactions).toHaveLength(1);
    const bad = await h.call('GET', '/transactions?sort=nope');
    expect(bad.status).toBe(422);
    const badAmt = await h.call('GET', '/transactions?transaction_amount=abc');
    expect(badAmt.status).toBe(422);
  });
});

describe('sandbox behaviours over HTTP', () => {
  it('8.xx delays the answer (one real 1-second case); AVS decline pair; auto_decline_cvv product', async () => {
    const t0 = Date.now();
    const slow = await sale({ transaction_amount: '8.01' });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
    expect(slow.body.transaction).toMatchObject({ status_id: 301, reason_code_id: 1500 });
    const avs = await sale({ billing_street: '2831 NW 41st St STE J', billing_zip: '32615' });
    expect(avs.body.transaction).toMatchObject({ status_id: 301, avs: 'BAD' });
    const db = h.engine.db;
    const pt = h.engine.credentials.cc_product_transaction_id;
    db.exec(`CREATE TEMP TABLE pt_copy AS SELECT * FROM product_transactions WHERE id = '${pt}'`);
    db.exec("UPDATE pt_copy SET id = 'pt-strict-cvv', auto_decline_cvv = 1");
    db.exec('INSERT INTO product_transactions SELECT * FROM pt_copy');
    // TestData: only P/S/U/X decline with auto_decline_cvv; 123 is "N - No Match but NOT decline".
    const strictN = await sale({ product_transaction_id: 'pt-strict-cvv', cvv: '123' });
    expect(strictN.body.transaction).toMatchObject({ status_id: 101, cvv_response: 'N', product_transaction_id: 'pt-strict-cvv' });
    const strictBad = await sale({ product_transaction_id: 'pt-strict-cvv', cvv: '124' });
    expect(strictBad.body.transaction).toMatchObject({ status_id: 301, cvv_response: 'P', product_transaction_id: 'pt-strict-cvv' });
    const strictOk = await sale({ product_transaction_id: 'pt-strict-cvv', cvv: '999' });
    expect(strictOk.body.transaction).toMatchObject({ status_id: 101, cvv_response: 'M' });
    const lax = await sale({ cvv: '123' });
    expect(lax.body.transaction).toMatchObject({ status_id: 101, cvv_response: 'N' });
  });
});

describe('ACH', () => {
  const ach = (extra: Record<string, unknown> = {}) =>
    h.call('POST', '/transactions', { transaction: { action: 'debit', payment_method: 'ach', account_number: '123456789', routing: '072000326',
      account_type: 'checking', account_holder_name: 'Pat Doe', transaction_amount: '12.00', ...extra } });

  it('debits at 131 and progresses to 134 along the clock', async () => {
    const r = await ach();
    expect(r.status).toBe(201);
    const t = r.body.transaction;
    expect(t).toMatchObject({ status_id: 131, type_id: 50, payment_method: 'ach', last_four: '6789', routing: '072000326', batch: null });
    h.clock.advance(301);
    expect((await h.call('GET', `/transactions/${t.id}`)).body.transaction.status_id).toBe(132);
    h.clock.advance(3600);
    expect((await h.call('GET', `/transactions/${t.id}`)).body.transaction.status_id).toBe(133);
    h.clock.advance(86400);
    const settled = (await h.call('GET', `/transactions/${t.id}`)).body.transaction;
    expect(settled.status_id).toBe(134);
    expect(settled.settle_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const late = await h.call('PUT', `/transactions/${t.id}`, { transaction: { action: 'void' } });
    expect(late.body.errors.id).toEqual([PAY_MSG.ACH_VOID_TOO_LATE]);
    const refund = await h.call('POST', '/transactions', { transaction: { action: 'refund', previous_transaction_id: t.id, transaction_amount: '2.00' } });
    expect(refund.body.transaction).toMatchObject({ status_id: 131, type_id: 30, payment_method: 'ach' });
  });

  it('credits, voids while pending, validates routing and holder', async () => {
    const c = await ach({ action: 'credit' });
    expect(c.body.transaction).toMatchObject({ status_id: 131, type_id: 40 });
    const v = await h.call('PUT', `/transactions/${c.body.transaction.id}`, { transaction: { action: 'void' } });
    expect(v.body.transaction.status_id).toBe(201);
    const bad = await ach({ routing: '072000327', account_holder_name: '' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.routing).toEqual([PAY_MSG.ROUTING_INVALID]);
    expect(bad.body.errors.account_holder_name).toEqual([PAY_MSG.ACCOUNT_HOLDER_BLANK]);
    const wrong = await ach({ action: 'sale' });
    expect(wrong.status).toBe(422);
  });
});

describe('idempotency', () => {
  it('returns the original for a repeated transaction_api_id, also in parallel', async () => {
    const body = { transaction: { action: 'sale', account_number: VISA, exp_date: EXP, transaction_amount: '7.00', transaction_api_id: 'dup-1' } };
    const results = await Promise.all(Array.from({ length: 20 }, () => h.call('POST', '/transactions', body)));
    const ids = new Set(results.map((r) => r.body.transaction.id));
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(ids.size).toBe(1);
    const later = await h.call('POST', '/transactions', body);
    expect(later.body.transaction.id).toBe([...ids][0]);
    expect(later.body.transaction.transaction_amount).toBe('7.00');
    // Another amount under the same id is another request: refused (idempotency-fingerprint.test.ts).
    const other = await h.call('POST', '/transactions', { transaction: { ...body.transaction, transaction_amount: '9.00' } });
    expect(other.status).toBe(422);
    expect(other.body.errors.transaction_api_id).toEqual([PAY_MSG.API_ID_REUSED.replace('{id}', 'dup-1')]);
    const count = h.engine.db.prepare("SELECT COUNT(*) AS n FROM transactions WHERE transaction_api_id = 'dup-1'").get() as { n: number };
    expect(count.n).toBe(1);
    const spaces = await h.call('POST', '/transactions', { transaction: { ...body.transaction, transaction_api_id: 'a b' } });
    expect(spaces.body.errors.transaction_api_id).toEqual([PAY_MSG.API_ID_SPACES]);
  });
});
