/**
 * A register's trade for the store's fault tests, drawn from a seeded random generator so a
 * failing run names the seed that repeats it: cash and card sales of open amounts, sales of
 * counted catalogue items (stock moves), a return now and then (a manager refunds a line of an
 * earlier item sale: cash back or a card refund) and a stock count. Every step goes through the
 * register's own channels, as its screens would. Every amount is $10.00 or more: the embedded
 * engine, like the sandbox, answers some amounts under $10 with a decline or a delay (2.01, 5.xx,
 * 6.xx, 8.xx: GATEWAY-FACTS.md), which is not what these tests are about.
 */
import type { CatalogueItem } from '../../shared/ipc/catalogue';
import type { CartView } from '../../shared/ipc/cart';
import type { SeededRandom } from './seeded-random';
import type { RigRegister } from './store-rig';

export interface TradeTally {
  sales: number;
  cash: number;
  card: number;
  items: number;
  returns: number;
  counts: number;
}

export const emptyTally = (): TradeTally => ({ sales: 0, cash: 0, card: 0, items: 0, returns: 0, counts: 0 });

/** Counted items for the store's catalogue, made on `reg` (a manager's act), each with `onHand` counted in. */
export async function stockedItems(reg: RigRegister, names: string[], onHand: number): Promise<CatalogueItem[]> {
  const items: CatalogueItem[] = [];
  for (const [i, name] of names.entries()) {
    const item = await reg.asManager<CatalogueItem>('catalogue:add', { name, priceCents: 1_150 + 75 * i, sku: `RIG-${i + 1}-${name.slice(0, 3).toUpperCase()}`, trackStock: true });
    await reg.asManager('catalogue:adjust-stock', { itemId: item.id, change: { kind: 'count', count: onHand }, reason: 'Delivery' });
    items.push(item);
  }
  return items;
}

/** One step of trade: a sale (cash or card, open amount or items), a return, or a stock count. */
export async function tradeStep(reg: RigRegister, rng: SeededRandom, items: CatalogueItem[], tally: TradeTally, itemSales: CartView[]): Promise<void> {
  const roll = rng.next();
  if (roll < 0.06 && itemSales.length > 0) {
    // A return: a line of an earlier item sale not yet returned, refunded the way it was paid.
    const cart = itemSales.splice(rng.int(0, itemSales.length - 1), 1)[0]!;
    const line = cart.lines.find((l) => !l.refunded);
    if (line) {
      await reg.asManager('cart:refund-lines', { cartId: cart.id, lineIds: [line.id] });
      tally.returns++;
      return;
    }
  }
  if (roll < 0.08) {
    const item = items[rng.int(0, items.length - 1)]!;
    await reg.asManager('catalogue:adjust-stock', { itemId: item.id, change: { kind: 'delta', delta: rng.int(1, 5) }, reason: 'Found in the back' });
    tally.counts++;
    return;
  }
  const pay = rng.chance(0.5) ? 'cash' : 'card';
  if (roll < 0.55) {
    const picked = [items[rng.int(0, items.length - 1)]!, ...(rng.chance(0.3) ? [items[rng.int(0, items.length - 1)]!] : [])];
    itemSales.push(await reg.itemSale(picked.map((i) => ({ itemId: i.id, quantity: rng.int(1, 3) })), pay));
    tally.items++;
  } else {
    const cents = rng.int(1_000, 9_999);
    await (pay === 'cash' ? reg.cashSale(cents) : reg.cardSale(cents));
  }
  tally.sales++;
  tally[pay]++;
}

/** `n` steps of trade; answers what was done. */
export async function trade(reg: RigRegister, rng: SeededRandom, items: CatalogueItem[], n: number, tally = emptyTally()): Promise<TradeTally> {
  const itemSales: CartView[] = [];
  for (let i = 0; i < n; i++) await tradeStep(reg, rng, items, tally, itemSales);
  return tally;
}
