/**
 * The account vault's request fields, declared once: their JSON type and bounds, which
 * payment method's vaults take them (`variants`) and whether PUT may change them (`modes`).
 * The account vault resource (account-vault-resource.ts) declares them as its create and
 * update fields: the generic routes read a body with the framework's one validator
 * (framework/validate.ts readModeFields) and the document's AccountVaultCreate /
 * AccountVaultUpdate derive from them (framework/body-openapi.ts), so what the document
 * refuses the engine refuses, naming the field.
 *
 * Readings: null or "" on a field means "not sent" on create and clears it on PUT; a field
 * of the other payment method (routing on a card vault, exp_date on a bank account) is a
 * 422 when it carries a value, as a transaction field sent with another action is
 * (transaction-fields.ts), never silently dropped. Unknown keys are ignored.
 */
import { MSG } from '../framework/errors';
import type { ModeFieldDef } from '../framework/resource';
import { ACCOUNT_NUMBER_TEXT } from './input-fields';
import { PAY_MSG } from './payment-messages';
import { SEC_CODES } from './transaction-fields';

export type VaultMethod = 'cc' | 'ach';
type Mode = 'create' | 'update';

/** A vault field: `variants` are the payment methods whose vaults take it. */
export type VaultField = ModeFieldDef & { variants: readonly VaultMethod[] };

const BOTH: readonly VaultMethod[] = ['cc', 'ach'];
const CREATE: readonly Mode[] = ['create'];
const ALL_MODES: readonly Mode[] = ['create', 'update'];
const DIGITS = /^\d*$/;
const text = (name: string, max: number, description: string, extra: Partial<VaultField> = {}): VaultField => ({ name, type: 'string', max, variants: BOTH, modes: ALL_MODES, description, ...extra });

/**
 * ach_sec_code and active show no example in the document (`noExample`): the body read by
 * mode has only ever shown declared examples and those of plain text, and the published
 * document stays as it was; the other fields' examples are declared or derived as every
 * field's are (framework/field-openapi.ts).
 */
export const VAULT_FIELDS: readonly VaultField[] = [
  { name: 'location_id', type: 'string', max: 36, variants: BOTH, modes: CREATE, required: true, keepsDigits: 'identifier', description: 'One of your locations.', messages: { invalid: PAY_MSG.LOCATION_INVALID } },
  { name: 'payment_method', type: 'enum', enum: ['cc', 'ach'], variants: BOTH, modes: CREATE, required: true, description: 'cc (card) or ach (bank account).', messages: { invalid: PAY_MSG.PAYMENT_METHOD_INVALID }, example: 'cc' },
  { name: 'account_number', type: 'string', pattern: ACCOUNT_NUMBER_TEXT, variants: BOTH, modes: CREATE, ownReader: true, example: '4111111111111111', keepsDigits: 'consumed', description: 'Card (13-19 digits, Luhn) or bank account (4-17 digits); spaces or dashes between groups allowed. Encrypted at rest, never returned.' },
  { name: 'exp_date', type: 'mmyy', variants: ['cc'], modes: ALL_MODES, nullable: false, description: 'Card expiry MMYY.', messages: { invalid: PAY_MSG.EXP_DATE_INVALID }, example: '1230' },
  { name: 'routing', type: 'string', min: 9, max: 9, pattern: DIGITS, patternText: 'digits', variants: ['ach'], modes: CREATE, keepsDigits: 'consumed', description: 'ABA routing number (3-7-1 checksum).', messages: { invalid: PAY_MSG.ROUTING_INVALID }, example: '072000326' },
  { name: 'account_type', type: 'enum', enum: ['checking', 'savings'], variants: ['ach'], modes: CREATE, description: 'checking or savings.', messages: { invalid: PAY_MSG.ACCOUNT_TYPE_INVALID }, example: 'checking' },
  { name: 'is_company', type: 'boolean', variants: ['ach'], modes: CREATE, description: 'A business account (1) or a person\'s (0).', example: 0 },
  { name: 'ach_sec_code', type: 'enum', enum: SEC_CODES, variants: ['ach'], modes: ALL_MODES, noExample: true, description: 'SEC code of its debits (default WEB).', messages: { invalid: PAY_MSG.SEC_CODE_INVALID } },
  text('account_holder_name', 32, 'Name on the card or account (required for a bank account).'),
  { name: 'account_vault_api_id', type: 'string', max: 36, pattern: /^\S*$/, patternText: 'no spaces', variants: BOTH, modes: CREATE, keepsDigits: 'identifier', description: 'Your id for it, unique per location, no spaces.', messages: { pattern: MSG.HAS_SPACES } },
  text('contact_id', 36, 'A contact of the same location ("" on PUT detaches it).', { keepsDigits: 'identifier' }),
  { name: 'contact_api_id', type: 'string', max: 64, variants: BOTH, modes: CREATE, keepsDigits: 'identifier', description: 'The contact by its api id, in place of contact_id.' },
  { name: 'previous_transaction_id', type: 'string', max: 36, variants: BOTH, modes: CREATE, keepsDigits: 'identifier', description: 'Vault the account of an earlier transaction of the location (in place of account data).' },
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
  { name: 'active', type: 'boolean', variants: BOTH, modes: ['update'], noExample: true, description: '0 deactivates it (a recurring payment cannot use it then).' },
];
