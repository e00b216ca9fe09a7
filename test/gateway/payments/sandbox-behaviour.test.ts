/**
 * The sandbox's test data (GATEWAY-FACTS, PayaConnect TestData.md) over HTTP: delayed
 * 8.xx answers and the 10-second time-out (the engine clock's sleep is instant here, and
 * the delays it was asked for are recorded), Amex CVV codes, AVS and CVV when not sent,
 * per-request auto-decline overrides, ACH keeping its SEC code and effective date.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, VISA, EXP, type Harness } from './engine-harness';

const AMEX = '371449635398431';
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  h.clock.instantSleep = true;
});
afterAll(async () => { await h.close(); });

const sale = (extra: Record<string, unknown> = {}) =>
  h.call('POST', '/transactions', { transaction: { action: 'sale', payment_method: 'cc', account_number: VISA, exp_date: EXP, transaction_amount: '10.00', ...extra } });

describe('8.xx delayed answers', () => {
  it('8.01–8.09 answer reason 1500 after xx seconds', async () => {
    h.clock.slept.length = 0;
    const r = await sale({ transaction_amount: '8.05' });
    expect(r.status).toBe(201);
    expect(r.body.transaction).toMatchObject({ status_id: 301, reason_code_id: 1500, auth_amount: '0.00', batch: null });
    expect(h.clock.slept).toEqual([5000]);
  });

  it('only sales and authorizations wait: a refund of 8.03 and an avsonly of 8.02 answer at once', async () => {
    const s = (await sale({ transaction_amount: '20.00' })).body.transaction;
    h.clock.slept.length = 0;
    const r = await h.call('POST', '/transactions', { transaction: { action: 'refund', previous_transaction_id: s.id, transaction_amount: '8.03' } });
    expect(r.body.transaction).toMatchObject({ status_id: 111 });
    const avs = await sale({ action: 'avsonly', transaction_amount: '8.02' });
    expect(avs.body.transaction).toMatchObject({ status_id: 121 });
    expect(h.clock.slept).toEqual([]);
  });

  it('8.10 and above time out after the gateway\'s 10 seconds', async () => {
    h.clock.slept.length = 0;
    for (const amount of ['8.10', '8.99']) {
      const r = await sale({ transaction_amount: amount });
      expect(r.body.transaction).toMatchObject({ status_id: 301, reason_code_id: 1500, verbiage: 'TIMEOUT' });
    }
    expect(h.clock.slept).toEqual([10_000, 10_000]);
  });
});

describe('CVV', () => {
  it('Amex: 1234 matches, 9999/9998/9997/9996/9995 → N/P/S/U/X', async () => {
    const codes: Record<string, string> = { '1234': 'M', '9999': 'N', '9998': 'P', '9997': 'S', '9996': 'U', '9995': 'X', '4321': 'N' };
    for (const [cvv, answer] of Object.entries(codes)) {
      const r = await sale({ account_number: AMEX, cvv });
      expect(r.body.transaction).toMatchObject({ cvv_response: answer, status_id: 101 });
    }
  });

  it('sending no CVV marks it failed without declining, even with auto_decline_cvv', async () => {
    const r = await sale();
    expect(r.body.transaction).toMatchObject({ cvv_response: 'N', status_id: 101 });
    const strict = await sale({ auto_decline_cvv_override: 1 });
    expect(strict.body.transaction).toMatchObject({ cvv_response: 'N', status_id: 101 });
  });

  it('auto_decline_cvv_override wins over the product transaction', async () => {
    const declined = await sale({ cvv: '124', auto_decline_cvv_override: true });
    expect(declined.body.transaction).toMatchObject({ status_id: 301, cvv_response: 'P' });
    const lax = await sale({ cvv: '124', auto_decline_cvv_override: false });
    expect(lax.body.transaction).toMatchObject({ status_id: 101, cvv_response: 'P' });
  });
});

describe('AVS', () => {
  it('no address at all is BAD (never null) and does not decline', async () => {
    const r = await sale();
    expect(r.body.transaction).toMatchObject({ avs: 'BAD', status_id: 101 });
  });

  it('zip and street overrides decline on a mismatch of a zip or street that was sent', async () => {
    const zip = await sale({ billing_zip: '99999', auto_decline_zip_override: 1 });
    expect(zip.body.transaction).toMatchObject({ status_id: 301, avs: 'ZIP' });
    const zipOk = await sale({ billing_zip: '32606', auto_decline_zip_override: 1 });
    expect(zipOk.body.transaction).toMatchObject({ status_id: 101, avs: 'GOOD' });
    const street = await sale({ billing_street: '1 Main St', billing_zip: '32606', auto_decline_street_override: 1 });
    expect(street.body.transaction).toMatchObject({ status_id: 301, avs: 'STREET' });
    // "Zip (street) value must be provided for it to be evaluated."
    const noZip = await sale({ auto_decline_zip_override: 1 });
    expect(noZip.body.transaction).toMatchObject({ status_id: 101, avs: 'BAD' });
    const noStreet = await sale({ billing_zip: '32606', auto_decline_street_override: 1 });
    expect(noStreet.body.transaction).toMatchObject({ status_id: 101 });
  });

  it("answers STREET when the street does not match and ZIP when the zip does not (the docs' AVS table)", async () => {
    const cases: [string | undefined, string | undefined, string][] = [
      ['5800 NW 39th AVE', '32606', 'GOOD'], ['1 Main St', '32606', 'STREET'], ['5800 NW 39th AVE', '11111', 'ZIP'], ['1 Main St', '11111', 'BAD'],
    ];
    for (const [street, zip, avs] of cases) {
      const r = await sale({ billing_street: street, billing_zip: zip });
      expect(r.body.transaction.avs, `${street} / ${zip}`).toBe(avs);
    }
  });
});

describe("a strict product transaction's settings, and the overrides that win over them", () => {
  it('auto_decline_cvv/zip/street and allow_partial_authorization of the product decline; each override false (true) wins', async () => {
    const db = h.engine.db;
    const pt = h.engine.credentials.cc_product_transaction_id;
    const row = db.prepare('SELECT * FROM product_transactions WHERE id = ?').get(pt) as Record<string, unknown>;
    const strict = { ...row, id: 'pt-strict-all', auto_decline_cvv: 1, auto_decline_zip: 1, auto_decline_street: 1, allow_partial_authorization: 0 };
    db.prepare(`INSERT INTO product_transactions (${Object.keys(strict).join(', ')}) VALUES (${Object.keys(strict).map(() => '?').join(', ')})`).run(...Object.values(strict));
    const on = (extra: Record<string, unknown>) => sale({ product_transaction_id: 'pt-strict-all', ...extra });
    expect((await on({ cvv: '124' })).body.transaction).toMatchObject({ status_id: 301, cvv_response: 'P' });
    expect((await on({ cvv: '124', auto_decline_cvv_override: false })).body.transaction).toMatchObject({ status_id: 101, cvv_response: 'P' });
    expect((await on({ billing_zip: '99999' })).body.transaction.status_id).toBe(301);
    expect((await on({ billing_zip: '99999', auto_decline_zip_override: false })).body.transaction.status_id).toBe(101);
    expect((await on({ billing_street: '1 Main St' })).body.transaction.status_id).toBe(301);
    expect((await on({ billing_street: '1 Main St', auto_decline_street_override: 0 })).body.transaction.status_id).toBe(101);
    expect((await on({ transaction_amount: '2.01' })).body.transaction).toMatchObject({ status_id: 301, auth_amount: '0.00' });
    expect((await on({ transaction_amount: '2.01', allow_partial_authorization_override: true })).body.transaction).toMatchObject({ status_id: 101, reason_code_id: 1201, auth_amount: '1.00' });
  });
});

describe('partial authorization override', () => {
  it('allow_partial_authorization_override 0 declines 2.01 instead of approving 1.00', async () => {
    const r = await sale({ transaction_amount: '2.01', allow_partial_authorization_override: 0 });
    expect(r.body.transaction).toMatchObject({ status_id: 301, auth_amount: '0.00' });
    const ok = await sale({ transaction_amount: '2.01', allow_partial_authorization_override: 1 });
    expect(ok.body.transaction).toMatchObject({ status_id: 101, reason_code_id: 1201, auth_amount: '1.00' });
  });
});

describe('ACH keeps what was sent', () => {
  it('ach_sec_code and effective_date are stored and returned', async () => {
    const r = await h.call('POST', '/transactions', { transaction: { action: 'debit', payment_method: 'ach', account_number: '123456789', routing: '072000326',
      account_holder_name: 'Pat Doe', transaction_amount: '12.00', ach_sec_code: 'PPD', effective_date: '2031-05-04' } });
    expect(r.status).toBe(201);
    expect(r.body.transaction).toMatchObject({ ach_sec_code: 'PPD', effective_date: '2031-05-04' });
    const back = (await h.call('GET', `/transactions/${r.body.transaction.id}`)).body.transaction;
    expect(back).toMatchObject({ ach_sec_code: 'PPD', effective_date: '2031-05-04' });
    const refund = await h.call('POST', '/transactions', { transaction: { action: 'refund', previous_transaction_id: r.body.transaction.id, transaction_amount: '2.00' } });
    expect(refund.body.transaction).toMatchObject({ type_id: 30, ach_sec_code: 'PPD' });
    const ccd = await h.call('POST', '/transactions', { transaction: { action: 'refund', previous_transaction_id: r.body.transaction.id, transaction_amount: '1.00', ach_sec_code: 'CCD' } });
    expect(ccd.body.transaction).toMatchObject({ type_id: 30, ach_sec_code: 'CCD' });
    const bad = await h.call('POST', '/transactions', { transaction: { action: 'debit', payment_method: 'ach', account_number: '123456789', routing: '072000326',
      account_holder_name: 'Pat Doe', transaction_amount: '12.00', effective_date: '04/05/2031' } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['effective_date']);
  });
});
