/**
 * The transaction record as the API returns it (without `_links`). Every field the
 * interface lists appears, in a fixed order, null when not applicable, so clients see a
 * stable shape. The record is serialised once per change and stored as `doc`, without its
 * null keys (record-storage.ts).
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
 * Keys the interface family's documented transaction answers carry (its Transactions and Router
 * Transactions examples) that neither the base record nor the field table holds: `code`, `item`,
 * `timestamp`, `auth` and `folio_num` of the older answers, `bill_payment`, and the recurring
 * and installment keys. The engine does not model them: they are always null (their meaning is in
 * auth_code, created_ts, order_num, recurring_id, is_recurring), present so a client that reads
 * them finds the key, as the family's clients do.
 */
export const FAMILY_RESPONSE_FIELDS = [
  'code', 'item', 'timestamp', 'auth', 'folio_num', 'bill_payment', 'recurring_flag', 'recurring_number',
  'installment_number', 'installment_total_count',
] as const;

/**
 * Ringup's own keys of a transaction record: `paylink_id`, the pay link whose payment page made
 * the transaction (as the interface's `quick_invoice_id` names the invoice's).
 */
export const RINGUP_RECORD_FIELDS = ['paylink_id'] as const;

/**
 * Every key of a transaction record, derived from the declarations: the base fields, the inputs
 * kept as sent (the field table's `storage: 'record'` fields: lodging, amount parts, custom
 * fields…), the family's documented keys, then Ringup's own. Every record carries every one of them, null
 * when unset: the interface documents the record's keys, not a shape that depends on what was
 * sent. (A record stored before migration 602 gets the keys it lacked, null.)
 */
export const RECORD_FIELDS: readonly string[] = [...new Set<string>([...BASE_FIELDS, ...RECORD_INPUT_FIELDS, ...FAMILY_RESPONSE_FIELDS, ...RINGUP_RECORD_FIELDS])];

/** RECORD_FIELDS as a set: what another module may add to a record it starts (TransactionOrigin.doc). */
export const RECORD_FIELD_SET: ReadonlySet<string> = new Set(RECORD_FIELDS);

/**
 * A record with every field null, in the record's order. Built by an object literal compiled
 * once from RECORD_FIELDS (our own constant names, JSON-quoted): a literal of ~100 keys stays a
 * fast-properties object, where adding them one by one turns it into a dictionary; measured
 * with its JSON.stringify, 4.5 µs against 12.5 µs per sale. It is stored lean (record-storage.ts).
 */
export const emptyDoc = new Function(`return {${RECORD_FIELDS.map((f) => `${JSON.stringify(f)}: null`).join(', ')}};`) as () => Record<string, unknown>;

/**
 * Adds `_links.self.href` to a record's JSON without re-parsing it. `open`: the same JSON
 * without its closing brace, where the caller has it (RecordStorage.open), so the record is
 * not copied to be cut.
 */
export function docWithLinks(doc: string, href: string, open: string = doc.slice(0, -1)): string {
  return `${open},"_links":{"self":{"href":${JSON.stringify(href)}}}}`;
}
