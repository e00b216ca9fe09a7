/**
 * Record events: every create, update and delete of a record that integrators can
 * subscribe to (contacts, transactions, transaction batches, account vaults) is announced
 * once through `ctx.recordEvent`, from inside the write that makes the change, so an
 * event exists exactly when its change does (same SQLite transaction). The generic CRUD
 * routes announce declared resources; the payments services announce theirs.
 *
 * The postbacks module replaces the no-op default with one that queues a delivery per
 * matching postback config. The record is serialised lazily (`snapshot`), only when a
 * config listens, so a write nobody listens to costs one indexed lookup.
 *
 * Other modules follow events with `EngineModule.onRecordEvent` (the engine runs it after
 * the installed recordEvent, on the writing connection), never by replacing recordEvent.
 */
export type RecordEventType = 'CREATE' | 'UPDATE' | 'DELETE';

export interface RecordEvent {
  /** Singular resource name: `contact`, `transaction`, `transactionbatch`, `accountvault`… */
  resource: string;
  type: RecordEventType;
  locationId: string;
  /** Transactions and batches: the product transaction a config may be bound to. */
  productTransactionId?: string | null;
  recordId: string;
  /**
   * Transactions: the transaction this one acts on (a refund's sale: previous_transaction_id),
   * when the announcer knows it; null: none. Left out, followers look it up.
   */
  actsOn?: string | null;
  /**
   * The record as the API answers it, with the named expands; for DELETE it is taken
   * before the row goes (the announcing code calls recordEvent before its DELETE).
   */
  snapshot(expands: readonly string[]): Record<string, unknown>;
}
