/**
 * One PUT action on a transaction (void, authcomplete, authincrement, partialreversal,
 * edit), each in its own file of this folder, on the one pipeline of
 * TransactionService.act: validate (the field table, for this action) → permission (the
 * route's declared check ran before the handler; a rule that depends on the committed
 * record is judged again inside the write) → idempotency (transaction_api_id, in the
 * write) → processor (`process`, before the write job: only actions that ask the issuer)
 * → write (`apply` inside the group-commit job, between the pipeline's common prologue
 * and epilogue, which store the record, the changelog and the postback event).
 */
import type { AuthInfo, EngineContext } from '../../framework/context';
import type { BatchService } from '../batch-service';
import type { MerchantLookups } from '../merchant-lookups';
import type { ProcessorOutcome } from '../processor-simulator';
import type { TransactionDoc } from '../transaction-doc';
import type { FieldValues } from '../../framework/validate';
import type { TransactionRow } from '../transaction-row';

/** What the write changes: the committed record (`cur`) and the values the epilogue stores. */
export interface PutActionState {
  readonly cur: TransactionRow;
  d: TransactionDoc;
  status: number;
  reason: number;
  amt: number;
  authAmt: number;
  approvedAmt: number;
  issuerApproved: number;
  batchId: string | null;
  contactId: string | null;
}

/** The validated request. */
export interface PutActionInput {
  auth: AuthInfo;
  f: FieldValues;
  /** transaction_amount in cents, or null when not sent. */
  amount: number | null;
  /** tip_amount in cents, or null when not sent. */
  tip: number | null;
  /** Any of subtotal, tax, tip or surcharge was sent. */
  partsSent: boolean;
  /** edit's contact: an id, null to detach, undefined when not sent. */
  contactChange: string | null | undefined;
  moveVault: boolean;
  moveVaultTransactions: boolean;
  now: number;
  /** The issuer's answer, asked before the write (`process`). */
  processed?: ProcessorOutcome;
}

export interface PutActionDeps {
  ctx: EngineContext;
  batches: BatchService;
  lookups: MerchantLookups;
  /** edit with move_account_vault: the vault (and with it its transactions) follow the contact. */
  moveVaultToContact(cur: TransactionRow, contactId: string, withTransactions: boolean, userId: string, now: number): void;
}

export interface PutActionStep {
  /** The processor stage, before the write job. */
  process?(row: TransactionRow, input: PutActionInput, deps: PutActionDeps): Promise<ProcessorOutcome | undefined>;
  /** The action's part of the write: its rules against the committed record, then its changes (throw ApiError to refuse). */
  apply(s: PutActionState, input: PutActionInput, deps: PutActionDeps): void;
}
