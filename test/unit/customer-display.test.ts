/**
 * The customer display through the real core (issue 23, point 4), against the real engine and
 * real SQLite: each state it pushes, in order, for a cash sale and for a card sale (declined,
 * then approved with the tip the customer picked on the display), the terminal's prompt while it
 * works, and what a page that never signs in may ask (the present state; a tip pick among those
 * offered, nothing else). The passing states' seconds run on fake timers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DISPLAY_HOLD_MS, TERMINAL_WORDS } from '../../electron/core/display/customer-display';
import { createDispatcher } from '../../electron/ipc/dispatcher';
import type { CatalogueItem } from '../../shared/ipc/catalogue';
import { DISPLAY_MESSAGES, type DisplayState } from '../../shared/ipc/display';
import type { Result } from '../../shared/result';
import { HARNESS_ORIGIN, openCore, value, type OpenCore } from '../helpers/core-harness';

const PAN = '4111111111111111';
const card = { number: PAN, expiry: '1230', cvv: '999', zip: '32606' };
let dir: string;
let h: OpenCore;
let items: Record<string, CatalogueItem>;
const seen: DisplayState[] = [];
/** A page that opened the display and never signed in: its own caller. */
let page: (channel: string, arg?: unknown) => Promise<Result<DisplayState>>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ringup-display-'));
  h = await openCore(dir);
  h.core.events.subscribe((event, payload) => {
    if (event === 'display:state') seen.push(payload as DisplayState);
  });
  const dispatch = createDispatcher(h.core.handlers, { allowedOrigins: [HARNESS_ORIGIN] });
  page = async (channel, arg) => (await dispatch(channel, { url: `${HARNESS_ORIGIN}/`, isMainFrame: true, callerId: 'display-page' }, arg)) as Result<DisplayState>;
  await h.signInAs('Morgan', '1234');
  const s = value(await h.call('settings:get'));
  value(await h.call('settings:update', { ...s, storeName: 'Corner Café' }));
  value(
    await h.call('catalogue:import-csv', {
      csv: 'name,price,sku,unit_code,tax_category,quick_key\nCoffee,3.50,COF,EA,standard,yes\nMuffin,2.99,MUF,EA,standard,yes\nGift card,5.00,GIF,EA,exempt,yes\n',
    }),
  );
  items = Object.fromEntries(value(await h.call('catalogue:list', {})).map((i) => [i.sku, i]));
  await h.signInAs('Casey', '0000');
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await h?.core.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The states pushed since the last call of this (the display follows an answer on the next turn of the event loop: display-follow.ts). */
async function pushed(): Promise<DisplayState[]> {
  await new Promise((resolve) => setImmediate(resolve));
  return seen.splice(0);
}
const phases = (s: DisplayState[]) => s.map((x) => x.phase);

describe('the customer display', () => {
  it('idle shows the store name, and a page that never signed in reads it', async () => {
    const now = value(await page('display:current'));
    expect(now).toMatchObject({ phase: 'idle', storeName: 'Corner Café', cart: null, tip: null });
    // The page may read the display and nothing of the counter's.
    const other = await page('cart:current');
    expect(other.ok ? 'reached' : other.error.code).toBe('unauthenticated');
    await pushed();
  });

  it('a cash sale: each line as it is added, the total, the change due, thank you, then idle', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    value(await h.call('cart:add-item', { itemId: items.COF!.id }));
    value(await h.call('cart:add-item', { itemId: items.MUF!.id }));
    // A read of the same cart pushes nothing new.
    value(await h.call('cart:current'));
    const paid = value(await h.call('cart:pay-cash', { tenderedCents: 2_000 }));
    expect(paid.status).toBe('paid');
    let s = await pushed();
    expect(phases(s)).toEqual(['cart', 'cart', 'change']);
    expect(s[0]!.cart!.lines.map((l) => [l.name, l.quantity, l.amountCents])).toEqual([['Coffee', 1, 350]]);
    // $6.49 and 8.25 % tax ($0.54): $7.03; the store asks for tips and no terminal is set up, so the tips are offered.
    expect(s[1]!.cart).toMatchObject({ itemsCents: 649, taxCents: 54, totalCents: 703, balanceCents: 703 });
    expect(s[1]!.cart!.lines.map((l) => l.name)).toEqual(['Coffee', 'Muffin']);
    expect(s[1]!.tip!.suggestions.map((x) => x.cents)).toEqual([97, 117, 130]);
    expect(s[2]).toMatchObject({ phase: 'change', amountCents: 2_000 - 703 });

    // A new empty cart (the counter's next sale) does not cut the change short.
    value(await h.call('cart:current'));
    expect(await pushed()).toEqual([]);
    vi.advanceTimersByTime(DISPLAY_HOLD_MS.change);
    expect(phases(await pushed())).toEqual(['thanks']);
    vi.advanceTimersByTime(DISPLAY_HOLD_MS.thanks);
    s = await pushed();
    expect(s).toMatchObject([{ phase: 'idle', storeName: 'Corner Café', cart: null }]);
    expect(value(await page('display:current')).seq).toBe(s[0]!.seq);
  });

  it('a card sale: declined, the tip the customer picks on the display, approved, thank you, idle — never a card number or the cashier', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    value(await h.call('cart:add-item', { itemId: items.GIF!.id }));
    // $5.00 is the sandbox's decline.
    const no = value(await h.call('cart:pay-card', { card, clientRef: 'display-card-1', tipCents: 0 }));
    expect(no.tenders.at(-1)!.status).toBe('declined');
    expect(phases(await pushed())).toEqual(['cart', 'declined']);
    vi.advanceTimersByTime(DISPLAY_HOLD_MS.declined);
    expect(phases(await pushed())).toEqual(['cart']);

    value(await h.call('cart:add-item', { itemId: items.COF!.id }));
    const offered = (await pushed()).at(-1)!;
    expect(offered.cart).toMatchObject({ itemsCents: 850, taxCents: 29, totalCents: 879 });
    const tip = offered.tip!;
    // 18 % of the $8.50 before tax.
    expect(tip.suggestions[1]).toEqual({ kind: 'percent', percent: 18, cents: 153 });
    // The page may pick only what is offered, for this cart.
    expect(await page('display:pick-tip', { cartId: tip.cartId, index: 1, cents: 999 })).toEqual({ ok: false, error: { code: 'tip_changed', message: DISPLAY_MESSAGES.tipChanged } });
    expect(await page('display:pick-tip', { cartId: 'another-cart', index: 1, cents: 153 })).toEqual({ ok: false, error: { code: 'not_offered', message: DISPLAY_MESSAGES.tipNotOffered } });
    const picked = value(await page('display:pick-tip', { cartId: tip.cartId, index: 1, cents: 153 }));
    expect(picked.tip).toMatchObject({ picked: { kind: 'percent', percent: 18, cents: 153 }, pickCount: 1 });
    expect(phases(await pushed())).toEqual(['cart']);

    // The cashier charges, with the tip the customer picked.
    const yes = value(await h.call('cart:pay-card', { card, clientRef: 'display-card-2', tipCents: 153 }));
    expect(yes.status).toBe('paid');
    const approved = await pushed();
    expect(approved).toMatchObject([{ phase: 'approved', amountCents: 879 + 153 }]);
    // Once paid there is no tip to pick.
    expect((await page('display:pick-tip', { cartId: tip.cartId, index: 0, cents: tip.suggestions[0]!.cents })).ok).toBe(false);
    vi.advanceTimersByTime(DISPLAY_HOLD_MS.approved);
    expect(phases(await pushed())).toEqual(['thanks']);
    vi.advanceTimersByTime(DISPLAY_HOLD_MS.thanks);
    expect(phases(await pushed())).toEqual(['idle']);

    const everything = JSON.stringify([no, approved, offered, picked]);
    expect(JSON.stringify(approved)).not.toContain(PAN);
    expect(everything).not.toMatch(/4111|1111|Casey|Morgan/);
  });

  it("the terminal's prompt while it works, and the cart again when the payment fails", async () => {
    value(await h.call('cart:add-item', { itemId: items.COF!.id }));
    await pushed();
    h.core.events.emit('terminal:state', { terminalId: 't1', state: 'card', prompt: '' });
    h.core.events.emit('terminal:state', { terminalId: 't1', state: 'pin', prompt: 'Enter PIN' });
    h.core.events.emit('terminal:state', { terminalId: 't1', state: 'idle', prompt: '' });
    const s = await pushed();
    expect(s.map((x) => [x.phase, x.prompt])).toEqual([
      ['terminal', TERMINAL_WORDS.card],
      ['terminal', 'Enter PIN'],
    ]);
    expect(s[0]!.cart!.totalCents).toBe(379);
    // No terminal is set up here: the terminal tender is refused, and the customer sees the cart again.
    expect((await h.call('cart:pay-terminal', { clientRef: 'display-terminal-1', tipCents: 0 })).ok).toBe(false);
    expect(await pushed()).toMatchObject([{ phase: 'cart', prompt: null }]);
    value(await h.call('cart:clear'));
    expect(phases(await pushed())).toEqual(['idle']);
  });
});
