/**
 * Product transactions (a location's merchant/deposit accounts). The interface has no
 * endpoints for them; they appear in location expands and location infos, and the
 * payments module reads them (processor settings, level3_allow, auto_decline_cvv/zip/street,
 * allow_partial_authorization).
 * Declared so serialisation and references are generic; no routes.
 */
import type { StoredFieldDef, ResourceDef } from '../framework/resource';
import { idField, tsField } from './field-kit';

const b: StoredFieldDef = { type: 'boolean' };
const s: StoredFieldDef = { type: 'string' };
const j: StoredFieldDef = { type: 'json' };

export const productTransactionResource: ResourceDef = {
  name: 'product_transaction',
  plural: 'product_transactions',
  path: '/v2/producttransactions',
  table: 'product_transactions',
  scope: { kind: 'column', column: 'location_id' },
  defaultSort: 'created_ts',
  methods: [],
  allow: {},
  fields: {
    id: idField,
    location_id: s,
    payment_method: { type: 'string', enum: ['cc', 'ach'] },
    processor: s,
    title: s,
    receipt_header: s,
    receipt_footer: s,
    receipt_add_account_above_signature: b,
    receipt_add_recurring_above_signature: b,
    receipt_logo: s,
    receipt_show_contact_name: b,
    industry_type: s,
    partner: s,
    vt_cvv: b,
    vt_street: b,
    vt_zip: b,
    vt_order_num: b,
    display_avs: b,
    vt_enable: b,
    vt_enable_tip: b,
    velocity_settings: j,
    surcharge: j,
    default_transaction_type: s,
    vt_require_street: b,
    vt_require_zip: b,
    vt_enable_sales_tax: b,
    vt_override_sales_tax_allowed: b,
    current_batch: { type: 'integer' },
    vt_billing_phone: b,
    vt_clerk_number: b,
    quick_invoice_allow: b,
    active: b,
    hosted_payment_page_max_allowed: { type: 'integer' },
    hosted_payment_page_allow: b,
    auto_decline_cvv: b,
    /** Decline when a zip (street) was sent and AVS says it does not match; `auto_decline_*_override` wins per request. */
    auto_decline_zip: b,
    auto_decline_street: b,
    /** Partial approvals (the sandbox's 2.01); off, they decline. `allow_partial_authorization_override` wins per request. */
    allow_partial_authorization: b,
    level3_allow: b,
    level3_default: s,
    /** Engine extension: HH:MM (location time) at which the open batch closes by itself each day. */
    batch_close_time: { type: 'string', pattern: /^([01]\d|2[0-3]):[0-5]\d$/, default: '23:59', example: '23:59' },
    tax_surcharge_config: j,
    processor_data: j,
    created_ts: tsField,
    modified_ts: tsField,
  },
};
