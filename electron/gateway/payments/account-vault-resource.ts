/**
 * Account vaults (`/v2/accountvaults`) as a declared resource (framework/resource.ts): the
 * record (its fields, filters, sort, api id addressing, the `contact` expand and the two
 * fields computed when read), the generic list (the one list planner), view and delete
 * (422 while a recurring uses the vault), create and update, and BIN information
 * (`GET /{id}/bininfo`, a read action); the document derives from them.
 *
 * Create and update are stateful (`bodyWrites`): the generic routes read the body with the
 * one validator over the request fields (vault-fields.ts: by mode and by payment method)
 * and the vault service's hooks write: the account number encrypted into `account_blob`, a
 * vault made from a previous transaction, ACH's own fields, and every write through the
 * payments module's group-commit writer (durable before the 2xx).
 *
 * Simplification: delete writes through the engine's connection (generic routes), not
 * the payments module's group-commit writer; both share the WAL.
 */
import { monthsUntilExpiry } from '../../../shared/payments/exp-date';
import { ApiError } from '../framework/errors';
import { MANAGERS, SELLERS } from '../framework/permissions';
import type { FastifyRequest } from 'fastify';
import type { BodyWriteInput, StoredFieldDef, ResourceDef } from '../framework/resource';
import { PAY_MSG } from './payment-messages';
import { VAULT_FIELDS } from './vault-fields';
import type { VaultRow } from './card-source';
import type { BinInfo } from './bin-info';

const digitsRule = (name: string) => VAULT_FIELDS.find((f) => f.name === name)?.keepsDigits;

/** What the hooks need from the running payments module (created after the declaration). */
export interface VaultRuntime {
  vaults: {
    hasRecurring(vaultId: string): boolean;
    contactRecord(contactId: string): unknown;
    create(req: FastifyRequest, input: BodyWriteInput): Promise<Record<string, unknown>>;
    update(row: VaultRow, input: BodyWriteInput): Promise<Record<string, unknown>>;
    bininfo(row: VaultRow): BinInfo;
  };
}

const BININFO_FIELDS = ['issuer_bank_name', 'country_code', 'detail_card_product', 'detail_card_indicator', 'fsa_indicator', 'prepaid_indicator', 'product_id', 'regulator_indicator', 'visa_product_sub_type', 'visa_large_ticket_indicator', 'account_fund_source', 'card_class', 'token_ind', 'issuing_network'];
const KIND: Readonly<Record<string, string>> = { cc: 'card', ach: 'bank account' };

const text: StoredFieldDef = { type: 'string', readOnly: true, filter: false };
const search: StoredFieldDef = { type: 'string', readOnly: true, filter: 'text' };
const exact: StoredFieldDef = { type: 'string', readOnly: true, filter: 'exact' };

export function accountVaultResource(runtime: () => VaultRuntime): ResourceDef {
  return {
    name: 'accountvault',
    plural: 'accountvaults',
    table: 'account_vaults',
    schemaName: 'AccountVault',
    words: { one: 'account vault', many: 'account vaults' },
    about: 'Tokenised cards and bank accounts.',
    // The order is the answer's: the interface's record.
    fields: {
      payment_method: { type: 'string', enum: ['cc', 'ach'], readOnly: true, alwaysSet: true },
      title: search,
      account_holder_name: search,
      first_six: exact,
      last_four: exact,
      billing_address: text,
      billing_zip: search,
      exp_date: exact,
      // Account data and the licence number keep their digits as the request field table says (vault-fields.ts).
      routing: { ...text, keepsDigits: digitsRule('routing') },
      account_type: exact,
      // Not a filter parameter of its own: the location scope reads `location_id` (framework/list.ts).
      location_id: { type: 'string', readOnly: true, alwaysSet: true, filter: false },
      contact_id: exact,
      created_ts: { type: 'integer', readOnly: true, alwaysSet: true },
      modified_ts: { type: 'integer', readOnly: true, alwaysSet: true },
      account_vault_api_id: exact,
      dl_number: { ...text, keepsDigits: digitsRule('dl_number') },
      dl_state: text,
      // A merchant's own reference: searched by substring like the other free text.
      customer_id: search,
      ssn4: text,
      dob_year: text,
      billing_state: text,
      billing_city: text,
      billing_phone: text,
      accountvault_c1: text,
      accountvault_c2: text,
      accountvault_c3: text,
      ach_sec_code: text,
      active: { type: 'boolean', outputAsInt: true, readOnly: true, filter: 'number' },
      is_company: { type: 'boolean', readOnly: true, filter: false },
      expiring_in_months: { type: 'integer', readOnly: true, computed: true },
      has_recurring: { type: 'boolean', readOnly: true, computed: true, alwaysSet: true },
    },
    scope: { kind: 'column', column: 'location_id' },
    apiId: { field: 'account_vault_api_id', scopeColumn: 'location_id' },
    defaultSort: '-created_ts',
    expands: {
      contact: (_ctx, row) => (row.contact_id ? runtime().vaults.contactRecord(String(row.contact_id)) : null),
    },
    methods: ['list', 'view', 'create', 'update', 'delete'],
    // Reading stored cards is for whoever sells (an installer moves no money); saving, changing and removing one are a manager's.
    allow: { list: SELLERS, view: SELLERS, create: MANAGERS, update: MANAGERS, delete: MANAGERS },
    bodyWrites: {
      fields: VAULT_FIELDS,
      variants: { field: 'payment_method', values: ['cc', 'ach'], kind: KIND, message: PAY_MSG.VAULT_FIELD_NOT_FOR_METHOD, onlyText: (m) => (m === 'cc' ? 'Card vaults only.' : 'Bank account vaults only.') },
      about: {
        create: 'Direct (account data) or from `previous_transaction_id`. ACH needs routing, account_type, is_company and account_holder_name; a field of the other payment method is refused.',
        update: 'Only the fields sent change (null or "" clears one); others are ignored.',
      },
      create: ({ req, input }) => runtime().vaults.create(req, input),
      update: ({ input, existing }) => runtime().vaults.update(existing as unknown as VaultRow, input),
    },
    actions: {
      bininfo: {
        method: 'get',
        operationId: 'accountvaultsBinInfo',
        allow: SELLERS,
        summary: 'BIN information of a vaulted card',
        answer: 'BIN data (422 for ACH vaults).',
        answers: { wrapper: 'bininfo', schemaName: 'BinInfo', schema: { type: 'object', required: BININFO_FIELDS, properties: Object.fromEntries(BININFO_FIELDS.map((f) => [f, { type: 'string' }])) } },
        run: ({ row }) => runtime().vaults.bininfo(row as unknown as VaultRow),
      },
    },

    decorate(ctx, row, out) {
      const exp = row.exp_date;
      out.expiring_in_months = row.payment_method === 'cc' && typeof exp === 'string' && exp ? monthsUntilExpiry(exp, new Date(ctx.clock.now() * 1000)) : null;
      out.has_recurring = runtime().vaults.hasRecurring(String(row.id));
    },

    beforeDelete({ existing }) {
      if (runtime().vaults.hasRecurring(String(existing.id))) throw new ApiError(422, { id: [PAY_MSG.VAULT_IN_RECURRING] });
    },
  };
}
