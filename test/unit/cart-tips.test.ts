/**
 * A cart sale's tip through the core, against the real engine and real SQLite (issue 21,
 * point 10a): the tip rides on the card on top of its part of the balance, the tender counts
 * only that part, the gateway records the tip, the same attempt sent twice charges once, a
 * large tip asks first, and a returned line gives back the goods, never the tip.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueItem } from '../../shared/ipc/catalogue';
import { openCore, value, type OpenCore } from '../helpers/core-harness';
import { embeddedClient } from '../helpers/embedded-credentials';

const card = { number: '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' };
let dir: string;
let h: OpenCore;
let coffee: CatalogueItem;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ringup-cart-tips-'));
  h = await openCore(dir);
  await h.signInAs('Morgan', '1234');
  value(await h.call('catalogue:import-csv', { csv: 'name,price,sku,unit_code,tax_category,quick_key\nCoffee,10.00,COF,EA,exempt,yes\n' }));
  coffee = value(await h.call('catalogue:list', { includeArchived: false, search: '' }))[0]!;
  await h.signInAs('Casey', '0000');
});
afterAll(async () => {
  await h?.core.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a tip on a cart card', () => {
  it('is charged on top of the balance, counted apart from it, charged once for a repeated attempt, and never refunded with a line', async () => {
    value(await h.call('cart:add-item', { itemId: coffee.id }));
    const attempt = { card, clientRef: 'cart-tip-1', tipCents: 150 };
    const [a, b] = await Promise.all([h.call('cart:pay-card', attempt), h.call('cart:pay-card', attempt)]);
    const paid = value(a.ok && a.value.status === 'paid' ? a : b);
    const tender = paid.tenders.find((t) => t.kind === 'card')!;
    // The tender paid the $10.00 balance; the $1.50 tip is on it, not in the balance.
    expect(paid).toMatchObject({ status: 'paid', balanceCents: 0 });
    expect(tender).toMatchObject({ status: 'approved', approvedCents: 1_000, tipCents: 150 });
    expect(paid.tenders.filter((t) => t.kind === 'card')).toHaveLength(1);
    const engine = embeddedClient(dir);
    const charged = await engine.getTransaction(tender.transactionId!);
    expect(charged).toMatchObject({ transaction_amount: '11.50', tip_amount: '1.50' });
    // The same attempt again is answered, not charged (one card transaction at the gateway).
    expect((await engine.listTransactions({ transaction_api_id: tender.id }, 1, 10)).items).toHaveLength(1);

    // A manager returns the coffee: its $10.00 goes back; the tip stays with the card.
    await h.signInAs('Morgan', '1234');
    const back = value(await h.call('cart:refund-lines', { cartId: paid.id, lineIds: [paid.lines[0]!.id] }));
    expect(back.refundedCents).toBe(1_000);
    const refunds = await engine.listTransactions({ previous_transaction_id: tender.transactionId! }, 1, 10);
    expect(refunds.items.map((t) => t.transaction_amount)).toEqual(['10.00']);
    await h.signInAs('Casey', '0000');
  });

  it('asks before a tip above the store\'s share, and refuses a tip over the hard cap in words', async () => {
    value(await h.call('cart:add-item', { itemId: coffee.id }));
    // $6.00 on $10.00 is 60 %, above the 50 % check: a question, nothing charged.
    const asked = await h.call('cart:pay-card', { card, clientRef: 'cart-tip-2', tipCents: 600 });
    expect(asked).toMatchObject({ ok: false, error: { code: 'confirm_tip' } });
    expect(value(await h.call('cart:current')).tenders).toHaveLength(0);
    const paid = value(await h.call('cart:pay-card', { card, clientRef: 'cart-tip-2', tipCents: 600, confirmedTipCents: 600 }));
    expect(paid.tenders[0]).toMatchObject({ approvedCents: 1_000, tipCents: 600 });
    // Amount and tip together above the $10,000.00 hard cap: refused before anything is sent.
    value(await h.call('cart:add-item', { itemId: coffee.id }));
    const capped = await h.call('cart:pay-card', { card, clientRef: 'cart-tip-3', tipCents: 999_500, confirmedTipCents: 999_500 });
    expect(capped).toMatchObject({ ok: false, error: { code: 'above_hard_cap' } });
    value(await h.call('cart:clear'));
  });
});
