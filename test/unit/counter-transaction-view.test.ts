import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../electron/client/gateway-client';
import { GATEWAY_MESSAGES, gatewayFailure } from '../../electron/core/gateway/gateway-messages';
import { toView, totalsOf } from '../../electron/core/transactions/transaction-view';

const sale = {
  id: 't1',
  transaction_api_id: 'ref-1',
  type_id: 20,
  status_id: 101,
  reason_code_id: 1000,
  transaction_amount: '28.91',
  tax: null,
  tip_amount: '4.41',
  first_six: '411111',
  last_four: '1111',
  account_type: 'visa',
  auth_code: 'A1B2C3',
  created_ts: 1_700_000_000,
  transaction_settlement_status: 'unsettled',
};

describe('transaction views', () => {
  it('say how the payment was presented: keyed, the terminal entry modes, a check', () => {
    expect(toView(sale).entryMode).toBe('keyed');
    expect(toView({ ...sale, entry_mode_id: 'C' }).entryMode).toBe('chip');
    expect(toView({ ...sale, entry_mode_id: 'P' }).entryMode).toBe('contactless');
    expect(toView({ ...sale, entry_mode_id: 'S' }).entryMode).toBe('swiped');
    expect(toView({ ...sale, payment_method: 'ach', entry_mode_id: null })).toMatchObject({ entryMode: 'check', cardBrand: 'Check' });
  });

  it('carry what a chip or contactless receipt must print: AID, application label, the verification', () => {
    const emv = { AID: 'A0000000031010', APPLAB: 'VISA CREDIT', APPN: 'VISA', CVM: 'PIN VERIFIED', TSI: 'E800', TVR: '0000008000' };
    expect(toView({ ...sale, entry_mode_id: 'C', emv_receipt_data: emv }).emv).toEqual({ aid: 'A0000000031010', label: 'VISA', cvm: 'pin', tvr: '0000008000', tsi: 'E800' });
    // Without a preferred name the label is the application label; each CVM the terminal names.
    expect(toView({ ...sale, entry_mode_id: 'P', emv_receipt_data: { ...emv, APPN: undefined, CVM: 'SIGNATURE' } }).emv).toMatchObject({ label: 'VISA CREDIT', cvm: 'signature' });
    expect(toView({ ...sale, entry_mode_id: 'C', emv_receipt_data: { ...emv, CVM: 'NO CVM' } }).emv?.cvm).toBe('none');
    expect(toView({ ...sale, entry_mode_id: 'S', emv_receipt_data: null }).emv).toBeNull();
    expect(toView({ ...sale, entry_mode_id: 'C', emv_receipt_data: { CVM: 'NO CVM' } }).emv).toBeNull(); // no AID: nothing to print
  });

  it('carry the check number of a check paid by electronic debit', () => {
    expect(toView({ ...sale, payment_method: 'ach', check_number: '1001', last_four: '5678' })).toMatchObject({ entryMode: 'check', checkNumber: '1001', lastFour: '5678' });
    expect(toView({ ...sale, payment_method: 'ach' }).checkNumber).toBeNull();
    expect(toView(sale).checkNumber).toBeNull();
  });

  it('turn a v2 sale into cents, a brand, a sentence and what can be refunded', () => {
    const v = toView(sale);
    expect(v).toMatchObject({ kind: 'sale', state: 'approved', amountCents: 2891, tipCents: 441, refundableCents: 2891, voidable: true, cardBrand: 'Visa', lastFour: '1111', message: 'Approved.' });
    const half = toView(sale, 1445);
    expect(half).toMatchObject({ state: 'partially_refunded', refundedCents: 1445, refundableCents: 1446, voidable: false });
    expect(toView(sale, 2891)).toMatchObject({ state: 'refunded', refundableCents: 0 });
    expect(toView({ ...sale, status_id: 301, reason_code_id: 1616 })).toMatchObject({ state: 'declined', refundableCents: 0, voidable: false });
    expect(toView({ ...sale, status_id: 301, reason_code_id: 1616 }).message).toMatch(/insufficient funds/i);
    expect(toView({ ...sale, status_id: 201, reason_code_id: 1200 })).toMatchObject({ state: 'voided', voidable: false });
    expect(toView({ ...sale, type_id: 30, status_id: 111, previous_transaction_id: 't0' })).toMatchObject({ kind: 'refund', state: 'approved', refundableCents: 0, voidable: false });
    expect(toView({ ...sale, settle_date: '2026-11-20', transaction_settlement_status: 'settled' })).toMatchObject({ settled: true, voidable: false, refundableCents: 2891 });
  });

  it('total approved sales, refunds, voids and declines', () => {
    const rows = [
      toView(sale),
      toView({ ...sale, id: 't2', type_id: 30, status_id: 111, transaction_amount: '10.00', previous_transaction_id: 't1' }),
      toView({ ...sale, id: 't3', status_id: 201, transaction_amount: '5.00' }),
      toView({ ...sale, id: 't4', status_id: 301, reason_code_id: 1500, transaction_amount: '5.00' }),
    ];
    expect(totalsOf(rows)).toEqual({ salesCount: 1, salesCents: 2891, refundsCount: 1, refundsCents: 1000, voidsCount: 1, voidsCents: 500, declinedCount: 1, netCents: 1891 });
  });
});

describe('partial approvals count only the approved money', () => {
  const partial = { ...sale, id: 'p1', transaction_amount: '2.01', auth_amount: '1.00', reason_code_id: 1201, tip_amount: null };
  it('a sale approved for less than asked is partial; refundable and totals follow auth_amount', () => {
    const v = toView(partial);
    expect(v).toMatchObject({ state: 'approved', amountCents: 100, requestedCents: 201, partial: true, refundableCents: 100, voidable: true });
    expect(toView(partial, 40)).toMatchObject({ state: 'partially_refunded', refundedCents: 40, refundableCents: 60 });
    expect(toView(partial, 100)).toMatchObject({ state: 'refunded', refundableCents: 0 });
    expect(toView(partial, 500).refundedCents).toBe(100); // never more refunded than collected
    expect(totalsOf([v])).toMatchObject({ salesCount: 1, salesCents: 100, netCents: 100 });
    expect(totalsOf([toView({ ...partial, status_id: 201 })])).toMatchObject({ salesCents: 0, voidsCount: 1, voidsCents: 100 });
  });
  it('an authcomplete or partial reversal below auth_amount counts the lower amount; a full approval is not partial', () => {
    expect(toView({ ...sale, transaction_amount: '20.00', auth_amount: '25.00' })).toMatchObject({ amountCents: 2000, requestedCents: 2000, partial: false });
    expect(toView({ ...sale, auth_amount: '28.91' })).toMatchObject({ amountCents: 2891, partial: false });
    expect(toView({ ...sale, status_id: 301, auth_amount: '0.00' })).toMatchObject({ state: 'declined', amountCents: 2891, partial: false, refundableCents: 0 });
  });
});

describe('gateway failures as sentences', () => {
  it('map the error envelope to plain text and form fields, never JSON or a card number', () => {
    const r = gatewayFailure(new GatewayError(422, { account_number: ['Account Number 4111111111111111 is invalid.'], general: ['Check the card.'] }));
    expect(r).toEqual({
      ok: false,
      error: {
        code: 'gateway_rejected',
        message: 'Account Number [card number] is invalid. Check the card.',
        fields: { 'card.number': ['Account Number [card number] is invalid.'] },
      },
    });
    expect(gatewayFailure(new GatewayError(0, { general: ['unreachable'] }))).toEqual({ ok: false, error: { code: 'gateway_unreachable', message: GATEWAY_MESSAGES.unreachable } });
    expect(gatewayFailure(new GatewayError(0, { general: ['lost'] }))).toEqual({ ok: false, error: { code: 'gateway_lost', message: GATEWAY_MESSAGES.lost } });
    expect(gatewayFailure(new GatewayError(0, { general: ['timeout'] }))).toEqual({ ok: false, error: { code: 'gateway_timeout', message: GATEWAY_MESSAGES.timeout } });
    expect(gatewayFailure(new GatewayError(401, { general: ['Unauthorized.'] }))).toEqual({ ok: false, error: { code: 'gateway_unauthorized', message: GATEWAY_MESSAGES.unauthorized } });
    expect(gatewayFailure(new GatewayError(503, { general: ['x'] }))).toEqual({ ok: false, error: { code: 'gateway_error', message: GATEWAY_MESSAGES.serverError } });
    expect(gatewayFailure(new Error('boom'))).toEqual({ ok: false, error: { code: 'gateway_error', message: GATEWAY_MESSAGES.unknown } });
  });
});
