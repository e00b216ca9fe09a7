/**
 * The catalogue in the app database (`catalogue_items`): what the counter sells. Items are
 * archived, never deleted, so a past cart's lines keep pointing at a real row.
 *
 * CSV import: parsed with csv-parse (quotes, embedded commas and newlines, a BOM), every
 * row checked with the same schema as the manager's form; any bad row refuses the whole
 * file, each reported by its line number, and the rows go in within one SQLite
 * transaction, so a file is imported whole or not at all.
 *
 * A SKU (when not blank) names one item, matched without regard to case: a row whose SKU is
 * in the catalogue (archived items too) updates that item — the columns the file has; the
 * others keep their value, so a price list of sku,name,price changes only names and prices —
 * and the other rows are added. A SKU twice in one file refuses the file, and the form
 * refuses a SKU another item has. Rows without a SKU cannot be matched and are always added.
 */
import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { itemFieldsSchema, type CatalogueItem, type CsvImportResult, type ItemFields } from '../../../shared/ipc/catalogue';
import type { PosDatabase } from '../platform/pos-database';

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
}

const toItem = (r: ItemRow): CatalogueItem => ({
  id: r.id,
  name: r.name,
  priceCents: r.price_cents,
  sku: r.sku,
  productCode: r.product_code,
  unitCode: r.unit_code,
  commodityCode: r.commodity_code,
  taxCategory: r.tax_category === 'exempt' ? 'exempt' : 'standard',
  quickKey: r.quick_key === 1,
  archived: r.archived === 1,
});

export const CSV_COLUMNS = ['name', 'price', 'sku', 'product_code', 'unit_code', 'commodity_code', 'tax_category', 'quick_key'] as const;

export const CATALOGUE_MESSAGES = {
  notFound: 'That item is not in the catalogue.',
  header: `The first line must name the columns: name and price are needed; ${CSV_COLUMNS.slice(2).join(', ')} are optional.`,
  unknownColumn: (c: string) => `The column "${c}" is not one Ringup knows (${CSV_COLUMNS.join(', ')}).`,
  price: 'The price is a dollar amount such as 3.50 (no currency sign).',
  quickKey: 'quick_key is yes or no.',
  columns: (want: number, got: number) => `This row has ${got} fields; the header has ${want}.`,
  skuTwice: (sku: string, firstLine: number) => `The SKU ${sku} is on line ${firstLine} already: one row per SKU.`,
  skuInUse: (sku: string, name: string) => `The SKU ${sku} is already on “${name}”: edit that item instead.`,
  empty: 'The file has no items under its header.',
  malformed: (why: string) => `The file cannot be read as CSV: ${why}`,
} as const;

/** "3.50" → 350; anything but a plain non-negative amount with at most two decimals → null. */
export function parsePriceCents(s: string): number | null {
  const m = /^(\d{1,6})(?:\.(\d{1,2}))?$/.exec(s.trim());
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

export class Catalogue {
  constructor(private readonly db: PosDatabase) {}

  list(opts: { includeArchived?: boolean; search?: string } = {}): CatalogueItem[] {
    const q = (opts.search ?? '').trim().toLowerCase();
    const rows = this.db
      .prepare(
        `SELECT * FROM catalogue_items
          WHERE (? = 1 OR archived = 0)
            AND (? = '' OR lower(name) LIKE '%' || ? || '%' OR lower(sku) LIKE ? || '%' OR lower(product_code) LIKE ? || '%')
          ORDER BY name COLLATE NOCASE, id`,
      )
      .all(opts.includeArchived ? 1 : 0, q, q, q, q) as ItemRow[];
    return rows.map(toItem);
  }

  /** The item (archived ones too) whose SKU this is, without regard to case; other than `exceptId`. */
  bySku(sku: string, exceptId?: string): CatalogueItem | undefined {
    if (sku.trim() === '') return undefined;
    const r = this.db.prepare('SELECT * FROM catalogue_items WHERE lower(sku) = lower(?) AND id IS NOT ? ORDER BY created_ts LIMIT 1').get(sku.trim(), exceptId ?? null) as ItemRow | undefined;
    return r ? toItem(r) : undefined;
  }

  /**
   * The active item a scanned or typed code names: its SKU, else its product code, matched
   * whole and without regard to case (a barcode is a whole code, never the start of one).
   */
  byCode(code: string): CatalogueItem | undefined {
    const r = this.db
      .prepare(
        `SELECT * FROM catalogue_items
          WHERE archived = 0 AND (lower(sku) = lower(@code) OR lower(product_code) = lower(@code)) AND @code <> ''
          ORDER BY lower(sku) = lower(@code) DESC, created_ts LIMIT 1`,
      )
      .get({ code: code.trim() }) as ItemRow | undefined;
    return r ? toItem(r) : undefined;
  }

  get(id: string): CatalogueItem | undefined {
    const r = this.db.prepare('SELECT * FROM catalogue_items WHERE id = ?').get(id) as ItemRow | undefined;
    return r ? toItem(r) : undefined;
  }

  add(fields: ItemFields): CatalogueItem {
    const id = randomUUID();
    this.db
      .prepare(
        `INSERT INTO catalogue_items (id, name, price_cents, sku, product_code, unit_code, commodity_code, tax_category, quick_key, archived, created_ts)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`,
      )
      .run(id, fields.name, fields.priceCents, fields.sku, fields.productCode, fields.unitCode, fields.commodityCode, fields.taxCategory, fields.quickKey ? 1 : 0, Date.now());
    return this.get(id)!;
  }

  update(id: string, fields: ItemFields): CatalogueItem | undefined {
    const r = this.db
      .prepare(
        `UPDATE catalogue_items SET name = ?, price_cents = ?, sku = ?, product_code = ?, unit_code = ?, commodity_code = ?, tax_category = ?, quick_key = ?
          WHERE id = ?`,
      )
      .run(fields.name, fields.priceCents, fields.sku, fields.productCode, fields.unitCode, fields.commodityCode, fields.taxCategory, fields.quickKey ? 1 : 0, id);
    return r.changes === 1 ? this.get(id) : undefined;
  }

  setArchived(id: string, archived: boolean): CatalogueItem | undefined {
    const r = this.db.prepare('UPDATE catalogue_items SET archived = ? WHERE id = ?').run(archived ? 1 : 0, id);
    return r.changes === 1 ? this.get(id) : undefined;
  }

  /** Checks every row first; imports all of them in one transaction only when none is bad. */
  importCsv(csv: string): CsvImportResult {
    let records: Array<{ record: Record<string, string>; info: { lines: number; error?: { record?: unknown[] } } }>;
    try {
      records = parse(csv, { columns: (h: string[]) => h.map((c) => c.trim().toLowerCase()), info: true, skip_empty_lines: true, relax_column_count: true, bom: true, trim: true }) as typeof records;
    } catch (err) {
      const e = err as { message?: string; lines?: number };
      return { imported: 0, added: 0, updated: 0, errors: [{ line: e.lines ?? 1, message: CATALOGUE_MESSAGES.malformed((e.message ?? '').replace(/^Invalid [^:]*: /, '')) }] };
    }
    const header = csv.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0]!.split(',').map((c) => c.trim().replace(/^"|"$/g, '').toLowerCase());
    if (!header.includes('name') || !header.includes('price')) return { imported: 0, added: 0, updated: 0, errors: [{ line: 1, message: CATALOGUE_MESSAGES.header }] };
    const unknown = header.find((c) => !(CSV_COLUMNS as readonly string[]).includes(c));
    if (unknown !== undefined) return { imported: 0, added: 0, updated: 0, errors: [{ line: 1, message: CATALOGUE_MESSAGES.unknownColumn(unknown) }] };
    if (records.length === 0) return { imported: 0, added: 0, updated: 0, errors: [{ line: 2, message: CATALOGUE_MESSAGES.empty }] };

    const errors: CsvImportResult['errors'] = [];
    const good: ItemFields[] = [];
    const skuLines = new Map<string, number>();
    for (const { record, info } of records) {
      const line = info.lines;
      const got = Object.keys(record).length;
      if (got !== header.length || info.error) {
        errors.push({ line, message: CATALOGUE_MESSAGES.columns(header.length, Array.isArray(info.error?.record) ? info.error.record.length : got) });
        continue;
      }
      const priceCents = parsePriceCents(record.price ?? '');
      if (priceCents === null) {
        errors.push({ line, message: CATALOGUE_MESSAGES.price });
        continue;
      }
      const qk = (record.quick_key ?? '').toLowerCase();
      if (!['', 'yes', 'no', 'y', 'n', 'true', 'false', '1', '0'].includes(qk)) {
        errors.push({ line, message: CATALOGUE_MESSAGES.quickKey });
        continue;
      }
      const blankToUndef = (v: string | undefined) => (v === undefined || v === '' ? undefined : v);
      const parsed = itemFieldsSchema.safeParse({
        name: record.name ?? '',
        priceCents,
        sku: blankToUndef(record.sku),
        productCode: blankToUndef(record.product_code),
        unitCode: blankToUndef(record.unit_code),
        commodityCode: blankToUndef(record.commodity_code),
        taxCategory: blankToUndef(record.tax_category?.toLowerCase()),
        quickKey: ['yes', 'y', 'true', '1'].includes(qk),
      });
      if (!parsed.success) {
        errors.push({ line, message: parsed.error.issues.map((i) => i.message).join(' ') });
        continue;
      }
      const sku = parsed.data.sku.toLowerCase();
      if (sku !== '') {
        const first = skuLines.get(sku);
        if (first !== undefined) {
          errors.push({ line, message: CATALOGUE_MESSAGES.skuTwice(parsed.data.sku, first) });
          continue;
        }
        skuLines.set(sku, line);
      }
      good.push(parsed.data);
    }
    if (errors.length > 0) return { imported: 0, added: 0, updated: 0, errors };
    // A matched item takes the columns this file has; the others keep the item's value.
    const has = (c: (typeof CSV_COLUMNS)[number]) => header.includes(c);
    let added = 0;
    let updated = 0;
    this.db.transaction(() => {
      for (const f of good) {
        const old = this.bySku(f.sku);
        if (!old) {
          this.add(f);
          added++;
          continue;
        }
        this.update(old.id, {
          name: f.name,
          priceCents: f.priceCents,
          sku: old.sku,
          productCode: has('product_code') ? f.productCode : old.productCode,
          unitCode: has('unit_code') ? f.unitCode : old.unitCode,
          commodityCode: has('commodity_code') ? f.commodityCode : old.commodityCode,
          taxCategory: has('tax_category') ? f.taxCategory : old.taxCategory,
          quickKey: has('quick_key') ? f.quickKey : old.quickKey,
        });
        updated++;
      }
    })();
    return { imported: good.length, added, updated, errors: [] };
  }
}
