/**
 * The v2 records the client reads, as loose as the interface document leaves them:
 * every field optional, because "types, bounds and allowed values of transaction
 * fields: not shown" — a remote gateway may omit any of them. The core normalises
 * them into the contract's TransactionView before a screen sees one.
 */
export interface V2Transaction {
  id: string;
  transaction_api_id?: string | null;
  payment_method?: string | null;
  type_id?: number | null;
  status_id?: number | null;
  reason_code_id?: number | null;
  transaction_amount?: string | number | null;
  tax?: string | number | null;
  tip_amount?: string | number | null;
  auth_amount?: string | number | null;
  auth_code?: string | null;
  first_six?: string | null;
  last_four?: string | null;
  account_type?: string | null;
  verbiage?: string | null;
  response_message?: string | null;
  created_ts?: number | null;
  settle_date?: string | null;
  void_date?: string | null;
  transaction_settlement_status?: string | null;
  previous_transaction_id?: string | null;
  notification_email_address?: string | null;
  notification_email_sent?: boolean | number | null;
  location_id?: string | null;
  product_transaction_id?: string | null;
  /** Engines that track refunds report the refunded total here (decimal string). */
  refunded_amount?: string | number | null;
  [extra: string]: unknown;
}

export interface V2Terminal {
  id: string;
  title?: string | null;
  tip_enable?: boolean | number | null;
  tip_percents?: { percent_1: number | null; percent_2: number | null; percent_3: number | null } | null;
}

export interface V2Location {
  id: string;
  name?: string | null;
}

/** `meta` of a list answer (camelCase, as the interface document gives it). */
export interface V2ListMeta {
  pagination?: { totalCount?: number; perPage?: number; pageCount?: number; currentPage?: number };
}

/** `{"errors": {"<field or general>": ["message", ...]}}` */
export type V2Errors = Record<string, string[]>;

/** Body of POST /v2/transactions (the fields this app sends). */
export interface V2TransactionCreate {
  action: 'sale' | 'refund' | 'debit';
  payment_method: 'cc' | 'ach';
  location_id?: string;
  product_transaction_id?: string;
  transaction_amount: string;
  tax?: string;
  tip_amount?: string;
  account_number?: string;
  exp_date?: string;
  cvv?: string;
  billing_zip?: string;
  /** A card read by a reader that encrypts (the terminal's store-and-forward read): its data, format and key serial number. */
  e_track_data?: string;
  e_format?: string;
  e_serial_number?: string;
  transaction_api_id?: string;
  previous_transaction_id?: string;
  entry_mode_id?: 'K';
  account_vault_id?: string;
  /** The counter user, as the interface's clerk_number (letters and digits, at most 16). */
  clerk_number?: string;
  /** A check at the counter (ACH, POP): the MICR line stands in for routing and account numbers (or they are keyed from the check, with its number). */
  routing?: string;
  check_number?: string;
  account_type?: 'checking' | 'savings';
  account_holder_name?: string;
  ach_sec_code?: 'POP' | 'WEB' | 'PPD' | 'CCD' | 'TEL';
  micr_data?: string;
}

/** Filters for GET /v2/transactions: substring for text, `a,b` for any-of, `lo|hi` ranges. */
/** `id_suffix` is the embedded engine's extension (the id ends so); other gateways may ignore it. */
export type V2TransactionFilters = Partial<Record<'last_four' | 'transaction_amount' | 'created_ts' | 'modified_ts' | 'transaction_api_id' | 'auth_code' | 'type_id' | 'status_id' | 'location_id' | 'previous_transaction_id' | 'transaction_batch_id' | 'id_suffix', string>>;

/** A transaction batch (GET /v2/transactionbatches). processing_status_id: 1 to settle, 2 settled, 3 error, 4 reprocess, 5 processing. */
export interface V2Batch {
  id: string;
  batch_num?: number | null;
  location_id?: string | null;
  product_transaction_id?: string | null;
  processing_status_id?: number | null;
  is_open?: number | boolean | null;
  batch_close_ts?: number | null;
  settlement_file_name?: string | null;
  created_ts?: number | null;
  modified_ts?: number | null;
}

/** Filters for GET /v2/transactionbatches. */
export type V2BatchFilters = Partial<Record<'is_open' | 'product_transaction_id' | 'location_id' | 'processing_status_id', string>>;

/** An account vault (saved card or bank account). The gateway never returns the full number. */
export interface V2AccountVault {
  id: string;
  payment_method?: 'cc' | 'ach' | string | null;
  title?: string | null;
  account_holder_name?: string | null;
  first_six?: string | null;
  last_four?: string | null;
  exp_date?: string | null;
  account_type?: string | null;
  contact_id?: string | null;
  expiring_in_months?: number | null;
  has_recurring?: boolean | null;
  [extra: string]: unknown;
}

/** Body of POST /v2/accountvaults (the fields this app sends). */
export interface V2AccountVaultCreate {
  location_id: string;
  payment_method: 'cc' | 'ach';
  contact_id?: string;
  account_holder_name?: string;
  account_number: string;
  exp_date?: string;
  routing?: string;
  account_type?: 'checking' | 'savings';
  is_company?: 0 | 1;
  title?: string;
}

export interface V2Contact {
  id: string;
  first_name?: string | null;
  last_name?: string | null;
  email?: string | null;
  location_id?: string | null;
  [extra: string]: unknown;
}

export interface V2User {
  id: string;
  username?: string | null;
  user_type_id?: number | null;
  [extra: string]: unknown;
}

export interface V2UserCreate {
  username: string;
  email: string;
  last_name: string;
  user_type_id: number;
  primary_location_id: string;
  password: string;
  user_api_key?: string;
}
