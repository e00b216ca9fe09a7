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
});
export type ItemFields = z.output<typeof itemFieldsSchema>;

export interface CatalogueItem extends ItemFields {
  id: string;
  archived: boolean;
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
}
