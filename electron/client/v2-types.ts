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
  action: 'sale' | 'refund';
  payment_method: 'cc';
  location_id?: string;
  product_transaction_id?: string;
  transaction_amount: string;
  tax?: string;
  tip_amount?: string;
  account_number?: string;
  exp_date?: string;
  cvv?: string;
  billing_zip?: string;
  transaction_api_id?: string;
  previous_transaction_id?: string;
  entry_mode_id?: 'K';
  /** The counter user, as the interface's clerk_number (letters and digits, at most 16). */
  clerk_number?: string;
}

/** Filters for GET /v2/transactions: substring for text, `a,b` for any-of, `lo|hi` ranges. */
export type V2TransactionFilters = Partial<Record<'last_four' | 'transaction_amount' | 'created_ts' | 'transaction_api_id' | 'auth_code' | 'type_id' | 'status_id' | 'location_id' | 'previous_transaction_id', string>>;
