/**
 * Level 3 through the core against the real engine: commercial cards take it, a personal
 * card and a declined sale say why not, the engine's schemas check the data (line-item
 * limits 998 Visa, 98 Mastercard) before it is sent, and saving replaces the default line.
 */
import { describe, expect, it } from 'vitest';
import { LEVEL3_MESSAGES } from '../../electron/core/level3/level3-handlers';
import { AUTH_ERRORS } from '../../electron/core/auth/users';
import { useCoreHarness, value } from '../helpers/core-harness';
import { L3_ERRORS } from '../../shared/payments/level3-schema';

const h = useCoreHarness('ringup-l3-');
const { call, signInAs } = h;
let ref = 0;
async function sell(subtotalCents: number, number: string) {
  return value(await call('sale:charge', { subtotalCents, taxCents: 0, tipCents: 0, card: { number, expiry: '1230', cvv: '999', zip: '32606' }, clientRef: `l3-test-${ref++}` })).transaction;
}
const line = (i: number) => ({ description: `Bolts ${i}`, product_code: `B-${i}`, commodity_code: '3100', unit_code: 'BX', unit_cost: '2.5000', quantity: '4' });

describe('level 3', () => {
  it('applies to commercial cards only, validates with the engine schemas and saves', async () => {
    await signInAs('Morgan', '1234');
    const visa = await sell(10000, '4005562231212149');
    const view = value(await call('level3:view', { transactionId: visa.id }));
    expect(view).toMatchObject({ applies: true, reason: null, network: 'visa', maxLineItems: 998, cardLabel: 'Visa •••• 2149' });
    expect(view.data?.line_items).toHaveLength(1);

    const personal = await sell(1000, '4111111111111111');
    expect(value(await call('level3:view', { transactionId: personal.id }))).toMatchObject({ applies: false, reason: LEVEL3_MESSAGES.personal('Visa •••• 1111') });
    const declined = await sell(500, '4005562231212149');
    expect(value(await call('level3:view', { transactionId: declined.id })).reason).toBe(LEVEL3_MESSAGES.notApproved);
    expect(await call('level3:save', { transactionId: personal.id, data: { line_items: [line(1)] } })).toEqual({
      ok: false,
      error: { code: 'conflict', message: LEVEL3_MESSAGES.personal('Visa •••• 1111') },
    });

    const bad = await call('level3:save', { transactionId: visa.id, data: { tax_amount: '1.005', line_items: [{ ...line(1), unit_code: 'B!' }] } });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error.fields?.['level3_data.tax_amount']).toEqual([L3_ERRORS.number(9, 2)]);
      expect(bad.error.fields?.['level3_data.line_items.0.unit_code']).toEqual([L3_ERRORS.unitCode]);
    }
    const tooMany = await call('level3:save', { transactionId: visa.id, data: { line_items: Array.from({ length: 999 }, (_, i) => line(i)) } });
    expect(!tooMany.ok && tooMany.error.fields?.['level3_data.line_items']).toEqual([L3_ERRORS.tooManyLineItemsVisa]);
    const saved = value(await call('level3:save', { transactionId: visa.id, data: { tax_amount: '8.25', shipto_zip_code: '32606', line_items: Array.from({ length: 998 }, (_, i) => line(i)) } }));
    expect(saved.data?.line_items).toHaveLength(998);
    expect(saved.data).toMatchObject({ tax_amount: 8.25, shipto_zip_code: '32606' });

    const mc = await sell(5000, '5405222222222226');
    expect(value(await call('level3:view', { transactionId: mc.id }))).toMatchObject({ applies: true, network: 'mastercard', maxLineItems: 98 });
    const mcTooMany = await call('level3:save', { transactionId: mc.id, data: { line_items: Array.from({ length: 99 }, (_, i) => line(i)) } });
    expect(!mcTooMany.ok && mcTooMany.error.fields?.['level3_data.line_items']).toEqual([L3_ERRORS.tooManyLineItemsMastercard]);
    expect(value(await call('level3:save', { transactionId: mc.id, data: { line_items: Array.from({ length: 98 }, (_, i) => ({ ...line(i), debit_credit: 'D' })) } })).data?.line_items).toHaveLength(98);

    await signInAs('Casey', '0000');
    expect(await call('level3:view', { transactionId: visa.id })).toEqual({ ok: false, error: { code: 'forbidden', message: AUTH_ERRORS.managerOnly } });
  });

  it('links:transaction gives Level 3 data to managers only, as level3:view does', async () => {
    await signInAs('Morgan', '1234');
    const visa = await sell(4000, '4005562231212149');
    const refund = value(await call('transactions:refund', { id: visa.id, amountCents: 1000 })).refund;
    const forManager = value(await call('links:transaction', { id: visa.id }));
    expect(forManager.level3).toMatchObject({ applies: true, network: 'visa' });
    expect(forManager.level3!.data?.line_items).toHaveLength(1);
    expect(forManager.refunds.map((r) => r.id)).toEqual([refund.id]);
    // A refund's own links: its original sale and its batch.
    const ofRefund = value(await call('links:transaction', { id: refund.id }));
    expect(ofRefund.original?.id).toBe(visa.id);
    expect(ofRefund.batch?.id).toBe(forManager.batch?.id);

    await signInAs('Casey', '0000');
    const forCashier = value(await call('links:transaction', { id: visa.id }));
    expect(forCashier.level3).toBeNull();
    expect(forCashier.original).toBeNull();
    expect(forCashier.refunds.map((r) => r.id)).toEqual([refund.id]);
    expect(JSON.stringify(forCashier)).not.toContain('line_items');
  });
});
