/**
 * Level 3 (`transactionlevel3.level3_data`) schemas with the engine's own rules, so the
 * renderer's Level 3 form validates exactly as the engine does. The first card network
 * is Visa (commodity codes, VAT fields, up to 998 line items); the second is Mastercard
 * (debit/credit indicator, tax type, up to 98 line items).
 *
 * Reading of the field tables (written down because the interface leaves it open):
 * - For numbers, "Min-Max" counts the digits before the decimal point and "N decimals"
 *   is the most digits after it; numbers may arrive as JSON numbers or numeric strings
 *   and are returned as JSON numbers. Negative numbers are refused.
 * - unit_code is 1-3 letters in any case, stored upper-case: the table says 3-3, yet its
 *   own list has EA, BG, C, D…. It must be on the list (UNIT_CODES, ACR to YRD).
 * - destination_country_code: a three-letter (any case, stored upper-case) or three-digit
 *   (ISO 3166 numeric, e.g. 840) country code.
 * - Fields of the other network are dropped (not refused), so one form can post to both.
 */
import { z } from 'zod';

export const L3_ERRORS = {
  lineItemsRequired: 'Level 3 data needs at least one line item.',
  tooManyLineItemsVisa: 'At most 998 line items are allowed for this card network.',
  tooManyLineItemsMastercard: 'At most 98 line items are allowed for this card network.',
  number: (intDigits: number, decimals: number) =>
    `Must be a number with at most ${intDigits} digits before and ${decimals} after the decimal point.`,
  text: (min: number, max: number) => (min === max ? `Must be exactly ${min} characters.` : `Must be ${min} to ${max} characters.`),
  required: 'Required.',
  /** A required field left out (or empty): what is needed, in a sentence. */
  commodityCodeRequired: 'Visa needs a commodity code for each line item.',
  descriptionRequired: 'Each line item needs a description.',
  productCodeRequired: 'Each line item needs a product code.',
  unitCostRequired: 'Each line item needs a unit cost.',
  taxExempt: 'Must be "1" or "0".',
  countryCode: 'Must be a three-letter or three-digit country code.',
  orderDate: 'Must be a date in the format YYMMDD.',
  unitCode: 'Must be a unit-of-measure code such as EA, BX or CS.',
  debitCredit: 'Must be "D" or "C".',
  taxTypeId: 'Must be one of the tax type identifiers 00-06, 10-14, 20-22.',
  notObject: 'Level 3 data must be an object.',
} as const;

export type Level3Network = 'visa' | 'mastercard';

export const LEVEL3_MAX_LINE_ITEMS: Record<Level3Network, number> = { visa: 998, mastercard: 98 };

/**
 * The unit-of-measure codes (UN/ECE Rec. 20 and the family's own "unknown unit" codes):
 * the seed lists them up to DRM, the family's Level 3 page the whole list to YRD.
 */
export const UNIT_CODES = [
  'EA', 'ACR', 'AMH', 'AMP', 'ANN', 'APZ', 'ARE', 'ASM', 'ASV', 'ATM', 'ATT', 'BAR', 'BFT', 'BG', 'BHP', 'BHX',
  'BIL', 'BLD', 'BLL', 'BQL', 'BTU', 'BUA', 'BUI', 'BX', 'C', 'CA', 'CCT', 'CD', 'CDL', 'CEL', 'CEN', 'CGM', 'CKG',
  'CLF', 'CLT', 'CMK', 'CMT', 'CNP', 'CNT', 'COU', 'CS', 'CTM', 'CUR', 'CWA', 'D', 'DAA', 'DAD', 'DAY', 'DEC', 'DLT',
  'DMK', 'DMQ', 'DMT', 'DPC', 'DPT', 'DRA', 'DRI', 'DRL', 'DRM', 'DTH', 'DTN', 'DWT', 'DZ', 'DZN', 'DZP', 'DZR',
  'EAC', 'FAH', 'FAR', 'FOT', 'FT', 'FTK', 'FTQ', 'G', 'GAL', 'GBQ', 'GFI', 'GGR', 'GIA', 'GII', 'GLD', 'GLI', 'GLL',
  'GRM', 'GRN', 'GRO', 'GRT', 'GWH', 'HAR', 'HBA', 'HGM', 'HIU', 'HLT', 'HMQ', 'HMT', 'HPA', 'HTZ', 'HUR', 'INH',
  'INK', 'INQ', 'ITM', 'JOU', 'KBA', 'KEL', 'KGM', 'KGS', 'KHZ', 'KJO', 'KMH', 'KMK', 'KMQ', 'KMT', 'KNI', 'KNS',
  'KNT', 'KPA', 'KPH', 'KPO', 'KPP', 'KSD', 'KSH', 'KTN', 'KUR', 'KVA', 'KVR', 'KVT', 'KWH', 'KWT', 'LBR', 'LBS',
  'LBT', 'LEF', 'LPA', 'LTN', 'LTR', 'LUM', 'LUX', 'MAL', 'MAM', 'MAW', 'MBE', 'MBF', 'MBR', 'MCU', 'MGM', 'MHZ',
  'MIK', 'MIL', 'MIN', 'MIO', 'MIU', 'MLD', 'MLT', 'MMK', 'MMQ', 'MMT', 'MON', 'MPA', 'MQH', 'MQS', 'MSK', 'MTK',
  'MTQ', 'MTR', 'MTS', 'MVA', 'MWH', 'NAR', 'NBB', 'NCL', 'NEW', 'NIU', 'NMB', 'NMI', 'NMP', 'NMR', 'NPL', 'NPT',
  'NRL', 'NTT', 'OHM', 'ONZ', 'OZA', 'OZI', 'PAL', 'PCB', 'PCE', 'PER', 'PGL', 'PK', 'PTD', 'PTI', 'PTL', 'QAN',
  'QTD', 'QTI', 'QTL', 'QTR', 'RL', 'RM', 'RPM', 'RPS', 'SAN', 'SCO', 'SCR', 'SEC', 'SET', 'SHT', 'SIE', 'SMI',
  'SST', 'ST', 'STI', 'STN', 'TAH', 'TNE', 'TQD', 'TPR', 'TRL', 'TSD', 'TSH', 'VLT', 'WCD', 'WEB', 'WEE', 'WHR',
  'WSD', 'WTT', 'YDK', 'YDQ', 'YRD',
] as const;
const UNIT_CODE_SET: ReadonlySet<string> = new Set(UNIT_CODES);

/** A unit code is valid when it is on the list, in any case. */
export function isUnitCode(code: string): boolean {
  return UNIT_CODE_SET.has(code.toUpperCase());
}

export const TAX_TYPE_IDS = ['00', '01', '02', '03', '04', '05', '06', '10', '11', '12', '13', '14', '20', '21', '22'] as const;

/**
 * Number with bounded integer digits and decimals; accepts 12.5 or "12.50", yields 12.5.
 * `required`: the sentence for a required number that is missing.
 */
export function l3Number(intDigits: number, decimals: number, required?: string) {
  const msg = L3_ERRORS.number(intDigits, decimals);
  const re = new RegExp(`^\\d{1,${intDigits}}(\\.\\d{0,${decimals}})?$`);
  return z
    .union([z.number(), z.string()], { error: (iss) => (required && iss.input === undefined ? required : msg) })
    .refine((v) => {
      const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : 'x') : v.trim();
      return re.test(s);
    }, { message: msg })
    .transform((v) => (typeof v === 'number' ? v : Number(v.trim())));
}

/** Text of min to max characters. `required`: the sentence for a required text that is missing or empty. */
function l3Text(min: number, max: number, required?: string) {
  const msg = L3_ERRORS.text(min, max);
  return z
    .string({ error: (iss) => (required && iss.input === undefined ? required : msg) })
    .min(min, { message: required && min === 1 ? required : msg })
    .max(max, { message: msg });
}

function validYymmdd(s: string): boolean {
  const m = /^(\d{2})(\d{2})(\d{2})$/.exec(s);
  if (!m) return false;
  const y = 2000 + Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return d <= days;
}

const commonLineItem = {
  description: l3Text(1, 26, L3_ERRORS.descriptionRequired),
  product_code: l3Text(1, 12, L3_ERRORS.productCodeRequired),
  unit_code: z.string({ error: L3_ERRORS.unitCode }).refine(isUnitCode, { message: L3_ERRORS.unitCode }).transform((s) => s.toUpperCase()),
  unit_cost: l3Number(12, 4, L3_ERRORS.unitCostRequired),
  quantity: l3Number(4, 4).optional(),
  discount_amount: l3Number(12, 2).optional(),
  tax_amount: l3Number(9, 2).optional(),
  tax_rate: l3Number(2, 2).optional(),
};

export const visaLineItemSchema = z.object({
  ...commonLineItem,
  commodity_code: l3Text(1, 12, L3_ERRORS.commodityCodeRequired),
  other_tax_amount: l3Number(12, 2).optional(),
});

export const mastercardLineItemSchema = z.object({
  ...commonLineItem,
  alternate_tax_id: l3Text(1, 15).optional(),
  debit_credit: z.enum(['D', 'C'], { error: L3_ERRORS.debitCredit }).optional(),
  discount_rate: l3Number(5, 2).optional(),
  tax_type_applied: l3Text(1, 4).optional(),
  tax_type_id: z.enum(TAX_TYPE_IDS, { error: L3_ERRORS.taxTypeId }).optional(),
});

const commonData = {
  destination_country_code: z
    .string({ error: L3_ERRORS.countryCode })
    .regex(/^([A-Za-z]{3}|\d{3})$/, { message: L3_ERRORS.countryCode })
    .transform((s) => s.toUpperCase())
    .optional(),
  duty_amount: l3Number(12, 2).optional(),
  freight_amount: l3Number(12, 2).optional(),
  national_tax: l3Number(10, 2).optional(),
  sales_tax: l3Number(10, 2).optional(),
  shipfrom_zip_code: l3Text(1, 10).optional(),
  shipto_zip_code: l3Text(1, 10).optional(),
  tax_amount: l3Number(9, 2).optional(),
  tax_exempt: z.enum(['1', '0'], { error: L3_ERRORS.taxExempt }).optional(),
};

function lineItems<T extends z.ZodType>(item: T, network: Level3Network) {
  const max = LEVEL3_MAX_LINE_ITEMS[network];
  const tooMany = network === 'visa' ? L3_ERRORS.tooManyLineItemsVisa : L3_ERRORS.tooManyLineItemsMastercard;
  return z
    .array(item, { error: L3_ERRORS.lineItemsRequired })
    .min(1, { message: L3_ERRORS.lineItemsRequired })
    .max(max, { message: tooMany });
}

export const visaLevel3DataSchema = z.object(
  {
    ...commonData,
    customer_vat_registration: l3Text(1, 13).optional(),
    merchant_vat_registration: l3Text(1, 20).optional(),
    order_date: z.string({ error: L3_ERRORS.orderDate }).refine(validYymmdd, { message: L3_ERRORS.orderDate }).optional(),
    summary_commodity_code: l3Text(1, 4).optional(),
    tax_rate: l3Number(4, 2).optional(),
    unique_vat_ref_number: l3Text(1, 15).optional(),
    line_items: lineItems(visaLineItemSchema, 'visa'),
  },
  { error: L3_ERRORS.notObject },
);

export const mastercardLevel3DataSchema = z.object(
  { ...commonData, line_items: lineItems(mastercardLineItemSchema, 'mastercard') },
  { error: L3_ERRORS.notObject },
);

export type VisaLevel3Data = z.output<typeof visaLevel3DataSchema>;
export type MastercardLevel3Data = z.output<typeof mastercardLevel3DataSchema>;
export type Level3Data = VisaLevel3Data | MastercardLevel3Data;

export function level3SchemaFor(network: Level3Network) {
  return network === 'visa' ? visaLevel3DataSchema : mastercardLevel3DataSchema;
}

export type FieldErrors = Record<string, string[]>;

/**
 * Validates level3_data for a network. Errors use the v2 envelope's keys:
 * `level3_data.line_items.0.unit_cost` etc.
 */
export function validateLevel3(network: Level3Network, data: unknown):
  | { ok: true; value: Level3Data }
  | { ok: false; errors: FieldErrors } {
  const r = level3SchemaFor(network).safeParse(data);
  if (r.success) return { ok: true, value: r.data };
  const errors: FieldErrors = {};
  for (const issue of r.error.issues) {
    const key = ['level3_data', ...issue.path.map(String)].join('.');
    (errors[key] ??= []).push(issue.message);
  }
  return { ok: false, errors };
}
