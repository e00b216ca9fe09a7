/**
 * Pay links (`/v2/paylinks`). A pay link asks a customer to pay (amount_due, or an
 * amount they enter) on the engine's own payment page, `<origin>/paylink?paylink_id=<id>`
 * (the seed's link shape, the payment_url expand). Rules:
 * - delivery_method 0 none, 1 e-mail, 2 SMS, 3 both; cell_phone required for 2 and 3;
 *   on create the notification goes to each channel asked for whose recipient is set;
 * - status_id 0 Unpaid, 1 Paid (set by the payment page, in the payment's own commit, once
 *   the amount due is collected); a paid or closed (active 0) link cannot be updated (422);
 * - remaining_balance (Ringup extension, read-only, as a quick invoice's): amount_due minus
 *   the approved money its payments collected (paylink-balance.ts); a partial approval
 *   leaves the rest to collect on the same page; null without amount_due;
 * - cc/ach product ids default to the location's defaults; they and amount_due may change
 *   only while nothing was collected.
 */
import { formatMoney, formatMoneyDisplay, parseMoney } from '../../../shared/payments/money';
import type { EngineContext } from '../framework/context';
import { ApiError } from '../framework/errors';
import type { ResourceDef, Row } from '../framework/resource';
import { createdUserExpand, idField, locationRef, refExpand, str, systemUser, tsField } from '../merchant/field-kit';
import { BILLING_MSG } from './billing-messages';
import { checkProducts, locationName, paylinkUrl, translateContactApiId } from './billing-shared';
import { paylinkCollectedCents, paylinkRemaining } from './paylink-balance';
import { MANAGERS, SELLERS } from '../framework/permissions';


/** Queues the pay link message on each channel delivery_method asks for (and has a recipient). */
export function sendPaylink(ctx: EngineContext, row: Row, channels: { email: boolean; sms: boolean } = { email: true, sms: true }): number {
  const method = Number(row.delivery_method);
  const link = paylinkUrl(ctx, row);
  const merchant = locationName(ctx, row.location_id);
  const cents = parseMoney(row.amount_due);
  const what = cents ? `${formatMoneyDisplay(cents)} ` : '';
  let sent = 0;
  const base = { locationId: String(row.location_id), kind: 'paylink', link, resourceType: 'paylink', resourceId: String(row.id) };
  if (channels.email && (method === 1 || method === 3) && typeof row.email === 'string' && row.email) {
    ctx.notify({ ...base, channel: 'email', to: row.email, subject: `Payment request from ${merchant}`,
      body: `${merchant} asks you to pay ${what}${row.description ? `for ${String(row.description)} ` : ''}online.\n\nPay here: ${link}\n` });
    sent++;
  }
  if (channels.sms && (method === 2 || method === 3) && typeof row.cell_phone === 'string' && row.cell_phone) {
    ctx.notify({ ...base, channel: 'sms', to: row.cell_phone, subject: `Payment request from ${merchant}`, body: `${merchant}: please pay ${what}at ${link}` });
    sent++;
  }
  return sent;
}

export const paylinkResource: ResourceDef = {
  name: 'paylink',
  plural: 'paylinks',
  table: 'paylinks',
  scope: { kind: 'column', column: 'location_id' },
  apiId: { field: 'paylink_api_id', scopeColumn: 'location_id' },
  defaultSort: '-created_ts',
  methods: ['list', 'view', 'create', 'update', 'delete'],
  // A cashier sends links (the counter does); changing or withdrawing one changes what is owed: a manager's.
  allow: { list: SELLERS, view: SELLERS, create: SELLERS, update: MANAGERS, delete: MANAGERS },
  fields: {
    id: idField,
    location_id: locationRef,
    cc_product_transaction_id: str(24, 36),
    ach_product_transaction_id: str(24, 36),
    amount_due: str(1, 12, { format: 'money', example: '25.00' }),
    remaining_balance: { type: 'string', readOnly: true, filter: 'money', example: '25.00' },
    contact_id: { type: 'string', min: 24, max: 36, ref: 'contact' },
    contact_api_id: { type: 'string', min: 1, max: 64, virtual: true, filter: false },
    email: str(5, 128, { format: 'email' }),
    cell_phone: str(1, 10, { format: 'digits', example: '5555550123' }),
    delivery_method: { type: 'integer', enum: [0, 1, 2, 3], required: true },
    expire_date: { type: 'date' },
    paylink_action: { type: 'string', max: 10, enum: ['sale', 'auth-only'], default: 'sale' },
    paylink_api_id: str(0, 64, { format: 'no-spaces' }),
    description: str(0, 255),
    display_product_transaction_receipt_details: { type: 'boolean', readOnly: true },
    display_billing_fields: { type: 'boolean', readOnly: true },
    active: { type: 'boolean', readOnly: true },
    status_id: { type: 'integer', readOnly: true, enum: [0, 1] },
    created_ts: tsField,
    modified_ts: tsField,
    created_user_id: systemUser,
    modified_user_id: systemUser,
  },
  expands: {
    contact: refExpand('contact', 'contact_id'),
    email_blacklist: () => [],
    sms_blacklist: () => [],
    location: refExpand('location', 'location_id'),
    tags: () => [],
    created_user: createdUserExpand,
    payment_url: (ctx, row) => paylinkUrl(ctx, row),
  },
  validate({ ctx, auth, errs, mode, input, existing }) {
    if (mode === 'update' && existing && (existing.status_id === 1 || existing.active === 0)) throw new ApiError(422, { general: [BILLING_MSG.PAYLINK_CLOSED] });
    const locationId = String(mode === 'create' ? input.values.location_id : existing?.location_id);
    translateContactApiId({ ctx, auth, errs }, input, locationId);
    const collected = mode === 'update' && existing ? paylinkCollectedCents(ctx, String(existing.id)) : 0;
    checkProducts(ctx, errs, input, mode, existing, collected > 0);
    const v = input.values;
    const method = 'delivery_method' in v ? v.delivery_method : existing?.delivery_method;
    const phone = 'cell_phone' in v ? v.cell_phone : existing?.cell_phone;
    if ((method === 2 || method === 3) && !phone) errs.add('cell_phone', BILLING_MSG.CELL_PHONE_FOR_SMS);
    if (typeof v.amount_due === 'string') v.amount_due = formatMoney(parseMoney(v.amount_due) ?? 0);
    if ('amount_due' in v) {
      if (collected > 0 && v.amount_due !== existing?.amount_due) errs.add('amount_due', BILLING_MSG.PAYLINK_AMOUNT_LOCKED);
      else v.remaining_balance = paylinkRemaining(v.amount_due, collected);
    }
  },
  afterInsert({ ctx, row }) {
    sendPaylink(ctx, row);
  },
};
