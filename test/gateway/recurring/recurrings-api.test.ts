/**
 * /v2/recurrings over real HTTP: create (ongoing and installment), the state machine
 * (placeOnHold, activate, skipPayment, deferPayment), PUT rules (active=0 only for ongoing,
 * end_date of installments), delete 204/404, the vault in use (422), expands, api ids,
 * lists and bad input.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { REC_MSG } from '../../../electron/gateway/recurring/recurring-messages';
import { PAY_MSG } from '../../../electron/gateway/payments/payment-messages';
import { startRecurringEngine, type RecurringHarness } from './recurring-harness';

let h: RecurringHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('recurrings API', () => {
  it('creates an ongoing recurring with the seed fields', async () => {
    h = await startRecurringEngine('2030-01-15');
    const r = await h.createRecurring({ description: 'Gym', notification_days: 2, recurring_c1: 'x' });
    expect(r.status).toBe(201);
    expect(r.body.recurring).toMatchObject({
      account_vault_id: h.cardVault, location_id: h.location, product_transaction_id: h.ccPt, transaction_amount: '10.00',
      interval: 1, interval_type: 'm', start_date: '2030-01-15', next_run_date: '2030-01-15', end_date: '0000-00-00',
      notification_days: 2, active: 1, status: 'active', payment_method: 'cc', recurring_type_id: 'o',
      installment_total_count: null, installment_amount_total: null, description: 'Gym', recurring_c1: 'x', contact_id: h.contactId,
    });
    for (const hidden of ['amount_cents', 'anchor_date', 'next_index', 'deferred_count', 'skipped_count', 'runs_done']) expect(r.body.recurring).not.toHaveProperty(hidden);
    const id = r.body.recurring.id as string;
    const got = await h.call('GET', `/v2/recurrings/${id}`);
    expect(got.body.recurring._links.self.href).toMatch(new RegExp(`/v2/recurrings/${id}$`));
  });

  it('installments: end_date and installment_amount_total; skip keeps end_date, defer moves it (the family docs example)', async () => {
    h = await startRecurringEngine('2030-02-23');
    const r = await h.createRecurring({ installment_total_count: 20 });
    expect(r.body.recurring).toMatchObject({ recurring_type_id: 'i', installment_total_count: 20, installment_amount_total: '200.00', next_run_date: '2030-02-23', end_date: '2031-10-22' });
    const id = r.body.recurring.id as string;
    const skipped = await h.call('POST', `/v2/recurrings/${id}/skipPayment?skip_count=1`);
    expect(skipped.status).toBe(200);
    expect(skipped.body.recurring).toMatchObject({ next_run_date: '2030-03-23', end_date: '2031-10-22', status: 'active' });
    const deferred = await h.call('POST', `/v2/recurrings/${id}/deferPayment?defer_count=1`);
    expect(deferred.status).toBe(200);
    expect(deferred.body.recurring).toMatchObject({ next_run_date: '2030-04-23', end_date: '2031-11-22', status: 'active' });
    const two = await h.call('POST', `/v2/recurrings/${id}/deferPayment?defer_count=2`);
    expect(two.body.recurring).toMatchObject({ next_run_date: '2030-06-23', end_date: '2032-01-22' });
    // skip_count default 1; skipping past the last payment ends it
    expect((await h.call('POST', `/v2/recurrings/${id}/skipPayment`)).body.recurring.next_run_date).toBe('2030-07-23');
    const end = await h.call('POST', `/v2/recurrings/${id}/skipPayment?skip_count=99`);
    expect(end.body.recurring.status).toBe('ended');
    const after = await h.call('POST', `/v2/recurrings/${id}/skipPayment`);
    expect(after.status).toBe(422);
    expect(after.body.errors.status).toEqual([REC_MSG.NOT_ACTIVE.replace('{status}', 'ended')]);
  });

  it('deferPayment is for installments only; counts are 1–99', async () => {
    h = await startRecurringEngine('2030-01-15');
    const id = (await h.createRecurring({})).body.recurring.id as string;
    const d = await h.call('POST', `/v2/recurrings/${id}/deferPayment?defer_count=1`);
    expect(d.status).toBe(422);
    expect(d.body).toEqual({ errors: { recurring_type_id: [REC_MSG.DEFER_ONGOING] } });
    for (const bad of ['0', '100', 'x', '1.5', '-1']) {
      const s = await h.call('POST', `/v2/recurrings/${id}/skipPayment?skip_count=${bad}`);
      expect(s.status, bad).toBe(422);
      expect(s.body.errors.skip_count).toEqual([REC_MSG.COUNT_INVALID]);
    }
    // ongoing skip: next date moves, end_date stays none
    const s = await h.call('POST', `/v2/recurrings/${id}/skipPayment?skip_count=2`);
    expect(s.body.recurring).toMatchObject({ next_run_date: '2030-03-15', end_date: '0000-00-00', status: 'active' });
  });

  it('placeOnHold and activate follow the state machine', async () => {
    h = await startRecurringEngine('2030-01-15');
    const id = (await h.createRecurring({})).body.recurring.id as string;
    const held = await h.call('POST', `/v2/recurrings/${id}/placeOnHold`);
    expect(held).toMatchObject({ status: 200, body: { recurring: { status: 'on hold' } } });
    const again = await h.call('POST', `/v2/recurrings/${id}/placeOnHold`);
    expect(again.status).toBe(422);
    expect(again.body.errors.status).toEqual([REC_MSG.HOLD_NOT_ACTIVE.replace('{status}', 'on hold')]);
    expect((await h.call('POST', `/v2/recurrings/${id}/skipPayment`)).status).toBe(422);
    const list = await h.call('GET', '/v2/recurrings?status=on hold');
    expect(list.body.recurrings.map((r: { id: string }) => r.id)).toEqual([id]);
    const active = await h.call('POST', `/v2/recurrings/${id}/activate`);
    expect(active).toMatchObject({ status: 200, body: { recurring: { status: 'active', next_run_date: '2030-01-15' } } });
    const twice = await h.call('POST', `/v2/recurrings/${id}/activate`);
    expect(twice.body.errors.status).toEqual([REC_MSG.ACTIVATE_NOT_ON_HOLD.replace('{status}', 'active')]);
    for (const action of ['placeOnHold', 'activate', 'skipPayment', 'deferPayment']) {
      expect((await h.call('POST', `/v2/recurrings/00000000-0000-0000-0000-000000000000/${action}`)).status, action).toBe(404);
    }
  });

  it('PUT: active=0 only for ongoing (ignored otherwise); installment end_date refused; schedule changes re-anchor', async () => {
    h = await startRecurringEngine('2030-01-15');
    const o = (await h.createRecurring({})).body.recurring.id as string;
    const i = (await h.createRecurring({ installment_total_count: 3 })).body.recurring.id as string;
    expect((await h.call('PUT', `/v2/recurrings/${o}`, { recurring: { active: 0 } })).body.recurring.active).toBe(0);
    const ignored = await h.call('PUT', `/v2/recurrings/${i}`, { recurring: { active: 0, description: 'kept' } });
    expect(ignored.body.recurring).toMatchObject({ active: 1, description: 'kept' });
    const end = await h.call('PUT', `/v2/recurrings/${i}`, { recurring: { end_date: '2031-01-01' } });
    expect(end.body).toEqual({ errors: { end_date: [REC_MSG.END_ON_INSTALLMENT] } });
    const moved = await h.call('PUT', `/v2/recurrings/${i}`, { recurring: { next_run_date: '2030-02-10', interval: 2, interval_type: 'w', transaction_amount: '12.5' } });
    expect(moved.body.recurring).toMatchObject({ next_run_date: '2030-02-10', interval: 2, interval_type: 'w', transaction_amount: '12.50', installment_amount_total: '37.50', end_date: '2030-03-23' });
    const ran = (await h.createRecurring({})).body.recurring.id as string;
    await h.advanceDays(0.1); // the run dated today is charged
    const again = await h.call('PUT', `/v2/recurrings/${ran}`, { recurring: { next_run_date: '2030-01-15' } });
    expect(again.body.errors.next_run_date).toEqual([REC_MSG.NEXT_RUN_DONE.replace('{date}', '2030-01-15')]);
    const past = await h.call('PUT', `/v2/recurrings/${o}`, { recurring: { next_run_date: '2030-01-14' } });
    expect(past.body.errors.next_run_date).toEqual([REC_MSG.NEXT_RUN_PAST.replace('{today}', '2030-01-15')]);
    const oEnd = await h.call('PUT', `/v2/recurrings/${o}`, { recurring: { end_date: '2030-06-30' } });
    expect(oEnd.body.recurring.end_date).toBe('2030-06-30');
    const before = await h.call('PUT', `/v2/recurrings/${o}`, { recurring: { end_date: '2029-12-31' } });
    expect(before.body.errors.end_date).toEqual([REC_MSG.END_BEFORE_START]);
    const count = await h.call('PUT', `/v2/recurrings/${i}`, { recurring: { installment_total_count: 5 } });
    expect(count.status).toBe(422);
  });

  it('refuses bad input with the envelope', async () => {
    h = await startRecurringEngine('2030-01-15');
    const blank = await h.call('POST', '/v2/recurrings', { recurring: { location_id: h.location } });
    expect(blank.status).toBe(422);
    for (const f of ['product_transaction_id', 'transaction_amount', 'interval', 'interval_type', 'start_date']) expect(blank.body.errors, f).toHaveProperty(f);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ transaction_amount: '0.00' }, 'transaction_amount', REC_MSG.AMOUNT_INVALID],
      [{ transaction_amount: '1.234' }, 'transaction_amount', REC_MSG.AMOUNT_INVALID],
      [{ start_date: '2030-01-14' }, 'start_date', REC_MSG.START_PAST.replace('{today}', '2030-01-15')],
      [{ account_vault_id: '00000000-0000-0000-0000-000000000000' }, 'account_vault_id', REC_MSG.VAULT_INVALID],
      [{ product_transaction_id: 'ach' }, 'product_transaction_id', REC_MSG.PRODUCT_TRANSACTION_METHOD.replace('{pt}', 'ach').replace('{vault}', 'cc')],
      [{ end_date: '2030-02-30' }, 'end_date', 'The format of End Date is invalid; use yyyy-mm-dd.'],
      [{ end_date: '2030-01-01' }, 'end_date', REC_MSG.END_BEFORE_START],
    ];
    for (const [fields, field, msg] of cases) {
      const f = { ...fields };
      if (f.product_transaction_id === 'ach') f.product_transaction_id = h.achPt;
      const res = await h.createRecurring(f);
      expect(res.status, JSON.stringify(fields)).toBe(422);
      expect(res.body.errors[field], JSON.stringify(fields)).toEqual([msg]);
    }
    for (const bad of [{ interval_type: 'y' }, { interval: 0 }, { installment_total_count: 100 }, { recurring_api_id: 'has space' }]) {
      expect((await h.createRecurring(bad)).status, JSON.stringify(bad)).toBe(422);
    }
    // a bank vault with the ACH product transaction is fine
    const ach = await h.createRecurring({ account_vault_id: h.bankVault, product_transaction_id: h.achPt });
    expect(ach.body.recurring.payment_method).toBe('ach');
    const noVault = await h.createRecurring({ account_vault_id: undefined });
    expect(noVault.body).toEqual({ errors: { account_vault_id: [REC_MSG.VAULT_REQUIRED] } });
    const byApi = await h.createRecurring({ account_vault_id: undefined, account_vault_api_id: 'nope' });
    expect(byApi.body.errors.account_vault_id).toEqual([REC_MSG.VAULT_INVALID]);
  });

  it('delete answers 204 then 404; a vault in use cannot be deleted (422) until its recurrings are gone', async () => {
    h = await startRecurringEngine('2030-01-15');
    const id = (await h.createRecurring({})).body.recurring.id as string;
    const vaultDelete = await h.call('DELETE', `/v2/accountvaults/${h.cardVault}`);
    expect(vaultDelete.status).toBe(422);
    expect(JSON.stringify(vaultDelete.body.errors)).toContain(PAY_MSG.VAULT_IN_RECURRING);
    expect((await h.call('GET', `/v2/accountvaults/${h.cardVault}`)).body.accountvault.has_recurring).toBe(true);
    const del = await h.call('DELETE', `/v2/recurrings/${id}`);
    expect(del).toEqual({ status: 204, body: null });
    expect((await h.call('GET', `/v2/recurrings/${id}`)).status).toBe(404);
    expect((await h.call('DELETE', `/v2/recurrings/${id}`)).status).toBe(404);
    expect((await h.call('DELETE', `/v2/accountvaults/${h.cardVault}`)).status).toBe(204);
    // An ended recurring no longer holds its vault.
    const bankPlan = (await h.createRecurring({ account_vault_id: h.bankVault, product_transaction_id: h.achPt, installment_total_count: 1 })).body.recurring.id as string;
    expect((await h.call('DELETE', `/v2/accountvaults/${h.bankVault}`)).status).toBe(422);
    await h.advanceDays(1);
    expect((await h.call('GET', `/v2/recurrings/${bankPlan}`)).body.recurring.status).toBe('ended');
    expect((await h.call('DELETE', `/v2/accountvaults/${h.bankVault}`)).status).toBe(204);
  });

  it('expands, api ids and lists', async () => {
    h = await startRecurringEngine('2030-01-15');
    const r = await h.createRecurring({ recurring_api_id: 'plan-1' });
    const id = r.body.recurring.id as string;
    const dup = await h.createRecurring({ recurring_api_id: 'plan-1' });
    expect(dup.status).toBe(422);
    expect((await h.call('GET', `/v2/recurrings/plan-1?api_id=true&location_id=${h.location}`)).body.recurring.id).toBe(id);
    await h.advanceDays(0.5); // the run dated today
    const x = await h.call('GET', `/v2/recurrings/${id}?expand=account_vault,contact,location,product_transaction,transactions,created_user,signature,tags`);
    expect(x.status).toBe(200);
    const rec = x.body.recurring;
    expect(rec.account_vault).toMatchObject({ id: h.cardVault, last_four: '1111' });
    expect(rec.account_vault).not.toHaveProperty('account_blob');
    expect(rec.contact).toMatchObject({ id: h.contactId, last_name: 'Doe' });
    expect(rec.location.id).toBe(h.location);
    expect(rec.product_transaction.id).toBe(h.ccPt);
    expect(rec.created_user.id).toBe(h.engine.credentials.user_id);
    expect(JSON.stringify(rec.created_user)).not.toMatch(/user_api_key|password_hash/);
    expect(rec.signature).toBeNull();
    expect(rec.tags).toEqual([]);
    expect(rec.transactions).toHaveLength(1);
    expect(rec.transactions[0]).toMatchObject({ recurring_id: id, is_recurring: true, trx_source_id: 13, transaction_amount: '10.00' });
    const txn = await h.call('GET', `/v2/transactions/${rec.transactions[0].id}?expand=recurring`);
    expect(txn.body.transaction.recurring.id).toBe(id);
    const list = await h.call('GET', `/v2/recurrings?recurring_type_id=o&page_size=1`);
    expect(list.body.recurrings).toHaveLength(1);
    expect(list.body.meta.pagination.totalCount).toBe(1);
  });
});

describe('contact expand', () => {
  it("a contact's recurrings expand lists the recurrings of its vaults", async () => {
    h = await startRecurringEngine('2030-01-15');
    const a = (await h.createRecurring({})).body.recurring.id as string;
    const b = (await h.createRecurring({ account_vault_id: h.bankVault, product_transaction_id: h.achPt })).body.recurring.id as string;
    const c = await h.call('GET', `/v2/contacts/${h.contactId}?expand=recurrings`);
    expect(c.body.contact.recurrings.map((r: { id: string }) => r.id)).toEqual([a, b]);
    expect(c.body.contact.recurrings[0]).not.toHaveProperty('anchor_date');
  });
});
