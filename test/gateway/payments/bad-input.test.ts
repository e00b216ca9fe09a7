import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, VISA, EXP, type Harness } from './engine-harness';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });

const weird: unknown[] = [null, 0, -1, 1e308, '', ' ', 'x'.repeat(5000), [], {}, { a: 1 }, true, '1.2.3', '١٢٣'];
const fields = ['action', 'payment_method', 'account_number', 'exp_date', 'cvv', 'transaction_amount', 'location_id', 'product_transaction_id',
  'account_vault_id', 'account_vault_api_id', 'previous_transaction_id', 'transaction_api_id', 'contact_id', 'contact_api_id', 'routing',
  'account_type', 'account_holder_name', 'auth_code', 'tip_amount', 'tax', 'custom_data', 'notification_email_address', 'save_account',
  'billing_street', 'billing_zip', 'ach_sec_code', 'description'];

describe('bad input never causes a 5xx', () => {
  it('answers 4xx in the envelope for odd values in every transaction field', async () => {
    const base = { action: 'sale', account_number: VISA, exp_date: EXP, transaction_amount: '1.00' };
    for (const f of fields) {
      for (const v of weird) {
        const r = await h.call('POST', '/transactions', { transaction: { ...base, [f]: v } });
        expect(r.status, `${f}=${JSON.stringify(v)?.slice(0, 40)}`).toBeLessThan(500);
        if (r.status >= 400) expect(Object.keys(r.body.errors).length).toBeGreaterThan(0);
      }
    }
  });

  it('handles odd wrappers, PUT bodies and queries', async () => {
    for (const body of [null, [], 'x', { transaction: null }, { transaction: [] }, { transaction: 'sale' }, {}]) {
      expect((await h.call('POST', '/transactions', body)).status).toBe(422);
      expect((await h.call('POST', '/accountvaults', body)).status).toBe(422);
      expect((await h.call('POST', '/transactionlevel3s', body)).status).toBe(422);
    }
    const t = (await h.call('POST', '/transactions', { transaction: { action: 'sale', account_number: VISA, exp_date: EXP, transaction_amount: '1.00' } })).body.transaction;
    for (const v of weird) {
      for (const action of ['void', 'authcomplete', 'authincrement', 'partialreversal', 'edit', v]) {
        const r = await h.call('PUT', `/transactions/${t.id}`, { transaction: { action, transaction_amount: v, tip_amount: v, custom_data: v, notification_email_address: v } });
        expect(r.status, `${String(action)} ${JSON.stringify(v)?.slice(0, 30)}`).toBeLessThan(500);
      }
    }
    for (const q of ['page=abc', 'page=0', 'page_size=-1', 'page_size=99999', 'sort=-', 'created_ts=yesterday', 'created_ts=custom&created_ts_from=x', 'transaction_amount=1|x', 'status_id=a', 'last_four=%25', 'expand=transaction_level3,account_vault,contact,transaction_batch,previous_transaction,nope', 'api_id=true']) {
      const r = await h.call('GET', `/transactions?${q}`);
      expect(r.status, q).toBeLessThan(500);
    }
    expect((await h.call('GET', `/transactions/${'x'.repeat(300)}`)).status).toBe(404);
    expect((await h.call('GET', '/transactions/x?api_id=true')).status).toBe(422);
    expect((await h.call('GET', '/accountvaults?page_size=abc')).status).toBe(422);
    expect((await h.call('GET', '/transactionbatches?is_open=x')).status).toBe(422);
    expect((await h.call('POST', '/transactionbatches/nope/settle')).status).toBe(404);
  });
});

describe('contact receipts', () => {
  it('e-mails the contact when the contact has email_trx_receipt', async () => {
    const loc = h.engine.credentials.location_id;
    const c = await h.call('POST', '/contacts', { contact: { location_id: loc, last_name: 'Doe', email: 'doe@example.com', email_trx_receipt: '1', contact_api_id: 'doe-1' } });
    expect(c.status).toBe(201);
    const t = await h.call('POST', '/transactions', { transaction: { action: 'sale', account_number: VISA, exp_date: EXP, transaction_amount: '2.00', contact_api_id: 'doe-1', location_id: loc } });
    expect(t.body.transaction).toMatchObject({ contact_id: c.body.contact.id, notification_email_sent: true });
    const out = h.engine.db.prepare('SELECT to_address FROM notification_outbox WHERE transaction_id = ?').get(t.body.transaction.id) as { to_address: string };
    expect(out.to_address).toBe('doe@example.com');
    const ex = await h.call('GET', `/transactions/${t.body.transaction.id}?expand=contact`);
    expect(ex.body.transaction.contact.id).toBe(c.body.contact.id);
    const list = await h.call('GET', `/transactions?contact_id=${c.body.contact.id}`);
    expect(list.body.meta.pagination.totalCount).toBe(1);
    const all = await h.call('GET', '/transactions?page_size=1');
    const n = (h.engine.db.prepare('SELECT COUNT(*) AS n FROM transactions').get() as { n: number }).n;
    expect(all.body.meta.pagination.totalCount).toBe(n);
  });
});
