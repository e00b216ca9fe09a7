/**
 * A manager's approval at the cart, through the core against the real engine and SQLite:
 * the discount rule holds after every edit that changes what a discount is a share of
 * (a cashier cannot reach 71 % off by removing lines or lowering quantities after a
 * small discount was accepted) and again before any tender; an approval covers the share
 * it was given for, not a larger one. Cancelling a cashier's split sale whose card was
 * fully approved takes a manager's PIN at that counter (void before settlement, refund after).
 */
import { describe, expect, it } from 'vitest';
import { TENDER_COPY } from '../../electron/core/cart/tenders';
import type { CatalogueItem } from '../../shared/ipc/catalogue';
import { clearCart, useCoreHarness, value } from '../helpers/core-harness';
import { embeddedClient } from '../helpers/embedded-credentials';

const h = useCoreHarness('ringup-cart-approval-');
const card = { number: '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' };
let n = 0;
const ref = () => `approval-${Date.now().toString(36)}-${n++}`;
let coffee: CatalogueItem;
let beans: CatalogueItem;
let morganId: string;

const freshCart = () => clearCart(h);

describe('the discount rule after every edit', () => {
  it('setup: a catalogue and the 20 % limit', async () => {
    await h.signInAs('Morgan', '1234');
    value(await h.call('catalogue:import-csv', { csv: 'name,price,sku\nCoffee,3.50,COF\nBeans,50.00,BEA\n' }));
    const items = value(await h.call('catalogue:list', {}));
    coffee = items.find((i) => i.sku === 'COF')!;
    beans = items.find((i) => i.sku === 'BEA')!;
    morganId = value(await h.call('auth:users')).users.find((u) => u.name === 'Morgan')!.id;
    await h.signInAs('Casey', '0000');
  });

  it('removing a line that would leave $10 off $14 (71 %) needs a manager; without one the line stays and the cash is refused', async () => {
    await freshCart();
    value(await h.call('cart:add-item', { itemId: coffee.id, quantity: 4 }));
    value(await h.call('cart:add-item', { itemId: beans.id }));
    // $10.00 off $64.00 is 15.6 %: a cashier may give it.
    const given = value(await h.call('cart:set-cart-discount', { discount: { kind: 'amount', cents: 1_000 } }));
    expect(given.discountApprovedBy).toBeNull();
    const beansLine = given.lines.find((l) => l.itemId === beans.id)!;
    const removed = await h.call('cart:remove-line', { lineId: beansLine.id });
    expect(!removed.ok && removed.error.code).toBe('approval_needed');
    expect(!removed.ok && removed.error.message).toBe(TENDER_COPY.shareGrew(20, 71.4));
    const after = value(await h.call('cart:current'));
    expect(after.lines).toHaveLength(2); // the removal was not half-applied
    // A manager's PIN at the counter lets the removal through, and is recorded.
    const approved = value(await h.call('cart:remove-line', { lineId: beansLine.id, approval: { managerId: morganId, pin: '1234' } }));
    expect(approved.totals.largestDiscountBasisPoints).toBe(7_143);
    expect(approved.discountApprovedBy).toBe('Morgan');
    expect(value(await h.call('cart:pay-cash', { tenderedCents: approved.totals.totalCents })).status).toBe('paid');
  });

  it('lowering the quantity under a line amount discount is checked the same way', async () => {
    await freshCart();
    const cart = value(await h.call('cart:add-item', { itemId: coffee.id, quantity: 10 }));
    const line = cart.lines[0]!.id;
    value(await h.call('cart:set-line-discount', { lineId: line, discount: { kind: 'amount', cents: 500 } })); // $5 off $35: 14.3 %
    const lower = await h.call('cart:set-quantity', { lineId: line, quantity: 2 }); // $5 off $7: 71.4 %
    expect(!lower.ok && lower.error.code).toBe('approval_needed');
    expect(value(await h.call('cart:current')).lines[0]!.quantity).toBe(10);
    const wrong = await h.call('cart:set-quantity', { lineId: line, quantity: 2, approval: { managerId: morganId, pin: '9999' } });
    expect(!wrong.ok && wrong.error.message).toBe(TENDER_COPY.approvalRefused);
    expect(value(await h.call('cart:current')).lines[0]!.quantity).toBe(10);
  });

  it('an approval given for a smaller share does not cover a larger one', async () => {
    await freshCart();
    const cart = value(await h.call('cart:add-item', { itemId: coffee.id, quantity: 10 }));
    const line = cart.lines[0]!.id;
    // 30 % with Morgan's PIN…
    value(await h.call('cart:set-line-discount', { lineId: line, discount: { kind: 'amount', cents: 1_050 }, approval: { managerId: morganId, pin: '1234' } }));
    // …still covers a smaller share (15 of 35 → 30 %, unchanged quantity) but not 10.50 off 14.00 (75 %).
    const lower = await h.call('cart:set-quantity', { lineId: line, quantity: 4 });
    expect(!lower.ok && lower.error.code).toBe('approval_needed');
    // More of the item lowers the share: no approval asked.
    expect(value(await h.call('cart:set-quantity', { lineId: line, quantity: 12 })).lines[0]!.quantity).toBe(12);
  });

  it('a cart whose discount is above the limit without an approval takes no tender', async () => {
    await freshCart();
    await h.signInAs('Morgan', '1234');
    value(await h.call('catalogue:set-rules', { discountApprovalPercent: 50 }));
    await h.signInAs('Casey', '0000');
    value(await h.call('cart:add-item', { itemId: coffee.id, quantity: 2 }));
    value(await h.call('cart:set-cart-discount', { discount: { kind: 'percent', basisPoints: 4_000 } })); // 40 %: fine under 50
    await h.signInAs('Morgan', '1234');
    value(await h.call('catalogue:set-rules', { discountApprovalPercent: 20 })); // the limit is lowered meanwhile
    await h.signInAs('Casey', '0000');
    for (const r of [
      await h.call('cart:pay-cash', { tenderedCents: 10_000 }),
      await h.call('cart:pay-card', { card, clientRef: ref() }),
    ]) {
      expect(!r.ok && r.error.code).toBe('approval_needed');
    }
    expect(value(await h.call('cart:current')).tenders).toEqual([]);
    // The manager approves the cart as it is; then it is paid.
    const ok = value(await h.call('cart:approve', { approval: { managerId: morganId, pin: '1234' } }));
    expect(ok.discountApprovedBy).toBe('Morgan');
    expect(value(await h.call('cart:pay-cash', { tenderedCents: 10_000 })).status).toBe('paid');
  });
});

describe("cancelling a cashier's split sale", () => {
  it('needs a manager PIN once a card was fully approved; with it the card is voided and the cash given back', async () => {
    await freshCart();
    const cart = value(await h.call('cart:add-item', { itemId: beans.id }));
    expect(cart.totals.totalCents).toBe(5_413); // 50.00 + 8.25 %
    value(await h.call('cart:pay-cash', { tenderedCents: 1_000 }));
    const part = value(await h.call('cart:pay-card', { card, amountCents: 2_000, clientRef: ref() }));
    expect(part).toMatchObject({ status: 'open', balanceCents: 2_413 });
    const txn = part.tenders.find((t) => t.kind === 'card')!.transactionId!;

    const plain = await h.call('cart:cancel', { confirmed: true });
    expect(!plain.ok && plain.error.code).toBe('approval_needed');
    expect(!plain.ok && plain.error.message).toBe(TENDER_COPY.cancelNeedsManager);
    const wrong = await h.call('cart:cancel', { confirmed: true, approval: { managerId: morganId, pin: '4321' } });
    expect(!wrong.ok && wrong.error.code).toBe('approval_refused');
    expect(value(await h.call('cart:current'))).toMatchObject({ id: cart.id, status: 'open' });

    const cancelled = value(await h.call('cart:cancel', { confirmed: true, approval: { managerId: morganId, pin: '1234' } }));
    expect(cancelled).toMatchObject({ id: cart.id, status: 'cancelled' });
    expect(cancelled.tenders.map((t) => t.status)).toEqual(['reversed', 'reversed']);
    const engine = embeddedClient(h.dir);
    expect(Number((await engine.getTransaction(txn)).status_id)).toBe(201); // voided at the engine
    expect(value(await h.call('cart:current')).id).not.toBe(cart.id);
  });

  it('a card settled meanwhile is refunded instead of voided', async () => {
    await freshCart();
    const cart = value(await h.call('cart:add-item', { itemId: beans.id }));
    const part = value(await h.call('cart:pay-card', { card, amountCents: 3_000, clientRef: ref() }));
    const txn = part.tenders[0]!.transactionId!;
    await h.signInAs('Morgan', '1234');
    const batchId = value(await h.call('batches:list')).open!.id;
    expect(value(await h.call('batches:settle', { batchId })).settled).toBe(true);
    await h.signInAs('Casey', '0000');
    const cancelled = value(await h.call('cart:cancel', { confirmed: true, approval: { managerId: morganId, pin: '1234' } }));
    expect(cancelled).toMatchObject({ id: cart.id, status: 'cancelled' });
    const engine = embeddedClient(h.dir);
    const refunds = await engine.listTransactions({ previous_transaction_id: txn }, 1, 10);
    expect(refunds.items.map((t) => t.transaction_amount)).toEqual(['30.00']);
    expect(Number((await engine.getTransaction(txn)).status_id)).not.toBe(201); // settled: not voided
  });
});
