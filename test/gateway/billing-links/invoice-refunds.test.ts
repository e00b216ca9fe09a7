/**
 * An invoice's balance follows refunds and voids made later through /v2/transactions, in
 * the same write: only approved money still held counts (a voided payment 0, a refunded one
 * its auth amount minus what was refunded). Over real HTTP against a real engine (port 0,
 * SQLite in a temporary folder), the payments made on the invoice's own page.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BILLING_MSG } from '../../../electron/gateway/billing-links/billing-messages';
import { errorsOf, TestEngine } from '../helpers/engine-fixture';

let e: TestEngine;

beforeAll(async () => {
  e = await TestEngine.start({ schedulerIntervalMs: 0 });
});
afterAll(async () => {
  await e?.close();
});

const origin = () => new URL(e.engine.baseUrl).origin;
const CARD = { payment_method: 'cc', account_number: '4111111111111111', exp_date: '1230', cvv: '999', billing_zip: '32606', billing_street: '5800 NW 39th AVE' };

type PageAnswer = { status: number; text: string };

/** Reads the invoice page's hidden inputs and fills the form with `fields`; `send()` posts it, as a browser does. */
async function openPage(invoiceId: string, fields: Record<string, string>): Promise<{ send(): Promise<PageAnswer> }> {
  const page = await fetch(`${origin()}/quickinvoice/?id=${invoiceId}`);
  const html = await page.text();
  const form = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) form.set(m[1] as string, (m[2] as string).replace(/&amp;/g, '&'));
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action) return { send: async () => ({ status: page.status, text: html }) };
  return {
    async send() {
      const res = await fetch(`${origin()}${action}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
      return { status: res.status, text: await res.text() };
    },
  };
}
const pay = async (invoiceId: string, fields: Record<string, string>) => (await openPage(invoiceId, fields)).send();

const create = async (items: Record<string, number>, extra: Record<string, unknown> = {}) =>
  (await e.post('/quickinvoices', { quickinvoice: { location_id: e.locationId, title: 'Bike repair', due_date: '2030-06-10', item_list: items, email: 'pat@example.com', ...extra } })).body.quickinvoice as Record<string, unknown> & { id: string };
const invoice = async (id: string) => (await e.get(`/quickinvoices/${id}`)).body.quickinvoice as Record<string, unknown>;
const payments = (id: string) => e.engine.ctx.stmt('SELECT t.id, t.auth_amount, t.refunded, t.status_id FROM quick_invoice_transactions q JOIN transactions t ON t.id = q.transaction_id WHERE q.quick_invoice_id = ? ORDER BY t.created_ts, t.rowid').all(id) as { id: string; auth_amount: number; refunded: number; status_id: number }[];
const refund = (txnId: string, amount: string) => e.post('/transactions', { transaction: { action: 'refund', previous_transaction_id: txnId, transaction_amount: amount } });
const voidTxn = (txnId: string) => e.put(`/transactions/${txnId}`, { transaction: { action: 'void' } });
const kinds = (id: string) => (e.engine.ctx.stmt('SELECT kind FROM notification_outbox WHERE resource_id = ? ORDER BY rowid').all(id) as { kind: string }[]).map((m) => m.kind);

describe('invoice balance after refunds and voids', () => {
  test('a refund of a paid-in-full invoice shows the refunded money as owed again; the invoice stays closed until reopened', async () => {
    const inv = await create({ Service: 30 }, { allow_partial_pay: 1 });
    expect((await pay(inv.id, { ...CARD, amount: '30.00' })).status).toBe(201);
    expect(await invoice(inv.id)).toMatchObject({ remaining_balance: '0.00', payment_status_id: 2, status_id: 0 });
    const [paid] = payments(inv.id);

    const r = await refund(paid!.id, '10.00');
    expect(r.status).toBe(201);
    // Same write: the next read shows it, with no invoice action in between.
    expect(await invoice(inv.id)).toMatchObject({ remaining_balance: '10.00', payment_status_id: 3, status_id: 0 });
    expect((await e.get(`/quickinvoices?location_id=${e.locationId}&payment_status_id=3&page_size=200`)).body.quickinvoices.map((q: { id: string }) => q.id)).toContain(inv.id);
    // The money filters compare amounts (the columns hold decimal strings): exact, a list, a range.
    const ids = async (q: string) => ((await e.get(`/quickinvoices?location_id=${e.locationId}&page_size=200&${q}`)).body.quickinvoices as { id: string }[]).map((x) => x.id);
    expect(await ids('remaining_balance=10.00')).toContain(inv.id);
    expect(await ids('remaining_balance=10')).toContain(inv.id);
    expect(await ids('remaining_balance=9.99,10.00')).toContain(inv.id);
    expect(await ids('remaining_balance=5.00|10.00&amount_due=30.00')).toContain(inv.id);
    expect(await ids('remaining_balance=10.01|')).not.toContain(inv.id);
    expect(await ids('remaining_balance=0.00')).not.toContain(inv.id);
    // Closed, so its page takes no money and no reminder goes out; the merchant may reopen (payment_status_id 3).
    expect((await pay(inv.id, { ...CARD, amount: '10.00' })).text).toContain(BILLING_MSG.PAGE_CLOSED);
    expect((await e.post(`/quickinvoices/${inv.id}/reopen`)).body.quickinvoice).toMatchObject({ status_id: 1, remaining_balance: '10.00' });
    expect((await pay(inv.id, { ...CARD, amount: '10.00' })).status).toBe(201);
    expect(await invoice(inv.id)).toMatchObject({ remaining_balance: '0.00', payment_status_id: 2, status_id: 0 });
    // One thank-you per time it became paid by a payment.
    expect(kinds(inv.id)).toEqual(['quick_invoice', 'thank_you', 'thank_you']);

    // The rest of the first payment refunded: still owed 20.00 (10.00 collected, 30.00 due).
    expect((await refund(paid!.id, '20.00')).status).toBe(201);
    expect(await invoice(inv.id)).toMatchObject({ remaining_balance: '20.00', payment_status_id: 3, status_id: 0 });
    // Never more refunded than held: the balance is unchanged by a refused refund.
    const over = await refund(paid!.id, '0.01');
    expect(over.status).toBe(422);
    expect(errorsOf(over, 'transaction_amount')[0]).toMatch(/0\.00/);
    expect(await invoice(inv.id)).toMatchObject({ remaining_balance: '20.00' });
  });

  test('a voided payment counts 0; voiding a refund counts the money again', async () => {
    const inv = await create({ Service: 30 }, { allow_partial_pay: 1 });
    expect((await pay(inv.id, { ...CARD, amount: '12.00' })).status).toBe(201);
    expect((await pay(inv.id, { ...CARD, amount: '9.00' })).status).toBe(201);
    const [a, b] = payments(inv.id);
    expect(await invoice(inv.id)).toMatchObject({ remaining_balance: '9.00', payment_status_id: 3, status_id: 1 });

    expect((await voidTxn(a!.id)).status).toBe(200);
    expect(await invoice(inv.id)).toMatchObject({ remaining_balance: '21.00', payment_status_id: 3, status_id: 1 });

    const r = await refund(b!.id, '3.00');
    expect(r.status).toBe(201);
    expect(await invoice(inv.id)).toMatchObject({ remaining_balance: '24.00', payment_status_id: 3 });
    expect((await voidTxn(r.body.transaction.id)).status).toBe(200);
    expect(await invoice(inv.id)).toMatchObject({ remaining_balance: '21.00', payment_status_id: 3 });

    expect((await voidTxn(b!.id)).status).toBe(200);
    expect(await invoice(inv.id)).toMatchObject({ remaining_balance: '30.00', payment_status_id: 1, status_id: 1 });
    // The money no longer held may be paid again on the page.
    expect((await pay(inv.id, { ...CARD, amount: '30.00' })).status).toBe(201);
    expect(await invoice(inv.id)).toMatchObject({ remaining_balance: '0.00', payment_status_id: 2, status_id: 0 });
  });

  test('race: a refund and an invoice payment at the same time leave the balance equal to the money held', async () => {
    for (let round = 0; round < 6; round++) {
      const inv = await create({ Service: 100 }, { allow_partial_pay: 1 });
      expect((await pay(inv.id, { ...CARD, amount: '50.00' })).status).toBe(201);
      const [first] = payments(inv.id);
      // The page is open before either request leaves; the two are sent together, in turn first.
      const form = await openPage(inv.id, { ...CARD, amount: '50.00' });
      const [ref, page] = round % 2 === 0 ? await Promise.all([refund(first!.id, '50.00'), form.send()]) : (await Promise.all([form.send(), refund(first!.id, '50.00')])).reverse() as [Awaited<ReturnType<typeof refund>>, PageAnswer];
      expect(ref.status).toBe(201);
      expect(page.status).toBe(201);
      const after = await invoice(inv.id);
      const held = payments(inv.id).reduce((s, t) => s + ([101, 131, 132, 133, 134].includes(t.status_id) ? t.auth_amount - t.refunded : 0), 0);
      expect(held).toBe(5000);
      expect(after).toMatchObject({ remaining_balance: '50.00', payment_status_id: 3 });
      // Whichever ran first, the page never took more than was owed at its moment.
      expect(payments(inv.id).map((t) => t.auth_amount)).toEqual([5000, 5000]);
    }
  });
});
