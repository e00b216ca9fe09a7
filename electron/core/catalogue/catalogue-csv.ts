/**
 * The catalogue as one CSV file, read and written (issue 23, point 5). One file a spreadsheet
 * opens, in up to three tables one under the other, each starting at its own header line
 * (a blank line between them is allowed and written):
 *
 * 1. Items — header with at least `name` and `price`; the other columns are optional:
 *    sku, product_code, unit_code, commodity_code, tax_category, quick_key (yes/no),
 *    category (a category's name), variant, modifier_groups (group names joined by |, in the
 *    order the counter asks them), track_stock (yes/no), stock, reorder_level, archived (yes/no).
 *    An item with variants is its own row (its price is the form's default) followed right
 *    under it by one row per variant: the same name, the variant's name in `variant`, and its
 *    price, sku and stock; its other columns stay blank (they are the item's).
 * 2. Categories — header `category,colour,sort_order`: one row per category.
 * 3. Modifier groups — header `modifier_group,min_choices,max_choices,choice,choice_price`:
 *    one row per choice; the group's min and max repeated on each of its rows.
 *
 * Today's simple files (name,price,sku,… with no other table) import as before.
 *
 * Import: every row is checked first with the schemas the manager's forms use; any bad row
 * refuses the whole file, each reported by its line number (the header is line 1, as a
 * spreadsheet shows it), and everything goes in within one SQLite transaction. An item row
 * updates the item whose SKU it has (archived ones too), else the item one of its variant rows'
 * SKU belongs to, else it is a new item; a matched item takes the columns the file has and keeps
 * the others (a price list of sku,name,price changes only names and prices). With a `variant`
 * column the file's variant rows are the item's whole list (variants left out are archived).
 * Categories and groups are matched by name, any case; a category an item names that is in
 * neither the file nor the catalogue is made (slate, order 0). A `stock` cell on a counted item
 * is a stock count: the difference is written to the ledger as a count, "CSV import".
 *
 * Export writes the same three tables: every item (archived ones marked), active categories and
 * groups. Importing an export into an empty catalogue and exporting again gives the same text.
 * Simplifications: archived categories and groups are not written (an item naming an archived
 * group is refused; one naming an archived category keeps it, and shows under Other until it is
 * restored); rows without any SKU cannot be
 * matched, so importing them again adds them again (as before); a cell starting with = + - @ is
 * written as it is (a spreadsheet may take it for a formula: open the file as text).
 */
import { parse } from 'csv-parse/sync';
import {
  CATEGORY_COLOURS,
  categoryFieldsSchema,
  itemFieldsSchema,
  modifierGroupFieldsSchema,
  variantFieldsSchema,
  type CategoryFields,
  type CsvImportResult,
  type ItemFields,
  type ModifierGroupFields,
  type VariantFields,
} from '../../../shared/ipc/catalogue';
import { formatMoney } from '../../../shared/payments/money';
import type { PosDatabase } from '../platform/pos-database';
import type { Catalogue } from './catalogue';
import { MODIFIER_MESSAGES } from './modifier-groups';

export const ITEM_COLUMNS = [
  'name',
  'price',
  'sku',
  'product_code',
  'unit_code',
  'commodity_code',
  'tax_category',
  'quick_key',
  'category',
  'variant',
  'modifier_groups',
  'track_stock',
  'stock',
  'reorder_level',
  'archived',
] as const;
export const CATEGORY_COLUMNS = ['category', 'colour', 'sort_order'] as const;
export const GROUP_COLUMNS = ['modifier_group', 'min_choices', 'max_choices', 'choice', 'choice_price'] as const;
/** The columns of today's simple files (issue 15). */
export const CSV_COLUMNS = ITEM_COLUMNS;
type ItemColumn = (typeof ITEM_COLUMNS)[number];

/** On a variant row, only these are read; the others are the item's. */
const VARIANT_ROW_COLUMNS: readonly ItemColumn[] = ['name', 'variant', 'price', 'sku', 'stock'];

export const CSV_MESSAGES = {
  header: `The first line must name the columns: name and price are needed; ${ITEM_COLUMNS.slice(2).join(', ')} are optional.`,
  unknownColumn: (c: string) => `The column "${c}" is not one Ringup knows (${ITEM_COLUMNS.join(', ')}).`,
  unknownSectionColumn: (c: string, cols: readonly string[]) => `The column "${c}" is not one of this table's (${cols.join(', ')}).`,
  sectionTwice: (first: number) => `This table was started on line ${first} already: one of each in a file.`,
  price: 'The price is a dollar amount such as 3.50 (no currency sign).',
  choicePrice: 'The choice_price is a dollar amount such as 0.50 (no currency sign), or blank for 0.00.',
  yesNo: (col: string) => `${col} is yes or no.`,
  quickKey: 'quick_key is yes or no.',
  wholeNumber: (col: string, min: number, max: number) => `${col} is a whole number from ${min} to ${max}.`,
  columns: (want: number, got: number) => `This row has ${got} fields; the header has ${want}.`,
  skuTwice: (sku: string, firstLine: number) => `The SKU ${sku} is on line ${firstLine} already: one row per SKU.`,
  empty: 'The file has no items under its header.',
  malformed: (why: string) => `The file cannot be read as CSV: ${why}`,
  variantOrphan: (name: string) => `A variant row goes right under its item's row, with the same name: no item row “${name}” above it.`,
  variantColumn: (col: string) => `On a variant row only name, variant, price, sku and stock are read: leave ${col} blank (it is the item's, on its own row).`,
  variantTwice: (name: string, first: number) => `The variant “${name}” is on line ${first} already for this item.`,
  stockPerVariant: 'This item is counted per variant: put each count on its variant row and leave this stock blank.',
  stockNotCounted: 'Stock is counted only when track_stock is yes: leave stock blank, or set track_stock to yes.',
  categoryTwice: (name: string, first: number) => `The category “${name}” is on line ${first} already.`,
  colour: `The colour is one of ${CATEGORY_COLOURS.join(', ')}.`,
  groupRule: (name: string, first: number) => `The group “${name}” has other min_choices or max_choices on line ${first}: give the same on each of its rows.`,
  choiceTwice: (name: string, first: number) => `The choice “${name}” is on line ${first} already for this group.`,
  noGroup: (name: string) => `There is no modifier group “${name}”: add its rows to the modifier_group table of this file, or make it on the Catalogue screen.`,
  sameItem: (first: number) => `This row is the same item as line ${first} (by its SKUs): one row per item.`,
  stockNote: 'CSV import',
} as const;

/** "3.50" → 350; anything but a plain non-negative amount with at most two decimals → null. */
export function parsePriceCents(s: string): number | null {
  const m = /^(\d{1,6})(?:\.(\d{1,2}))?$/.exec(s.trim());
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

const YES = ['yes', 'y', 'true', '1'];
const NO = ['no', 'n', 'false', '0'];
/** yes/no (and y/n, true/false, 1/0), any case; blank → undefined; anything else → null. */
const yesNo = (s: string | undefined): boolean | undefined | null => {
  const v = (s ?? '').trim().toLowerCase();
  if (v === '') return undefined;
  return YES.includes(v) ? true : NO.includes(v) ? false : null;
};
/** A whole number in range; blank → undefined; anything else → null. */
const wholeNumber = (s: string | undefined, min: number, max: number): number | undefined | null => {
  const v = (s ?? '').trim().replace(/^\u2212/, '-');
  if (v === '') return undefined;
  if (!/^-?\d{1,6}$/.test(v)) return null;
  const n = Number(v);
  return n >= min && n <= max ? n : null;
};
const blankToUndef = (v: string | undefined) => (v === undefined || v === '' ? undefined : v);

type Section = 'items' | 'categories' | 'groups';
interface Row {
  line: number;
  cells: Record<string, string>;
}
interface ItemRowPlan {
  line: number;
  fields: ItemFields;
  /** The item-level stock count asked for (items without variants). */
  stock: number | undefined;
  /** The variant rows: their lines and counts. */
  variantRows: Array<{ line: number; name: string; sku: string; stock: number | undefined }>;
  categoryName: string | undefined;
  groupNames: string[] | undefined;
  archived: boolean | undefined;
  trackGiven: boolean;
}

const refused = (errors: CsvImportResult['errors']): CsvImportResult => ({ imported: 0, added: 0, updated: 0, errors });

/** Splits the file into its tables by their header lines; each row as cells by column. */
function readTables(csv: string): { ok: true; tables: Partial<Record<Section, { header: string[]; line: number; rows: Row[] }>> } | { ok: false; errors: CsvImportResult['errors'] } {
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parse(csv, { info: true, skip_empty_lines: true, relax_column_count: true, bom: true, trim: true }) as unknown as typeof records;
  } catch (err) {
    const e = err as { message?: string; lines?: number };
    return { ok: false, errors: [{ line: e.lines ?? 1, message: CSV_MESSAGES.malformed((e.message ?? '').replace(/^Invalid [^:]*: /, '')) }] };
  }
  // A row a spreadsheet wrote as only commas is a blank line.
  records = records.filter((r) => r.record.some((c) => c !== ''));
  const tables: Partial<Record<Section, { header: string[]; line: number; rows: Row[] }>> = {};
  const errors: CsvImportResult['errors'] = [];
  let current: Section | null = null;
  for (const { record, info } of records) {
    const cells = record.map((c) => c.trim());
    const lower = cells.map((c) => c.toLowerCase());
    const kind: Section | null = lower[0] === 'category' && lower[1] === 'colour' ? 'categories' : lower[0] === 'modifier_group' ? 'groups' : current === null ? 'items' : null;
    if (kind !== null) {
      // A spreadsheet pads a narrower table's lines with empty fields: they are not columns.
      while (lower.length > 0 && lower[lower.length - 1] === '') lower.pop();
      const known: readonly string[] = kind === 'items' ? ITEM_COLUMNS : kind === 'categories' ? CATEGORY_COLUMNS : GROUP_COLUMNS;
      if (kind === 'items' && (!lower.includes('name') || !lower.includes('price'))) return { ok: false, errors: [{ line: info.lines, message: CSV_MESSAGES.header }] };
      const unknown = lower.find((c) => !known.includes(c));
      if (unknown !== undefined) return { ok: false, errors: [{ line: info.lines, message: kind === 'items' ? CSV_MESSAGES.unknownColumn(unknown) : CSV_MESSAGES.unknownSectionColumn(unknown, known) }] };
      const before = tables[kind];
      if (before) return { ok: false, errors: [{ line: info.lines, message: CSV_MESSAGES.sectionTwice(before.line) }] };
      tables[kind] = { header: lower, line: info.lines, rows: [] };
      current = kind;
      continue;
    }
    const t = tables[current!]!;
    const extra = cells.slice(t.header.length);
    if (cells.length < t.header.length || extra.some((c) => c !== '')) {
      errors.push({ line: info.lines, message: CSV_MESSAGES.columns(t.header.length, cells.length - (cells.length > t.header.length ? extra.length - extra.filter((c) => c !== '').length : 0)) });
      continue;
    }
    t.rows.push({ line: info.lines, cells: Object.fromEntries(t.header.map((h, i) => [h, cells[i]!])) });
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, tables };
}

/**
 * Checks every row first; imports all of it in one transaction only when none is bad. `by` is
 * the manager importing (the stock counts' author).
 */
export function importCatalogueCsv(db: PosDatabase, catalogue: Catalogue, csv: string, by: { id: string; name: string }): CsvImportResult {
  const read = readTables(csv);
  if (!read.ok) return refused(read.errors);
  const { tables } = read;
  const rowCount = (tables.items?.rows.length ?? 0) + (tables.categories?.rows.length ?? 0) + (tables.groups?.rows.length ?? 0);
  if (rowCount === 0) return refused([{ line: (tables.items?.line ?? 1) + 1, message: CSV_MESSAGES.empty }]);
  const errors: CsvImportResult['errors'] = [];

  // ── Categories: by name.
  const categories = new Map<string, { line: number; fields: CategoryFields }>();
  for (const { line, cells } of tables.categories?.rows ?? []) {
    const first = categories.get((cells.category ?? '').toLowerCase());
    if (first) {
      errors.push({ line, message: CSV_MESSAGES.categoryTwice(cells.category ?? '', first.line) });
      continue;
    }
    const colour = (cells.colour ?? '').toLowerCase();
    if (colour !== '' && !(CATEGORY_COLOURS as readonly string[]).includes(colour)) {
      errors.push({ line, message: CSV_MESSAGES.colour });
      continue;
    }
    const order = wholeNumber(cells.sort_order, 0, 999);
    if (order === null) {
      errors.push({ line, message: CSV_MESSAGES.wholeNumber('sort_order', 0, 999) });
      continue;
    }
    const parsed = categoryFieldsSchema.safeParse({ name: cells.category ?? '', colour: blankToUndef(colour), sortOrder: order });
    if (!parsed.success) {
      errors.push({ line, message: parsed.error.issues.map((i) => i.message).join(' ') });
      continue;
    }
    categories.set(parsed.data.name.toLowerCase(), { line, fields: parsed.data });
  }

  // ── Modifier groups: one row per choice, grouped by the group's name.
  const groups = new Map<string, { line: number; name: string; min: number | undefined; max: number | undefined; options: Array<{ line: number; name: string; priceCents: number }> }>();
  for (const { line, cells } of tables.groups?.rows ?? []) {
    const name = cells.modifier_group ?? '';
    const min = wholeNumber(cells.min_choices, 0, 10);
    const max = wholeNumber(cells.max_choices, 1, 10);
    if (min === null || max === null) {
      errors.push({ line, message: min === null ? CSV_MESSAGES.wholeNumber('min_choices', 0, 10) : CSV_MESSAGES.wholeNumber('max_choices', 1, 10) });
      continue;
    }
    const price = (cells.choice_price ?? '') === '' ? 0 : parsePriceCents(cells.choice_price ?? '');
    if (price === null) {
      errors.push({ line, message: CSV_MESSAGES.choicePrice });
      continue;
    }
    const g = groups.get(name.toLowerCase());
    if (!g) {
      groups.set(name.toLowerCase(), { line, name, min, max, options: [{ line, name: cells.choice ?? '', priceCents: price }] });
      continue;
    }
    if (g.min !== min || g.max !== max) {
      errors.push({ line, message: CSV_MESSAGES.groupRule(g.name, g.line) });
      continue;
    }
    const twice = g.options.find((o) => o.name.toLowerCase() === (cells.choice ?? '').toLowerCase());
    if (twice) {
      errors.push({ line, message: CSV_MESSAGES.choiceTwice(cells.choice ?? '', twice.line) });
      continue;
    }
    g.options.push({ line, name: cells.choice ?? '', priceCents: price });
  }
  const groupFields = new Map<string, { line: number; fields: ModifierGroupFields }>();
  for (const [key, g] of groups) {
    const parsed = modifierGroupFieldsSchema.safeParse({ name: g.name, minChoices: g.min, maxChoices: g.max, options: g.options.map((o) => ({ name: o.name, priceCents: o.priceCents })) });
    if (!parsed.success) {
      // The issue's own line: a choice's name on its row, the group's rules on its first.
      const at = parsed.error.issues[0]?.path[0] === 'options' && typeof parsed.error.issues[0].path[1] === 'number' ? g.options[parsed.error.issues[0].path[1]]!.line : g.line;
      errors.push({ line: at, message: parsed.error.issues.map((i) => i.message).join(' ') });
      continue;
    }
    groupFields.set(key, { line: g.line, fields: parsed.data });
  }

  // ── Items, each with the variant rows right under it.
  const header = tables.items?.header ?? [];
  const has = (c: ItemColumn) => header.includes(c);
  const plans: ItemRowPlan[] = [];
  const skuLines = new Map<string, number>();
  const skuOnce = (sku: string, line: number): boolean => {
    if (sku === '') return true;
    const first = skuLines.get(sku.toLowerCase());
    if (first !== undefined) {
      errors.push({ line, message: CSV_MESSAGES.skuTwice(sku, first) });
      return false;
    }
    skuLines.set(sku.toLowerCase(), line);
    return true;
  };
  for (const { line, cells } of tables.items?.rows ?? []) {
    const variantName = cells.variant ?? '';
    const priceCents = parsePriceCents(cells.price ?? '');
    if (variantName !== '') {
      const item = plans[plans.length - 1];
      if (!item || item.fields.name.toLowerCase() !== (cells.name ?? '').toLowerCase()) {
        errors.push({ line, message: CSV_MESSAGES.variantOrphan(cells.name ?? '') });
        continue;
      }
      const stray = header.find((c) => !VARIANT_ROW_COLUMNS.includes(c as ItemColumn) && (cells[c] ?? '') !== '');
      if (stray !== undefined) {
        errors.push({ line, message: CSV_MESSAGES.variantColumn(stray) });
        continue;
      }
      if (priceCents === null) {
        errors.push({ line, message: CSV_MESSAGES.price });
        continue;
      }
      const stock = wholeNumber(cells.stock, -99_999, 99_999);
      if (stock === null) {
        errors.push({ line, message: CSV_MESSAGES.wholeNumber('stock', -99_999, 99_999) });
        continue;
      }
      const parsed = variantFieldsSchema.safeParse({ name: variantName, priceCents, sku: blankToUndef(cells.sku) });
      if (!parsed.success) {
        errors.push({ line, message: parsed.error.issues.map((i) => i.message).join(' ') });
        continue;
      }
      const twice = item.variantRows.find((v) => v.name.toLowerCase() === parsed.data.name.toLowerCase());
      if (twice) {
        errors.push({ line, message: CSV_MESSAGES.variantTwice(parsed.data.name, twice.line) });
        continue;
      }
      if (!skuOnce(parsed.data.sku, line)) continue;
      item.fields.variants.push(parsed.data);
      item.variantRows.push({ line, name: parsed.data.name, sku: parsed.data.sku, stock });
      continue;
    }
    if (priceCents === null) {
      errors.push({ line, message: CSV_MESSAGES.price });
      continue;
    }
    const qk = yesNo(cells.quick_key);
    if (qk === null) {
      errors.push({ line, message: CSV_MESSAGES.quickKey });
      continue;
    }
    const track = yesNo(cells.track_stock);
    const archived = yesNo(cells.archived);
    if (track === null || archived === null) {
      errors.push({ line, message: CSV_MESSAGES.yesNo(track === null ? 'track_stock' : 'archived') });
      continue;
    }
    const reorder = wholeNumber(cells.reorder_level, 0, 99_999);
    const stock = wholeNumber(cells.stock, -99_999, 99_999);
    if (reorder === null || stock === null) {
      errors.push({ line, message: reorder === null ? CSV_MESSAGES.wholeNumber('reorder_level', 0, 99_999) : CSV_MESSAGES.wholeNumber('stock', -99_999, 99_999) });
      continue;
    }
    const groupNames = has('modifier_groups') ? (cells.modifier_groups ?? '').split('|').map((g) => g.trim()).filter((g) => g !== '') : undefined;
    const missing = groupNames?.find((g) => !groups.has(g.toLowerCase()) && !catalogue.groups.byName(g));
    if (missing !== undefined) {
      errors.push({ line, message: CSV_MESSAGES.noGroup(missing) });
      continue;
    }
    const archivedGroup = groupNames?.map((g) => catalogue.groups.byName(g)).find((g) => g?.archived);
    if (archivedGroup) {
      errors.push({ line, message: MODIFIER_MESSAGES.archived(archivedGroup.name) });
      continue;
    }
    const parsed = itemFieldsSchema.safeParse({
      name: cells.name ?? '',
      priceCents,
      sku: blankToUndef(cells.sku),
      productCode: blankToUndef(cells.product_code),
      unitCode: blankToUndef(cells.unit_code),
      commodityCode: blankToUndef(cells.commodity_code),
      taxCategory: blankToUndef(cells.tax_category?.toLowerCase()),
      quickKey: qk ?? false,
      trackStock: track ?? false,
      reorderLevel: reorder,
    });
    if (!parsed.success) {
      errors.push({ line, message: parsed.error.issues.map((i) => i.message).join(' ') });
      continue;
    }
    if (!skuOnce(parsed.data.sku, line)) continue;
    const categoryName = has('category') ? (cells.category ?? '') : undefined;
    plans.push({ line, fields: parsed.data, stock, variantRows: [], categoryName, groupNames, archived, trackGiven: track !== undefined });
  }

  // ── Which item each row updates; the rules that need the catalogue as it is (checked on the
  // rows that read well, so one answer names every line to fix).
  const matched = new Map<string, number>();
  const targets = plans.map((p) => {
    const own = catalogue.bySku(p.fields.sku);
    const byVariant = p.variantRows.map((v) => catalogue.skuOwner(v.sku)).find((o) => o !== undefined);
    const id = own?.id ?? byVariant?.itemId;
    return id !== undefined ? catalogue.get(id) : undefined;
  });
  plans.forEach((p, i) => {
    const old = targets[i];
    if (old) {
      const first = matched.get(old.id);
      if (first !== undefined) errors.push({ line: p.line, message: CSV_MESSAGES.sameItem(first) });
      matched.set(old.id, p.line);
    }
    const counted = p.trackGiven || !old ? p.fields.trackStock : old.trackStock;
    const withVariants = has('variant') ? p.variantRows.length > 0 : (old?.variants.length ?? 0) > 0;
    if (p.stock !== undefined) {
      if (!counted) errors.push({ line: p.line, message: CSV_MESSAGES.stockNotCounted });
      else if (withVariants) errors.push({ line: p.line, message: CSV_MESSAGES.stockPerVariant });
    }
    for (const v of p.variantRows) if (v.stock !== undefined && !counted) errors.push({ line: v.line, message: CSV_MESSAGES.stockNotCounted });
    // SKUs another item (or its variants) has; the category and groups are resolved at write time.
    const problems = catalogue.problems({ ...p.fields, categoryId: null, modifierGroupIds: [] }, old?.id);
    for (const [key, msgs] of Object.entries(problems ?? {})) {
      const m = /^variants\.(\d+)\./.exec(key);
      errors.push({ line: m ? p.variantRows[Number(m[1])]!.line : p.line, message: msgs.join(' ') });
    }
  });
  if (errors.length > 0) return refused(errors.sort((a, b) => a.line - b.line));

  let added = 0;
  let updated = 0;
  db.transaction(() => {
    const categoryIds = new Map<string, string>();
    for (const [key, c] of categories) {
      const old = catalogue.categories.byName(c.fields.name);
      categoryIds.set(key, old ? catalogue.categories.update(old.id, c.fields)!.id : catalogue.categories.add(c.fields).id);
    }
    const categoryOf = (name: string): string | null => {
      if (name === '') return null;
      const key = name.toLowerCase();
      let id = categoryIds.get(key);
      if (id === undefined) {
        const old = catalogue.categories.byName(name);
        id = old ? old.id : catalogue.categories.add(categoryFieldsSchema.parse({ name })).id;
        categoryIds.set(key, id);
      }
      return id;
    };
    const groupIds = new Map<string, string>();
    for (const [key, g] of groupFields) {
      const old = catalogue.groups.byName(g.fields.name);
      groupIds.set(key, old ? catalogue.groups.update(old.id, g.fields)!.id : catalogue.groups.add(g.fields).id);
    }
    const groupOf = (name: string) => groupIds.get(name.toLowerCase()) ?? catalogue.groups.byName(name)!.id;

    plans.forEach((p, i) => {
      const old = targets[i];
      const f = p.fields;
      const pick = <K extends keyof ItemFields>(col: ItemColumn, key: K, given: ItemFields[K]): ItemFields[K] => (!old || has(col) ? given : old[key]);
      // Without a variant column the item keeps its variants; with one, the rows are its list (matched by name when saved).
      const variants: VariantFields[] = old && !has('variant') ? old.variants.map((v) => ({ id: v.id, name: v.name, priceCents: v.priceCents, sku: v.sku })) : f.variants;
      const fields: ItemFields = {
        name: f.name,
        priceCents: f.priceCents,
        // Matched by its SKU: the item keeps it as it was written (a file's "cof" updates "COF").
        sku: old && old.sku.toLowerCase() === f.sku.toLowerCase() ? old.sku : pick('sku', 'sku', f.sku),
        productCode: pick('product_code', 'productCode', f.productCode),
        unitCode: pick('unit_code', 'unitCode', f.unitCode),
        commodityCode: pick('commodity_code', 'commodityCode', f.commodityCode),
        taxCategory: pick('tax_category', 'taxCategory', f.taxCategory),
        quickKey: pick('quick_key', 'quickKey', f.quickKey),
        categoryId: p.categoryName !== undefined ? categoryOf(p.categoryName) : (old?.categoryId ?? null),
        variants,
        modifierGroupIds: p.groupNames !== undefined ? p.groupNames.map(groupOf) : (old?.modifierGroupIds ?? []),
        trackStock: old && !p.trackGiven ? old.trackStock : f.trackStock,
        reorderLevel: pick('reorder_level', 'reorderLevel', f.reorderLevel),
      };
      const item = old ? catalogue.update(old.id, fields)! : catalogue.add(fields);
      if (old) updated++;
      else added++;
      if (p.archived !== undefined && p.archived !== item.archived) catalogue.setArchived(item.id, p.archived);
      // Stock counts, as a count would be by hand: the difference goes to the ledger.
      const count = (variantId: string | null, n: number) => {
        const before = catalogue.stock.onHand(item.id, variantId);
        catalogue.stock.record({ itemId: item.id, variantId, delta: n - before, reason: 'count', note: CSV_MESSAGES.stockNote, userId: by.id, userName: by.name });
      };
      if (p.stock !== undefined) count(null, p.stock);
      for (const v of p.variantRows) {
        if (v.stock === undefined) continue;
        const id = item.variants.find((x) => x.name.toLowerCase() === v.name.toLowerCase())?.id;
        if (id) count(id, v.stock);
      }
    });
  })();
  return { imported: plans.length, added, updated, errors: [] };
}

/** A CSV field: quoted when it holds a comma, a quote, a line break or spaces at its ends. */
const field = (v: string | number): string => {
  const s = String(v);
  return /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
const line = (cells: ReadonlyArray<string | number>) => cells.map(field).join(',');
const yn = (b: boolean) => (b ? 'yes' : 'no');

/** The whole catalogue in the file format above (CRLF line ends, as spreadsheets write them). */
export function exportCatalogueCsv(catalogue: Catalogue): string {
  const categories = catalogue.categories.list();
  const groups = catalogue.groups.list();
  const categoryName = new Map(categories.map((c) => [c.id, c.name]));
  const groupName = new Map(groups.map((g) => [g.id, g.name]));
  const out: string[] = [line(ITEM_COLUMNS)];
  const blank = (cells: Partial<Record<ItemColumn, string | number>>) => ITEM_COLUMNS.map((c) => cells[c] ?? '');
  for (const it of catalogue.list({ includeArchived: true })) {
    out.push(
      line(
        blank({
          name: it.name,
          price: formatMoney(it.priceCents),
          sku: it.sku,
          product_code: it.productCode,
          unit_code: it.unitCode,
          commodity_code: it.commodityCode,
          tax_category: it.taxCategory,
          quick_key: yn(it.quickKey),
          category: it.categoryId ? (categoryName.get(it.categoryId) ?? '') : '',
          modifier_groups: it.modifierGroupIds.map((g) => groupName.get(g) ?? '').filter(Boolean).join('|'),
          track_stock: yn(it.trackStock),
          stock: it.stock ?? '',
          reorder_level: it.reorderLevel,
          archived: yn(it.archived),
        }),
      ),
    );
    for (const v of it.variants) out.push(line(blank({ name: it.name, variant: v.name, price: formatMoney(v.priceCents), sku: v.sku, stock: v.stock ?? '' })));
  }
  if (categories.length > 0) {
    out.push('', line(CATEGORY_COLUMNS));
    for (const c of categories) out.push(line([c.name, c.colour, c.sortOrder]));
  }
  if (groups.length > 0) {
    out.push('', line(GROUP_COLUMNS));
    for (const g of groups) for (const o of g.options) out.push(line([g.name, g.minChoices, g.maxChoices, o.name, formatMoney(o.priceCents)]));
  }
  return `${out.join('\r\n')}\r\n`;
}
