/**
 * Engine bugs the Portman contract run (test/contract/run-portman.mjs) found, each pinned
 * by a test that failed before the fix.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { fmt, labelOf } from '../../../electron/gateway/framework/errors';
import { PAY_MSG } from '../../../electron/gateway/payments/payment-messages';
import { FIELD_BY_NAME } from '../../../electron/gateway/payments/transaction-fields';

/** The family's field table bounds account_holder_name; the engine's table carries it. */
const HOLDER_MAX = FIELD_BY_NAME.get('account_holder_name')!.max!;
import { startHarness, type Harness } from './engine-harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

test('an account_holder_name longer than its documented bound is a 422, not silently cut', async () => {
  const sale = { action: 'sale', account_number: '4111111111111111', exp_date: '1230', transaction_amount: '3.00' };
  const long = await h.call('POST', '/transactions', { transaction: { ...sale, account_holder_name: 'A'.repeat(HOLDER_MAX + 1) } });
  expect(long.status).toBe(422);
  expect(long.body.errors.account_holder_name).toEqual([fmt(PAY_MSG.TEXT_TOO_LONG, { attribute: labelOf('account_holder_name'), max: HOLDER_MAX })]);
  const ach = await h.call('POST', '/transactions', { transaction: { action: 'debit', account_number: '123456789', routing: '072000326', account_holder_name: 'B'.repeat(HOLDER_MAX + 1), transaction_amount: '3.00' } });
  expect(ach.status).toBe(422);
  // The bound counts the text as sent, as the OpenAPI document's maxLength does (issue 19, point 4);
  // the stored name is trimmed.
  const spaced = await h.call('POST', '/transactions', { transaction: { ...sale, account_holder_name: ` ${'A'.repeat(HOLDER_MAX)} ` } });
  expect(spaced.status).toBe(422);
  const ok = await h.call('POST', '/transactions', { transaction: { ...sale, account_holder_name: ` ${'A'.repeat(HOLDER_MAX - 2)} ` } });
  expect(ok.status).toBe(201);
  expect(ok.body.transaction.account_holder_name).toBe('A'.repeat(HOLDER_MAX - 2));
});
