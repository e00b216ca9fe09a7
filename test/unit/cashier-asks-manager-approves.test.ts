/**
 * Cashiers ask, managers approve (issue 21, point 12), through the core against the real
 * engine and SQLite: a cashier's refund or void runs only with a manager's PIN, checked in
 * the core; without one, or with a wrong one, nothing reaches the gateway. Approved, it is
 * the manager's refund or void (its clerk record, and the engine's admin user sends it),
 * and the audit row names the cashier who asked and the manager who approved. The refund
 * limit holds whoever approves.
 */
import { describe, expect, it } from 'vitest';
import { SALE_ERRORS } from '../../electron/core/sales/sales';
import { useCoreHarness, value } from '../helpers/core-harness';

const h = useCoreHarness('ringup-cashier-asks-');
const card = { number: '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' };
let n = 0;
let morganId = '';
let caseyId = '';

const engineStatus = (id: string) => Number(h.engineRow('SELECT status_id FROM transactions WHERE id = ?', id)!.status_id);
const refundsOf = (id: string) => Number(h.engineRow('SELECT COUNT(*) AS n FROM transactions WHERE previous_transaction_id = ?', id)!.n);

async function cashierSale(cents: number): Promise<string> {
  await h.signInAs('Casey', '0000');
  const sale = value(await h.call('sale:charge', { subtotalCents: cents, taxCents: 0, tipCents: 0, card, clientRef: `asks-${n++}` }));
  expect(sale.approved).toBe(true);
  return sale.transaction.id;
}

describe("a cashier's refund or void takes a manager's PIN, checked in the core", () => {
  it('setup', async () => {
    await h.signInAs('Morgan', '1234');
    const people = value(await h.call('auth:users')).users;
    morganId = people.find((u) => u.name === 'Morgan')!.id;
    caseyId = people.find((u) => u.name === 'Casey')!.id;
  });

  it('without a PIN, with a wrong one or with a cashier as the approver, nothing is refunded or voided', async () => {
    const id = await cashierSale(1_500);
    const plain = await h.call('transactions:refund', { id, amountCents: 500 });
    expect(!plain.ok && plain.error.code).toBe('approval_needed');
    expect(!plain.ok && plain.error.message).toBe(SALE_ERRORS.refundNeedsManager);
    const wrong = await h.call('transactions:refund', { id, amountCents: 500, approval: { managerId: morganId, pin: '9999' } });
    expect(!wrong.ok && wrong.error.code).toBe('approval_refused');
    const notManager = await h.call('transactions:void', { id, approval: { managerId: caseyId, pin: '0000' } });
    expect(!notManager.ok && notManager.error.code).toBe('approval_refused');
    const plainVoid = await h.call('transactions:void', { id });
    expect(!plainVoid.ok && plainVoid.error.message).toBe(SALE_ERRORS.voidNeedsManager);
    expect(engineStatus(id)).toBe(101);
    expect(refundsOf(id)).toBe(0);
  });

  it("with the manager's PIN the refund is the manager's, never above what is left, and the audit names both", async () => {
    const id = await cashierSale(2_000);
    const approval = { managerId: morganId, pin: '1234' };
    const r = value(await h.call('transactions:refund', { id, amountCents: 1_200, approval }));
    expect(r.approved).toBe(true);
    expect(r.refund.clerkName).toBe('Morgan');
    expect(r.original.refundableCents).toBe(800);
    // Over what is left: refused in words, whoever approves.
    const over = await h.call('transactions:refund', { id, amountCents: 801, approval });
    expect(!over.ok && over.error.code).toBe('bad_request');
    expect(refundsOf(id)).toBe(1);
    // The window is still the cashier's.
    expect(value(await h.call('auth:session'))?.user.name).toBe('Casey');

    await h.signInAs('Morgan', '1234');
    const audit = value(await h.call('audit:list', { kind: 'refund', page: 1 })).rows;
    expect(audit.find((a) => a.transactionId === r.refund.id)).toMatchObject({ userName: 'Casey', amountCents: 1_200 });
    expect(audit.find((a) => a.transactionId === r.refund.id)!.detail).toContain('approved by Morgan with their PIN');
  });

  it("with the manager's PIN the void is the manager's and the audit names both", async () => {
    const id = await cashierSale(1_750);
    const v = value(await h.call('transactions:void', { id, approval: { managerId: morganId, pin: '1234' } }));
    expect(v.state).toBe('voided');
    expect(v.voidedBy).toBe('Morgan');
    expect(engineStatus(id)).toBe(201);

    await h.signInAs('Morgan', '1234');
    const audit = value(await h.call('audit:list', { kind: 'void', page: 1 })).rows;
    expect(audit.find((a) => a.transactionId === id)).toMatchObject({ userName: 'Casey', amountCents: 1_750, detail: 'voided before settlement, approved by Morgan with their PIN' });
  });

  it('a manager signed in needs no PIN, and the audit names only them', async () => {
    const id = await cashierSale(900);
    await h.signInAs('Morgan', '1234');
    value(await h.call('transactions:void', { id }));
    const audit = value(await h.call('audit:list', { kind: 'void', page: 1 })).rows;
    expect(audit.find((a) => a.transactionId === id)).toMatchObject({ userName: 'Morgan', detail: 'voided before settlement' });
  });
});
