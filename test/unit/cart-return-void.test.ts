/**
 * Managers approve what moves money back (issue 20, point 4), through the core against the real
 * engine and SQLite. Voiding a card payment of a paid cart (`sale:void-partial` on its partial
 * approval, `transactions:void` on any) is a cart return: a cashier needs a manager (their PIN at
 * the counter), and is refused in words, with nothing changed at the gateway, without one. Once
 * voided, the cart follows the gateway: it is no longer paid, what that card paid is due, and the
 * cart, the end-of-day report and the engine's transactions agree to the cent.
 */
import { describe, expect, it } from 'vitest';
import { SALE_ERRORS } from '../../electron/core/sales/sales';
import type { CartView } from '../../shared/ipc/cart';
import { clearCart, useCoreHarness, value } from '../helpers/core-harness';

const h = useCoreHarness('ringup-cart-return-void-');
const card = { number: '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' };
let n = 0;
const ref = () => `return-void-${n++}`;
let morganId: string;

/** The engine's status of a transaction: 101 approved, 201 voided. */
const engineStatus = (id: string) => Number(h.engineRow('SELECT status_id FROM transactions WHERE id = ?', id)!.status_id);
const engineDoc = (id: string) => JSON.parse(String(h.engineRow('SELECT doc FROM transactions WHERE id = ?', id)!.doc)) as { auth_amount?: string; transaction_amount: string; tax?: string };

/** A $10.00 line (8.25 % tax: $10.83), $2.01 of it on a card (the engine approves $1.00 of that), the rest in cash: paid. */
async function paidSplitCart(): Promise<{ cart: CartView; transactionId: string }> {
  await clearCart(h);
  value(await h.call('cart:add-open', { name: 'Ten', amountCents: 1_000, taxCategory: 'standard' }));
  const part = value(await h.call('cart:pay-card', { card, amountCents: 201, clientRef: ref() }));
  const tender = part.tenders.find((t) => t.kind === 'card')!;
  expect(tender).toMatchObject({ status: 'approved', requestedCents: 201, approvedCents: 100 });
  const cart = value(await h.call('cart:pay-cash', { tenderedCents: 2_000 }));
  expect(cart).toMatchObject({ status: 'paid', balanceCents: 0 });
  return { cart, transactionId: tender.transactionId! };
}

describe("a card payment of a paid cart is voided only with a manager's approval", () => {
  it('setup', async () => {
    await h.signInAs('Morgan', '1234');
    morganId = value(await h.call('auth:users')).users.find((u) => u.name === 'Morgan')!.id;
  });

  it("a cashier's void of the card part is refused in words and changes nothing, at the gateway or in the cart", async () => {
    await h.signInAs('Casey', '0000');
    const { cart, transactionId } = await paidSplitCart();
    const plain = await h.call('sale:void-partial', { id: transactionId });
    expect(plain.ok).toBe(false);
    expect(!plain.ok && plain.error.code).toBe('approval_needed');
    expect(!plain.ok && plain.error.message).toBe(SALE_ERRORS.cartReturnNeedsManager);
    const wrong = await h.call('sale:void-partial', { id: transactionId, approval: { managerId: morganId, pin: '9999' } });
    expect(!wrong.ok && wrong.error.code).toBe('approval_refused');
    expect(!wrong.ok && wrong.error.message).toBe(SALE_ERRORS.cartReturnRefused);
    expect(engineStatus(transactionId)).toBe(101);
    expect(value(await h.call('cart:view', { cartId: cart.id }))).toMatchObject({ status: 'paid', balanceCents: 0 });
  });

  it("with a manager's PIN the card is voided, the cart is no longer paid and owes what the card paid; cart, report and gateway agree", async () => {
    await h.signInAs('Casey', '0000');
    const { cart, transactionId } = await paidSplitCart();
    const voided = value(await h.call('sale:void-partial', { id: transactionId, approval: { managerId: morganId, pin: '1234' } }));
    expect(voided.state).toBe('voided');
    expect(voided.voidedBy).toBe('Morgan');
    expect(engineStatus(transactionId)).toBe(201);

    const after = value(await h.call('cart:view', { cartId: cart.id }));
    expect(after.status).toBe('due');
    expect(after.balanceCents).toBe(100); // what the voided card had paid
    expect(after.tenders.map((t) => [t.kind, t.status])).toEqual([
      ['card', 'reversed'],
      ['cash', 'approved'],
    ]);
    // Collected in the cart = approved at the gateway (card) + in the drawer (cash).
    const collected = after.tenders.filter((t) => t.status === 'approved').reduce((a, t) => a + t.approvedCents, 0);
    expect(collected + after.balanceCents).toBe(after.totals.totalCents);

    await h.signInAs('Morgan', '1234');
    const audit = value(await h.call('audit:list', { kind: 'void', page: 1 })).rows;
    // Asked by the cashier, approved by the manager: the audit line says both.
    expect(audit.find((r) => r.transactionId === transactionId)).toMatchObject({ userName: 'Casey', amountCents: 100, detail: 'card payment of a paid sale voided (a return), approved by Morgan with their PIN' });
  });

  it('a manager signed in voids without a PIN; the report counts what the gateway holds to the cent', async () => {
    await h.signInAs('Morgan', '1234');
    const { cart, transactionId } = await paidSplitCart();
    value(await h.call('sale:void-partial', { id: transactionId }));
    expect(value(await h.call('cart:view', { cartId: cart.id }))).toMatchObject({ status: 'due', balanceCents: 100 });

    // Every cart of this file: three paid split carts, the first still paid, the other two with their card voided.
    const x = value(await h.call('reports:x'));
    const engine = h.engineRow(`SELECT COUNT(*) AS n, COALESCE(SUM(CAST(json_extract(doc, '$.auth_amount') AS REAL) * 100), 0) AS cents FROM transactions WHERE status_id = 101`)!;
    expect(x.totals.sales).toEqual({ count: Number(engine.n), cents: Math.round(Number(engine.cents)) });
    expect(x.totals.sales).toEqual({ count: 1, cents: 100 });
    expect(x.totals.voids.count).toBe(2);
    // The cash of all three is in the drawer ($9.83 each); the tax it paid is each cart's tax less
    // what its card carried at the gateway: the voided card's tax was never collected, not moved to the cash.
    expect(x.cashTenders!.sales).toEqual({ count: 3, cents: 3 * 983 });
    const cardTax = Math.round(Number(engineDoc(transactionId).tax ?? '0') * 100);
    expect(x.cashTenders!.taxCents).toBe(3 * (83 - cardTax));
  });

  it("a cashier's void of a partial card in a cart not yet paid needs no manager, and the cart's balance follows", async () => {
    await h.signInAs('Casey', '0000');
    await clearCart(h);
    value(await h.call('cart:add-open', { name: 'Ten', amountCents: 1_000, taxCategory: 'standard' }));
    const part = value(await h.call('cart:pay-card', { card, amountCents: 201, clientRef: ref() }));
    expect(part.balanceCents).toBe(983);
    const id = part.tenders[0]!.transactionId!;
    value(await h.call('sale:void-partial', { id }));
    const after = value(await h.call('cart:current'));
    expect(after).toMatchObject({ id: part.id, status: 'open', balanceCents: 1_083 });
    expect(after.tenders[0]!.status).toBe('reversed');
    value(await h.call('cart:cancel', { confirmed: true }));
  });

  it("a manager's void of a fully approved card of a paid cart leaves the cart due by that card", async () => {
    await h.signInAs('Casey', '0000');
    await clearCart(h);
    value(await h.call('cart:add-open', { name: 'Ten', amountCents: 1_000, taxCategory: 'standard' }));
    value(await h.call('cart:pay-cash', { tenderedCents: 500, amountCents: 500 }));
    const paid = value(await h.call('cart:pay-card', { card, clientRef: ref() }));
    expect(paid.status).toBe('paid');
    const id = paid.tenders.find((t) => t.kind === 'card')!.transactionId!;
    expect((await h.call('transactions:void', { id })).ok).toBe(false); // a cashier may not
    await h.signInAs('Morgan', '1234');
    value(await h.call('transactions:void', { id }));
    expect(value(await h.call('cart:view', { cartId: paid.id }))).toMatchObject({ status: 'due', balanceCents: 583 });
  });
});
