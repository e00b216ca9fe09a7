/**
 * Transactions (`/v2/transactions`) as a declared resource (framework/resource.ts): the
 * record (every field of transaction-doc.ts RECORD_FIELDS, null when unset), the list's
 * filters and sort (transaction-list.ts, the one list planner), the expands, the location
 * scope and api_id addressing (`GET /v2/transactions/{transaction_api_id}?api_id=true&location_id=`),
 * and the writes: `POST` and `PUT /{id}` dispatched by the body's `action` over the one
 * field × action table (transaction-fields.ts): each action's user types (ACTION_ALLOW) and
 * example, read by the framework's one validator and run by TransactionService's pipeline,
 * which runs the action's own step (actions/<action>.ts). The generic routes mount all of it
 * and the document derives from it (framework/resource-openapi.ts, body-openapi.ts).
 *
 * What stays the module's (`TransactionHooks`): records are stored serialised (`doc`) and
 * written through the payments module's group-commit writer, so list and view answer the
 * stored bytes (RecordSource) and the pipeline writes; a 2xx is still sent only once its
 * commit is on disk.
 */
import type { FastifyRequest } from 'fastify';
import type { EngineContext } from '../framework/context';
import { listFilters } from '../framework/list';
import { nullable, type JsonSchema } from '../framework/openapi-document';
import { SELLERS } from '../framework/permissions';
import type { BodyAction, BodyActionAnswer, BodyActionInput, StoredFieldDef, ResourceDef } from '../framework/resource';
import { FAMILY_RESPONSE_FIELDS, RECORD_FIELDS } from './transaction-doc';
import { TRANSACTION_EXTRA_EXPANDS } from './transaction-expands';
import { ACTION_ALLOW, FIELD_BY_NAME, POST_ACTIONS, PUT_ACTIONS, TIP_LOWERING_RULE, TRANSACTION_FIELDS, type TransactionAction } from './transaction-fields';
import { TRANSACTION_LIST } from './transaction-list';
import type { TransactionRow } from './transaction-row';

/** What the declaration needs from the running payments module (created after it). */
export interface TransactionHooks {
  list(ctx: EngineContext, req: FastifyRequest): Buffer;
  view(ctx: EngineContext, req: FastifyRequest, id: string): string;
  /** The record a PUT acts on (404 first). */
  find(req: FastifyRequest, id: string): TransactionRow;
  create(req: FastifyRequest, input: BodyActionInput): Promise<BodyActionAnswer>;
  act(req: FastifyRequest, row: TransactionRow, input: BodyActionInput): Promise<BodyActionAnswer>;
  /** The action whose role a PUT really needs (a tip edit that lowers the amount is a partial reversal). */
  effectiveAction(req: FastifyRequest, action: string): string;
}

/** The expands the module answers: the payment resources' own (payments-module.ts) and the others (transaction-expands.ts). */
export const TRANSACTION_EXPANDS: readonly string[] = ['transaction_level3', 'account_vault', 'transaction_batch', 'contact', 'previous_transaction', ...TRANSACTION_EXTRA_EXPANDS];

// ------------------------------------------------------------------ the record's answer types

const str = nullable({ type: 'string' });
const int = nullable({ type: 'integer' });
const bool = nullable({ type: 'boolean' });
const money = nullable({ type: 'string', pattern: '^-?[0-9]+\\.[0-9]{2}$' });
/** Fields the engine sets, by their answer's type. */
const ENGINE_TYPES: Partial<Record<string, JsonSchema>> = {
  id: { type: 'string' },
  transaction_amount: money,
  auth_amount: money,
  tax: money,
  tip_amount: money,
  created_ts: { type: 'integer' },
  modified_ts: { type: 'integer' },
  status_id: { type: 'integer' },
  type_id: { type: 'integer' },
  reason_code_id: { type: 'integer' },
  trx_source_id: int,
  notification_email_sent: bool,
  is_recurring: bool,
  is_accountvault: bool,
  terms_agree: bool,
  custom_data: nullable({ type: 'object' }),
  additional_amounts: nullable({ type: 'array' }),
  emv_receipt_data: {},
};
const FAMILY_ONLY = new Set<string>(FAMILY_RESPONSE_FIELDS);

/** A record field's answer: the engine's own type, a kept input field's JSON type, or always null (the family's keys not modelled here). */
function answerOf(name: string): JsonSchema {
  if (FAMILY_ONLY.has(name)) return { type: 'null', description: "Documented by the interface family's answers; not modelled here, always null." };
  const known = ENGINE_TYPES[name];
  if (known) return known;
  const type = FIELD_BY_NAME.get(name)?.type;
  if (type === 'money') return money;
  if (type === 'boolean') return { type: ['boolean', 'integer', 'null'] };
  if (type === 'json') return nullable({ type: 'object' });
  if (type === 'tags' || type === 'additional_amounts') return { type: ['array', 'null'] };
  return str;
}

/** Every record field, read only (the record is written by the actions), in the record's order. */
const RECORD: Record<string, StoredFieldDef> = Object.fromEntries(RECORD_FIELDS.map((name) => [name, { type: 'string', readOnly: true, filter: false, answerSchema: answerOf(name) } satisfies StoredFieldDef]));

// ------------------------------------------------------------------ the actions

type Example = NonNullable<BodyAction['example']>;
const card = { payment_method: 'cc', account_number: '4111111111111111', exp_date: '1230', cvv: '999' };
/**
 * Whole request bodies for the reference page's "Test Request" and for readers: each runs as
 * it is against any engine (no location_id, which defaults to yours; no invented ids; the
 * sandbox's good AVS address). The per-field examples of the schema stay for the fields
 * alone: sent all together they would name a location twice and invent ids (422).
 * openapi.test.ts runs every one of them.
 */
const EXAMPLES: Partial<Record<TransactionAction, Example>> = {
  sale: { summary: 'Card sale', value: { action: 'sale', ...card, transaction_amount: '10.00', billing_street: '5800 NW 39th AVE', billing_zip: '32606' } },
  authonly: { summary: 'Authorize, complete later', value: { action: 'authonly', ...card, transaction_amount: '50.00' } },
  refund: { summary: 'Blind refund to a card', value: { action: 'refund', payment_method: 'cc', account_number: '4111111111111111', exp_date: '1230', transaction_amount: '5.00' } },
  debit: {
    summary: 'ACH debit (WEB)',
    value: { action: 'debit', payment_method: 'ach', account_number: '123456789', routing: '072000326', account_type: 'checking', account_holder_name: 'Pat Doe', ach_sec_code: 'WEB', transaction_amount: '12.00' },
  },
  void: { summary: 'Void (before the batch settles)', value: { action: 'void' } },
  authcomplete: { summary: 'Complete an authonly for less', value: { action: 'authcomplete', transaction_amount: '45.00' } },
  partialreversal: { summary: 'Reduce a sale or authorization to a final amount', value: { action: 'partialreversal', transaction_amount: '40.00' } },
  edit: { summary: 'Tip adjust and description', value: { action: 'edit', tip_amount: '5.00', description: 'Table 4' } },
};

/** Each action's declaration: its user types (the action table) and its example. */
const actionsOf = (names: readonly TransactionAction[]): Record<string, BodyAction> =>
  Object.fromEntries(names.map((a) => [a, { allow: ACTION_ALLOW[a], ...(EXAMPLES[a] ? { example: EXAMPLES[a] } : {}) }]));

export function transactionResource(hooks: () => TransactionHooks): ResourceDef {
  return {
    name: 'transaction',
    plural: 'transactions',
    table: 'transactions',
    schemaName: 'Transaction',
    about: 'Card and ACH payments. Approval is `status_id` (101 approved, 102 authorised, 301 declined, 131-134 ACH…); declines answer 201 too.',
    fields: RECORD,
    everyFieldAnswered: true,
    scope: { kind: 'column', column: 'location_id' },
    apiId: { field: 'transaction_api_id', scopeColumn: 'location_id' },
    defaultSort: TRANSACTION_LIST.defaultSort,
    methods: ['list', 'view'],
    // Reading money records is for whoever sells (an installer moves no money and has no need
    // to see cardholders or amounts: least privilege); the writes are by action.
    allow: { list: SELLERS, view: SELLERS },
    records: {
      filters: listFilters(TRANSACTION_LIST),
      expands: TRANSACTION_EXPANDS,
      list: ({ ctx, req }) => hooks().list(ctx, req),
      view: ({ ctx, req, id }) => hooks().view(ctx, req, id),
    },
    bodyActions: {
      fields: TRANSACTION_FIELDS,
      create: {
        actions: actionsOf(POST_ACTIONS),
        defaultAction: 'sale',
        operationId: 'transactionsCreate',
        summary: `Run a transaction (${POST_ACTIONS.join(', ')})`,
        answer: 'Processed (approved or declined: see status_id), or the original for a repeated transaction_api_id.',
        schemaName: 'TransactionCreate',
        run: ({ req, input }) => hooks().create(req, input),
      },
      update: {
        actions: actionsOf(PUT_ACTIONS),
        clearing: ['edit'],
        effective: { description: TIP_LOWERING_RULE, decide: (req, action) => hooks().effectiveAction(req, action) },
        operationId: 'transactionsAction',
        summary: `Act on a transaction (${PUT_ACTIONS.join(', ')})`,
        answer: 'The transaction after the action.',
        schemaName: 'TransactionAction',
        find: ({ req, id }) => hooks().find(req, id),
        run: ({ req, input, record }) => hooks().act(req, record as TransactionRow, input),
      },
    },
  };
}
