import { describe, expect, it } from 'vitest';
import { achStatusAt, avsResult, cvvResult, REASON, simulate, STATUS, TYPE } from '../../../electron/gateway/payments/processor-simulator';

const sale = (cents: number, extra: object = {}) => simulate({ action: 'sale', paymentMethod: 'cc', amountCents: cents, brand: 'visa', ...extra });

describe('processor simulator', () => {
  it('approves ordinary amounts', () => {
    const o = sale(1000);
    expect([o.statusId, o.typeId, o.reasonCodeId, o.verbiage, o.authAmountCents]).toEqual([101, 20, 1000, 'APPROVED', 1000]);
    expect(simulate({ action: 'authonly', paymentMethod: 'cc', amountCents: 1000 }).statusId).toBe(STATUS.authonly);
  });
  it('reproduces the sandbox amounts', () => {
    expect(sale(201)).toMatchObject({ statusId: 101, reasonCodeId: REASON.partial, authAmountCents: 100 });
    expect(sale(500)).toMatchObject({ statusId: 301, reasonCodeId: 1500 });
    expect([510, 520, 530, 540].map((c) => sale(c).reasonCodeId)).toEqual([1510, 1520, 1530, 1540]);
    expect(sale(601).reasonCodeId).toBe(1601);
    expect(sale(631).reasonCodeId).toBe(1631);
    expect(sale(616)).toMatchObject({ statusId: 301, reasonCodeId: 1616 });
    expect(sale(630)).toMatchObject({ statusId: 101, failsFirstSettle: true });
    expect(sale(805)).toMatchObject({ statusId: 301, reasonCodeId: 1500, delayMs: 5_000 });
    expect(sale(812)).toMatchObject({ statusId: 301, reasonCodeId: 1500, verbiage: 'TIMEOUT', delayMs: 10_000 });
    // The delays belong to the sale amounts (sale, authonly); a refund or an avsonly of 8.xx answers at once.
    expect(simulate({ action: 'authonly', paymentMethod: 'cc', amountCents: 803 })).toMatchObject({ statusId: 301, delayMs: 3_000 });
    expect(simulate({ action: 'refund', paymentMethod: 'cc', amountCents: 803 })).toMatchObject({ statusId: 111, delayMs: 0 });
    expect(simulate({ action: 'avsonly', paymentMethod: 'cc', amountCents: 802 })).toMatchObject({ statusId: 121, delayMs: 0 });
    expect(sale(201, { allowPartial: false })).toMatchObject({ statusId: 301, authAmountCents: 0 });
    expect(sale(1000, { expired: true }).reasonCodeId).toBe(REASON.cardExpired);
  });
  it("applies AVS rules as the docs' AVS table names them (STREET: the street does not match; ZIP: the zip does not match)", () => {
    expect(avsResult('5800 NW 39th AVE', '32606')).toMatchObject({ avs: 'GOOD', decline: false });
    expect(avsResult('2831 NW 41st St STE J', '32615')).toMatchObject({ avs: 'BAD', decline: true });
    expect(avsResult('1 Main St', '32606').avs).toBe('STREET');
    expect(avsResult('5800 nw 39th ave', '99999').avs).toBe('ZIP');
    // GOOD: "street or zip are both good (if provided)"; a part not sent is not a mismatch.
    expect(avsResult(null, '32606').avs).toBe('GOOD');
    expect(avsResult(null, '99999').avs).toBe('ZIP');
    expect(avsResult('1 Main St', null).avs).toBe('STREET');
    expect(avsResult('1 Main St', '10001')).toMatchObject({ avs: 'BAD', decline: false });
    expect(avsResult(null, null)).toMatchObject({ avs: 'BAD', decline: false });
    expect(sale(1000, { billingZip: '10001', autoDeclineZip: true })).toMatchObject({ statusId: 301, avs: 'ZIP' });
    expect(sale(1000, { billingZip: '32606', billingStreet: '1 Main', autoDeclineStreet: true })).toMatchObject({ statusId: 301, avs: 'STREET' });
    // "Zip (street) value must be provided for it to be evaluated."
    expect(sale(1000, { billingZip: '32606', autoDeclineStreet: true })).toMatchObject({ statusId: 101, avs: 'GOOD' });
    expect(sale(1000, { autoDeclineZip: true, autoDeclineStreet: true })).toMatchObject({ statusId: 101, avs: 'BAD' });
    expect(sale(1000, { billingStreet: '2831 NW 41st St STE J', billingZip: '32615' })).toMatchObject({ statusId: 301, avs: 'BAD' });
    expect(sale(1000, { billingStreet: '1 Main', billingZip: '10001' })).toMatchObject({ statusId: 101, avs: 'BAD' });
  });
  it('applies CVV rules and auto_decline_cvv', () => {
    expect(cvvResult('999', 'visa')).toBe('M');
    expect(cvvResult('1234', 'amex')).toBe('M');
    expect(['123', '124', '125', '126', '127'].map((c) => cvvResult(c, 'visa'))).toEqual(['N', 'P', 'S', 'U', 'X']);
    expect(['9999', '9998', '9997', '9996', '9995', '1111'].map((c) => cvvResult(c, 'amex'))).toEqual(['N', 'P', 'S', 'U', 'X', 'N']);
    expect(sale(1000, { autoDeclineCvv: true })).toMatchObject({ statusId: 101, cvvResponse: 'N' });
    expect(sale(1000, { cvv: '123' }).statusId).toBe(101);
    // TestData: 123 is "N - No Match but NOT decline"; only P/S/U/X decline with auto_decline_cvv.
    expect(sale(1000, { cvv: '123', autoDeclineCvv: true }).statusId).toBe(101);
    expect(sale(1000, { cvv: '4321', autoDeclineCvv: true }).statusId).toBe(101);
    expect(['124', '125', '126', '127'].map((c) => sale(1000, { cvv: c, autoDeclineCvv: true }).statusId)).toEqual([301, 301, 301, 301]);
    expect(sale(1000, { cvv: '999', autoDeclineCvv: true }).statusId).toBe(101);
  });
  it('starts ACH at 131 and moves it along the clock', () => {
    const o = simulate({ action: 'debit', paymentMethod: 'ach', amountCents: 500 });
    expect([o.statusId, o.typeId]).toEqual([131, TYPE.debit]);
    expect([0, 300, 3600, 86400].map((s) => achStatusAt(1000, 1000 + s))).toEqual([131, 132, 133, 134]);
  });
});
