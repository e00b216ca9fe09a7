/**
 * Items and discounts for the end-of-day report, from the cart records in the app
 * database: every cart paid in the period (its `closed_ts`), its lines grouped by catalogue
 * item and variant (open amounts by their name; issue 23), with quantity and amount (after discounts, before
 * tax), the modifier options sold with them (Extra shot × 3), and the discounts given (line and whole-sale). The figures are the cart's own
 * (CartStore.view, the same math the sale used).
 * Simplifications: a line returned later still counts as sold here (its money is in the
 * refunds); tax does not enter these figures, so the store's tax rate is not needed.
 */
import type { CartSalesSummary } from '../../../shared/ipc/reports';
import { CartStore } from '../cart/cart-store';
import type { PosDatabase } from '../platform/pos-database';

/** Paid carts closed between two Unix-second bounds (inclusive). */
export function cartSalesSummary(db: PosDatabase, fromSec: number, toSec: number): CartSalesSummary {
  const ids = db.prepare(`SELECT id FROM carts WHERE status = 'paid' AND closed_ts BETWEEN ? AND ? ORDER BY closed_ts`).all(fromSec * 1000, toSec * 1000 + 999) as Array<{ id: string }>;
  const store = new CartStore(db, () => 0, Date.now);
  const items = new Map<string, { name: string; quantity: number; cents: number }>();
  const modifiers = new Map<string, { name: string; quantity: number; cents: number }>();
  let discountsCents = 0;
  for (const { id } of ids) {
    const v = store.view(id);
    discountsCents += v.totals.lineDiscountCents + v.totals.cartDiscountCents;
    v.lines.forEach((l, i) => {
      // An item's variants are counted apart (a Small and a Large latte are two rows).
      const key = l.itemId ? `${l.itemId}:${l.choice?.variantId ?? ''}` : `open:${l.name}`;
      const row = items.get(key) ?? { name: l.name, quantity: 0, cents: 0 };
      row.name = l.name;
      row.quantity += l.quantity;
      row.cents += v.totals.lines[i]?.netCents ?? 0;
      items.set(key, row);
      for (const m of l.choice?.modifiers ?? []) {
        const mod = modifiers.get(m.optionId) ?? { name: m.name, quantity: 0, cents: 0 };
        mod.quantity += l.quantity;
        mod.cents += m.priceCents * l.quantity;
        modifiers.set(m.optionId, mod);
      }
    });
  }
  return {
    carts: ids.length,
    items: [...items.values()].sort((a, b) => b.cents - a.cents || a.name.localeCompare(b.name)),
    modifiers: [...modifiers.values()].sort((a, b) => b.quantity - a.quantity || a.name.localeCompare(b.name)),
    discountsCents,
  };
}
