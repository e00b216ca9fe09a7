/**
 * The catalogue in the app database (`catalogue_items` and, issue 23, their variants, category,
 * modifier groups and stock): what the counter sells. Items are archived, never deleted, so a
 * past cart's lines keep pointing at a real row.
 *
 * A SKU (when not blank) names one item or one variant, matched without regard to case: the
 * form refuses a SKU another item or variant has (skuOwner), and the database's triggers refuse
 * a write that would make one SKU name two things. A scanned code finds an active item by its
 * SKU or product code, or an active variant by its SKU (byCode answers which).
 *
 * The parts live beside it, one concept a file: item-variants.ts, categories.ts,
 * modifier-groups.ts, stock-ledger.ts; the CSV format is catalogue-csv.ts.
 */
import { randomUUID } from 'node:crypto';
import type { CatalogueItem, ItemFields, TaxCategory, Variant } from '../../../shared/ipc/catalogue';
import type { PosDatabase } from '../platform/pos-database';
import { Categories, CATEGORY_MESSAGES } from './categories';
import { activeVariants, saveVariants } from './item-variants';
import { MODIFIER_MESSAGES, ModifierGroups } from './modifier-groups';
import { StockLedger, stockKey } from './stock-ledger';

interface ItemRow {
  id: string;
  name: string;
  price_cents: number;
  sku: string;
  product_code: string;
  unit_code: string;
  commodity_code: string;
  tax_category: string;
  quick_key: number;
  archived: number;
  category_id: string | null;
  track_stock: number;
  reorder_level: number;
}

export const CATALOGUE_MESSAGES = {
  notFound: 'That item is not in the catalogue.',
  skuInUse: (sku: string, name: string) => `The SKU ${sku} is already on “${name}”: edit that item instead.`,
  skuTwiceOnItem: (sku: string) => `The SKU ${sku} is given twice on this item: each variant needs its own.`,
  variantTwice: (name: string) => `The variant “${name}” is on this item twice.`,
} as const;

/** What a scanned or typed code names: an item, and the variant when it was a variant's SKU. */
export interface CodeMatch {
  item: CatalogueItem;
  variant: Variant | null;
}

/** The form's field errors, by field path ("sku", "variants.1.sku", "categoryId" …); null when there are none. */
export type FieldProblems = Record<string, string[]> | null;

/** An item's own columns (its variants and groups are rows of their own), named as the table names them: one list for add and update. */
function itemColumns(f: ItemFields) {
  return {
    name: f.name,
    price_cents: f.priceCents,
    sku: f.sku,
    product_code: f.productCode,
    unit_code: f.unitCode,
    commodity_code: f.commodityCode,
    tax_category: f.taxCategory,
    quick_key: f.quickKey ? 1 : 0,
    category_id: f.categoryId,
    track_stock: f.trackStock ? 1 : 0,
    reorder_level: f.reorderLevel,
  };
}

export class Catalogue {
  readonly categories: Categories;
  readonly groups: ModifierGroups;
  readonly stock: StockLedger;

  constructor(
    private readonly db: PosDatabase,
    private readonly now: () => number = Date.now,
  ) {
    this.categories = new Categories(db, now);
    this.groups = new ModifierGroups(db, now);
    this.stock = new StockLedger(db, now);
  }

  list(opts: { includeArchived?: boolean; search?: string } = {}): CatalogueItem[] {
    const q = (opts.search ?? '').trim().toLowerCase();
    const rows = this.db
      .prepare(
        `SELECT * FROM catalogue_items
          WHERE (? = 1 OR archived = 0)
            AND (? = '' OR lower(name) LIKE '%' || ? || '%' OR lower(sku) LIKE ? || '%' OR lower(product_code) LIKE ? || '%'
                 OR id IN (SELECT item_id FROM catalogue_variants WHERE archived = 0 AND lower(sku) LIKE ? || '%'))
          ORDER BY name COLLATE NOCASE, id`,
      )
      .all(opts.includeArchived ? 1 : 0, q, q, q, q, q) as ItemRow[];
    return this.toItems(rows);
  }

  get(id: string): CatalogueItem | undefined {
    const r = this.db.prepare('SELECT * FROM catalogue_items WHERE id = ?').get(id) as ItemRow | undefined;
    return r ? this.toItems([r])[0] : undefined;
  }

  /** The item (archived ones too) whose own SKU this is, without regard to case; other than `exceptId`. */
  bySku(sku: string, exceptId?: string): CatalogueItem | undefined {
    if (sku.trim() === '') return undefined;
    const r = this.db.prepare('SELECT * FROM catalogue_items WHERE lower(sku) = lower(?) AND id IS NOT ? ORDER BY created_ts LIMIT 1').get(sku.trim(), exceptId ?? null) as ItemRow | undefined;
    return r ? this.toItems([r])[0] : undefined;
  }

  /** Who has this SKU — an item (archived ones too) or an active variant ("Latte Large") — other than item `exceptItemId` and its variants. */
  skuOwner(sku: string, exceptItemId?: string): { itemId: string; name: string } | undefined {
    if (sku.trim() === '') return undefined;
    const item = this.bySku(sku, exceptItemId);
    if (item) return { itemId: item.id, name: item.name };
    const v = this.db
      .prepare(
        `SELECT i.id, i.name AS item_name, v.name FROM catalogue_variants v JOIN catalogue_items i ON i.id = v.item_id
          WHERE lower(v.sku) = lower(?) AND v.sku <> '' AND v.item_id IS NOT ? LIMIT 1`,
      )
      .get(sku.trim(), exceptItemId ?? null) as { id: string; item_name: string; name: string } | undefined;
    return v ? { itemId: v.id, name: `${v.item_name} ${v.name}` } : undefined;
  }

  /**
   * The active item a scanned or typed code names: its SKU, else its product code, else the SKU
   * of one of its active variants (answered with it); matched whole and without regard to case
   * (a barcode is a whole code, never the start of one).
   */
  byCode(code: string): CodeMatch | undefined {
    const c = code.trim();
    if (c === '') return undefined;
    const r = this.db
      .prepare(
        `SELECT * FROM catalogue_items
          WHERE archived = 0 AND (lower(sku) = lower(@code) OR lower(product_code) = lower(@code))
          ORDER BY lower(sku) = lower(@code) DESC, created_ts LIMIT 1`,
      )
      .get({ code: c }) as ItemRow | undefined;
    if (r) return { item: this.toItems([r])[0]!, variant: null };
    const v = this.db
      .prepare(
        `SELECT v.id, v.item_id FROM catalogue_variants v JOIN catalogue_items i ON i.id = v.item_id
          WHERE v.archived = 0 AND i.archived = 0 AND v.sku <> '' AND lower(v.sku) = lower(?) LIMIT 1`,
      )
      .get(c) as { id: string; item_id: string } | undefined;
    const item = v ? this.get(v.item_id) : undefined;
    const variant = item?.variants.find((x) => x.id === v!.id);
    return item && variant ? { item, variant } : undefined;
  }

  /**
   * What the form (or a CSV row) may not save: a SKU another item or variant has, or given twice
   * on this item; a variant name twice; a category or modifier group that is missing or archived.
   */
  problems(fields: ItemFields, exceptItemId?: string): FieldProblems {
    const out: Record<string, string[]> = {};
    const put = (k: string, m: string) => (out[k] ??= []).push(m);
    const codes = [{ key: 'sku', sku: fields.sku }, ...fields.variants.map((v, i) => ({ key: `variants.${i}.sku`, sku: v.sku }))].filter((c) => c.sku !== '');
    const seen = new Set<string>();
    for (const c of codes) {
      if (seen.has(c.sku.toLowerCase())) {
        put(c.key, CATALOGUE_MESSAGES.skuTwiceOnItem(c.sku));
        continue;
      }
      seen.add(c.sku.toLowerCase());
      const owner = this.skuOwner(c.sku, exceptItemId);
      if (owner) put(c.key, CATALOGUE_MESSAGES.skuInUse(c.sku, owner.name));
    }
    const names = new Set<string>();
    fields.variants.forEach((v, i) => {
      if (names.has(v.name.toLowerCase())) put(`variants.${i}.name`, CATALOGUE_MESSAGES.variantTwice(v.name));
      names.add(v.name.toLowerCase());
    });
    if (fields.categoryId !== null) {
      const cat = this.categories.get(fields.categoryId);
      if (!cat) put('categoryId', CATEGORY_MESSAGES.notFound);
      else if (cat.archived) put('categoryId', CATEGORY_MESSAGES.archived(cat.name));
    }
    for (const g of fields.modifierGroupIds) {
      const group = this.groups.get(g);
      if (!group) put('modifierGroupIds', MODIFIER_MESSAGES.notFound);
      else if (group.archived) put('modifierGroupIds', MODIFIER_MESSAGES.archived(group.name));
    }
    return Object.keys(out).length > 0 ? out : null;
  }

  add(fields: ItemFields): CatalogueItem {
    const id = randomUUID();
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO catalogue_items (id, name, price_cents, sku, product_code, unit_code, commodity_code, tax_category, quick_key, archived, created_ts,
                                        category_id, track_stock, reorder_level)
           VALUES (@id, @name, @price_cents, @sku, @product_code, @unit_code, @commodity_code, @tax_category, @quick_key, 0, @created_ts,
                   @category_id, @track_stock, @reorder_level)`,
        )
        .run({ ...itemColumns(fields), id, created_ts: this.now() });
      saveVariants(this.db, id, fields.variants);
      this.groups.linkItem(id, fields.modifierGroupIds);
    })();
    return this.get(id)!;
  }

  update(id: string, fields: ItemFields): CatalogueItem | undefined {
    let changed = 0;
    this.db.transaction(() => {
      changed = this.db
        .prepare(
          `UPDATE catalogue_items SET name = @name, price_cents = @price_cents, sku = @sku, product_code = @product_code, unit_code = @unit_code,
                  commodity_code = @commodity_code, tax_category = @tax_category, quick_key = @quick_key,
                  category_id = @category_id, track_stock = @track_stock, reorder_level = @reorder_level
            WHERE id = @id`,
        )
        .run({ ...itemColumns(fields), id }).changes;
      if (changed !== 1) return;
      saveVariants(this.db, id, fields.variants);
      this.groups.linkItem(id, fields.modifierGroupIds);
    })();
    return changed === 1 ? this.get(id) : undefined;
  }

  setArchived(id: string, archived: boolean): CatalogueItem | undefined {
    const r = this.db.prepare('UPDATE catalogue_items SET archived = ? WHERE id = ?').run(archived ? 1 : 0, id);
    return r.changes === 1 ? this.get(id) : undefined;
  }

  /** The rows as items: their active variants, their category (none while it is archived), the active groups they offer, and the counts when counted. */
  private toItems(rows: readonly ItemRow[]): CatalogueItem[] {
    if (rows.length === 0) return [];
    const variants = activeVariants(this.db, rows.length > 50 ? null : rows.map((r) => r.id));
    const groups = this.groups.groupIdsOfItems();
    const activeCategories = new Set(this.categories.list().map((c) => c.id));
    const levels = rows.some((r) => r.track_stock === 1) ? this.stock.levels() : new Map<string, number>();
    return rows.map((r) => {
      const counted = r.track_stock === 1;
      const own = variants.get(r.id) ?? [];
      return {
        id: r.id,
        name: r.name,
        priceCents: r.price_cents,
        sku: r.sku,
        productCode: r.product_code,
        unitCode: r.unit_code,
        commodityCode: r.commodity_code,
        taxCategory: (r.tax_category === 'exempt' ? 'exempt' : 'standard') as TaxCategory,
        quickKey: r.quick_key === 1,
        archived: r.archived === 1,
        categoryId: r.category_id !== null && activeCategories.has(r.category_id) ? r.category_id : null,
        variants: own.map((v) => ({ ...v, stock: counted ? (levels.get(stockKey(r.id, v.id)) ?? 0) : null })),
        modifierGroupIds: groups.get(r.id) ?? [],
        trackStock: counted,
        reorderLevel: r.reorder_level,
        stock: counted && own.length === 0 ? (levels.get(stockKey(r.id, null)) ?? 0) : null,
      };
    });
  }
}
