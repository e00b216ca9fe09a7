/**
 * Pay links and invoices through the core against the real engine: a cashier sends them
 * (phone and mail orders), the shared schemas catch a missing recipient before anything is
 * sent, the views carry paid / unpaid, the remaining balance and the payment page address,
 * resend works and an unknown id is the gateway's refusal in words; signed out, nothing.
 */
import { describe, expect, it } from 'vitest';
import { BILLING_LINK_ERRORS } from '../../shared/ipc/contract';
import { useCoreHarness, value } from '../helpers/core-harness';
import { submitPaymentPage } from '../helpers/payment-page';

const h = useCoreHarness('ringup-paylinks-');
const { call, signInAs } = h;

describe('pay links and invoices from the counter', () => {
  it('a cashier sends a pay link and an invoice, lists them and sends them again', async () => {
    expect((await call('paylinks:list', undefined)).ok).toBe(false);
    await signInAs('Casey', '0000');
    const none = await call('paylinks:create-link', { amountCents: 1000, description: '', email: '', cellPhone: '' });
    expect(none.ok).toBe(false);
    if (!none.ok) expect(none.error.fields?.email).toEqual([BILLING_LINK_ERRORS.needRecipient]);

    const pl = value(await call('paylinks:create-link', { amountCents: 1875, description: 'Phone order', email: 'pat@example.com', cellPhone: '5555550123' }));
    expect(pl).toMatchObject({ amountCents: 1875, payment: 'unpaid', remainingCents: 1875, recipient: 'pat@example.com · 5555550123' });
    expect(pl.pageUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/paylink\?paylink_id=/);
    const any = value(await call('paylinks:create-link', { amountCents: 0, description: '', email: '', cellPhone: '5555550123' }));
    expect(any).toMatchObject({ amountCents: null, remainingCents: null, payment: 'unpaid' });

    const inv = value(
      await call('paylinks:create-invoice', {
        title: 'Bike repair',
        dueDate: '2030-06-10',
        items: [
          { name: 'Labour', amountCents: 4000 },
          { name: 'Parts', amountCents: 1250 },
        ],
        email: 'pat@example.com',
        cellPhone: '',
        allowPartial: true,
      }),
    );
    expect(inv).toMatchObject({ amountDueCents: 5250, remainingCents: 5250, payment: 'unpaid', open: true });
    expect(inv.pageUrl).toMatch(/\/quickinvoice\/\?id=/);
    const dup = await call('paylinks:create-invoice', { title: 'x', dueDate: '2030-06-10', items: [{ name: 'A', amountCents: 1 }, { name: 'A', amountCents: 2 }], email: 'p@example.com', cellPhone: '', allowPartial: false });
    expect(dup.ok).toBe(false);

    const list = value(await call('paylinks:list', undefined));
    expect(list.paylinks.map((p) => p.id)).toEqual(expect.arrayContaining([pl.id, any.id]));
    expect(list.invoices.map((q) => q.id)).toContain(inv.id);

    expect(value(await call('paylinks:resend', { kind: 'invoice', id: inv.id }))).toBeNull();
    expect(value(await call('paylinks:resend', { kind: 'paylink', id: pl.id }))).toBeNull();
    const gone = await call('paylinks:resend', { kind: 'paylink', id: 'no-such-link' });
    expect(gone.ok).toBe(false);
  });

  it('a link paid in part (the sandbox approves 1.00 of 2.01) reads partly paid with the rest to collect, then paid', async () => {
    await signInAs('Casey', '0000');
    const pl = value(await call('paylinks:create-link', { amountCents: 201, description: 'Deposit', email: 'pat@example.com', cellPhone: '' }));
    // The customer pays on the link's page (as a browser posts its form).
    const pay = async () => expect((await submitPaymentPage(pl.pageUrl, { payment_method: 'cc', account_number: '4111111111111111', exp_date: '1230', cvv: '999' })).status).toBe(201);
    await pay();
    const partly = value(await call('paylinks:list', undefined)).paylinks.find((p) => p.id === pl.id);
    expect(partly).toMatchObject({ payment: 'partial', remainingCents: 101 });
    await pay();
    const paid = value(await call('paylinks:list', undefined)).paylinks.find((p) => p.id === pl.id);
    expect(paid).toMatchObject({ payment: 'paid', remainingCents: 0 });
  });
});
