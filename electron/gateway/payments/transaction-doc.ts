/**
 * The transaction record as the API returns it (without `_links`). Every field the
 * interface lists appears, in a fixed order, null when not applicable, so clients see a
 * stable shape. The record is serialised once per change and stored as `doc`.
 */
export type TransactionDoc = Record<string, unknown> & {
  id: string;
  status_id: number;
  type_id: number;
  reason_code_id: number;
};

import { RECORD_INPUT_FIELDS } from './transaction-fields';

/** The record's own fields, in the interface's order (the postback field list). */
/** The interface's base record: on every transaction, null when not applicable. */
export const BASE_FIELDS = [
  'id', 'payment_method', 'account_vault_id', 'recurring_id', 'first_six', 'last_four', 'account_holder_name',
  'transaction_amount', 'description', 'transaction_code', 'avs', 'batch', 'order_num', 'verbiage',
  'transaction_settlement_status', 'effective_date', 'routing', 'return_date', 'created_ts', 'modified_ts',
  'transaction_api_id', 'terms_agree', 'notification_email_address', 'notification_email_sent', 'response_message',
  'auth_amount', 'auth_code', 'status_id', 'type_id', 'location_id', 'reason_code_id', 'contact_id', 'billing_zip',
  'billing_street', 'product_transaction_id', 'tax', 'customer_ip', 'customer_id', 'po_number', 'avs_enhanced',
  'cvv_response', 'billing_phone', 'billing_city', 'billing_state', 'clerk_number', 'tip_amount', 'created_user_id',
  'modified_user_id', 'ach_identifier', 'check_number', 'settle_date', 'charge_back_date', 'void_date', 'account_type',
  'is_recurring', 'is_accountvault', 'transaction_c1', 'transaction_c2', 'transaction_c3', 'additional_amounts',
  'terminal_serial_number', 'entry_mode_id', 'terminal_id', 'quick_invoice_id', 'ach_sec_code', 'custom_data',
  'hosted_payment_page_id', 'trx_source_id', 'emv_receipt_data', 'exp_date', 'previous_transaction_id',
  'transaction_batch_id', 'action',
] as const;

/**
 * Every field a record can carry: the base fields, then the inputs kept as sent (from the
 * field table). Base fields are on every record (null when not applicable); the other
 * input fields appear when sent, so a plain sale's record stays as small as before (the
 * 5000-row page is string concatenation of stored records, and its speed is their size).
 */
export const RECORD_FIELDS: readonly string[] = [...new Set<string>([...BASE_FIELDS, ...RECORD_INPUT_FIELDS])];

export function emptyDoc(): Record<string, unknown> {
  const d: Record<string, unknown> = {};
  for (const f of BASE_FIELDS) d[f] = null;
  return d;
}

/** Adds `_links.self.href` to a stored doc without re-parsing it. */
export function docWithLinks(doc: string, href: string): string {
  return `${doc.slice(0, -1)},"_links":{"self":{"href":${JSON.stringify(href)}}}}`;
}
