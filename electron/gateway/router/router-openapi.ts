/**
 * The router module in the OpenAPI document: the terminal-driven transaction and vault,
 * and Ringup's counter extensions (a terminal's live state, cancel, initialize). The request
 * bodies reuse the payments schemas where they are the same fields.
 */
import { BODY_ERRORS, COMMON_ERRORS, errorResponses, idPathParameter, jsonContent, ref, wholeFirstAlternative, wrapper, type ErrorStatus, type JsonSchema, type OpenApiPart } from '../framework/openapi-document';
import { responseOf } from '../framework/resource-openapi';
import { MONEY_INPUT_RE } from '../../../shared/payments/money';
import { ROUTER_ACTIONS } from './router-fields';
import { describeDigitsOf } from '../framework/card-mask';
import { ROUTER_TRANSACTION_DIGITS, ROUTER_VAULT_DIGITS } from './router-card-numbers';

const terminalErrors: ErrorStatus[] = [...COMMON_ERRORS, ...BODY_ERRORS, 409, 503];

const ROUTER_TRANSACTION_BODY: JsonSchema = describeDigitsOf({
  type: 'object',
  required: ['terminal_id', 'transaction_amount'],
  properties: {
    action: { type: ['string', 'null'], enum: [...ROUTER_ACTIONS, '', null], default: 'sale' },
    terminal_id: { type: 'string', minLength: 1, description: 'The terminal to run on (its local_ip_address and port, its serial path, or in a sandbox the built-in mock terminal).' },
    location_id: { type: ['string', 'null'], maxLength: 36 },
    transaction_amount: { type: 'string', pattern: MONEY_INPUT_RE.source, description: 'The amount before the tip; the customer adds the tip on the terminal unless tip_amount is sent.', examples: ['10.00'] },
    tip_amount: wholeFirstAlternative({ type: ['string', 'null'], anyOf: [{ pattern: MONEY_INPUT_RE.source }, { const: '' }] }),
    tip_base_amount: wholeFirstAlternative({
      type: ['string', 'null'],
      anyOf: [{ pattern: MONEY_INPUT_RE.source }, { const: '' }],
      description: "Ringup: what the terminal's tip percents are taken of (the store's tip base, e.g. the amount before tax); at most transaction_amount; the whole amount when not sent (or null, or empty).",
    }),
    tip_amounts: { type: ['array', 'null'], minItems: 3, maxItems: 3, items: { type: 'string', pattern: MONEY_INPUT_RE.source }, description: 'Ringup smart tips: three flat tips the terminal offers instead of its percents.', examples: [['1.00', '2.00', '3.00']] },
    transaction_api_id: { type: ['string', 'null'], maxLength: 64, pattern: '^\\S*$' },
  },
  description: 'Any other field of a transaction (description, order_num, customer_id …) is taken as POST /v2/transactions takes it for the action.',
  additionalProperties: true,
}, ROUTER_TRANSACTION_DIGITS);

const ROUTER_VAULT_BODY: JsonSchema = describeDigitsOf({
  type: 'object',
  required: ['terminal_id', 'location_id', 'contact_id', 'payment_method', 'action'],
  properties: {
    terminal_id: { type: 'string', minLength: 1 },
    location_id: { type: 'string', minLength: 1 },
    contact_id: { type: 'string', minLength: 1 },
    payment_method: { type: 'string', enum: ['cc'] },
    action: { type: 'string', enum: ['store'] },
  },
  additionalProperties: true,
}, ROUTER_VAULT_DIGITS);

const TERMINAL_STATE: JsonSchema = wrapper('terminalstate', {
  type: 'object',
  required: ['terminal_id', 'state', 'prompt', 'busy'],
  properties: {
    terminal_id: { type: 'string' },
    state: { type: 'string', enum: ['idle', 'card', 'tip', 'pin', 'signature', 'processing', 'terms', 'done'] },
    prompt: { type: 'string' },
    busy: { type: 'boolean' },
  },
});

const TERMINAL_INFO: JsonSchema = wrapper('terminalinfo', {
  type: 'object',
  required: ['terminal_id', 'serial_number', 'model', 'application', 'last_registration_ts'],
  properties: {
    terminal_id: { type: 'string' },
    serial_number: { type: 'string' },
    model: { type: 'string' },
    application: { type: 'string' },
    last_registration_ts: { type: 'integer' },
  },
});

export function routerOpenApi(): OpenApiPart {
  return {
    tags: [{ name: 'router', description: 'Transactions and vaults run on an EMV terminal while the request stays open.' }],
    schemas: { RouterTransactionCreate: ROUTER_TRANSACTION_BODY, RouterAccountVaultCreate: ROUTER_VAULT_BODY },
    paths: {
      '/v2/routertransactions': {
        post: {
          tags: ['router'],
          operationId: 'routertransactionsCreate',
          summary: 'Run a transaction on a terminal',
          description: "Held open up to the terminal's overall_timeout. 503: the terminal cannot be reached; 409: it is busy; 422: a timeout, the customer aborting, or bad input.",
          requestBody: { required: true, content: jsonContent(wrapper('routertransaction', ref('RouterTransactionCreate'))) },
          responses: { 201: responseOf('The stored transaction, with entry_mode_id and emv_receipt_data.', wrapper('routertransaction', ref('Transaction'))), ...errorResponses(terminalErrors) },
        },
      },
      '/v2/routeraccountvaults': {
        post: {
          tags: ['router'],
          operationId: 'routeraccountvaultsCreate',
          summary: 'Vault a card read on a terminal',
          requestBody: { required: true, content: jsonContent(wrapper('routeraccountvault', ref('RouterAccountVaultCreate'))) },
          responses: { 201: responseOf('The account vault.', wrapper('accountvault', ref('AccountVault'))), ...errorResponses(terminalErrors) },
        },
      },
      '/v2/terminals/{id}/state': {
        get: {
          tags: ['router'],
          operationId: 'terminalsState',
          summary: "A terminal's live state (Ringup extension)",
          parameters: [idPathParameter('The terminal id.')],
          responses: { 200: responseOf('What the terminal shows now.', TERMINAL_STATE), ...errorResponses(COMMON_ERRORS) },
        },
      },
      '/v2/terminals/{id}/cancel': {
        post: {
          tags: ['router'],
          operationId: 'terminalsCancel',
          summary: 'Cancel what a terminal is doing (Ringup extension)',
          description:
            'The running router request then answers 422 "Cancelled at the counter.". With a transaction_api_id, only that request is cancelled, also when it has not reached the terminal yet. Answers 200 with the state: no record is created.',
          parameters: [idPathParameter('The terminal id.')],
          // Optional throughout: a cancel without a body cancels whatever runs.
          requestBody: { required: false, content: jsonContent({ type: 'object', properties: { terminalcancel: { type: ['object', 'null'], properties: { transaction_api_id: { type: ['string', 'null'], maxLength: 64 } } } } }) },
          responses: { 200: responseOf('The state when the cancel was sent.', TERMINAL_STATE), ...errorResponses([...COMMON_ERRORS, ...BODY_ERRORS]) },
        },
      },
      '/v2/terminals/{id}/initialize': {
        post: {
          tags: ['router'],
          operationId: 'terminalsInitialize',
          summary: 'Initialize a terminal: what it is, and record the contact (Ringup extension)',
          description: 'Sends A00 to the terminal; on an answer its last_registration_ts is recorded. 503 when it cannot be reached, 409 while it is busy.',
          parameters: [idPathParameter('The terminal id.')],
          responses: { 200: responseOf('What the terminal reported.', TERMINAL_INFO), ...errorResponses(terminalErrors) },
        },
      },
    },
  };
}
