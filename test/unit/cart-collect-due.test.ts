/**
 * A `due` cart is collected (issue 20, point 4), through the core against the real engine and
 * SQLite. A cashier voids the card part of a paid cart with a manager's PIN: the cart is due by
 * what that card paid. It is listed in Cart sales with what is due; `cart:collect` makes it the
 * signed-in counter user's cart to tender (only when their own cart is empty, and only one
 * collector at a time); the normal tenders take what is due, never more, the hard cap across
 * card payments still holds, and it is paid again. Cart, drawer and gateway agree to the cent.
 */
import { describe, expect, it } from 'vitest';
import { TENDER_COPY } from '../../electron/core/cart/tenders';
import type { CartView } from '../../shared/ipc/cart';
import { TENDER_MESSAGES } from '../../shared/cart/tender-machine';
import { clearCart, useCoreHarness, value } from '../helpers/core-harness';

const h = useCoreHarness('ringup-cart-collect-due-');
const card = { number: '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' };
let n = 0;
const ref = () => `collect-due-${n++}`;
let morganId: string;

const engineStatus = (id: string) => Number(h.engineRow('SELECT status_id FROM transactions WHERE id = ?', id)!.status_id);
const approvedSum = (c: CartView) => c.tenders.filter((t) => t.status === 'approved').reduce((a, t) => a + t.approvedCents, 0);

/** As Casey: a $10.00 line (8.25 % tax: $10.83), $2.01 of it on a card (the engine approves $1.00), the rest in cash; then the card part voided with Morgan's PIN. */
async function dueCart(): Promise<{ cart: CartView; transactionId: string }> {
  await h.signInAs('Casey', '0000');
  await clearCart(h);
  value(await h.call('cart:add-open', { name: 'Ten', amountCents: 1_000, taxCategory: 'standard' }));
  const part = value(await h.call('cart:pay-card', { card, amountCents: 201, clientRef: ref() }));
  const transactionId = part.tenders.find((t) => t.kind === 'card')!.transactionId!;
  expect(value(await h.call('cart:pay-cash', { tenderedCents: 983 })).status).toBe('paid');
  value(await h.call('sale:void-partial', { id: transactionId, approval: { managerId: morganId, pin: '1234' } }));
  const cart = value(await h.call('cart:view', { cartId: part.id }));
  expect(cart).toMatchObject({ status: 'due', balanceCents: 100 });
  return { cart, transactionId };
}

describe('a due cart is collected through the normal tenders and is paid again', () => {
  it('setup', async () => {
    await h.signInAs('Morgan', '1234');
    morganId = value(await h.call('auth:users')).users.find((u) => u.name === 'Morgan')!.id;
  });

  it('Cart sales lists the due cart with what is due; collecting it while one’s own cart holds a sale is refused and changes nothing', async () => {
    const { cart } = await dueCart();
    const listed = value(await h.call('cart:sales', { page: 1 })).rows.find((r) => r.id === cart.id);
    expect(listed).toMatchObject({ status: 'due', dueCents: 100, totalCents: 1_083 });

    await h.signInAs('Morgan', '1234');
    await clearCart(h);
    value(await h.call('cart:add-open', { name: 'Mine', amountCents: 500, taxCategory: 'standard' }));
    const busy = await h.call('cart:collect', { cartId: cart.id });
    expect(busy).toMatchObject({ ok: false, error: { code: 'conflict', message: TENDER_COPY.collectBusy } });
    expect(value(await h.call('cart:current')).lines.map((l) => l.name)).toEqual(['Mine']);
    expect(value(await h.call('cart:view', { cartId: cart.id }))).toMatchObject({ status: 'due', balanceCents: 100 });
    value(await h.call('cart:clear'));
  });

  it('collected: the cart becomes the counter user’s cart; one collector at a time; over-collecting on a card is refused; cash takes what is due, the rest is change; paid', async () => {
    const { cart, transactionId } = await dueCart();
    await h.signInAs('Morgan', '1234');
    const before = value(await h.call('reports:x'));
    await h.signInAs('Casey', '0000');

    const collected = value(await h.call('cart:collect', { cartId: cart.id }));
    expect(collected).toMatchObject({ id: cart.id, status: 'due', balanceCents: 100 });
    expect(value(await h.call('cart:current')).id).toBe(cart.id);
    // Collecting twice by the same user answers the same cart.
    expect(value(await h.call('cart:collect', { cartId: cart.id })).id).toBe(cart.id);
    // A manager may take it over (a collector who walked away); the cashier is then told who has it.
    await h.signInAs('Morgan', '1234');
    expect(value(await h.call('cart:collect', { cartId: cart.id })).id).toBe(cart.id);
    await h.signInAs('Casey', '0000');
    expect(value(await h.call('cart:current')).id).not.toBe(cart.id);
    expect(await h.call('cart:collect', { cartId: cart.id })).toMatchObject({ ok: false, error: { code: 'conflict', message: TENDER_COPY.collectTaken('Morgan') } });
    await h.signInAs('Morgan', '1234');
    value(await h.call('cart:put-back'));
    await h.signInAs('Casey', '0000');
    expect(value(await h.call('cart:collect', { cartId: cart.id })).id).toBe(cart.id);
    // Its lines stay as they were sold.
    expect((await h.call('cart:add-open', { name: 'More', amountCents: 100, taxCategory: 'standard' })).ok).toBe(false);
    const over = await h.call('cart:pay-card', { card, amountCents: 101, clientRef: ref() });
    expect(over).toMatchObject({ ok: false, error: { code: 'conflict', message: TENDER_MESSAGES.overCard('$1.00') } });
    // A due cart cannot be cancelled from the counter: its goods are gone, what is owed stays owed.
    expect((await h.call('cart:cancel', { confirmed: true })).ok).toBe(false);

    const paid = value(await h.call('cart:pay-cash', { tenderedCents: 500 }));
    expect(paid).toMatchObject({ id: cart.id, status: 'paid', balanceCents: 0 });
    expect(paid.tenders.at(-1)).toMatchObject({ kind: 'cash', approvedCents: 100, changeCents: 400 });
    expect(approvedSum(paid)).toBe(paid.totals.totalCents);
    // Paid: nothing left to collect, and the counter user's cart is a new, empty one.
    expect(await h.call('cart:collect', { cartId: cart.id })).toMatchObject({ ok: false, error: { code: 'conflict', message: TENDER_COPY.notDue } });
    const next = value(await h.call('cart:current'));
    expect(next.id).not.toBe(cart.id);
    expect(next.lines).toEqual([]);
    expect(value(await h.call('cart:sales', { page: 1 })).rows.find((r) => r.id === cart.id)).toMatchObject({ status: 'paid', dueCents: 0 });

    // The gateway: the voided card is not counted; the drawer: the $9.83 and the $1.00 collected (not the change).
    expect(engineStatus(transactionId)).toBe(201);
    await h.signInAs('Morgan', '1234');
    const after = value(await h.call('reports:x'));
    expect(after.totals.sales).toEqual(before.totals.sales);
    const engine = h.engineRow(`SELECT COUNT(*) AS n, COALESCE(SUM(CAST(json_extract(doc, '$.auth_amount') AS REAL) * 100), 0) AS cents FROM transactions WHERE status_id = 101`)!;
    expect(after.totals.sales).toEqual({ count: Number(engine.n), cents: Math.round(Number(engine.cents)) });
    expect(after.cashTenders!.sales.cents - before.cashTenders!.sales.cents).toBe(100);
  });

  it('a card collects what is due, held to the hard cap for all the cart’s card payments together', async () => {
    // $10.83: $2.01 on a card (the engine approves $1.00), $3.00 on a second card, $6.83 in cash; the $1.00 voided with a PIN: $1.00 due.
    await h.signInAs('Casey', '0000');
    await clearCart(h);
    value(await h.call('cart:add-open', { name: 'Ten', amountCents: 1_000, taxCategory: 'standard' }));
    const part = value(await h.call('cart:pay-card', { card, amountCents: 201, clientRef: ref() }));
    value(await h.call('cart:pay-card', { card, amountCents: 300, clientRef: ref() }));
    expect(value(await h.call('cart:pay-cash', { tenderedCents: 683 })).status).toBe('paid');
    value(await h.call('sale:void-partial', { id: part.tenders[0]!.transactionId!, approval: { managerId: morganId, pin: '1234' } }));

    await h.signInAs('Morgan', '1234');
    const st = value(await h.call('settings:get'));
    // A cap of $3.50 on cards: $3.00 still is, so a $1.00 card is above it; $0.50 is not.
    value(await h.call('settings:update', { ...st, confirmAboveCents: 350, hardCapCents: 350 }));
    await clearCart(h);
    value(await h.call('cart:collect', { cartId: part.id }));
    const capped = await h.call('cart:pay-card', { card, clientRef: ref() });
    expect(capped).toMatchObject({ ok: false, error: { code: 'above_hard_cap', message: TENDER_COPY.cartAboveCap(350, 300) } });
    expect(value(await h.call('cart:pay-card', { card, amountCents: 50, clientRef: ref() }))).toMatchObject({ id: part.id, status: 'due', balanceCents: 50 });
    const paid = value(await h.call('cart:pay-cash', { tenderedCents: 50 }));
    expect(paid).toMatchObject({ id: part.id, status: 'paid', balanceCents: 0 });
    expect(approvedSum(paid)).toBe(paid.totals.totalCents);
    value(await h.call('settings:update', st));
  });

  it('put back: the due cart leaves the counter, still due, for anyone to collect later', async () => {
    const { cart } = await dueCart();
    value(await h.call('cart:collect', { cartId: cart.id }));
    expect(value(await h.call('cart:sales', { page: 1 })).rows.find((r) => r.id === cart.id)).toMatchObject({ status: 'due', collector: 'Casey' });
    const back = value(await h.call('cart:put-back'));
    expect(back.id).not.toBe(cart.id);
    expect(back.status).toBe('open');
    expect(value(await h.call('cart:sales', { page: 1 })).rows.find((r) => r.id === cart.id)).toMatchObject({ status: 'due', dueCents: 100, collector: null });
    expect(await h.call('cart:put-back')).toMatchObject({ ok: false, error: { code: 'conflict', message: TENDER_COPY.notCollecting } });
    await h.signInAs('Morgan', '1234');
    expect(value(await h.call('cart:collect', { cartId: cart.id })).id).toBe(cart.id);
    expect(value(await h.call('cart:pay-cash', { tenderedCents: 100 })).status).toBe('paid');
  });

  it('an unknown cart, or one not due, is refused in words', async () => {
    await h.signInAs('Casey', '0000');
    expect(await h.call('cart:collect', { cartId: 'no-such-cart' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const open = value(await h.call('cart:current'));
    expect(await h.call('cart:collect', { cartId: open.id })).toMatchObject({ ok: false, error: { code: 'conflict', message: TENDER_COPY.notDue } });
  });
});
