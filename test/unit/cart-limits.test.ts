/**
 * Limits that add up (issue 20, point 5), through the core against the real engine and SQLite.
 *
 * Discounts: a line's discount and its share of the whole-sale discount together are what the
 * customer gets off that line, and that is what the manager's limit (20 %) is held against:
 * 15 % on a line and 15 % on the sale is 27.75 % off, 20 % + 20 % sells $100.00 for $64.00.
 * Every combination of {line under/over, sale under/over, both under but together over} ×
 * {cashier, manager signed in, cashier + manager's PIN} is tried, and a refusal charges nothing.
 *
 * The hard cap: all the card payments of one cart together (keyed, saved card, terminal: the
 * money the gateway moves) are held to it, so a cart above the cap cannot be paid in card splits
 * each under it; cash in the drawer is not gateway money and may pay the rest.
 */
import { describe, expect, it } from 'vitest';
import { TENDER_COPY } from '../../electron/core/cart/tenders';
import { hardCapSentence } from '../../shared/amount-guards';
import type { CartView } from '../../shared/ipc/cart';
import type { CatalogueItem } from '../../shared/ipc/catalogue';
import type { Result } from '../../shared/result';
import { clearCart, useCoreHarness, value } from '../helpers/core-harness';

const h = useCoreHarness('ringup-cart-limits-');
const card = { number: '4111111111111111', expiry: '1230', cvv: '999', zip: '32606' };
let n = 0;
const ref = () => `limits-${n++}`;
let hundred: CatalogueItem;
let sixty: CatalogueItem;
let morganId: string;

const engineCount = () => Number(h.engineRow('SELECT COUNT(*) AS n FROM transactions')!.n);
/**
 * The engine's own record of a transaction. The gateway's transaction_api_id is the core's
 * reference, never the screen's clientRef (issue 20, point 2), so a card tender is found by the
 * transaction its tender records, and "nothing charged" is the engine's count not moving.
 */
const atEngine = (transactionId: string | null | undefined) => {
  const row = transactionId ? h.engineRow('SELECT doc FROM transactions WHERE id = ?', transactionId) : undefined;
  return row ? (JSON.parse(String(row.doc)) as { transaction_amount: string; status_id: number }) : undefined;
};
const pct = (bp: number) => ({ kind: 'percent' as const, basisPoints: bp });

type Who = 'cashier' | 'manager' | 'cashier + PIN';
interface DiscountCase {
  name: string;
  line: number | null;
  sale: number | null;
  /** Off $100.00, both discounts compounded in cents. */
  totalCents: number;
  /** Whether the cart as a whole is above the 20 % limit (the second step is refused for a cashier without a PIN). */
  over: boolean;
  /** The combined share the refusal names, in percent. */
  sharePct: number;
}

const cases: DiscountCase[] = [
  { name: 'line under', line: 1_500, sale: null, totalCents: 8_500, over: false, sharePct: 15 },
  { name: 'line over', line: 2_500, sale: null, totalCents: 7_500, over: true, sharePct: 25 },
  { name: 'sale under', line: null, sale: 1_500, totalCents: 8_500, over: false, sharePct: 15 },
  { name: 'sale over', line: null, sale: 2_500, totalCents: 7_500, over: true, sharePct: 25 },
  { name: 'both under, together under', line: 1_000, sale: 1_000, totalCents: 8_100, over: false, sharePct: 19 },
  { name: 'both under, together over', line: 1_500, sale: 1_500, totalCents: 7_225, over: true, sharePct: 27.8 },
  { name: 'both at the limit, together over ($100 for $64)', line: 2_000, sale: 2_000, totalCents: 6_400, over: true, sharePct: 36 },
  { name: 'line over, sale under', line: 2_500, sale: 1_000, totalCents: 6_750, over: true, sharePct: 32.5 },
  { name: 'line under, sale over', line: 1_000, sale: 2_500, totalCents: 6_750, over: true, sharePct: 32.5 },
];
const people: Who[] = ['cashier', 'manager', 'cashier + PIN'];

describe('discounts combine against the manager limit', () => {
  it('setup: a $100.00 item (tax exempt), a $60.00 one, the 20 % limit', async () => {
    await h.signInAs('Morgan', '1234');
    value(await h.call('catalogue:import-csv', { csv: 'name,price,sku,tax_category\nHundred,100.00,HUN,exempt\nSixty,60.00,SIX,exempt\n' }));
    const items = value(await h.call('catalogue:list', {}));
    hundred = items.find((i) => i.sku === 'HUN')!;
    sixty = items.find((i) => i.sku === 'SIX')!;
    morganId = value(await h.call('auth:users')).users.find((u) => u.name === 'Morgan')!.id;
    expect(value(await h.call('catalogue:rules')).discountApprovalPercent).toBe(20);
  });

  for (const c of cases) {
    for (const who of people) {
      it(`${c.name} × ${who}`, async () => {
        await h.signInAs(who === 'manager' ? 'Morgan' : 'Casey', who === 'manager' ? '1234' : '0000');
        await clearCart(h);
        const approval = who === 'cashier + PIN' ? { approval: { managerId: morganId, pin: '1234' } } : {};
        const cart = value(await h.call('cart:add-item', { itemId: hundred.id }));
        const before = engineCount();
        const steps: Array<() => Promise<Result<CartView>>> = [];
        if (c.line !== null) steps.push(() => h.call('cart:set-line-discount', { lineId: cart.lines[0]!.id, discount: pct(c.line!), ...approval }));
        if (c.sale !== null) steps.push(() => h.call('cart:set-cart-discount', { discount: pct(c.sale!), ...approval }));
        const answers: Array<Result<CartView>> = [];
        for (const step of steps) {
          const a = await step();
          answers.push(a);
          if (!a.ok) break;
        }
        const refused = c.over && who === 'cashier';
        if (refused) {
          // The step that takes the cart over the limit is refused in words, and leaves the cart as it was.
          const last = answers.at(-1)!;
          expect(last.ok).toBe(false);
          expect(!last.ok && last.error.code).toBe('approval_needed');
          const combined = answers.length === 2; // the line's discount was given, the sale's took it over
          expect(!last.ok && last.error.message).toBe(combined ? TENDER_COPY.combinedNeedsApproval(20, c.sharePct) : TENDER_COPY.approvalNeeded(20));
          const now = value(await h.call('cart:current'));
          expect(now.totals.totalCents).toBeGreaterThan(c.totalCents);
          expect(engineCount()).toBe(before); // nothing reached the gateway
          return;
        }
        for (const a of answers) expect(a.ok, JSON.stringify(a)).toBe(true);
        const view = value(await h.call('cart:current'));
        expect(view.totals.totalCents).toBe(c.totalCents);
        expect(view.discountApprovedBy).toBe(c.over ? 'Morgan' : null);
        const paid = value(await h.call('cart:pay-card', { card, clientRef: ref() }));
        expect(paid.status).toBe('paid');
        expect(atEngine(paid.tenders.at(-1)?.transactionId)!.transaction_amount).toBe((c.totalCents / 100).toFixed(2));
      });
    }
  }

  it('a tender is refused when the discounts together are above the limit without an approval, and nothing is charged', async () => {
    await h.signInAs('Casey', '0000');
    await clearCart(h);
    const cart = value(await h.call('cart:add-item', { itemId: hundred.id }));
    await h.signInAs('Morgan', '1234');
    value(await h.call('catalogue:set-rules', { discountApprovalPercent: 30 }));
    await h.signInAs('Casey', '0000');
    value(await h.call('cart:set-line-discount', { lineId: cart.lines[0]!.id, discount: pct(1_500) }));
    value(await h.call('cart:set-cart-discount', { discount: pct(1_500) })); // 27.75 %: under 30
    await h.signInAs('Morgan', '1234');
    value(await h.call('catalogue:set-rules', { discountApprovalPercent: 20 }));
    await h.signInAs('Casey', '0000');
    const before = engineCount();
    const pay = await h.call('cart:pay-card', { card, clientRef: ref() });
    expect(!pay.ok && pay.error.code).toBe('approval_needed');
    expect(!pay.ok && pay.error.message).toBe(TENDER_COPY.combinedNeedsApproval(20, 27.8));
    expect(engineCount()).toBe(before); // nothing reached the gateway
    expect(value(await h.call('cart:current')).tenders).toEqual([]);
  });
});

describe('the hard cap holds for the sale as a whole, all card payments together', () => {
  it('setup: a hard cap of $100.00', async () => {
    await h.signInAs('Morgan', '1234');
    const st = value(await h.call('settings:get'));
    value(await h.call('settings:update', { ...st, confirmAboveCents: 10_000, hardCapCents: 10_000 }));
  });

  for (const who of ['cashier', 'manager'] as const) {
    it(`one card for a $120.00 cart is refused (${who})`, async () => {
      await h.signInAs(who === 'manager' ? 'Morgan' : 'Casey', who === 'manager' ? '1234' : '0000');
      await clearCart(h);
      value(await h.call('cart:add-item', { itemId: sixty.id, quantity: 2 }));
      const before = engineCount();
      const pay = await h.call('cart:pay-card', { card, clientRef: ref() });
      expect(!pay.ok && pay.error.code).toBe('above_hard_cap');
      expect(engineCount()).toBe(before); // nothing reached the gateway
    });

    it(`two cards of $60.00 each, under the cap but together over it: the second is refused, nothing charged (${who})`, async () => {
      await h.signInAs(who === 'manager' ? 'Morgan' : 'Casey', who === 'manager' ? '1234' : '0000');
      await clearCart(h);
      value(await h.call('cart:add-item', { itemId: sixty.id, quantity: 2 }));
      const first = ref();
      expect(value(await h.call('cart:pay-card', { card, amountCents: 6_000, clientRef: first })).balanceCents).toBe(6_000);
      const before = engineCount();
      for (const pay of [
        await h.call('cart:pay-card', { card, amountCents: 6_000, clientRef: ref() }),
        await h.call('cart:pay-card', { card, amountCents: 4_001, clientRef: ref() }),
        await h.call('cart:pay-terminal', { amountCents: 4_001, clientRef: ref() }),
      ]) {
        expect(!pay.ok && pay.error.code).toBe('above_hard_cap');
        expect(!pay.ok && pay.error.message).toBe(TENDER_COPY.cartAboveCap(10_000, 6_000));
      }
      expect(engineCount()).toBe(before);
      // Up to the cap still goes on a card; cash (not gateway money) pays the rest.
      value(await h.call('cart:pay-card', { card, amountCents: 4_000, clientRef: ref() }));
      const paid = value(await h.call('cart:pay-cash', { tenderedCents: 2_000 }));
      expect(paid.status).toBe('paid');
      expect(paid.tenders.filter((t) => t.kind !== 'cash').reduce((a, t) => a + t.approvedCents, 0)).toBe(10_000);
    });
  }

  it('setup: the default cap again', async () => {
    await h.signInAs('Morgan', '1234');
    const st = value(await h.call('settings:get'));
    expect(hardCapSentence(st.hardCapCents)).toContain('$100.00');
    value(await h.call('settings:update', { ...st, confirmAboveCents: 100_000, hardCapCents: 1_000_000 }));
  });
});
