import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../electron/client/gateway-client';
import { GATEWAY_MESSAGES, gatewayFailure } from '../../electron/core/gateway-messages';
import { toView, totalsOf } from '../../electron/core/transaction-view';

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
    expect(gatewayFailure(new GatewayError(0, { general: ['timeout'] }))).toEqual({ ok: false, error: { code: 'gateway_timeout', message: GATEWAY_MESSAGES.timeout } });
    expect(gatewayFailure(new GatewayError(401, { general: ['Unauthorized.'] }))).toEqual({ ok: false, error: { code: 'gateway_unauthorized', message: GATEWAY_MESSAGES.unauthorized } });
    expect(gatewayFailure(new GatewayError(503, { general: ['x'] }))).toEqual({ ok: false, error: { code: 'gateway_error', message: GATEWAY_MESSAGES.serverError } });
    expect(gatewayFailure(new Error('boom'))).toEqual({ ok: false, error: { code: 'gateway_error', message: GATEWAY_MESSAGES.unknown } });
  });
});
