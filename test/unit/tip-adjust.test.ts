/**
 * Tip adjust after the authorization (issue 21, point 10b), through the core against the real
 * engine and SQLite: the tip written on the signed slip is added to an approved, unsettled
 * card sale (the v2 interface's `edit` with tip_amount), up to the engine's tolerance (20 %
 * over the approved amount); over it, the engine's refusal is read out and nothing changes.
 * A tip lowered is money not collected: a manager's (a cashier's with a manager's PIN). Each
 * adjust is in the audit log; the adjusted tip is in the view (receipt), the X report and the
 * batch totals; once the batch settles, the tip can no longer be adjusted.
 */
import { describe, expect, it } from 'vitest';
import { TIP_ADJUST_ERRORS } from '../../electron/core/transactions/tip-adjust';
import { useCoreHarness, value } from '../helpers/core-harness';

const h = useCoreHarness('ringup-tip-adjust-');
const card = { number: '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' };
let n = 0;
let morganId = '';

const engineAmounts = (id: string) => {
  const row = h.engineRow('SELECT amount, auth_amount, doc FROM transactions WHERE id = ?', id)!;
  return { amount: Number(row.amount), auth: Number(row.auth_amount), tip: (JSON.parse(String(row.doc)) as { tip_amount?: string }).tip_amount };
};

async function cashierSale(subtotalCents: number): Promise<string> {
  await h.signInAs('Casey', '0000');
  const sale = value(await h.call('sale:charge', { subtotalCents, taxCents: 0, tipCents: 0, card, clientRef: `tip-${n++}` }));
  expect(sale.approved).toBe(true);
  return sale.transaction.id;
}

describe('the tip from the signed slip is added before the batch settles', () => {
  it('setup', async () => {
    await h.signInAs('Morgan', '1234');
    morganId = value(await h.call('auth:users')).users.find((u) => u.name === 'Morgan')!.id;
  });

  it('a cashier adds the tip: the sale, the engine, the audit log, the X report and the batch all carry it', async () => {
    const id = await cashierSale(2_000);
    const view = value(await h.call('transactions:adjust-tip', { id, tipCents: 300 })).transaction;
    expect(view).toMatchObject({ amountCents: 2_300, tipCents: 300, state: 'approved' });
    expect(engineAmounts(id)).toEqual({ amount: 2_300, auth: 2_300, tip: '3.00' });
    // Asking again for the same tip changes nothing and says so.
    const same = await h.call('transactions:adjust-tip', { id, tipCents: 300 });
    expect(!same.ok && same.error.message).toBe(TIP_ADJUST_ERRORS.unchanged);

    await h.signInAs('Morgan', '1234');
    const audit = value(await h.call('audit:list', { kind: 'tip-adjust', page: 1 })).rows;
    expect(audit.find((a) => a.transactionId === id)).toMatchObject({ userName: 'Casey', amountCents: 300, detail: 'tip $0.00 → $3.00; the sale is now $23.00' });
    const x = value(await h.call('reports:x'));
    expect(x.totals.tipsCents).toBe(300);
    expect(x.totals.sales.cents).toBe(2_300);
    const open = value(await h.call('batches:list')).open!;
    const batch = value(await h.call('batches:summary', { batchId: open.id }));
    expect(batch.totals.tipsCents).toBe(300);
    expect(batch.totals.sales.cents).toBe(2_300);
  });

  it('over the tolerance the refusal is read out and nothing changes; at the tolerance it is taken', async () => {
    const id = await cashierSale(1_000);
    const over = await h.call('transactions:adjust-tip', { id, tipCents: 201 });
    expect(over.ok).toBe(false);
    expect(!over.ok && over.error.message).toMatch(/at most \$?12\.00 \(20% over the approved \$?10\.00\)/);
    expect(engineAmounts(id)).toMatchObject({ amount: 1_000, auth: 1_000 });
    expect(value(await h.call('transactions:adjust-tip', { id, tipCents: 200 })).transaction).toMatchObject({ amountCents: 1_200, tipCents: 200 });
  });

  it('two windows adding the same tip at once add it once: one is taken, the other hears it is there already', async () => {
    const id = await cashierSale(1_200);
    const [a, b] = await Promise.all([h.call('transactions:adjust-tip', { id, tipCents: 180 }), h.call('transactions:adjust-tip', { id, tipCents: 180 })]);
    expect([a.ok, b.ok].sort()).toEqual([false, true]);
    expect([a, b].find((r) => !r.ok)).toMatchObject({ error: { message: TIP_ADJUST_ERRORS.unchanged } });
    expect(engineAmounts(id)).toEqual({ amount: 1_380, auth: 1_380, tip: '1.80' });
  });

  it("a cashier lowers a tip only with a manager's PIN; the audit names both", async () => {
    const id = await cashierSale(1_500);
    value(await h.call('transactions:adjust-tip', { id, tipCents: 250 }));
    const plain = await h.call('transactions:adjust-tip', { id, tipCents: 100 });
    expect(!plain.ok && plain.error.code).toBe('approval_needed');
    expect(!plain.ok && plain.error.message).toBe(TIP_ADJUST_ERRORS.lowerNeedsManager);
    expect(engineAmounts(id).tip).toBe('2.50');
    const lowered = value(await h.call('transactions:adjust-tip', { id, tipCents: 100, approval: { managerId: morganId, pin: '1234' } })).transaction;
    expect(lowered).toMatchObject({ amountCents: 1_600, tipCents: 100 });

    await h.signInAs('Morgan', '1234');
    const audit = value(await h.call('audit:list', { kind: 'tip-adjust', page: 1 })).rows.filter((a) => a.transactionId === id);
    expect(audit[0]).toMatchObject({ userName: 'Casey', detail: 'tip $2.50 → $1.00; the sale is now $16.00, approved by Morgan with their PIN' });
  });

  it('a partial approval, a voided sale and a settled batch are refused in words', async () => {
    const partial = await cashierSale(201);
    const p = await h.call('transactions:adjust-tip', { id: partial, tipCents: 20 });
    expect(!p.ok && p.error.message).toBe(TIP_ADJUST_ERRORS.notAdjustable);

    const voided = await cashierSale(700);
    await h.signInAs('Morgan', '1234');
    value(await h.call('transactions:void', { id: voided }));
    const v = await h.call('transactions:adjust-tip', { id: voided, tipCents: 50 });
    expect(!v.ok && v.error.message).toBe(TIP_ADJUST_ERRORS.notAdjustable);

    const settled = await cashierSale(900);
    await h.signInAs('Morgan', '1234');
    const open = value(await h.call('batches:list')).open!;
    expect(value(await h.call('batches:settle', { batchId: open.id })).settled).toBe(true);
    const s = await h.call('transactions:adjust-tip', { id: settled, tipCents: 50 });
    expect(!s.ok && s.error.message).toBe(TIP_ADJUST_ERRORS.settled);
  });
});
