/**
 * Money moves exactly as approved: partial reversals name the final amount, refunds and
 * voids are bounded by auth_amount (also after tip edits and under parallel requests),
 * a tip edit never raises what the issuer approved, authincrement asks the issuer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAY_MSG } from '../../../electron/gateway/payments/payment-messages';
import { startHarness, VISA, EXP, type Harness } from './engine-harness';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });

const post = (extra: Record<string, unknown>) =>
  h.call('POST', '/transactions', { transaction: { action: 'sale', payment_method: 'cc', account_number: VISA, exp_date: EXP, transaction_amount: '10.00', ...extra } });
const put = (id: string, extra: Record<string, unknown>) => h.call('PUT', `/transactions/${id}`, { transaction: extra });
const refund = (id: string, amount?: string) =>
  h.call('POST', '/transactions', { transaction: { action: 'refund', previous_transaction_id: id, ...(amount ? { transaction_amount: amount } : {}) } });
const refundedCents = (id: string) => (h.engine.db.prepare('SELECT refunded FROM transactions WHERE id = ?').get(id) as { refunded: number }).refunded;

describe('partialreversal', () => {
  it('takes the final amount: a 50.00 sale reversed to 20.00 is 20.00', async () => {
    const s = (await post({ transaction_amount: '50.00' })).body.transaction;
    const r = await put(s.id, { action: 'partialreversal', transaction_amount: '20.00' });
    expect(r.status).toBe(200);
    expect(r.body.transaction).toMatchObject({ transaction_amount: '20.00', auth_amount: '20.00' });
    const over = await refund(s.id, '20.01');
    expect(over.status).toBe(422);
    expect(over.body.errors.transaction_amount).toEqual([PAY_MSG.REFUND_EXCEEDS.replace('{remaining}', '20.00')]);
  });

  it('must end below the approved amount and not below what was refunded', async () => {
    const s = (await post({ transaction_amount: '30.00' })).body.transaction;
    const same = await put(s.id, { action: 'partialreversal', transaction_amount: '30.00' });
    expect(same.status).toBe(422);
    expect(same.body.errors.transaction_amount).toEqual([PAY_MSG.PARTIAL_REVERSAL_EXCEEDS.replace('{current}', '30.00')]);
    expect((await refund(s.id, '12.00')).status).toBe(201);
    const below = await put(s.id, { action: 'partialreversal', transaction_amount: '11.99' });
    expect(below.status).toBe(422);
    expect(below.body.errors.transaction_amount).toEqual([PAY_MSG.PARTIAL_REVERSAL_BELOW_REFUNDED.replace('{refunded}', '12.00')]);
  });

  it('reduces an authorization; authcomplete is then bounded by the reduced amount', async () => {
    const a = (await post({ action: 'authonly', transaction_amount: '40.00' })).body.transaction;
    const r = await put(a.id, { action: 'partialreversal', transaction_amount: '25.00' });
    expect(r.body.transaction).toMatchObject({ transaction_amount: '25.00', auth_amount: '25.00', status_id: 102 });
    const over = await put(a.id, { action: 'authcomplete', transaction_amount: '25.01' });
    expect(over.status).toBe(422);
  });
});

describe('partial approvals collect only what was approved', () => {
  it('refund of 2.01 against a sale approved for 1.00 answers 422', async () => {
    const s = (await post({ transaction_amount: '2.01' })).body.transaction;
    expect(s).toMatchObject({ reason_code_id: 1201, auth_amount: '1.00' });
    const r = await refund(s.id, '2.01');
    expect(r.status).toBe(422);
    expect(r.body.errors.transaction_amount).toEqual([PAY_MSG.REFUND_EXCEEDS.replace('{remaining}', '1.00')]);
    const all = await refund(s.id);
    expect(all.status).toBe(201);
    expect(all.body.transaction.transaction_amount).toBe('1.00');
    expect(refundedCents(s.id)).toBe(100);
  });

  it('20 parallel partial refunds never sum above the approved amount', async () => {
    const s = (await post({ transaction_amount: '2.01' })).body.transaction;
    const results = await Promise.all(Array.from({ length: 20 }, () => refund(s.id, '0.15')));
    const ok = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status === 422);
    expect(ok.length + refused.length).toBe(20);
    expect(ok.length).toBe(6); // 6 × 0.15 = 0.90 ≤ 1.00 < 7 × 0.15
    for (const r of refused) expect(r.body.errors.transaction_amount[0]).toMatch(/exceeds/);
    expect(refundedCents(s.id)).toBe(90);
    const sum = h.engine.db.prepare("SELECT SUM(amount) AS n FROM transactions WHERE previous_transaction_id = ? AND status_id = 111").get(s.id) as { n: number };
    expect(sum.n).toBe(90);
  });

  it('a sale approved in full also holds under 20 parallel refunds', async () => {
    const s = (await post({ transaction_amount: '10.00' })).body.transaction;
    const results = await Promise.all(Array.from({ length: 20 }, () => refund(s.id, '1.00')));
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    expect(refundedCents(s.id)).toBe(1000);
  });

  it('authcomplete of a partially approved authonly completes at most the approved 1.00', async () => {
    const a = (await post({ action: 'authonly', transaction_amount: '2.01' })).body.transaction;
    expect(a.auth_amount).toBe('1.00');
    const over = await put(a.id, { action: 'authcomplete', transaction_amount: '2.01' });
    expect(over.status).toBe(422);
    const done = await put(a.id, { action: 'authcomplete' });
    expect(done.body.transaction).toMatchObject({ status_id: 101, transaction_amount: '1.00', auth_amount: '1.00' });
  });
});

describe('tip edits', () => {
  it('never raise what the issuer approved on an authorization', async () => {
    const a = (await post({ action: 'authonly', transaction_amount: '2.01' })).body.transaction;
    const tip = await put(a.id, { action: 'edit', tip_amount: '500.00' });
    expect(tip.status).toBe(200);
    expect(tip.body.transaction).toMatchObject({ transaction_amount: '502.01', auth_amount: '1.00', tip_amount: '500.00' });
    const big = await put(a.id, { action: 'authcomplete', transaction_amount: '502.01' });
    expect(big.status).toBe(422);
    expect(big.body.errors.transaction_amount).toEqual([PAY_MSG.AUTHCOMPLETE_EXCEEDS.replace('{authorized}', '1.00')]);
    const done = await put(a.id, { action: 'authcomplete' });
    expect(done.body.transaction).toMatchObject({ transaction_amount: '1.00', auth_amount: '1.00' });
  });

  it('move an approved sale, and refunds follow the edited amount', async () => {
    const s = (await post({ transaction_amount: '40.00', tip_amount: '10.00' })).body.transaction;
    const down = await put(s.id, { action: 'edit', tip_amount: '2.00' });
    expect(down.body.transaction).toMatchObject({ transaction_amount: '32.00', auth_amount: '32.00' });
    const over = await refund(s.id, '32.01');
    expect(over.body.errors.transaction_amount).toEqual([PAY_MSG.REFUND_EXCEEDS.replace('{remaining}', '32.00')]);
  });

  it('raise a fully approved sale at most 20% over what the issuer approved (a cashier cannot turn 10.00 into 100,009.00)', async () => {
    const s = (await post({ transaction_amount: '10.00' })).body.transaction;
    const tolerance = PAY_MSG.TIP_OVER_TOLERANCE.replace('{max}', '12.00').replace('{approved}', '10.00');
    const huge = await put(s.id, { action: 'edit', tip_amount: '99999.00' });
    expect(huge.status).toBe(422);
    expect(huge.body.errors.tip_amount).toEqual([tolerance]);
    expect((await h.call('GET', `/transactions/${s.id}`)).body.transaction).toMatchObject({ transaction_amount: '10.00', auth_amount: '10.00' });
    const ok = await put(s.id, { action: 'edit', tip_amount: '2.00' });
    expect(ok.body.transaction).toMatchObject({ transaction_amount: '12.00', auth_amount: '12.00', tip_amount: '2.00' });
    // Measured from the approval, not from the last edit: edits never compound.
    const again = await put(s.id, { action: 'edit', tip_amount: '2.01' });
    expect(again.status).toBe(422);
    expect(again.body.errors.tip_amount).toEqual([tolerance]);
    expect((await refund(s.id, '12.01')).status).toBe(422);
    expect((await refund(s.id, '12.00')).status).toBe(201);
    expect(refundedCents(s.id)).toBe(1200);
  });

  it('a partial reversal lowers the approval the tolerance is measured from', async () => {
    const s = (await post({ transaction_amount: '50.00' })).body.transaction;
    await put(s.id, { action: 'partialreversal', transaction_amount: '20.00' });
    const over = await put(s.id, { action: 'edit', tip_amount: '4.01' });
    expect(over.body.errors.tip_amount).toEqual([PAY_MSG.TIP_OVER_TOLERANCE.replace('{max}', '24.00').replace('{approved}', '20.00')]);
    const ok = await put(s.id, { action: 'edit', tip_amount: '4.00' });
    expect(ok.body.transaction).toMatchObject({ transaction_amount: '24.00', auth_amount: '24.00' });
  });

  /**
   * The finding: sale 10.00 → tip 2.00 (12.00) → partial reversal to 11.99 → tip 4.00 … six
   * cycles reached 29.70 on a 10.00 approval, each step 200. The bound is the issuer's
   * approval (kept apart from what a reversal leaves) plus the tolerance of THAT approval.
   */
  const chain = async (id: string, approved: string) => {
    const tolerance = PAY_MSG.TIP_OVER_TOLERANCE.replace('{max}', '12.00').replace('{approved}', approved);
    let amount = 1000;
    for (let cycle = 0; cycle < 6; cycle++) {
      const raised = await put(id, { action: 'edit', tip_amount: (2 + cycle * 2).toFixed(2) });
      if (cycle === 0) {
        expect(raised.status).toBe(200);
        amount = 1200;
      } else {
        expect(raised.status, `cycle ${cycle}`).toBe(422);
        expect(raised.body.errors.tip_amount).toEqual([tolerance]);
      }
      amount -= 1;
      expect((await put(id, { action: 'partialreversal', transaction_amount: (amount / 100).toFixed(2) })).status).toBe(200);
    }
    const row = (await h.call('GET', `/transactions/${id}`)).body.transaction;
    expect(Number(row.auth_amount)).toBeLessThanOrEqual(12);
    expect(row.auth_amount).toBe('11.94');
  };

  it('cannot be chained with partial reversals past the tolerance of the original approval (was 29.70 on 10.00)', async () => {
    const s = (await post({ transaction_amount: '10.00' })).body.transaction;
    await chain(s.id, '10.00');
  });

  it('cannot be chained after an authcomplete either', async () => {
    const a = (await post({ action: 'authonly', transaction_amount: '10.00' })).body.transaction;
    expect((await put(a.id, { action: 'authcomplete' })).body.transaction).toMatchObject({ status_id: 101, auth_amount: '10.00' });
    await chain(a.id, '10.00');
  });

  it('an authincrement is a new approval: the tolerance is on the approved total, never on a tip', async () => {
    const a = (await post({ action: 'authonly', transaction_amount: '10.00' })).body.transaction;
    // A tip on the authorization raises its amount, not what the issuer approved.
    expect((await put(a.id, { action: 'edit', tip_amount: '2.00' })).body.transaction).toMatchObject({ transaction_amount: '12.00', auth_amount: '10.00' });
    // 2.01 is the sandbox's partial approval: the issuer adds 1.00 (approved total 11.00).
    expect((await put(a.id, { action: 'authincrement', transaction_amount: '2.01' })).body.transaction).toMatchObject({ transaction_amount: '14.01', auth_amount: '11.00' });
    expect((await put(a.id, { action: 'authcomplete', transaction_amount: '11.00', tip_amount: '2.00', subtotal_amount: '9.00' })).status).toBe(200);
    // 11.00 + 20% = 13.20, whatever reversals come between.
    const tolerance = PAY_MSG.TIP_OVER_TOLERANCE.replace('{max}', '13.20').replace('{approved}', '11.00');
    expect((await put(a.id, { action: 'edit', tip_amount: '4.21' })).body.errors.tip_amount).toEqual([tolerance]);
    expect((await put(a.id, { action: 'edit', tip_amount: '4.20' })).body.transaction).toMatchObject({ transaction_amount: '13.20', auth_amount: '13.20' });
    expect((await put(a.id, { action: 'partialreversal', transaction_amount: '13.19' })).status).toBe(200);
    const over = await put(a.id, { action: 'edit', tip_amount: '6.20' });
    expect(over.status).toBe(422);
    expect(over.body.errors.tip_amount).toEqual([tolerance]);
    expect((await h.call('GET', `/transactions/${a.id}`)).body.transaction).toMatchObject({ transaction_amount: '13.19', auth_amount: '13.19' });
  });

  it('after a refund cannot take the sale below what was refunded', async () => {
    const s = (await post({ transaction_amount: '50.00', tip_amount: '20.00' })).body.transaction;
    expect((await refund(s.id, '40.00')).status).toBe(201);
    const edit = await put(s.id, { action: 'edit', tip_amount: '0.00' });
    expect(edit.status).toBe(422);
    expect(edit.body.errors.tip_amount).toEqual([PAY_MSG.TIP_BELOW_REFUNDED.replace('{refunded}', '40.00')]);
    const row = (await h.call('GET', `/transactions/${s.id}`)).body.transaction;
    expect(row).toMatchObject({ transaction_amount: '50.00', auth_amount: '50.00', tip_amount: '20.00' });
  });

  it('on a partial approval never raise the approved part', async () => {
    const s = (await post({ transaction_amount: '2.01' })).body.transaction;
    const tip = await put(s.id, { action: 'edit', tip_amount: '3.00' });
    expect(tip.body.transaction).toMatchObject({ transaction_amount: '5.01', auth_amount: '1.00' });
    expect((await refund(s.id, '1.01')).status).toBe(422);
  });
});

describe('a refund of an earlier transaction', () => {
  it('goes back to that card only: account data beside previous_transaction_id(_api_id) is 422 and nothing moves', async () => {
    const s = (await post({ transaction_amount: '30.00', transaction_api_id: 'linked-refund-sale' })).body.transaction;
    const other = { account_number: '5454545454545454', exp_date: EXP };
    const vault = (await h.call('POST', '/accountvaults', { accountvault: { location_id: s.location_id, payment_method: 'cc', account_number: '5454545454545454', exp_date: EXP } })).body.accountvault;
    const tries: Record<string, unknown>[] = [
      { previous_transaction_id: s.id, ...other },
      { previous_transaction_api_id: 'linked-refund-sale', ...other },
      { previous_transaction_id: s.id, account_vault_id: vault.id },
      { previous_transaction_id: s.id, track_data: ';5454545454545454=30121010000000000000?' },
    ];
    for (const extra of tries) {
      const r = await h.call('POST', '/transactions', { transaction: { action: 'refund', transaction_amount: '30.00', ...extra } });
      expect(r.status, JSON.stringify(extra)).toBe(422);
      expect(Object.values(r.body.errors).flat()).toContain(PAY_MSG.PREVIOUS_WITH_ACCOUNT);
    }
    expect(refundedCents(s.id)).toBe(0);
    const rows = h.engine.db.prepare('SELECT COUNT(*) AS n FROM transactions WHERE previous_transaction_id = ?').get(s.id) as { n: number };
    expect(rows.n).toBe(0);
    // Without account data it refunds the original card.
    const ok = await refund(s.id, '30.00');
    expect(ok.body.transaction).toMatchObject({ status_id: 111, last_four: '1111' });
  });
});

describe('voids', () => {
  it('voiding a refund gives back exactly what it refunded', async () => {
    const s = (await post({ transaction_amount: '2.01' })).body.transaction;
    const r = (await refund(s.id, '0.60')).body.transaction;
    expect(refundedCents(s.id)).toBe(60);
    expect((await put(r.id, { action: 'void' })).status).toBe(200);
    expect(refundedCents(s.id)).toBe(0);
    expect((await put(r.id, { action: 'void' })).status).toBe(422);
    expect(refundedCents(s.id)).toBe(0);
  });
});

describe('authincrement', () => {
  it('is answered by the simulated issuer and bounded by the amount limits', async () => {
    const a = (await post({ action: 'authonly', transaction_amount: '20.00' })).body.transaction;
    const deny = await put(a.id, { action: 'authincrement', transaction_amount: '5.00' });
    expect(deny.status).toBe(422);
    expect(deny.body.errors.transaction_amount).toEqual([PAY_MSG.AUTHINCREMENT_DECLINED.replace('{verbiage}', 'DECLINE')]);
    const partial = await put(a.id, { action: 'authincrement', transaction_amount: '2.01' });
    expect(partial.body.transaction).toMatchObject({ transaction_amount: '22.01', auth_amount: '21.00' });
    const noPartial = await put(a.id, { action: 'authincrement', transaction_amount: '2.01', allow_partial_authorization_override: 0 });
    expect(noPartial.status).toBe(422);
    const huge = await put(a.id, { action: 'authincrement', transaction_amount: '999999999.99' });
    expect(huge.status).toBe(422);
    expect(huge.body.errors.transaction_amount).toEqual([PAY_MSG.AMOUNT_TOO_LARGE]);
    const ok = await put(a.id, { action: 'authincrement', transaction_amount: '4.00' });
    expect(ok.body.transaction).toMatchObject({ transaction_amount: '26.01', auth_amount: '25.00' });
  });
});
