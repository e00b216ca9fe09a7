/**
 * The account vault's request fields, declared once: their JSON type and bounds, which
 * payment method's vaults take them and whether PUT may change them. The reader
 * (`readVaultFields`, used by vault-service.ts) and the OpenAPI document's
 * AccountVaultCreate / AccountVaultUpdate (payments-openapi.ts) both derive from
 * VAULT_FIELDS, so what the document refuses the engine refuses, naming the field.
 *
 * Readings: null or "" on a field means "not sent" on create and clears it on PUT; a field
 * of the other payment method (routing on a card vault, exp_date on a bank account) is a
 * 422 when it carries a value, as a transaction field sent with another action is
 * (transaction-fields.ts), never silently dropped. Unknown keys are ignored.
 */
import { MSG, type ErrorCollector } from '../framework/errors';
import { ACCOUNT_NUMBER_TEXT, present, type Body } from './input-fields';
import { PAY_MSG } from './payment-messages';
import { readValue, type ValueDef } from '../framework/validate';
import { SEC_CODES } from './transaction-fields';

export type VaultMethod = 'cc' | 'ach';
type Mode = 'create' | 'update';

export interface VaultField extends ValueDef {
  /** Payment methods whose vaults take the field. */
  methods: readonly VaultMethod[];
  /** create: POST takes it; update: PUT may change it. */
  modes: readonly Mode[];
  /** Must be sent on create. */
  required?: true;
  /** PUT may change it but not empty it (a card vault always has an expiry). */
  nullable?: false;
  /** Checked by the service's own reader (the account number); its JSON type is checked here. */
  ownReader?: true;
  /** A long digit run in it is kept (account data, ids): card-number masking leaves it alone. */
  /** What a card number typed into it does (framework/card-mask.ts); absent: free text, masked. */
  keepsDigits?: 'identifier' | 'consumed';
  description: string;
}

const BOTH: readonly VaultMethod[] = ['cc', 'ach'];
const CREATE: readonly Mode[] = ['create'];
const ALL_MODES: readonly Mode[] = ['create', 'update'];
const DIGITS = /^\d*$/;
const text = (name: string, max: number, description: string, extra: Partial<VaultField> = {}): VaultField => ({ name, type: 'string', max, methods: BOTH, modes: ALL_MODES, description, ...extra });

export const VAULT_FIELDS: readonly VaultField[] = [
  { name: 'location_id', type: 'string', max: 36, methods: BOTH, modes: CREATE, required: true, keepsDigits: 'identifier', description: 'One of your locations.', messages: { invalid: PAY_MSG.LOCATION_INVALID } },
  { name: 'payment_method', type: 'enum', values: ['cc', 'ach'], methods: BOTH, modes: CREATE, required: true, description: 'cc (card) or ach (bank account).', messages: { invalid: PAY_MSG.PAYMENT_METHOD_INVALID } },
  { name: 'account_number', type: 'string', pattern: ACCOUNT_NUMBER_TEXT, methods: BOTH, modes: CREATE, ownReader: true, keepsDigits: 'consumed', description: 'Card (13-19 digits, Luhn) or bank account (4-17 digits); spaces or dashes between groups allowed. Encrypted at rest, never returned.' },
  { name: 'exp_date', type: 'mmyy', methods: ['cc'], modes: ALL_MODES, nullable: false, description: 'Card expiry MMYY.', messages: { invalid: PAY_MSG.EXP_DATE_INVALID } },
  { name: 'routing', type: 'string', min: 9, max: 9, pattern: DIGITS, patternText: 'digits', methods: ['ach'], modes: CREATE, keepsDigits: 'consumed', description: 'ABA routing number (3-7-1 checksum).', messages: { invalid: PAY_MSG.ROUTING_INVALID } },
  { name: 'account_type', type: 'enum', values: ['checking', 'savings'], methods: ['ach'], modes: CREATE, description: 'checking or savings.', messages: { invalid: PAY_MSG.ACCOUNT_TYPE_INVALID } },
  { name: 'is_company', type: 'boolean', methods: ['ach'], modes: CREATE, description: 'A business account (1) or a person\'s (0).' },
  { name: 'ach_sec_code', type: 'enum', values: SEC_CODES, methods: ['ach'], modes: ALL_MODES, description: 'SEC code of its debits (default WEB).', messages: { invalid: PAY_MSG.SEC_CODE_INVALID } },
  text('account_holder_name', 32, 'Name on the card or account (required for a bank account).'),
  { name: 'account_vault_api_id', type: 'string', max: 36, pattern: /^\S*$/, methods: BOTH, modes: CREATE, keepsDigits: 'identifier', description: 'Your id for it, unique per location, no spaces.', messages: { pattern: MSG.HAS_SPACES } },
  text('contact_id', 36, 'A contact of the same location ("" on PUT detaches it).', { keepsDigits: 'identifier' }),
  { name: 'contact_api_id', type: 'string', max: 64, methods: BOTH, modes: CREATE, keepsDigits: 'identifier', description: 'The contact by its api id, in place of contact_id.' },
  { name: 'previous_transaction_id', type: 'string', max: 36, methods: BOTH, modes: CREATE, keepsDigits: 'identifier', description: 'Vault the account of an earlier transaction of the location (in place of account data).' },
  text('title', 64, 'A name for it.'),
  text('billing_address', 32, 'Billing street.'),
  text('billing_city', 36, 'Billing city.'),
  text('billing_phone', 10, 'Billing phone.'),
  text('billing_state', 2, 'Billing state.'),
  text('billing_zip', 10, 'Billing zip code.'),
  text('customer_id', 50, "The payer's id in your system."),
  text('dl_number', 50, "Driver's licence number (with dl_state; ACH verification matches it exactly).", { keepsDigits: 'identifier' }),
  text('dl_state', 2, "Driver's licence state (with dl_number)."),
  text('dob_year', 4, 'Year of birth.'),
  text('ssn4', 4, 'Last 4 of the SSN.'),
  text('accountvault_c1', 128, 'Custom field 1.'),
  text('accountvault_c2', 128, 'Custom field 2.'),
  text('accountvault_c3', 128, 'Custom field 3.'),
  { name: 'active', type: 'boolean', methods: BOTH, modes: ['update'], description: '0 deactivates it (a recurring payment cannot use it then).' },
];

/**
 * Reads the declared fields of a vault body for `mode` (`method`: the vault's payment
 * method, when known): each sent field's type and bounds, and that the method takes it.
 * Returns the normalised values of the sent fields (booleans as true/false); on update a
 * field sent as null or "" is returned as null (it clears). Fields of the other mode are
 * ignored (PUT: "only the fields sent change; others are ignored").
 */
export function readVaultFields(body: Body, mode: Mode, method: VaultMethod | undefined, errs: ErrorCollector): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of VAULT_FIELDS) {
    if (!f.modes.includes(mode) || !Object.hasOwn(body, f.name)) continue;
    const v = body[f.name];
    if (!present(v)) {
      if (mode === 'update' && f.nullable === false) errs.add(f.name, MSG.BLANK);
      else if (mode === 'update') out[f.name] = null;
      continue;
    }
    if (method !== undefined && !f.methods.includes(method)) {
      errs.add(f.name, PAY_MSG.VAULT_FIELD_NOT_FOR_METHOD, { kind: method === 'cc' ? 'card' : 'bank account' });
      continue;
    }
    if (f.ownReader) {
      if (typeof v !== 'string') errs.add(f.name, MSG.NOT_STRING);
      continue;
    }
    const value = readValue(f, v, errs);
    if (value !== undefined) out[f.name] = value;
  }
  return out;
}
