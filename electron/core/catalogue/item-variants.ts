/**
 * An item's variants (`catalogue_variants`): a latte's Small and Large, each with its own price
 * and SKU. Saved as the whole list the manager's form (or a CSV file) gives, in its order:
 *
 * - a variant given with its id keeps that row; one without an id takes the row of the item's
 *   variant of the same name (an archived one comes back), else a new row;
 * - a variant no longer in the list is archived, never deleted (stock movements point at it),
 *   and its SKU is released, so the code may be printed on another variant. Simplification: an
 *   archived variant's old labels no longer scan (a scan finds active items and variants only).
 *
 * The SKUs of the item's variants are cleared first and written again, so two variants may
 * swap codes in one save without meeting the database's one-SKU-one-thing trigger halfway.
 */
import { randomUUID } from 'node:crypto';
import type { Variant, VariantFields } from '../../../shared/ipc/catalogue';
import type { PosDatabase } from '../platform/pos-database';

interface VariantRow {
  id: string;
  item_id: string;
  seq: number;
  name: string;
  price_cents: number;
  sku: string;
  archived: number;
}

/** The active variants of the items asked for (all items when `itemIds` is null), by item id, in order; stock filled in by the caller. */
export function activeVariants(db: PosDatabase, itemIds: readonly string[] | null): Map<string, Array<Omit<Variant, 'stock'>>> {
  const rows = (
    itemIds === null
      ? db.prepare('SELECT * FROM catalogue_variants WHERE archived = 0 ORDER BY item_id, seq').all()
      : itemIds.length === 0
        ? []
        : db.prepare(`SELECT * FROM catalogue_variants WHERE archived = 0 AND item_id IN (${itemIds.map(() => '?').join(',')}) ORDER BY item_id, seq`).all(...itemIds)
  ) as VariantRow[];
  const byItem = new Map<string, Array<Omit<Variant, 'stock'>>>();
  for (const r of rows) {
    const list = byItem.get(r.item_id) ?? [];
    list.push({ id: r.id, itemId: r.item_id, name: r.name, priceCents: r.price_cents, sku: r.sku });
    byItem.set(r.item_id, list);
  }
  return byItem;
}

/** Writes the item's variant list (see the file's note); run inside the caller's transaction. */
export function saveVariants(db: PosDatabase, itemId: string, variants: readonly VariantFields[]): void {
  const existing = db.prepare('SELECT * FROM catalogue_variants WHERE item_id = ? ORDER BY archived, seq').all(itemId) as VariantRow[];
  db.prepare(`UPDATE catalogue_variants SET sku = '' WHERE item_id = ?`).run(itemId);
  const used = new Set<string>();
  const update = db.prepare('UPDATE catalogue_variants SET seq = ?, name = ?, price_cents = ?, sku = ?, archived = 0 WHERE id = ?');
  const insert = db.prepare('INSERT INTO catalogue_variants (id, item_id, seq, name, price_cents, sku, archived) VALUES (?, ?, ?, ?, ?, ?, 0)');
  variants.forEach((v, i) => {
    const row =
      (v.id !== undefined ? existing.find((r) => r.id === v.id && !used.has(r.id)) : undefined) ??
      existing.find((r) => !used.has(r.id) && r.name.toLowerCase() === v.name.toLowerCase());
    if (row) {
      used.add(row.id);
      update.run(i + 1, v.name, v.priceCents, v.sku, row.id);
    } else insert.run(randomUUID(), itemId, i + 1, v.name, v.priceCents, v.sku);
  });
  for (const r of existing) if (!used.has(r.id)) db.prepare('UPDATE catalogue_variants SET archived = 1 WHERE id = ?').run(r.id);
}

/** A variant of the item (archived ones too: a past line's variant), or undefined. */
export function variantRow(db: PosDatabase, variantId: string): { id: string; itemId: string; name: string; archived: boolean } | undefined {
  const r = db.prepare('SELECT id, item_id, name, archived FROM catalogue_variants WHERE id = ?').get(variantId) as { id: string; item_id: string; name: string; archived: number } | undefined;
  return r ? { id: r.id, itemId: r.item_id, name: r.name, archived: r.archived === 1 } : undefined;
}
