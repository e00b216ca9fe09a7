/**
 * One POST action on `/v2/transactions` (sale, authonly, avsonly, force, refund, debit,
 * credit), each in its own file of this folder, on the one pipeline of
 * TransactionService.createFrom: validate (the field table, for this action) →
 * permission (declared per action, checked before the handler) → idempotency
 * (transaction_api_id: in-flight map, fingerprint, unique index) → processor (`process`)
 * → one group-commit write. A step says only what differs between actions.
 */
import type { ErrorCollector } from '../../framework/errors';
import { simulate, type ProcessorAction, type ProcessorOutcome, type ProcessorRequest } from '../processor-simulator';
import type { FieldValues } from '../../framework/validate';
import type { TransactionRow } from '../transaction-row';

export type PaymentMethod = 'cc' | 'ach';

export interface PostActionStep {
  /** The payment methods the action takes (another is a 422 naming `action`). */
  methods: readonly PaymentMethod[];
  /** transaction_amount when none was sent (undefined: it must be sent). */
  defaultAmount?(previous: TransactionRow | undefined): number | undefined;
  /** 0.00 is a valid amount (an AVS check moves no money). */
  zeroAmount?: true;
  /** Gives money back to `previous_transaction_id` (its refunded counter moves in the write). */
  refunds?: true;
  /** Rules on the request beyond the field table (errors collected). */
  check?(previous: TransactionRow | undefined, errs: ErrorCollector): void;
  /** The auth code the request brings (force); else an approved card gets a new one when `issuesAuthCode`. */
  authCodeOf?(f: FieldValues): string | null;
  issuesAuthCode: boolean;
  /** save_account and default Level 3 data apply (not to money going back). */
  keepsAccount: boolean;
  /** The processor stage (most actions: `askIssuer`). */
  process(req: IssuerRequest): ProcessorOutcome;
}

/** The request to the processor, but for the action (the step names its own). */
export type IssuerRequest = Omit<ProcessorRequest, 'action'>;

/**
 * What most actions do: ask the simulated issuer, as this action. (`action` first: on Node
 * 20 a spread followed by more properties takes V8's slow copy, about 1 µs a sale.)
 */
export const askIssuer =
  (action: ProcessorAction) =>
  (req: IssuerRequest): ProcessorOutcome =>
    simulate({ action, ...req });
