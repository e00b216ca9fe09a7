/**
 * One transaction_api_id, one transaction: an identical retry (also many in parallel)
 * answers the first transaction; a repeat whose amounts, card, payment method or action
 * differ is refused with a 422 naming transaction_api_id (as Stripe refuses an idempotency
 * key reused with other parameters) and changes nothing. It used to be answered with the
 * first transaction as though it were this one. The request's fingerprint is stored keyed
 * (HMAC), never the card number.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAY_MSG } from '../../../electron/gateway/payments/payment-messages';
import { startHarness, VISA, EXP, type Harness } from './engine-harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

let n = 0;
const fresh = () => `fp-${++n}`;
const sale = (extra: Record<string, unknown>) => ({ action: 'sale', payment_method: 'cc', account_number: VISA, exp_date: EXP, transaction_amount: '10.00', ...extra });
const post = (t: Record<string, unknown>) => h.call('POST', '/transactions', { transaction: t });
const rowsWith = (apiId: string) => (h.engine.db.prepare('SELECT COUNT(*) AS n FROM transactions WHERE transaction_api_id = ?').get(apiId) as { n: number }).n;
const reused = (apiId: string) => [PAY_MSG.API_ID_REUSED.replace('{id}', apiId)];

describe('a repeated transaction_api_id', () => {
  it('with the same request answers the first transaction', async () => {
    const id = fresh();
    const first = await post(sale({ transaction_api_id: id, tip_amount: '1.00' }));
    expect(first.status).toBe(201);
    const again = await post(sale({ transaction_api_id: id, tip_amount: '1.00' }));
    expect(again.status).toBe(201);
    expect(again.body.transaction.id).toBe(first.body.transaction.id);
    // Fields that move no money and name no card (a description, a clerk) do not make it another request.
    expect((await post(sale({ transaction_api_id: id, tip_amount: '1.00', description: 'retry' }))).body.transaction.id).toBe(first.body.transaction.id);
    expect(rowsWith(id)).toBe(1);
  });

  it.each([
    ['another amount', { transaction_amount: '20.00' }],
    ['another tip', { tip_amount: '2.00' }],
    ['another card', { account_number: '5454545454545454' }],
    ['another expiry', { exp_date: '1231' }],
    ['another action', { action: 'authonly' }],
    ['another payment method', { action: 'debit', payment_method: 'ach', account_number: '123456789', routing: '072000326', account_type: 'checking', account_holder_name: 'Pat Doe', exp_date: undefined }],
  ])('with %s is refused 422 under transaction_api_id, and nothing changes', async (_what, change) => {
    const id = fresh();
    const first = await post(sale({ transaction_api_id: id }));
    expect(first.status).toBe(201);
    const other = await post(sale({ transaction_api_id: id, ...change }));
    expect(other.status).toBe(422);
    expect(other.body.errors.transaction_api_id).toEqual(reused(id));
    expect(rowsWith(id)).toBe(1);
    expect((await h.call('GET', `/transactions/${first.body.transaction.id}`)).body.transaction).toMatchObject({ transaction_amount: '10.00', status_id: 101 });
  });

  it('from a saved card or an earlier transaction: the same one answers the first, another is refused', async () => {
    const loc = h.engine.credentials.location_id;
    const v1 = (await h.call('POST', '/accountvaults', { accountvault: { location_id: loc, payment_method: 'cc', account_number: VISA, exp_date: EXP } })).body.accountvault.id;
    const v2 = (await h.call('POST', '/accountvaults', { accountvault: { location_id: loc, payment_method: 'cc', account_number: VISA, exp_date: EXP } })).body.accountvault.id;
    const id = fresh();
    const first = await post({ action: 'sale', account_vault_id: v1, transaction_amount: '4.00', transaction_api_id: id });
    expect((await post({ action: 'sale', account_vault_id: v1, transaction_amount: '4.00', transaction_api_id: id })).body.transaction.id).toBe(first.body.transaction.id);
    expect((await post({ action: 'sale', account_vault_id: v2, transaction_amount: '4.00', transaction_api_id: id })).body.errors.transaction_api_id).toEqual(reused(id));
    // A refund without an amount (the rest) retried after another refund is still the same request.
    const r = fresh();
    const refund = await post({ action: 'refund', previous_transaction_id: first.body.transaction.id, transaction_api_id: r });
    expect(refund.body.transaction.transaction_amount).toBe('4.00');
    expect((await post({ action: 'refund', previous_transaction_id: first.body.transaction.id, transaction_api_id: r })).body.transaction.id).toBe(refund.body.transaction.id);
  });

  it('in parallel: identical duplicates share one transaction; differing ones are refused, whichever lands first', async () => {
    const id = fresh();
    const same = Array.from({ length: 8 }, () => post(sale({ transaction_api_id: id })));
    const answers = await Promise.all(same);
    expect(new Set(answers.map((a) => a.body.transaction.id)).size).toBe(1);
    expect(rowsWith(id)).toBe(1);

    // 8.01 answers after one second: the first is in flight while the others arrive.
    const mixed = fresh();
    const bodies = [sale({ transaction_api_id: mixed, transaction_amount: '8.01' }), ...Array.from({ length: 4 }, () => sale({ transaction_api_id: mixed, transaction_amount: '10.00' }))];
    const results = await Promise.all(bodies.map(post));
    expect(rowsWith(mixed)).toBe(1);
    const stored = h.engine.db.prepare('SELECT id, amount FROM transactions WHERE transaction_api_id = ?').get(mixed) as { id: string; amount: number };
    results.forEach((res, i) => {
      const asked = bodies[i]!.transaction_amount === '8.01' ? 801 : 1000;
      if (asked === stored.amount) {
        expect(res.status).toBe(201);
        expect(res.body.transaction.id).toBe(stored.id);
      } else {
        expect(res.status).toBe(422);
        expect(res.body.errors.transaction_api_id).toEqual(reused(mixed));
      }
    });
  });

  it('stores a keyed fingerprint, never the card number', async () => {
    const id = fresh();
    await post(sale({ transaction_api_id: id, account_number: '5454545454545454' }));
    const fp = (h.engine.db.prepare('SELECT request_fingerprint AS f FROM transactions WHERE transaction_api_id = ?').get(id) as { f: string }).f;
    expect(fp).toMatch(/^[0-9a-f]{64}$/);
    h.engine.db.pragma('wal_checkpoint(TRUNCATE)');
    for (const f of readdirSync(h.dir).filter((x) => x.includes('sqlite'))) expect(readFileSync(join(h.dir, f)).includes('5454545454545454')).toBe(false);
  });
});
