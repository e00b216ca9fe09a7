/**
 * A pay link is paid only when its amount due is collected. The sandbox's 2.01 approves
 * 1.00 of 2.01: the link stays unpaid with 1.01 remaining, and the same link page collects
 * the rest (it used to be marked paid and say "already paid": the 1.01 was lost).
 * Refunds and voids of a link's payments move its remaining balance in their own write.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BILLING_MSG } from '../../../electron/gateway/billing-links/billing-messages';
import { TestEngine } from '../helpers/engine-fixture';
import { submitPaymentPage } from '../../helpers/payment-page';

let e: TestEngine;
beforeAll(async () => {
  e = await TestEngine.start({ schedulerIntervalMs: 0 });
});
afterAll(async () => {
  await e?.close();
});

const api = (p: string) => `${new URL(e.engine.baseUrl).origin}${p}`;
const CARD = { payment_method: 'cc', account_number: '4111111111111111', exp_date: '1230', cvv: '999' };


const paymentsOf = async (id: string) =>
  ((await e.get(`/transactions?page_size=100`)).body.transactions as Record<string, unknown>[]).filter((t) => t.paylink_id === id);

describe('pay link partial approvals', () => {
  test('2.01 approved for 1.00 leaves the link unpaid with 1.01 to collect on the same page, which then collects it', async () => {
    const pl = (await e.post('/paylinks?expand=payment_url', { paylink: { location_id: e.locationId, delivery_method: 0, amount_due: '2.01' } })).body.paylink;
    const first = await submitPaymentPage(pl.payment_url, CARD);
    expect(first.status).toBe(201);
    expect(first.text).toContain('$1.00');
    const after = (await e.get(`/paylinks/${pl.id}`)).body.paylink;
    expect(after.status_id).toBe(0); // was 1: "already paid", the 1.01 lost
    expect(after).toMatchObject({ amount_due: '2.01', remaining_balance: '1.01' });
    expect(pl.remaining_balance).toBe('2.01');
    expect(first.text).toContain(BILLING_MSG.PAGE_PARTLY_APPROVED.replace('{remaining}', '$1.01'));
    const page = await (await fetch(pl.payment_url)).text();
    expect(page).not.toContain(BILLING_MSG.PAGE_PAID);
    expect(page).toContain('Amount to pay: $1.01');
    // The rest (1.01 is an ordinary approval in the sandbox).
    const rest = await submitPaymentPage(pl.payment_url, CARD);
    expect(rest.status).toBe(201);
    expect((await e.get(`/paylinks/${pl.id}`)).body.paylink).toMatchObject({ status_id: 1, remaining_balance: '0.00' });
    const paid = await paymentsOf(pl.id);
    expect(paid.map((t) => [t.transaction_amount, t.auth_amount]).sort()).toEqual([['1.01', '1.01'], ['2.01', '1.00']]);
    expect(await (await fetch(pl.payment_url)).text()).toContain(BILLING_MSG.PAGE_PAID);
  });

  test('the same form posted again after a partial approval answers that payment (one transaction_api_id, one request)', async () => {
    const pl = (await e.post('/paylinks?expand=payment_url', { paylink: { location_id: e.locationId, delivery_method: 0, amount_due: '2.01' } })).body.paylink;
    const html = await (await fetch(pl.payment_url)).text();
    const form = new URLSearchParams();
    for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) form.set(m[1] as string, m[2] as string);
    for (const [k, v] of Object.entries(CARD)) form.set(k, v);
    const send = () => fetch(api('/paylink'), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
    const first = await send();
    expect(first.status).toBe(201);
    const again = await send();
    const text = await again.text();
    expect(again.status, text).toBe(201);
    expect(text).toContain('$1.00');
    expect(await paymentsOf(pl.id)).toHaveLength(1);
    expect((await e.get(`/paylinks/${pl.id}`)).body.paylink).toMatchObject({ status_id: 0, remaining_balance: '1.01' });
  });

  test('a link without amount_due stays unpaid when what the payer asked to pay was only partly approved', async () => {
    const pl = (await e.post('/paylinks?expand=payment_url', { paylink: { location_id: e.locationId, delivery_method: 0 } })).body.paylink;
    expect(pl.remaining_balance).toBeNull();
    expect((await submitPaymentPage(pl.payment_url, { ...CARD, amount: '2.01' })).status).toBe(201);
    expect((await e.get(`/paylinks/${pl.id}`)).body.paylink.status_id).toBe(0);
    expect((await submitPaymentPage(pl.payment_url, { ...CARD, amount: '1.01' })).status).toBe(201);
    expect((await e.get(`/paylinks/${pl.id}`)).body.paylink.status_id).toBe(1);
  });

  test('a partly paid link keeps its amount due; refunds and voids of its payments give their amount back to the balance', async () => {
    const partial = (await e.post('/paylinks?expand=payment_url', { paylink: { location_id: e.locationId, delivery_method: 0, amount_due: '2.01' } })).body.paylink;
    expect((await submitPaymentPage(partial.payment_url, CARD)).status).toBe(201);
    const locked = await e.put(`/paylinks/${partial.id}`, { paylink: { amount_due: '1.00' } });
    expect(locked.status).toBe(422);
    expect(locked.body.errors.amount_due).toEqual([BILLING_MSG.PAYLINK_AMOUNT_LOCKED]);
    const [payment] = await paymentsOf(partial.id);
    expect((await e.post('/transactions', { transaction: { action: 'refund', previous_transaction_id: payment!.id, transaction_amount: '0.40' } })).status).toBe(201);
    expect((await e.get(`/paylinks/${partial.id}`)).body.paylink).toMatchObject({ status_id: 0, remaining_balance: '1.41' });

    const full = (await e.post('/paylinks?expand=payment_url', { paylink: { location_id: e.locationId, delivery_method: 0, amount_due: '12.00' } })).body.paylink;
    expect((await submitPaymentPage(full.payment_url, CARD)).status).toBe(201);
    expect((await e.get(`/paylinks/${full.id}`)).body.paylink).toMatchObject({ status_id: 1, remaining_balance: '0.00' });
    const [sale] = await paymentsOf(full.id);
    expect((await e.put(`/transactions/${sale!.id}`, { transaction: { action: 'void' } })).status).toBe(200);
    // Paid stays paid (voiding was the merchant's decision, as a refund does not reopen an invoice); the balance says what is owed.
    expect((await e.get(`/paylinks/${full.id}`)).body.paylink).toMatchObject({ status_id: 1, remaining_balance: '12.00' });
  });

  test('an engine upgraded from before migration 501 reopens a link a partial approval had marked paid', async () => {
    const old = await TestEngine.start({ schedulerIntervalMs: 0 });
    const pl = (await old.post('/paylinks?expand=payment_url', { paylink: { location_id: old.locationId, delivery_method: 0, amount_due: '2.01' } })).body.paylink;
    const html = await (await fetch(pl.payment_url)).text();
    const form = new URLSearchParams();
    for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) form.set(m[1] as string, m[2] as string);
    for (const [k, v] of Object.entries(CARD)) form.set(k, v);
    expect((await fetch(pl.payment_url.split('?')[0], { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() })).status).toBe(201);
    // The state the engine left before 501: the link marked paid by its 1.00, no payments table, no balance.
    const db = old.engine.db;
    const paidBy = (db.prepare('SELECT transaction_id FROM paylink_payments WHERE paylink_id = ?').get(pl.id) as { transaction_id: string }).transaction_id;
    db.exec('DROP TABLE paylink_payments; ALTER TABLE paylinks DROP COLUMN remaining_balance; DELETE FROM schema_migrations WHERE version = 501');
    db.prepare('UPDATE paylinks SET status_id = 1, paid_transaction_id = ? WHERE id = ?').run(paidBy, pl.id);
    await old.close(false);
    const upgraded = await TestEngine.start({ dataDir: old.dataDir, schedulerIntervalMs: 0 });
    try {
      expect((await upgraded.get(`/paylinks/${pl.id}`)).body.paylink).toMatchObject({ status_id: 0, remaining_balance: '1.01' });
    } finally {
      await upgraded.close();
    }
  });
});
