/**
 * Account vaults (`/v2/accountvaults`) as a declared resource (framework/resource.ts): the
 * record (its fields, filters, sort, api id addressing, the `contact` expand and the two
 * fields computed when read), the generic list (the one list planner), view and delete
 * (422 while a recurring uses the vault), and the document derived from them.
 *
 * Not yet generic: create and update stay hand-written in vault-service.ts (the account
 * number is encrypted into `account_blob`, a vault can be made from a previous
 * transaction, ACH needs its own fields); their request schemas are in payments-openapi.ts
 * and they answer this declaration's record.
 *
 * Simplification: delete writes through the engine's connection (generic routes), not
 * the payments module's group-commit writer; both share the WAL.
 */
import { monthsUntilExpiry } from '../../../shared/payments/exp-date';
import { ApiError } from '../framework/errors';
import { MANAGERS, SELLERS } from '../framework/permissions';
import type { FieldDef, ResourceDef } from '../framework/resource';
import { PAY_MSG } from './payment-messages';
import { VAULT_FIELDS } from './vault-fields';

const digitsRule = (name: string) => VAULT_FIELDS.find((f) => f.name === name)?.keepsDigits;

/** What the hooks need from the running payments module (created after the declaration). */
export interface VaultRuntime {
  vaults: { hasRecurring(vaultId: string): boolean; contactRecord(contactId: string): unknown };
}

const text: FieldDef = { type: 'string', readOnly: true, filter: false };
const search: FieldDef = { type: 'string', readOnly: true, filter: 'text' };
const exact: FieldDef = { type: 'string', readOnly: true, filter: 'exact' };

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
    methods: ['list', 'view', 'delete'],
    // Reading stored cards is for whoever sells (an installer moves no money); removing one is a manager's.
    allow: { list: SELLERS, view: SELLERS, delete: MANAGERS },

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
