/**
 * The engine masks a card-like run of digits in clerk_number (it is free text, issue 9
 * point 6). clerkNumberOf takes the first 16 letters and digits of a user id, and about
 * one user id in 1,300 gives a Luhn-valid run of 13+ digits there: the report must still
 * name that clerk from the masked clerk_number the engine answers with.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { clerkNamesOf, clerkNumberOf } from '../../electron/core/sales/clerk-records';
import { startHarness, VISA, EXP, type Harness } from '../gateway/payments/engine-harness';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });

it('names the clerk whose clerk_number the engine masked', async () => {
  const user = { id: '40055622-3121-2149-abcd-0123456789ab', name: 'Card-like Id' };
  expect(clerkNumberOf(user.id)).toBe('4005562231212149');
  const r = await h.call('POST', '/transactions', { transaction: { action: 'sale', account_number: VISA, exp_date: EXP, transaction_amount: '3.00', clerk_number: clerkNumberOf(user.id) } });
  expect(r.status).toBe(201);
  const answered = r.body.transaction.clerk_number as string;
  expect(answered).toBe('************2149');
  const names = clerkNamesOf([user, { id: 'b2c3d4e5-0000-4000-8000-000000000000', name: 'Plain Id' }]);
  expect(names.get(answered)).toBe('Card-like Id');
  expect(names.get(clerkNumberOf('b2c3d4e5-0000-4000-8000-000000000000'))).toBe('Plain Id');
  expect(names.get(user.id)).toBe('Card-like Id');
});
