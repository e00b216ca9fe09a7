/**
 * Stock follows the money (issue 23, point 6): a cart's counted lines come off the shelf when
 * the sale is paid in full, go back when lines are returned, and go back when a sale that had
 * taken them is cancelled. Run by the cart store inside the same SQLite transaction as the
 * status or the returned lines it follows, so the count and the money never disagree, and
 * written per cart so each step happens once: a cart's sale is taken once (a due cart paid
 * again takes nothing more), a return gives back at most what the cart took, a cancel what is
 * left of it.
 *
 * A line is counted against its variant (the choice it was sold with) or its item; only items
 * whose stock is counted move. Selling past zero is allowed — a shop does not turn a customer
 * away because a count is wrong — but the cart says so once per item (or variant): when a line
 * change takes what is on hand, less what the cart holds, below zero, or when the sale itself
 * does (two counters selling the last bottle at once: both sell, the count goes to −1, and the
 * second is told). Simplification: the warning is the cart's latest sentence, cleared by its
 * next change; what another open cart holds is not reserved.
 */
import type { LineChoice } from '../../../shared/ipc/catalogue';
import type { PosDatabase } from '../platform/pos-database';
import { formatCount, StockLedger, stockKey } from './stock-ledger';

interface CountedLine {
  id: string;
  itemId: string;
  variantId: string | null;
  name: string;
  quantity: number;
  refunded: boolean;
}

/** The cart's lines whose item's stock is counted, each with the variant it was sold as. */
function countedLines(db: PosDatabase, cartId: string, lineIds?: readonly string[]): CountedLine[] {
  const rows = db
    .prepare(
      `SELECT l.id, l.item_id, l.name, l.quantity, l.refunded, l.choice FROM cart_lines l JOIN catalogue_items i ON i.id = l.item_id
        WHERE l.cart_id = ? AND i.track_stock = 1 ORDER BY l.seq`,
    )
    .all(cartId) as Array<{ id: string; item_id: string; name: string; quantity: number; refunded: number; choice: string | null }>;
  return rows
    .filter((r) => !lineIds || lineIds.includes(r.id))
    .map((r) => ({
      id: r.id,
      itemId: r.item_id,
      variantId: r.choice ? ((JSON.parse(r.choice) as LineChoice).variantId ?? null) : null,
      name: r.name,
      quantity: r.quantity,
      refunded: r.refunded === 1,
    }));
}

/** Quantities by stock key, with the first line's name for the sentence. */
function byKey(lines: readonly CountedLine[]): Map<string, { itemId: string; variantId: string | null; name: string; quantity: number }> {
  const m = new Map<string, { itemId: string; variantId: string | null; name: string; quantity: number }>();
  for (const l of lines) {
    const k = stockKey(l.itemId, l.variantId);
    const e = m.get(k);
    if (e) e.quantity += l.quantity;
    else m.set(k, { itemId: l.itemId, variantId: l.variantId, name: l.name, quantity: l.quantity });
  }
  return m;
}

/** What the cart's movements add up to, by stock key (negative: what it still has off the shelf). */
function cartNet(db: PosDatabase, cartId: string): Map<string, number> {
  const rows = db.prepare('SELECT item_id, variant_id, SUM(delta) AS n FROM stock_movements WHERE cart_id = ? GROUP BY item_id, variant_id').all(cartId) as Array<{
    item_id: string;
    variant_id: string | null;
    n: number;
  }>;
  return new Map(rows.map((r) => [stockKey(r.item_id, r.variant_id), r.n]));
}

export const stockWarningText = (name: string, before: number, after: number) => `Only ${formatCount(before)} ${name} left in stock: the count goes to ${formatCount(after)}.`;

export class StockFollowsSales {
  private readonly ledger: StockLedger;

  constructor(
    private readonly db: PosDatabase,
    now: () => number = Date.now,
  ) {
    this.ledger = new StockLedger(db, now);
  }

  /** The cart's status changed to `to` (cart-store.ts saveTenderState, inside its transaction). */
  statusChanged(cartId: string, to: string): void {
    if (to === 'paid') this.sold(cartId);
    else if (to === 'cancelled') this.cancelled(cartId);
  }

  /** Lines of a paid cart were returned (cart-store.ts markLinesRefunded, inside its transaction): what the cart took of them goes back. */
  returned(cartId: string, lineIds: readonly string[]): void {
    const net = cartNet(this.db, cartId);
    const user = this.cashier(cartId);
    for (const [k, e] of byKey(countedLines(this.db, cartId, lineIds))) {
      const back = Math.min(e.quantity, -(net.get(k) ?? 0));
      if (back > 0) this.ledger.record({ itemId: e.itemId, variantId: e.variantId, delta: back, reason: 'return', cartId, ...user });
    }
  }

  /**
   * After a line change (cart-edit.ts): the first item (or variant) the cart now holds more of
   * than is on hand, not warned about yet in this cart, becomes the cart's warning; no such
   * item clears it.
   */
  linesChanged(cartId: string): void {
    const warned = this.warned(cartId);
    let warning: string | null = null;
    for (const [k, e] of byKey(countedLines(this.db, cartId))) {
      if (warned.has(k)) continue;
      const onHand = this.ledger.onHand(e.itemId, e.variantId);
      if (onHand - e.quantity >= 0) continue;
      warned.add(k);
      warning ??= stockWarningText(e.name, onHand, onHand - e.quantity);
    }
    this.setWarning(cartId, warning, warned);
  }

  /** The cart's warning for its view (null when none). */
  warning(cartId: string): string | null {
    const r = this.db.prepare('SELECT stock_warning FROM carts WHERE id = ?').get(cartId) as { stock_warning: string | null } | undefined;
    return r?.stock_warning ?? null;
  }

  private sold(cartId: string): void {
    // Once per cart: a due cart paid again (issue 20) took its stock the first time.
    if (this.db.prepare(`SELECT 1 FROM stock_movements WHERE cart_id = ? AND reason = 'sale' LIMIT 1`).get(cartId)) return;
    const warned = this.warned(cartId);
    const user = this.cashier(cartId);
    let warning: string | null = null;
    for (const [k, e] of byKey(countedLines(this.db, cartId).filter((l) => !l.refunded))) {
      const before = this.ledger.onHand(e.itemId, e.variantId);
      this.ledger.record({ itemId: e.itemId, variantId: e.variantId, delta: -e.quantity, reason: 'sale', cartId, ...user });
      const after = before - e.quantity;
      if (after < 0 && !warned.has(k)) {
        warned.add(k);
        warning ??= stockWarningText(e.name, before, after);
      }
    }
    this.setWarning(cartId, warning, warned);
  }

  private cancelled(cartId: string): void {
    const user = this.cashier(cartId);
    for (const [k, n] of cartNet(this.db, cartId)) {
      if (n >= 0) continue;
      const [itemId, variant] = k.split('|') as [string, string];
      this.ledger.record({ itemId, variantId: variant === '' ? null : variant, delta: -n, reason: 'cancel', cartId, ...user });
    }
  }

  private warned(cartId: string): Set<string> {
    const r = this.db.prepare('SELECT stock_warned FROM carts WHERE id = ?').get(cartId) as { stock_warned: string | null } | undefined;
    return new Set(r?.stock_warned ? (JSON.parse(r.stock_warned) as string[]) : []);
  }

  private setWarning(cartId: string, warning: string | null, warned: ReadonlySet<string>): void {
    this.db.prepare('UPDATE carts SET stock_warning = ?, stock_warned = ? WHERE id = ?').run(warning, warned.size > 0 ? JSON.stringify([...warned]) : null, cartId);
  }

  /** The cart's cashier: who the cart's movements are written as. */
  private cashier(cartId: string): { userId: string | null; userName: string } {
    const r = this.db.prepare('SELECT c.user_id, u.name FROM carts c LEFT JOIN pos_users u ON u.id = c.user_id WHERE c.id = ?').get(cartId) as { user_id: string; name: string | null } | undefined;
    return { userId: r?.user_id ?? null, userName: r?.name ?? '' };
  }
}
