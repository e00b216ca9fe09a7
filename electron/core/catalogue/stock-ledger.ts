/**
 * Stock as a ledger (`stock_movements`): every change of an item's (or a variant's) count is a
 * row — a sale, a return, a cancelled sale, a manager's delta or count — and what is on hand is
 * the sum of the rows, never a stored number. Two registers selling the last bottle each write
 * −1, and the sum says −1: nothing is lost and nothing is overwritten (issue 24 merges ledgers).
 *
 * Only items whose stock is counted (`track_stock`) get movements; an item with variants is
 * counted per variant. A count (a stocktake) is written as the delta that brings the sum to it.
 */
import { randomUUID } from 'node:crypto';
import type { LowStockLine, StockAdjust } from '../../../shared/ipc/catalogue';
import type { PosDatabase } from '../platform/pos-database';

export type StockReason = 'sale' | 'return' | 'cancel' | 'adjust' | 'count';

export interface StockMovement {
  itemId: string;
  variantId: string | null;
  delta: number;
  reason: StockReason;
  note?: string;
  cartId?: string | null;
  userId?: string | null;
  userName?: string;
}

/** The key of a count: an item's, or one of its variants'. */
export const stockKey = (itemId: string, variantId: string | null) => `${itemId}|${variantId ?? ''}`;

export const STOCK_MESSAGES = {
  noItem: 'That item is not in the catalogue.',
  notCounted: (name: string) => `Stock is not counted for ${name}: tick “Count stock” on the item first.`,
  chooseVariant: (name: string, variants: string) => `${name} is counted per variant: choose one (${variants}).`,
  notVariant: (name: string) => `That variant is not one of ${name}’s.`,
  noVariants: (name: string) => `${name} has no variants: adjust the item’s own count.`,
} as const;

/** A count as a merchant writes it: −1 with a real minus sign. */
export const formatCount = (n: number) => (n < 0 ? `\u2212${-n}` : String(n));

export class StockLedger {
  constructor(
    private readonly db: PosDatabase,
    private readonly now: () => number = Date.now,
  ) {}

  onHand(itemId: string, variantId: string | null): number {
    const r = this.db.prepare('SELECT COALESCE(SUM(delta), 0) AS n FROM stock_movements WHERE item_id = ? AND variant_id IS ?').get(itemId, variantId) as { n: number };
    return r.n;
  }

  /** Every count there is, by stockKey. */
  levels(): Map<string, number> {
    const rows = this.db.prepare('SELECT item_id, variant_id, SUM(delta) AS n FROM stock_movements GROUP BY item_id, variant_id').all() as Array<{ item_id: string; variant_id: string | null; n: number }>;
    return new Map(rows.map((r) => [stockKey(r.item_id, r.variant_id), r.n]));
  }

  record(m: StockMovement): void {
    if (m.delta === 0) return;
    this.db
      .prepare('INSERT INTO stock_movements (id, item_id, variant_id, delta, reason, note, cart_id, user_id, user_name, ts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(randomUUID(), m.itemId, m.variantId, m.delta, m.reason, m.note ?? '', m.cartId ?? null, m.userId ?? null, m.userName ?? '', this.now());
  }

  /**
   * A manager's count or delta, checked against the item: counted, and the variant named when
   * (and only when) it has variants. Answers what it was and what it is, with the name to say.
   * A count equal to what is on hand writes no row (a movement is never zero) and says so.
   */
  adjust(a: StockAdjust, by: { id: string; name: string }): { ok: true; name: string; before: number; after: number } | { ok: false; message: string } {
    const item = this.db.prepare('SELECT id, name, track_stock FROM catalogue_items WHERE id = ?').get(a.itemId) as { id: string; name: string; track_stock: number } | undefined;
    if (!item) return { ok: false, message: STOCK_MESSAGES.noItem };
    if (item.track_stock !== 1) return { ok: false, message: STOCK_MESSAGES.notCounted(item.name) };
    const variants = this.db.prepare('SELECT id, name FROM catalogue_variants WHERE item_id = ? AND archived = 0 ORDER BY seq').all(item.id) as Array<{ id: string; name: string }>;
    let name = item.name;
    if (variants.length > 0) {
      if (a.variantId === null) return { ok: false, message: STOCK_MESSAGES.chooseVariant(item.name, variants.map((v) => v.name).join(', ')) };
      const v = variants.find((x) => x.id === a.variantId);
      if (!v) return { ok: false, message: STOCK_MESSAGES.notVariant(item.name) };
      name = `${item.name} ${v.name}`;
    } else if (a.variantId !== null) return { ok: false, message: STOCK_MESSAGES.noVariants(item.name) };
    let result: { before: number; after: number } = { before: 0, after: 0 };
    this.db.transaction(() => {
      const before = this.onHand(item.id, a.variantId);
      const delta = a.change.kind === 'count' ? a.change.count - before : a.change.delta;
      this.record({ itemId: item.id, variantId: a.variantId, delta, reason: a.change.kind === 'count' ? 'count' : 'adjust', note: a.reason, userId: by.id, userName: by.name });
      result = { before, after: before + delta };
    })();
    return { ok: true, name, ...result };
  }

  /** Counted items (and variants) at or under their reorder level, the emptiest first. */
  lowStock(): LowStockLine[] {
    const levels = this.levels();
    const items = this.db.prepare('SELECT id, name, reorder_level FROM catalogue_items WHERE archived = 0 AND track_stock = 1').all() as Array<{ id: string; name: string; reorder_level: number }>;
    const variants = this.db.prepare('SELECT id, item_id, name FROM catalogue_variants WHERE archived = 0 ORDER BY item_id, seq').all() as Array<{ id: string; item_id: string; name: string }>;
    const lines: LowStockLine[] = [];
    for (const it of items) {
      const own = variants.filter((v) => v.item_id === it.id);
      const counts = own.length > 0 ? own.map((v) => ({ variantId: v.id as string | null, name: `${it.name} ${v.name}` })) : [{ variantId: null, name: it.name }];
      for (const c of counts) {
        const stock = levels.get(stockKey(it.id, c.variantId)) ?? 0;
        if (stock <= it.reorder_level) lines.push({ itemId: it.id, variantId: c.variantId, name: c.name, stock, reorderLevel: it.reorder_level });
      }
    }
    return lines.sort((a, b) => a.stock - b.stock || a.name.localeCompare(b.name));
  }
}
