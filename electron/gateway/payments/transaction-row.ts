/** A stored transaction's row (table `transactions`): the columns the engine reads; the record answered is `doc` with its null keys put back. */
export interface TransactionRow {
  id: string;
  location_id: string;
  product_transaction_id: string | null;
  transaction_api_id: string | null;
  payment_method: string;
  action: string;
  type_id: number;
  status_id: number;
  reason_code_id: number;
  amount: number;
  auth_amount: number;
  /** What the issuer approved (moved by authcomplete/authincrement/partialreversal, never by a tip edit). */
  approved_amount: number;
  /** HMAC of what made the POST this request (request-fingerprint.ts); null without a transaction_api_id or before migration 106. */
  request_fingerprint: string | null;
  /**
   * The issuer's approved total: the original approval plus approved increments. Never
   * lowered (by a reversal, a completion or a tip), so the tip tolerance measured from it
   * cannot be chained; an authorization never exceeds tipAdjustCeiling(issuer_approved).
   */
  issuer_approved: number;
  refunded: number;
  first_six: string | null;
  last_four: string | null;
  brand: string | null;
  exp_date: string | null;
  account_vault_id: string | null;
  contact_id: string | null;
  previous_transaction_id: string | null;
  batch_id: string | null;
  settled: number;
  created_ts: number;
  modified_ts: number;
  /** The record's set keys (record-storage.ts: read it whole with TransactionService.recordJson). */
  doc: string;
  /** Which keys `doc` holds; null: all of them (rows written before migration 107). */
  doc_keys: string | null;
}
