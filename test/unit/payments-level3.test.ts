import { describe, expect, it } from 'vitest';
import { L3_ERRORS, UNIT_CODES, validateLevel3 } from '../../shared/payments/level3-schema';

const visaItem = { description: 'Widget', product_code: 'W-1', unit_code: 'EA', unit_cost: '12.5000', quantity: 2, commodity_code: '4410' };
const mcItem = { description: 'Widget', product_code: 'W-1', unit_code: 'BX', unit_cost: 3.25, debit_credit: 'D', tax_type_id: '02' };

describe('level 3 schemas', () => {
  it('takes every code of the full unit-of-measure list (ACR to YRD) in any case, and nothing else', () => {
    // The family's Level 3 page lists the codes after DRM too: 232 codes in all.
    expect(UNIT_CODES.length).toBe(232);
    expect(UNIT_CODES).toContain('YRD');
    for (const code of UNIT_CODES) {
      for (const c of [code, code.toLowerCase()]) {
        const r = validateLevel3('visa', { line_items: [{ ...visaItem, unit_code: c }] });
        expect(r.ok, c).toBe(true);
        if (r.ok) expect(r.value.line_items[0]?.unit_code).toBe(code);
      }
    }
    for (const c of ['KGM', 'ltr', 'pce', 'Dzn', 'YRD']) expect(validateLevel3('visa', { line_items: [{ ...visaItem, unit_code: c }] }).ok, c).toBe(true);
    // Not on the list: unknown codes before and after DRM alike (PCS is a common mistake for PCE).
    for (const c of ['AAA', 'CX', 'B', 'DRK', 'E1', '', 'ABCD', 'Z', 'DRN', 'PCS', 'ZZZ', 'LB']) {
      const r = validateLevel3('visa', { line_items: [{ ...visaItem, unit_code: c }] });
      expect(r.ok, c).toBe(false);
      if (!r.ok) expect(r.errors['level3_data.line_items.0.unit_code'], c).toEqual([L3_ERRORS.unitCode]);
    }
  });

  it('accepts valid Visa data and normalises numbers', () => {
    const r = validateLevel3('visa', { tax_amount: '1.50', order_date: '261121', line_items: [visaItem] });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value.line_items[0]?.unit_cost).toBe(12.5);
  });
  it('requires line items and the Visa commodity code', () => {
    const a = validateLevel3('visa', { tax_amount: '1.00' });
    expect(a.ok).toBe(false);
    if (!a.ok) expect(a.errors['level3_data.line_items']).toEqual([L3_ERRORS.lineItemsRequired]);
    const b = validateLevel3('visa', { line_items: [] });
    if (!b.ok) expect(b.errors['level3_data.line_items']).toEqual([L3_ERRORS.lineItemsRequired]);
    const c = validateLevel3('visa', { line_items: [{ ...visaItem, commodity_code: undefined }] });
    expect(c.ok).toBe(false);
    if (!c.ok) expect(Object.keys(c.errors)).toContain('level3_data.line_items.0.commodity_code');
  });
  it('says which required field is missing in a sentence, not a length rule', () => {
    // A missing or empty commodity code on a Visa line: what is needed, not "Must be 1 to 12 characters."
    for (const commodity_code of [undefined, '']) {
      const r = validateLevel3('visa', { line_items: [{ ...visaItem, commodity_code }] });
      expect(!r.ok && r.errors['level3_data.line_items.0.commodity_code']).toEqual(['Visa needs a commodity code for each line item.']);
    }
    const m = validateLevel3('mastercard', { line_items: [{ ...mcItem, description: '', product_code: undefined, unit_cost: undefined }] });
    expect(!m.ok && m.errors).toEqual({
      'level3_data.line_items.0.description': ['Each line item needs a description.'],
      'level3_data.line_items.0.product_code': ['Each line item needs a product code.'],
      'level3_data.line_items.0.unit_cost': ['Each line item needs a unit cost.'],
    });
    // Too long is still the length rule.
    const long = validateLevel3('visa', { line_items: [{ ...visaItem, commodity_code: '1234567890123' }] });
    expect(!long.ok && long.errors['level3_data.line_items.0.commodity_code']).toEqual([L3_ERRORS.text(1, 12)]);
  });
  it('enforces bounds and decimals', () => {
    const r = validateLevel3('mastercard', { tax_amount: '1.234', line_items: [{ ...mcItem, unit_cost: '1.12345' }] });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors['level3_data.tax_amount']).toEqual([L3_ERRORS.number(9, 2)]);
      expect(r.errors['level3_data.line_items.0.unit_cost']).toEqual([L3_ERRORS.number(12, 4)]);
    }
    const d = validateLevel3('visa', { order_date: '261340', line_items: [visaItem] });
    if (!d.ok) expect(d.errors['level3_data.order_date']).toEqual([L3_ERRORS.orderDate]);
    expect(d.ok).toBe(false);
  });
  it('limits line items per network: 98 Mastercard, 998 Visa', () => {
    expect(validateLevel3('mastercard', { line_items: Array(98).fill(mcItem) }).ok).toBe(true);
    const m = validateLevel3('mastercard', { line_items: Array(99).fill(mcItem) });
    if (!m.ok) expect(m.errors['level3_data.line_items']).toEqual([L3_ERRORS.tooManyLineItemsMastercard]);
    expect(m.ok).toBe(false);
    expect(validateLevel3('visa', { line_items: Array(998).fill(visaItem) }).ok).toBe(true);
    const v = validateLevel3('visa', { line_items: Array(999).fill(visaItem) });
    if (!v.ok) expect(v.errors['level3_data.line_items']).toEqual([L3_ERRORS.tooManyLineItemsVisa]);
    expect(v.ok).toBe(false);
  });
  it('checks Mastercard-only codes', () => {
    const r = validateLevel3('mastercard', { line_items: [{ ...mcItem, debit_credit: 'X', tax_type_id: '07' }] });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors['level3_data.line_items.0.debit_credit']).toEqual([L3_ERRORS.debitCredit]);
      expect(r.errors['level3_data.line_items.0.tax_type_id']).toEqual([L3_ERRORS.taxTypeId]);
    }
  });
});
