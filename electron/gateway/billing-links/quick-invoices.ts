/**
 * Quick invoices (`/v2/quickinvoices`). amount_due is the sum of item_list (computed,
 * read-only); remaining_balance and payment_status_id come from the transactions that
 * pay it (invoice-balance.ts). status_id 1 open, 0 closed (PUT may close it; paying it
 * in full closes it); a closed invoice refuses updates (422) until reopened.
 * On create the invoice is sent by e-mail (to `email`, else the contact's e-mail) unless
 * send_email is 0, and by SMS when send_text_to_pay is 1 and cell_phone is set.
 * Reminders (before, on and after due_date) and the thank-you are in invoice-notices.ts.
 * Multipart creates with files go through quick-invoice-upload.ts into the same hooks.
 */
import { formatMoney, MAX_AMOUNT_CENTS, MONEY_INPUT_RE, parseMoney, parseMoneyInput } from '../../../shared/payments/money';
import { ApiError, type ErrorCollector } from '../framework/errors';
import { isPlainObject } from '../framework/validate';
import type { ResourceDef } from '../framework/resource';
import { createdUserExpand, idField, locationRef, refExpand, str, systemUser, tsField } from '../merchant/field-kit';
import { BILLING_MSG } from './billing-messages';
import { checkProducts, contactEmail, translateContactApiId } from './billing-shared';
import { balanceOf, paidCents, PAYMENT_STATUS } from './invoice-balance';
import { sendInvoice } from './invoice-notices';
import { MANAGERS, SELLERS } from '../framework/permissions';

/** item_list: {name: amount}; amounts as numbers or decimal strings, at most 2 decimals. */
function itemList(value: unknown, errs: ErrorCollector, field: string): unknown {
  if (!isPlainObject(value)) {
    errs.errors[field] = [BILLING_MSG.ITEM_LIST_SHAPE];
    return undefined;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) {
    errs.errors[field] = [BILLING_MSG.ITEM_LIST_EMPTY];
    return undefined;
  }
  const out: Record<string, number> = {};
  let total = 0;
  for (const [name, amount] of entries) {
    // A JSON number, or a decimal string exactly (no spaces around it), as ITEM_LIST_SCHEMA says.
    const cents = typeof amount === 'number' ? parseMoney(amount) : parseMoneyInput(amount);
    if (cents === null || name.trim() === '' || name.length > 128) {
      (errs.errors[field] ??= []).push(BILLING_MSG.ITEM_AMOUNT.replace('{item}', name.slice(0, 64)));
      continue;
    }
    total += cents;
    out[name] = cents / 100;
  }
  if (total > MAX_AMOUNT_CENTS) (errs.errors[field] ??= []).push(BILLING_MSG.ITEM_TOTAL);
  return errs.errors[field] ? undefined : out;
}

/** What itemList takes, for the OpenAPI document. */
const ITEM_LIST_SCHEMA: Record<string, unknown> = {
  type: 'object',
  minProperties: 1,
  propertyNames: { minLength: 1, maxLength: 128 },
  // The example sits in the first alternative: generators fake an anyOf from that one alone.
  additionalProperties: { anyOf: [{ type: 'number', minimum: 0, maximum: MAX_AMOUNT_CENTS / 100, example: 40 }, { type: 'string', pattern: MONEY_INPUT_RE.source }] },
  description: 'Item name → amount (a number, or a decimal string such as "12.50"); amount_due is their sum.',
};

/** A list of tag titles: an array, an object of titles (as multipart sends `tags[0]`), or a comma-separated string. */
const TAGS_SCHEMA: Record<string, unknown> = {
  anyOf: [
    { type: 'array', items: { type: 'string', minLength: 1, maxLength: 64 } },
    { type: 'object', additionalProperties: { type: 'string', minLength: 1, maxLength: 64 } },
    { type: 'string' },
  ],
};

/** Sum of an item_list in cents. */
export function itemsTotal(items: Record<string, number>): number {
  let t = 0;
  for (const v of Object.values(items)) t += parseMoney(v.toFixed(2)) ?? 0;
  return t;
}

const int01 = (dflt: 0 | 1) => ({ type: 'boolean' as const, default: dflt, outputAsInt: true });
// The family's field table bounds these by length (1 to 2 digits): 0 to 99, where 0 sends no
// reminder of that kind (before or after the due date): an integrator who wants none says 0.
const days = (dflt: number) => ({ type: 'integer' as const, minValue: 0, maxValue: 99, default: dflt });

export const quickInvoiceResource: ResourceDef = {
  name: 'quickinvoice',
  plural: 'quickinvoices',
  table: 'quick_invoices',
  scope: { kind: 'column', column: 'location_id' },
  defaultSort: '-created_ts',
  methods: ['list', 'view', 'create', 'update', 'delete'],
  // A cashier sends invoices (the counter does); changing, closing or deleting one changes what is owed: a manager's.
  allow: { list: SELLERS, view: SELLERS, create: SELLERS, update: MANAGERS, delete: MANAGERS },
  fields: {
    id: idField,
    location_id: locationRef,
    contact_id: { type: 'string', min: 24, max: 36, ref: 'contact' },
    contact_api_id: { type: 'string', min: 1, max: 64, virtual: true, filter: false },
    invoice_number: str(0, 64),
    title: str(1, 64, { required: true }),
    item_header: str(0, 250),
    item_list: { type: 'json', required: true, json: itemList, jsonSchema: ITEM_LIST_SCHEMA, example: { Labour: 40, Parts: '12.50' } },
    item_footer: str(0, 250),
    status_id: { type: 'integer', enum: [0, 1], nullable: false }, // 1 open, 0 closed: never empty
    payment_status_id: { type: 'integer', readOnly: true, enum: [1, 2, 3] },
    amount_due: { type: 'string', readOnly: true, filter: 'money' },
    remaining_balance: { type: 'string', readOnly: true, filter: 'money' },
    due_date: { type: 'date', required: true },
    expire_date: { type: 'date' },
    email: str(5, 128, { format: 'email' }),
    allow_partial_pay: int01(0),
    allow_overpayment: int01(0),
    notification_days_before_due_date: days(3),
    notification_on_due_date: int01(1),
    notification_days_after_due_date: days(7),
    cc_product_transaction_id: str(24, 36),
    ach_product_transaction_id: str(24, 36),
    is_active: { type: 'boolean', readOnly: true, outputAsInt: true },
    note: str(0, 200),
    notification_email: str(5, 128, { format: 'email' }),
    attach_files_to_email: int01(0),
    cell_phone: str(10, 10, { format: 'digits', example: '5555550123' }),
    send_text_to_pay: int01(0),
    send_email: { type: 'boolean', virtual: true, filter: false },
    tags: { type: 'json', virtual: true, filter: false, example: ['Repairs'], json: (v) => v, jsonSchema: TAGS_SCHEMA, label: 'Tags' }, // a list of titles: an array, or {"0": title} as multipart sends it
    created_ts: tsField,
    created_user_id: systemUser,
    modified_ts: tsField,
    modified_user_id: systemUser,
  },
  expands: {
    contact: refExpand('contact', 'contact_id'),
    email_blacklist: () => [],
    location: refExpand('location', 'location_id'),
    created_user: createdUserExpand,
    tags: (_ctx, row) => (typeof row.tag_titles === 'string' ? (JSON.parse(row.tag_titles) as string[]).map((title) => ({ title })) : []),
    files: (ctx, row) =>
      (ctx.stmt('SELECT id, file_name, content_type, size, created_ts FROM quick_invoice_files WHERE quick_invoice_id = ? ORDER BY created_ts, id').all(row.id) as Record<string, unknown>[]),
    transactions: (ctx, row) =>
      // transaction_record(): the whole record from its lean stored form (payments/record-storage.ts).
      (ctx.stmt('SELECT transaction_record(t.doc, t.doc_keys) AS doc FROM quick_invoice_transactions q JOIN transactions t ON t.id = q.transaction_id WHERE q.quick_invoice_id = ? ORDER BY t.created_ts').all(row.id) as { doc: string }[]).map(
        (t) => JSON.parse(t.doc) as unknown,
      ),
  },
  validate({ ctx, auth, errs, mode, input, existing }) {
    if (mode === 'update' && existing?.status_id === 0) throw new ApiError(422, { general: [BILLING_MSG.INVOICE_CLOSED] });
    const v = input.values;
    const locationId = String(mode === 'create' ? v.location_id : existing?.location_id);
    translateContactApiId({ ctx, auth, errs }, input, locationId);
    const locked = mode === 'update' && existing !== undefined && paidCents(ctx, String(existing.id)) > 0;
    checkProducts(ctx, errs, input, mode, existing, locked);
    const tags = input.raw.tags;
    if (tags !== undefined && tags !== null) {
      const list = Array.isArray(tags) ? tags : isPlainObject(tags) ? Object.values(tags) : typeof tags === 'string' ? tags.split(',') : null;
      if (!list || list.some((t) => typeof t !== 'string' || t.trim() === '' || t.length > 64)) errs.add('tags', '{attribute} must be a list of tag titles (1 to 64 characters each).');
      else if (mode === 'create') v.tag_titles = JSON.stringify(list.map((t) => (t as string).trim()));
    }
  },
  beforeInsert({ ctx, input }) {
    const v = input.values;
    const due = itemsTotal(v.item_list as Record<string, number>);
    v.amount_due = formatMoney(due);
    Object.assign(v, balanceOf(due, 0));
    v.status_id = 1;
    v.is_active = 1;
    if (!v.email) {
      const fromContact = contactEmail(ctx, v.contact_id);
      if (fromContact) v.email = fromContact;
    }
  },
  afterInsert({ ctx, input, row }) {
    if (typeof input.values.tag_titles === 'string') ctx.stmt('UPDATE quick_invoices SET tag_titles = ? WHERE id = ?').run(input.values.tag_titles, row.id);
    sendInvoice(ctx, row, { email: input.values.send_email !== 0, sms: row.send_text_to_pay === 1 });
  },
  beforeUpdate({ ctx, input, existing }) {
    const v = input.values;
    if (!v.item_list) return;
    // New items: a new amount_due, so a new balance (and paid in full closes it).
    const due = itemsTotal(v.item_list as Record<string, number>);
    v.amount_due = formatMoney(due);
    Object.assign(v, balanceOf(due, paidCents(ctx, String(existing.id))));
    if (v.payment_status_id === PAYMENT_STATUS.paid) v.status_id = 0;
  },
};
