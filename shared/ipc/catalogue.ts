/**
 * The `catalogue:*` channels: the items a counter sells (name, price, codes for Level 3,
 * tax category) and their CSV import. Declared once: the item schema checks the manager's
 * form, the IPC argument, every CSV row and what the core stores.
 */
import { z } from 'zod';
import { isUnitCode } from '../payments/level3-schema';
import { centsSchema, idSchema } from './common';
import { COUNTER, MANAGER, audits, type ChannelDeclarations } from './channel-declaration';

/** Tax categories: the store's sales tax rate, or none (groceries, services, resale). */
export const TAX_CATEGORIES = ['standard', 'exempt'] as const;
export type TaxCategory = (typeof TAX_CATEGORIES)[number];

/** A SKU, product or commodity code: letters, digits, spaces and . _ / - (a scanned code is checked with it too). */
export const codeSchema = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${label} is at most ${max} characters.`)
    .regex(/^[A-Za-z0-9 ._/-]*$/, `${label} has letters, digits, spaces and . _ / - only.`);

/**
 * Issue 23, point 6: categories, variants, modifier groups and stock. Declared here once; the
 * manager's forms, the IPC arguments, the CSV rows and the core's rows are checked with these.
 */

/** Category colours: named swatches the counter's tabs and tiles draw in both themes (no free hex: tab text must stay readable). */
export const CATEGORY_COLOURS = ['slate', 'red', 'orange', 'amber', 'green', 'teal', 'blue', 'violet', 'pink', 'brown'] as const;
export type CategoryColour = (typeof CATEGORY_COLOURS)[number];

export const categoryFieldsSchema = z.strictObject({
  name: z.string().trim().min(1, 'Enter the category name.').max(20, 'A category name is at most 20 characters.'),
  colour: z.enum(CATEGORY_COLOURS, { error: `The colour is one of ${CATEGORY_COLOURS.join(', ')}.` }).default('slate'),
  /** Tabs are shown by this order, then by name. */
  sortOrder: z.number().int().min(0).max(999).default(0),
});
export type CategoryFields = z.output<typeof categoryFieldsSchema>;
export interface Category extends CategoryFields {
  id: string;
  archived: boolean;
}

/**
 * A variant of an item (a latte's Small and Large): its own price and SKU, each scannable.
 * An item with variants is sold as one of them; its own price is then only the form's default.
 */
export const variantFieldsSchema = z.strictObject({
  /** Kept when editing; absent for a new variant. */
  id: idSchema.optional(),
  name: z.string().trim().min(1, 'Enter the variant name (for example Large).').max(12, 'A variant name is at most 12 characters.'),
  priceCents: centsSchema.min(1, 'Enter a price above $0.00.'),
  sku: codeSchema('The SKU', 32).default(''),
});
export type VariantFields = z.output<typeof variantFieldsSchema>;
export interface Variant extends Omit<VariantFields, 'id'> {
  id: string;
  itemId: string;
  /** On hand, when the item's stock is counted (trackStock); null otherwise. */
  stock: number | null;
}

/** One choice of a modifier group (an extra shot +$0.50; oat milk +$0.00). */
export const modifierOptionSchema = z.strictObject({
  id: idSchema.optional(),
  name: z.string().trim().min(1, 'Enter the choice name.').max(20, 'A choice name is at most 20 characters.'),
  priceCents: centsSchema.max(99_999, 'A choice adds at most $999.99.').default(0),
});
export type ModifierOptionFields = z.output<typeof modifierOptionSchema>;
export interface ModifierOption extends Omit<ModifierOptionFields, 'id'> {
  id: string;
}

/** A group of choices an item offers: `minChoices` 1 makes it required, `maxChoices` limits it. */
export const modifierGroupFieldsSchema = z
  .strictObject({
    // No | in a name: the CSV file lists an item's groups joined by it (catalogue-csv.ts).
    name: z.string().trim().min(1, 'Enter the group name.').max(20, 'A group name is at most 20 characters.').regex(/^[^|]*$/, 'A group name cannot have a | in it.'),
    minChoices: z.number().int().min(0, 'At least 0 choices.').max(10, 'At most 10 choices.').default(0),
    maxChoices: z.number().int().min(1, 'At least 1 choice.').max(10, 'At most 10 choices.').default(1),
    options: z.array(modifierOptionSchema).min(1, 'Add at least one choice.').max(20, 'A group has at most 20 choices.'),
  })
  .refine((g) => g.minChoices <= g.maxChoices, { message: 'The fewest choices cannot be more than the most.', path: ['minChoices'] })
  .refine((g) => g.minChoices <= g.options.length, { message: 'The group needs at least as many choices as it requires.', path: ['minChoices'] });
export type ModifierGroupFields = z.output<typeof modifierGroupFieldsSchema>;
export interface ModifierGroup extends Omit<ModifierGroupFields, 'options'> {
  id: string;
  options: ModifierOption[];
  archived: boolean;
}

/** What a cart line was sold with: the variant and the modifiers chosen, names and prices as they were (a later price change leaves the sale alone). */
export interface LineChoice {
  variantId: string | null;
  variantName: string | null;
  modifiers: Array<{ optionId: string; groupName: string; name: string; priceCents: number }>;
}

/** The choice a counter makes when adding an item with variants or modifier groups. */
export const lineChoiceArgsSchema = z.strictObject({
  variantId: idSchema.nullable().default(null),
  optionIds: z.array(idSchema).max(40).default([]),
});

/** A stock count change by a manager: a new count (a stocktake) or a delta (a delivery, a breakage), with why. */
export const stockAdjustSchema = z.strictObject({
  itemId: idSchema,
  variantId: idSchema.nullable().default(null),
  change: z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('count'), count: z.number().int().min(-99_999).max(99_999) }),
    z.strictObject({ kind: z.literal('delta'), delta: z.number().int().min(-99_999).max(99_999).refine((n) => n !== 0, 'The change is not zero.') }),
  ]),
  reason: z.string().trim().min(1, 'Say why the count changes (delivery, stocktake, breakage…).').max(60, 'At most 60 characters.'),
});
export type StockAdjust = z.output<typeof stockAdjustSchema>;

/** What a stock change did: the count before and after, under the name the manager sees ("Latte Large"). */
export interface StockAdjustResult {
  item: CatalogueItem;
  variantId: string | null;
  name: string;
  before: number;
  after: number;
}

/** A line of the low-stock list: at or under the item's reorder level (or below zero). */
export interface LowStockLine {
  itemId: string;
  variantId: string | null;
  name: string;
  stock: number;
  reorderLevel: number;
}

export const itemFieldsSchema = z.strictObject({
  name: z.string().trim().min(1, 'Enter the item name.').max(26, 'An item name is at most 26 characters (the Level 3 description).'),
  priceCents: centsSchema.min(1, 'Enter a price above $0.00.'),
  sku: codeSchema('The SKU', 32).default(''),
  /** Level 3 product code; the SKU is used when empty. */
  productCode: codeSchema('The product code', 12).default(''),
  unitCode: z
    .string()
    .trim()
    .default('EA')
    .refine((s) => isUnitCode(s), 'Use a unit of measure code such as EA, KGM, LTR or HUR.')
    .transform((s) => s.toUpperCase()),
  commodityCode: codeSchema('The commodity code', 12).default(''),
  taxCategory: z.enum(TAX_CATEGORIES, { error: 'The tax category is standard or exempt.' }).default('standard'),
  /** Shown on the sale screen's quick-key grid. */
  quickKey: z.boolean().default(false),
  /** The tab it sits under on the counter; null: "Other". */
  categoryId: idSchema.nullable().default(null),
  /** Sizes and the like; empty: the item is sold at its own price and SKU. */
  variants: z.array(variantFieldsSchema).max(12, 'An item has at most 12 variants.').default([]),
  /** The modifier groups the counter asks for when the item is tapped, in this order. */
  modifierGroupIds: z.array(idSchema).max(8, 'An item has at most 8 modifier groups.').default([]),
  /** Count stock for this item (per variant when it has variants). */
  trackStock: z.boolean().default(false),
  /** The low-stock list shows it at or under this count. */
  reorderLevel: z.number().int().min(0).max(99_999).default(0),
});
export type ItemFields = z.output<typeof itemFieldsSchema>;

export interface CatalogueItem extends Omit<ItemFields, 'variants'> {
  id: string;
  archived: boolean;
  variants: Variant[];
  /** On hand for an item without variants whose stock is counted; null otherwise. */
  stock: number | null;
}

export interface CsvImportResult {
  /** added + updated: every row of the file (0 when it was refused). */
  imported: number;
  /** Rows whose SKU was new (or blank): new items. */
  added: number;
  /** Rows whose SKU an item already had: that item updated. */
  updated: number;
  /** Line numbers count the header as line 1, as a spreadsheet shows them. */
  errors: Array<{ line: number; message: string }>;
}

/** The whole-cart rules a manager sets. */
export const cartRulesSchema = z.strictObject({
  /** Discounts above this percent of what they discount need a manager's PIN. */
  discountApprovalPercent: z.number().int().min(0, 'At least 0 %.').max(100, 'At most 100 %.'),
  /** Level 3 for Visa: the commodity code of a line that has none (an open amount); blank: the one the sale's items carry. */
  defaultCommodityCode: codeSchema('The commodity code', 12),
});
export type CartRules = z.infer<typeof cartRulesSchema>;
export const DEFAULT_CART_RULES: CartRules = { discountApprovalPercent: 20, defaultCommodityCode: '' };

export const catalogueHandlers = {
  /** Any signed-in user: active items (managers may ask for archived ones too). */
  'catalogue:list': { args: z.strictObject({ includeArchived: z.boolean().default(false), search: z.string().max(60).default('') }), access: COUNTER, effect: 'read', audit: 'none' },
  'catalogue:add': { args: itemFieldsSchema, access: MANAGER, effect: 'catalogue', audit: audits(['catalogue-change'], ['detail']) },
  'catalogue:update': { args: z.strictObject({ id: idSchema, fields: itemFieldsSchema }), access: MANAGER, effect: 'catalogue', audit: audits(['catalogue-change'], ['detail']) },
  'catalogue:archive': { args: z.strictObject({ id: idSchema, archived: z.boolean() }), access: MANAGER, effect: 'catalogue', audit: audits(['catalogue-change'], ['detail']) },
  /** The CSV text (UTF-8); at most 2 MB. */
  'catalogue:import-csv': { args: z.strictObject({ csv: z.string().max(2_000_000, 'The file is larger than 2 MB.') }), access: MANAGER, effect: 'catalogue', audit: audits(['catalogue-import'], ['detail']) },
  'catalogue:rules': { args: z.void(), access: COUNTER, effect: 'read', audit: 'none' },
  /** Issue 23: categories (the counter's tabs), modifier groups, stock and the whole catalogue as one CSV file. Active ones for anyone; managers may ask for archived ones too. */
  'catalogue:categories': { args: z.strictObject({ includeArchived: z.boolean().default(false) }), access: COUNTER, effect: 'read', audit: 'none' },
  /** A new category without an id; with one, that category changed. */
  'catalogue:save-category': { args: z.strictObject({ id: idSchema.optional(), fields: categoryFieldsSchema }), access: MANAGER, effect: 'catalogue', audit: audits(['catalogue-change'], ['detail']) },
  'catalogue:archive-category': { args: z.strictObject({ id: idSchema, archived: z.boolean() }), access: MANAGER, effect: 'catalogue', audit: audits(['catalogue-change'], ['detail']) },
  'catalogue:modifier-groups': { args: z.strictObject({ includeArchived: z.boolean().default(false) }), access: COUNTER, effect: 'read', audit: 'none' },
  'catalogue:save-modifier-group': { args: z.strictObject({ id: idSchema.optional(), fields: modifierGroupFieldsSchema }), access: MANAGER, effect: 'catalogue', audit: audits(['catalogue-change'], ['detail']) },
  'catalogue:archive-modifier-group': { args: z.strictObject({ id: idSchema, archived: z.boolean() }), access: MANAGER, effect: 'catalogue', audit: audits(['catalogue-change'], ['detail']) },
  /** A manager's stock count or delta, with why: written to the stock ledger and audited. */
  'catalogue:adjust-stock': { args: stockAdjustSchema, access: MANAGER, effect: 'catalogue', audit: audits(['stock-count'], ['detail']) },
  'catalogue:low-stock': { args: z.void(), access: MANAGER, effect: 'read', audit: 'none' },
  /** The whole catalogue as CSV text (the format catalogue:import-csv reads). It changes nothing; declared `records` (a record sent out), not a read, as the channel rules ask of an "export". */
  'catalogue:export-csv': { args: z.void(), access: MANAGER, effect: 'records', audit: 'none' },
  /** The rules given change; the others stay. */
  'catalogue:set-rules': { args: cartRulesSchema.partial(), access: MANAGER, effect: 'settings', audit: audits(['settings-change'], ['detail']) },
} as const satisfies ChannelDeclarations;

export interface CatalogueResults {
  'catalogue:list': CatalogueItem[];
  'catalogue:add': CatalogueItem;
  'catalogue:update': CatalogueItem;
  'catalogue:archive': CatalogueItem;
  'catalogue:import-csv': CsvImportResult;
  'catalogue:rules': CartRules;
  'catalogue:set-rules': CartRules;
  'catalogue:categories': Category[];
  'catalogue:save-category': Category;
  'catalogue:archive-category': Category;
  'catalogue:modifier-groups': ModifierGroup[];
  'catalogue:save-modifier-group': ModifierGroup;
  'catalogue:archive-modifier-group': ModifierGroup;
  'catalogue:adjust-stock': StockAdjustResult;
  'catalogue:low-stock': LowStockLine[];
  'catalogue:export-csv': string;
}

export interface CatalogueEventPayloads {
  /**
   * The catalogue or stock changed other than through this window's own channels: another
   * register of the store changed it (issue 24, electron/core/store/). The sale screen and the
   * catalogue screens read it again. `tables`: which of the catalogue's tables (and
   * 'stock_movements') changed.
   */
  'catalogue:changed': { tables: string[] };
}
export const catalogueEventNames = ['catalogue:changed'] as const;
