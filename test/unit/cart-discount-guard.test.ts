/**
 * A discount never more than what it discounts, and a comp only by a manager (issue 21,
 * point 2), through the core against the real engine and SQLite — the calls a crafted IPC
 * client could make, so the refusals do not rest on the screen: $30 off a $17.25 sale is
 * refused (cashier or manager, with or without a PIN), 100 % off is refused as a discount,
 * an edit that shrinks what an amount discount is taken from is refused, and `cart:comp`
 * takes a manager's PIN and closes a whole-sale comp at $0.00.
 */
import { describe, expect, it } from 'vitest';
import { DISCOUNT_COPY } from '../../shared/cart/discount-guard';
import { clearCart, useCoreHarness, value } from '../helpers/core-harness';

const h = useCoreHarness('ringup-discount-guard-');
let morganId: string;
const pin = () => ({ managerId: morganId, pin: '1234' });

/** A fresh cart: a $17.25 cake (no tax) and, when asked, a $3.50 coffee (8.25 % tax). */
async function cakeCart(withCoffee = false) {
  await clearCart(h);
  let cart = value(await h.call('cart:add-open', { name: 'Cake', amountCents: 1_725, taxCategory: 'exempt' }));
  if (withCoffee) cart = value(await h.call('cart:add-open', { name: 'Coffee', amountCents: 350 }));
  return cart;
}

describe('a discount is at most what it discounts', () => {
  it('setup', async () => {
    morganId = value(await h.call('auth:users')).users.find((u) => u.name === 'Morgan')!.id;
    await h.signInAs('Casey', '0000');
  });

  it('$30 off a $17.25 sale is refused, for a cashier with a manager PIN and for a manager; the cart keeps no discount', async () => {
    await cakeCart();
    for (const approval of [undefined, pin()]) {
      const r = await h.call('cart:set-cart-discount', { discount: { kind: 'amount', cents: 3_000 }, ...(approval ? { approval } : {}) });
      expect(r.ok ? 'applied' : r.error.message).toBe(DISCOUNT_COPY.over(DISCOUNT_COPY.wholeSale, 3_000, 1_725));
    }
    const cart = value(await h.call('cart:current'));
    expect(cart.cartDiscount).toBeNull();
    expect(cart.totals.totalCents).toBe(1_725);
    // A manager's own cart: the same refusal (it is not a question of approval).
    await h.signInAs('Morgan', '1234');
    await cakeCart();
    const r = await h.call('cart:set-cart-discount', { discount: { kind: 'amount', cents: 3_000 } });
    await h.signInAs('Casey', '0000');
    expect(r.ok ? 'applied' : r.error.message).toBe(DISCOUNT_COPY.over(DISCOUNT_COPY.wholeSale, 3_000, 1_725));
  });

  it('100 % off, or an amount equal to the sale or a line, is a comp, not a discount', async () => {
    const cart = await cakeCart(true);
    const whole = await h.call('cart:set-cart-discount', { discount: { kind: 'percent', basisPoints: 10_000 }, approval: pin() });
    expect(whole.ok ? 'applied' : whole.error.message).toBe(DISCOUNT_COPY.whole(DISCOUNT_COPY.wholeSale));
    const exact = await h.call('cart:set-cart-discount', { discount: { kind: 'amount', cents: 1_725 + 350 }, approval: pin() });
    expect(exact.ok ? 'applied' : exact.error.message).toBe(DISCOUNT_COPY.whole(DISCOUNT_COPY.wholeSale));
    const line = await h.call('cart:set-line-discount', { lineId: cart.lines[1]!.id, discount: { kind: 'amount', cents: 350 }, approval: pin() });
    expect(line.ok ? 'applied' : line.error.message).toBe(DISCOUNT_COPY.whole('Coffee'));
    const over = await h.call('cart:set-line-discount', { lineId: cart.lines[1]!.id, discount: { kind: 'amount', cents: 400 }, approval: pin() });
    expect(over.ok ? 'applied' : over.error.message).toBe(DISCOUNT_COPY.over('Coffee', 400, 350));
    // A crafted comp through the discount channel is not a discount at all.
    expect((await h.call('cart:set-cart-discount', { discount: { kind: 'comp' } })).ok).toBe(false);
    expect(value(await h.call('cart:current')).totals.totalCents).toBe(1_725 + 350 + 29);
  });

  it('an edit that shrinks what an amount discount is taken from is refused while it would not fit', async () => {
    const cart = await cakeCart(true);
    value(await h.call('cart:set-cart-discount', { discount: { kind: 'amount', cents: 500 }, approval: pin() }));
    const removed = await h.call('cart:remove-line', { lineId: cart.lines[0]!.id, approval: pin() });
    expect(removed.ok ? 'applied' : removed.error.message).toBe(DISCOUNT_COPY.shrinks(DISCOUNT_COPY.wholeSale, 500, 350));
    expect(value(await h.call('cart:current')).lines).toHaveLength(2);
    value(await h.call('cart:set-cart-discount', { discount: null }));
    value(await h.call('cart:set-quantity', { lineId: cart.lines[1]!.id, quantity: 3 }));
    value(await h.call('cart:set-line-discount', { lineId: cart.lines[1]!.id, discount: { kind: 'amount', cents: 800 }, approval: pin() }));
    const fewer = await h.call('cart:set-quantity', { lineId: cart.lines[1]!.id, quantity: 2, approval: pin() });
    expect(fewer.ok ? 'applied' : fewer.error.message).toBe(DISCOUNT_COPY.shrinks('Coffee', 800, 700));
    expect(value(await h.call('cart:current')).lines[1]!.quantity).toBe(3);
  });
});

describe('a comp is its own action and takes a manager', () => {
  it('a cashier without a PIN, or with a wrong one, is refused; nothing is given away', async () => {
    await cakeCart(true);
    const none = await h.call('cart:comp', {});
    expect(!none.ok && [none.error.code, none.error.message]).toEqual(['approval_needed', DISCOUNT_COPY.compNeedsManager(DISCOUNT_COPY.wholeSale)]);
    const wrong = await h.call('cart:comp', { approval: { managerId: morganId, pin: '9999' } });
    expect(!wrong.ok && wrong.error.message).toBe(DISCOUNT_COPY.compRefused);
    expect(value(await h.call('cart:current')).totals.totalCents).toBe(2_104);
  });

  it("a line comped with a manager's PIN: the coffee is free, the rest is paid as usual", async () => {
    const cart = await cakeCart(true);
    const comped = value(await h.call('cart:comp', { lineId: cart.lines[1]!.id, approval: pin() }));
    expect(comped.lines[1]!.discount).toEqual({ kind: 'comp' });
    expect(comped.totals).toMatchObject({ lineDiscountCents: 350, taxCents: 0, totalCents: 1_725 });
    expect(comped.discountApprovedBy).toBe('Morgan');
    expect(value(await h.call('cart:pay-cash', { tenderedCents: 2_000 })).status).toBe('paid');
  });

  it("the whole sale comped with a manager's PIN closes at $0.00, with no payment taken", async () => {
    await cakeCart(true);
    const comped = value(await h.call('cart:comp', { approval: pin() }));
    expect(comped.cartDiscount).toEqual({ kind: 'comp' });
    expect(comped.totals).toMatchObject({ cartDiscountCents: 1_725 + 350, totalCents: 0 });
    expect(comped.status).toBe('paid');
    expect(comped.tenders).toEqual([]);
    expect(value(await h.call('cart:current')).lines).toEqual([]); // a new cart
    // Cart sales lists it, paid by nothing but the comp.
    const row = value(await h.call('cart:sales', {})).rows.find((r) => r.id === comped.id);
    expect(row).toMatchObject({ status: 'paid', totalCents: 0, paidBy: DISCOUNT_COPY.compLabel });
  });
});
