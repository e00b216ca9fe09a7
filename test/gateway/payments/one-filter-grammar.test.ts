/**
 * One filter grammar: the payment lists and the generic resources answer the same
 * filters the same way (framework/list.ts `filterCondition`), including the errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../electron/gateway/framework/errors';
import { NAMED_RANGES } from '../../../electron/gateway/framework/timestamp-ranges';
import { startHarness, VISA, EXP, type Harness } from './engine-harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  for (const amount of ['3.00', '4.00', '5.50']) {
    await h.call('POST', '/transactions', { transaction: { action: 'sale', account_number: VISA, exp_date: EXP, transaction_amount: amount } });
  }
});
afterAll(async () => { await h.close(); });

describe('one filter grammar', () => {
  it('custom without _from/_to is the same 422 for transactions, batches and tags', async () => {
    const message = MSG.BAD_TS_RANGE.replace('{attribute}', 'Created Ts').replace('{ranges}', [...NAMED_RANGES, 'custom'].join(', '));
    for (const path of ['/transactions', '/transactionbatches', '/tags']) {
      const r = await h.call('GET', `${path}?created_ts=custom`);
      expect(r.status, path).toBe(422);
      expect(r.body.errors.created_ts, path).toEqual([message]);
    }
  });

  it('open-ended amount ranges, lists and custom ranges on transactions', async () => {
    const lo = await h.call('GET', '/transactions?transaction_amount=4.00|');
    expect(lo.body.transactions.map((t: { transaction_amount: string }) => t.transaction_amount).sort()).toEqual(['4.00', '5.50']);
    const list = await h.call('GET', '/transactions?transaction_amount=3.00,5.50');
    expect(list.body.transactions).toHaveLength(2);
    const now = h.clock.now();
    const custom = await h.call('GET', `/transactions?created_ts=custom&created_ts_from=${now - 60}`);
    expect(custom.body.transactions).toHaveLength(3);
    const bad = await h.call('GET', '/transactions?transaction_amount=1|2|3');
    expect(bad.body.errors.transaction_amount).toEqual([MSG.BAD_FILTER.replace('{attribute}', 'Transaction Amount')]);
  });

  it('id_suffix (Ringup extension) finds a transaction by how its id ends, any case; % and _ are literal', async () => {
    const all = (await h.call('GET', '/transactions')).body.transactions as Array<{ id: string }>;
    const id = all[1]!.id;
    const bySuffix = await h.call('GET', `/transactions?id_suffix=${id.slice(-8).toUpperCase()}`);
    expect(bySuffix.status).toBe(200);
    expect(bySuffix.body.transactions.map((t: { id: string }) => t.id)).toEqual([id]);
    expect((await h.call('GET', '/transactions?id_suffix=%25')).body.transactions).toEqual([]);
    expect((await h.call('GET', `/transactions?id_suffix=${id.slice(-9, -1)}`)).body.transactions).toEqual([]);
    expect((await h.call('GET', '/transactions?sort=id_suffix')).status).toBe(422);
  });
});
