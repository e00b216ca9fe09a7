/**
 * The payments module in the OpenAPI document: transactions, account vaults and BIN info
 * (batches and Level 3 are declared resources and describe themselves). These routes are
 * hand-written (payments-module.ts), so this file
 * describes them; it reads what it can from the code that serves them: the list specs
 * (filters, sort), the record field lists and POST_ACTIONS / PUT_ACTIONS.
 *
 * The transaction request bodies are built by ONE function, `transactionBodySchema`,
 * from a list of field descriptors (name, type, bounds, the actions that take it). The
 * descriptors are derived from the one field × action table (transaction-fields.ts), so
 * the document, the validation and the README's table cannot disagree.
 */
import { MONEY_INPUT_RE } from '../../../shared/payments/money';
import { INPUT_PATTERNS } from '../framework/validate';
import { ACCOUNT_NUMBER_TEXT } from './input-fields';
import {
  API_ID_PARAMETERS,
  BODY_ERRORS,
  COMMON_ERRORS,
  errorResponses,
  expandParameter,
  filterParameters,
  idPathParameter,
  jsonContent,
  listEnvelope,
  nullable,
  PAGING_PARAMETERS,
  ref,
  sampleText,
  wholeFirstAlternative,
  withExample,
  wrapper,
  type ErrorStatus,
  type JsonSchema,
  type OpenApiOperation,
  type OpenApiPart,
} from '../framework/openapi-document';
import { responseOf } from '../framework/resource-openapi';
import { listFilters, type ListSpec } from '../framework/list';
import { FAMILY_RESPONSE_FIELDS, RECORD_FIELDS } from './transaction-doc';
import { TRANSACTION_LIST } from './transaction-list';
import { ACCOUNT_SOURCE_FIELDS, POST_ACTIONS, PUT_ACTIONS, TRANSACTION_FIELDS as TRANSACTION_TABLE, type TransactionFieldType } from './transaction-fields';
import { VAULT_KEEPS_DIGITS } from './vault-service';
import { VAULT_FIELDS as VAULT_INPUT_FIELDS } from './vault-fields';
import { describeDigits, describeDigitsOf, type DigitsRule } from '../framework/card-mask';

type TransactionAction = (typeof POST_ACTIONS)[number] | (typeof PUT_ACTIONS)[number];

/** One request field of `/v2/transactions`: its type, bounds and the actions that take it. */
export interface TransactionFieldDescriptor {
  name: string;
  type: 'string' | 'money' | 'boolean' | 'object' | 'tags' | 'array';
  maxLength?: number;
  minLength?: number;
  /** Items of a list (tags, additional_amounts). */
  maxItems?: number;
  enum?: readonly string[];
  pattern?: string;
  format?: 'date';
  /** Actions that read the field. */
  actions: readonly TransactionAction[];
  /** Actions for which it must be sent. */
  requiredFor?: readonly TransactionAction[];
  /** One of the ways to name the account (account data, a vault, an earlier transaction): sent with another, a 422. */
  accountSource?: true;
  description?: string;
  example?: unknown;
  /** What a card number typed into it does (framework/card-mask.ts). */
  digits: DigitsRule;
}

/** Examples a generated request can send as they are (the bounds alone would not pass Luhn or the calendar). */
const EXAMPLES: Record<string, unknown> = {
  account_number: '4111111111111111',
  exp_date: '1230',
  cvv: '999',
  transaction_amount: '10.00',
  routing: '072000326',
  effective_date: '2030-01-15',
  checkin_date: '2030-01-15',
  checkout_date: '2030-01-17',
  billing_zip: '32606',
  billing_phone: '3525551234',
  notification_email_address: 'pat@example.com',
  micr_data: 'T072000326T123456789U1001',
  track_data: '%B4111111111111111^DOE/PAT^3012101000000000000000?',
  e_track_data: Buffer.from(';4111111111111111=30121010000000000000?').toString('hex'),
  e_format: 'idtech',
};

const JSON_TYPES: Record<TransactionFieldType, TransactionFieldDescriptor['type']> = {
  string: 'string', money: 'money', boolean: 'boolean', date: 'string', mmyy: 'string', json: 'object', enum: 'string',
  hex: 'string', base64: 'string', email: 'string', tags: 'tags', additional_amounts: 'array',
};

/** The text rules of the field types, as the one reader (framework/validate.ts readValue) applies them. */
const TYPE_PATTERNS: Partial<Record<TransactionFieldType, string>> = {
  money: MONEY_INPUT_RE.source,
  mmyy: '^(0[1-9]|1[0-2])[0-9]{2}$',
  email: INPUT_PATTERNS.email.source,
  hex: '^(?:[0-9a-fA-F]{2})+$',
  base64: '^[A-Za-z0-9+/]+={0,2}$',
};

const ACCOUNT_SOURCES = new Set<string>([...ACCOUNT_SOURCE_FIELDS, 'previous_transaction_id', 'previous_transaction_api_id']);

/** The request fields of `/v2/transactions`, derived from the one declaration (transaction-fields.ts). */
export const TRANSACTION_INPUT_FIELDS: readonly TransactionFieldDescriptor[] = TRANSACTION_TABLE.filter((f) => f.name !== 'action').map((f) => {
  const d: TransactionFieldDescriptor = { name: f.name, type: JSON_TYPES[f.type], actions: f.actions, description: f.description, digits: f.keepsDigits ?? 'mask' };
  if (f.name === 'account_number') d.pattern = ACCOUNT_NUMBER_TEXT.source; // its digit bounds (per payment method) are its reader's
  else if (f.type === 'tags' || f.type === 'additional_amounts') d.maxItems = f.max;
  else if (f.type !== 'money' && f.type !== 'json' && f.type !== 'mmyy') {
    if (f.min !== undefined) d.minLength = f.min;
    if (f.max !== undefined) d.maxLength = f.max;
  }
  if (f.values && f.type !== 'additional_amounts') d.enum = f.values;
  d.pattern ??= f.pattern?.source ?? TYPE_PATTERNS[f.type];
  if (f.type === 'date') d.format = 'date';
  if (f.requiredFor) d.requiredFor = f.requiredFor;
  if (ACCOUNT_SOURCES.has(f.name)) d.accountSource = true;
  if (f.name in EXAMPLES) d.example = EXAMPLES[f.name];
  return d;
});

/**
 * One field's schema, saying exactly what the reader takes: its JSON type and bounds and,
 * when `optional`, null or "" for "not sent" (on edit or a PUT: clear it); the rules an
 * empty string breaks bind only a sent value (`anyOf: [<rules>, {const: ""}]`).
 */
function fieldSchema(f: TransactionFieldDescriptor, optional: boolean): JsonSchema {
  let s: JsonSchema;
  const nonEmpty: JsonSchema = {};
  switch (f.type) {
    case 'tags':
      // A comma-separated list or an array of titles.
      s = { anyOf: [{ type: 'string' }, { type: 'array', maxItems: f.maxItems, items: { type: 'string', minLength: 1, maxLength: 64 } }] };
      break;
    case 'array':
      s = { type: 'array', maxItems: f.maxItems, items: { type: 'object' } };
      break;
    case 'boolean':
      s = { enum: [true, false, 1, 0, '1', '0', 'true', 'false'] };
      break;
    case 'object':
      s = { type: 'object' };
      break;
    default:
      s = { type: 'string' };
  }
  if (f.minLength !== undefined) nonEmpty.minLength = f.minLength;
  if (f.maxLength !== undefined) s.maxLength = f.maxLength;
  if (f.enum) s.enum = [...f.enum];
  if (f.pattern) nonEmpty.pattern = f.pattern;
  if (f.format) nonEmpty.format = f.format;
  if (!optional) return Object.assign(s, nonEmpty);
  // Not sent: absent, null or "" (the engine reads all three alike).
  if (Array.isArray(s.enum)) {
    s.enum = [...(s.enum as unknown[]), '', null];
    if (s.type === 'string') s.type = ['string', 'null'];
  } else if (s.type === 'string') {
    s.type = ['string', 'null'];
    if (Object.keys(nonEmpty).length) s.anyOf = [nonEmpty, { const: '' }];
  } else s = { anyOf: [s, { const: '' }, { const: null }] };
  return s;
}

/** A transaction field for these actions; `x-actions` lists those that take it, machine-readable (the generated fuzz run picks its base request by it). */
function descriptorSchema(f: TransactionFieldDescriptor, actions: readonly TransactionAction[]): JsonSchema {
  const s = fieldSchema(f, true);
  const taken = f.actions.filter((a) => actions.includes(a));
  s['x-actions'] = taken;
  if (f.accountSource) s['x-account-source'] = true;
  const which = taken.length === actions.length ? '' : ` Actions: ${taken.join(', ')}.`;
  const desc = `${f.description ?? ''}${which}`.trim();
  if (desc) s.description = desc;
  if (f.type !== 'money') describeDigits(s, f.digits);
  return wholeFirstAlternative(withExample(s, f.example ?? sampleOfDescriptor(f)));
}

function sampleOfDescriptor(f: TransactionFieldDescriptor): unknown {
  if (f.enum) return f.enum[0];
  switch (f.type) {
    case 'money':
      return '1.00';
    case 'tags':
      return 'regular';
    case 'array':
      return [];
    case 'boolean':
      return 0;
    case 'object':
      return {};
    default:
      if (f.format === 'date') return '2030-01-15';
      if (f.pattern === TYPE_PATTERNS.hex) return 'ab'.repeat(Math.min(4, Math.floor((f.maxLength ?? 8) / 2)));
      if (f.pattern === TYPE_PATTERNS.base64) return 'aGVsbG8=';
      if (f.pattern && /^\^\\d/.test(f.pattern)) return '1'.repeat(f.minLength ?? 1);
      if (f.pattern) return 'A1'.repeat(8).slice(0, Math.max(f.minLength ?? 1, Math.min(f.maxLength ?? 8, 8)));
      return sampleText(f.name, f.minLength, f.maxLength);
  }
}

/** The inner object of a POST or PUT transaction body, for the given actions. */
export function transactionBodySchema(fields: readonly TransactionFieldDescriptor[], actions: readonly TransactionAction[], defaultAction?: TransactionAction): JsonSchema {
  const action: JsonSchema = { type: 'string', enum: [...actions], ...(defaultAction ? { default: defaultAction } : {}) };
  // POST: left out, null or "" means the default action.
  if (defaultAction) Object.assign(action, { type: ['string', 'null'], enum: [...actions, '', null] });
  const properties: Record<string, JsonSchema> = { action: withExample(action, defaultAction ?? actions[0]) };
  for (const f of fields) if (f.actions.some((a) => actions.includes(a))) properties[f.name] = descriptorSchema(f, actions);
  const notes = fields
    .filter((f) => f.requiredFor?.some((a) => actions.includes(a)))
    .map((f) => `\`${f.name}\` is required for ${f.requiredFor?.filter((a) => actions.includes(a)).join(', ')}`);
  return {
    type: 'object',
    description: `Unknown keys are ignored.${notes.length ? ` ${notes.join('; ')}.` : ''}`,
    ...(defaultAction ? {} : { required: ['action'] }),
    properties,
    additionalProperties: true,
  };
}

// ------------------------------------------------------------------ response records

const str = nullable({ type: 'string' });
const int = nullable({ type: 'integer' });
const bool = nullable({ type: 'boolean' });
const money = nullable({ type: 'string', pattern: '^-?[0-9]+\\.[0-9]{2}$' });
const TXN_OUTPUT_TYPES: Partial<Record<string, JsonSchema>> = {
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

/** A kept input field is returned with the JSON type its declaration gives it. */
function outputOfTable(name: string): JsonSchema {
  const type = TRANSACTION_TABLE.find((f) => f.name === name)?.type;
  if (type === 'money') return money;
  if (type === 'boolean') return { type: ['boolean', 'integer', 'null'] };
  if (type === 'json') return nullable({ type: 'object' });
  if (type === 'tags' || type === 'additional_amounts') return { type: ['array', 'null'] };
  return str;
}

function transactionRecord(): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  // Every record field is on every record, null when unset (transaction-doc.ts).
  for (const f of RECORD_FIELDS) properties[f] = TXN_OUTPUT_TYPES[f] ?? outputOfTable(f);
  for (const f of FAMILY_RESPONSE_FIELDS) properties[f] = { type: 'null', description: "Documented by the interface family's answers; not modelled here, always null." };
  for (const e of EXPANDS.transaction) properties[e] = { description: `With \`?expand=${e}\`.` };
  properties._links = ref('Links');
  return { type: 'object', required: [...RECORD_FIELDS, '_links'], properties, additionalProperties: true };
}

const VAULT_EXAMPLES: Record<string, unknown> = { payment_method: 'cc', account_number: '4111111111111111', exp_date: '1230', routing: '072000326', account_type: 'checking', is_company: 0 };

/** AccountVaultCreate / AccountVaultUpdate, from the one field table (vault-fields.ts) the reader also uses. */
function vaultWrite(mode: 'create' | 'update'): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const f of VAULT_INPUT_FIELDS) {
    if (!f.modes.includes(mode)) continue;
    const d: TransactionFieldDescriptor = { name: f.name, type: JSON_TYPES[f.type], actions: [], description: f.description, digits: f.keepsDigits ?? 'mask' };
    if (f.type === 'mmyy' || f.type === 'hex' || f.type === 'base64' || f.type === 'email' || f.type === 'money') d.pattern = TYPE_PATTERNS[f.type];
    else {
      if (f.min !== undefined) d.minLength = f.min;
      if (f.max !== undefined) d.maxLength = f.max;
    }
    if (f.pattern) d.pattern = f.pattern.source;
    if (f.values) d.enum = f.values;
    const optional = !(mode === 'create' && f.required) && !(mode === 'update' && f.nullable === false);
    const s = fieldSchema(d, optional);
    const only = f.methods.length === 1 ? ` ${f.methods[0] === 'cc' ? 'Card' : 'Bank account'} vaults only.` : '';
    // Machine-readable, like a transaction field's x-actions: the other method's vaults refuse it.
    if (f.methods.length === 1) s['x-payment-methods'] = [...f.methods];
    s.description = `${f.description}${only}`;
    properties[f.name] = wholeFirstAlternative(withExample(s, VAULT_EXAMPLES[f.name] ?? (f.type === 'string' && !f.pattern ? sampleText(f.name, f.min ?? 0, f.max ?? 64) : undefined)));
  }
  if (mode === 'update') return { type: 'object', description: 'Only the fields sent change (null or "" clears one); others are ignored.', properties, additionalProperties: true };
  return {
    type: 'object',
    description: 'Direct (account data) or from `previous_transaction_id`. ACH needs routing, account_type, is_company and account_holder_name; a field of the other payment method is refused.',
    required: VAULT_INPUT_FIELDS.filter((f) => f.required).map((f) => f.name),
    properties,
    additionalProperties: true,
  };
}

const BININFO_FIELDS = ['issuer_bank_name', 'country_code', 'detail_card_product', 'detail_card_indicator', 'fsa_indicator', 'prepaid_indicator', 'product_id', 'regulator_indicator', 'visa_product_sub_type', 'visa_large_ticket_indicator', 'account_fund_source', 'card_class', 'token_ind', 'issuing_network'];

const EXPANDS = {
  transaction: ['transaction_level3', 'account_vault', 'transaction_batch', 'contact', 'previous_transaction'],
} as const;

// ------------------------------------------------------------------ operations

const listParams = (spec: ListSpec): Record<string, unknown>[] => [...PAGING_PARAMETERS, ...filterParameters(listFilters(spec))];

function op(tag: string, o: OpenApiOperation, errors: ErrorStatus[]): OpenApiOperation {
  return { tags: [tag], ...o, responses: { ...(o.responses as object), ...errorResponses(errors) } };
}
const body = (key: string, schemaName: string) => ({ required: true, content: jsonContent(wrapper(key, ref(schemaName))) });

type Example = { summary: string; value: { transaction: Record<string, unknown> } };
const card = { payment_method: 'cc', account_number: '4111111111111111', exp_date: '1230', cvv: '999' };
/**
 * Whole request bodies for the reference page's "Test Request" and for readers: each runs as
 * it is against any engine (no location_id, which defaults to yours; no invented ids; the
 * sandbox's good AVS address). The per-field examples of the schema stay for the fields
 * alone: sent all together they would name a location twice and invent ids (422).
 * openapi.test.ts runs every one of them.
 */
const POST_EXAMPLES: Record<string, Example> = {
  sale: { summary: 'Card sale', value: { transaction: { action: 'sale', ...card, transaction_amount: '10.00', billing_street: '5800 NW 39th AVE', billing_zip: '32606' } } },
  authonly: { summary: 'Authorize, complete later', value: { transaction: { action: 'authonly', ...card, transaction_amount: '50.00' } } },
  refund: { summary: 'Blind refund to a card', value: { transaction: { action: 'refund', payment_method: 'cc', account_number: '4111111111111111', exp_date: '1230', transaction_amount: '5.00' } } },
  debit: {
    summary: 'ACH debit (WEB)',
    value: { transaction: { action: 'debit', payment_method: 'ach', account_number: '123456789', routing: '072000326', account_type: 'checking', account_holder_name: 'Pat Doe', ach_sec_code: 'WEB', transaction_amount: '12.00' } },
  },
};
const PUT_EXAMPLES: Record<string, Example> = {
  void: { summary: 'Void (before the batch settles)', value: { transaction: { action: 'void' } } },
  authcomplete: { summary: 'Complete an authonly for less', value: { transaction: { action: 'authcomplete', transaction_amount: '45.00' } } },
  partialreversal: { summary: 'Reduce a sale or authorization to a final amount', value: { transaction: { action: 'partialreversal', transaction_amount: '40.00' } } },
  edit: { summary: 'Tip adjust and description', value: { transaction: { action: 'edit', tip_amount: '5.00', description: 'Table 4' } } },
};
const bodyWithExamples = (schemaName: string, examples: Record<string, Example>) => {
  const b = body('transaction', schemaName);
  return { ...b, content: { 'application/json': { ...b.content['application/json'], examples } } };
};
const writeErrors: ErrorStatus[] = [...COMMON_ERRORS, ...BODY_ERRORS];

export function paymentsOpenApi(): OpenApiPart {
  const txn = wrapper('transaction', ref('Transaction'));
  const vault = wrapper('accountvault', ref('AccountVault'));
  const id = idPathParameter();
  const idOnly = idPathParameter('The record id.');
  return {
    tags: [
      { name: 'transactions', description: 'Card and ACH payments. Approval is `status_id` (101 approved, 102 authorised, 301 declined, 131-134 ACH…); declines answer 201 too.' },
    ],
    schemas: {
      Transaction: transactionRecord(),
      TransactionCreate: transactionBodySchema(TRANSACTION_INPUT_FIELDS, POST_ACTIONS, 'sale'),
      TransactionAction: transactionBodySchema(TRANSACTION_INPUT_FIELDS, PUT_ACTIONS),
      AccountVaultCreate: describeDigitsOf(vaultWrite('create'), VAULT_KEEPS_DIGITS),
      AccountVaultUpdate: describeDigitsOf(vaultWrite('update'), VAULT_KEEPS_DIGITS),
      BinInfo: { type: 'object', required: BININFO_FIELDS, properties: Object.fromEntries(BININFO_FIELDS.map((f) => [f, { type: 'string' }])) },
    },
    paths: {
      '/v2/transactions': {
        get: op(
          'transactions',
          {
            operationId: 'transactionsList',
            summary: 'List transactions',
            parameters: [expandParameter(EXPANDS.transaction), ...listParams(TRANSACTION_LIST)],
            responses: { 200: responseOf('A page of transactions.', listEnvelope('transactions', ref('Transaction'))) },
          },
          [401, 403, 422],
        ),
        post: op(
          'transactions',
          {
            operationId: 'transactionsCreate',
            summary: 'Run a transaction (sale, authonly, avsonly, force, refund, debit, credit)',
            requestBody: bodyWithExamples('TransactionCreate', POST_EXAMPLES),
            responses: { 201: responseOf('Processed (approved or declined: see status_id), or the original for a repeated transaction_api_id.', txn) },
          },
          writeErrors,
        ),
      },
      '/v2/transactions/{id}': {
        get: op(
          'transactions',
          {
            operationId: 'transactionsView',
            summary: 'View a transaction',
            parameters: [id, expandParameter(EXPANDS.transaction), ...API_ID_PARAMETERS],
            responses: { 200: responseOf('The transaction.', txn) },
          },
          [...COMMON_ERRORS, 422],
        ),
        put: op(
          'transactions',
          {
            operationId: 'transactionsAction',
            summary: 'Act on a transaction (void, authcomplete, authincrement, partialreversal, edit)',
            parameters: [id, ...API_ID_PARAMETERS],
            requestBody: bodyWithExamples('TransactionAction', PUT_EXAMPLES),
            responses: { 200: responseOf('The transaction after the action.', txn) },
          },
          writeErrors,
        ),
      },
      '/v2/accountvaults': {
        post: op('accountvaults', { operationId: 'accountvaultsCreate', summary: 'Vault an account', requestBody: body('accountvault', 'AccountVaultCreate'), responses: { 201: responseOf('Vaulted.', vault) } }, writeErrors),
      },
      '/v2/accountvaults/{id}': {
        put: op('accountvaults', { operationId: 'accountvaultsUpdate', summary: 'Update an account vault', parameters: [id, ...API_ID_PARAMETERS], requestBody: body('accountvault', 'AccountVaultUpdate'), responses: { 200: responseOf('The vault.', vault) } }, writeErrors),
      },
      '/v2/accountvaults/{id}/bininfo': {
        get: op(
          'accountvaults',
          { operationId: 'accountvaultsBinInfo', summary: 'BIN information of a vaulted card', parameters: [idOnly], responses: { 200: responseOf('BIN data (422 for ACH vaults).', wrapper('bininfo', ref('BinInfo'))) } },
          [...COMMON_ERRORS, 422],
        ),
      },
    },
  };
}
