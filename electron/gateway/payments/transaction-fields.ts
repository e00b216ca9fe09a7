/**
 * The transaction fields, declared once: which action takes each field, its type and
 * bounds, and what the engine does with it. Validation (the framework's one reader,
 * framework/validate.ts `readActionFields`, with a plan per action compiled here),
 * storage (fields with `storage: 'record'` are kept on the record under their own name
 * and returned), the README's field table (`renderFieldTable`, checked by a test) and the
 * OpenAPI document's transaction part all derive from `TRANSACTION_FIELDS`.
 *
 * Shape (stable, for the OpenAPI generator):
 * - `name`: the JSON key inside `{"transaction": {...}}`.
 * - `type` (framework/resource.ts FieldType, read by the one reader): `string` | `money`
 *   (decimal string "10.00", at most 2 decimals) | `boolean` (true/false/1/0/"1"/"0") |
 *   `date` (yyyy-mm-dd) | `mmyy` | `json` (an object) | `enum` (one of `enum`) | `hex` |
 *   `base64` | `email` | `tags` (array of titles, or a comma list) | `additional_amounts`
 *   (array of `{type, amount}`, `type` one of `enum`).
 * - `min` / `max`: characters for strings (serialised length for `json`); for `money`,
 *   the largest amount is 999999999.99 everywhere.
 * - `pattern` + `patternText`: what a string must look like, in words for the message.
 * - `actions`: the actions that take the field. A known field sent with another action is
 *   422 (`FIELD_NOT_FOR_ACTION`), never silently dropped.
 * - `storage`: `record` — stored and returned as sent (normalised); `engine` — read by the
 *   engine's own code (account data, ids, amounts), reflected in derived fields (first_six,
 *   last_four, ...); `never` — used for this request only and never stored or returned
 *   (card secrets, identity checks).
 * - `ownReader`: the engine's own code checks it with a finer rule than the bounds; every
 *   other field, `engine` ones included, is checked against its type and bounds here.
 * - `requiredFor`: the actions that need it (the reader answers "cannot be blank", and the
 *   OpenAPI document says so); conditional needs (a blind refund's amount, ACH data without
 *   a vault) stay in the service's own code.
 * - `byMethod`: bounds per payment method (account_number: card or bank account).
 * - `messages`: a named message for the field's type/bounds or pattern failure; `tooLong`
 *   where a value over an exact length says "at most" (the stored resources' fields say
 *   "should contain N characters").
 * - `keepsDigits`: what a card number typed into it does (framework/card-mask.ts): `identifier`
 *   (ids, api ids, serial, check and licence numbers: refused, 422), `consumed` (the account data
 *   the payment is made of: read, never stored or returned in full); unset, free text, masked.
 * - `description`: one sentence for the README and the OpenAPI document.
 *
 * Bounds follow the interface family's field tables (PayaConnect Endpoints/Transactions),
 * where the engine reads them differently the description says so.
 */
import { valueFieldsKeepsDigits, type KeepsDigits, type KeepsDigitsRule } from '../framework/card-mask';
import { MANAGERS, SELLERS, type ActionAllow, type Allow } from '../framework/permissions';
import { MSG, type ErrorCollector } from '../framework/errors';
import { planActionFields, readActionFields, type ActionFieldDef, type FieldValues } from '../framework/validate';
import { formatMoney } from '../../../shared/payments/money';
import { ACH_ACCOUNT_DIGITS } from '../../../shared/payments/aba-routing';
import { CARD_NUMBER_DIGITS } from '../../../shared/payments/card-brand';
import { ACCOUNT_NUMBER_TEXT } from './input-fields';
import { PAY_MSG } from './payment-messages';

export const POST_ACTIONS = ['sale', 'authonly', 'avsonly', 'force', 'refund', 'debit', 'credit'] as const;
export const PUT_ACTIONS = ['void', 'authcomplete', 'authincrement', 'partialreversal', 'edit'] as const;
export const TRANSACTION_ACTIONS = [...POST_ACTIONS, ...PUT_ACTIONS] as const;
export type PostAction = (typeof POST_ACTIONS)[number];
export type PutAction = (typeof PUT_ACTIONS)[number];
export type TransactionAction = (typeof TRANSACTION_ACTIONS)[number];

/**
 * Who may perform each action (framework/permissions.ts checks it before the handler, on
 * POST and PUT /v2/transactions and on router transactions). Selling, completing and tip
 * edits are the counter's; money going back (refund, credit) and money not collected after
 * all (void, partial reversal) are a manager's. An installer moves no money by any action.
 * A tip edit that lowers the amount is a partial reversal (`TIP_LOWERING_NEEDS`), whatever
 * its action says.
 */
export const ACTION_ALLOW: Readonly<Record<TransactionAction, Allow>> = {
  sale: SELLERS,
  authonly: SELLERS,
  avsonly: SELLERS,
  force: SELLERS,
  debit: SELLERS,
  refund: MANAGERS,
  credit: MANAGERS,
  authcomplete: SELLERS,
  authincrement: SELLERS,
  edit: SELLERS,
  void: MANAGERS,
  partialreversal: MANAGERS,
};
/** The action whose role an edit that lowers the tip (and so the amount) needs. */
export const TIP_LOWERING_NEEDS: TransactionAction = 'partialreversal';
export const TIP_LOWERING_RULE = `An edit whose tip_amount is below the current tip lowers what the transaction collects: it is a ${TIP_LOWERING_NEEDS} and needs its user types.`;

/** A route's declaration over some of the actions (the body's `action` under `wrapper` picks). */
export function actionAllow(wrapper: string, actions: readonly TransactionAction[], extra: Pick<ActionAllow, 'defaultAction' | 'effective'> = {}): ActionAllow {
  const table = Object.fromEntries(actions.map((a) => [a, ACTION_ALLOW[a]]));
  // An edit may turn out to be a partial reversal: its role is in the table the check reads.
  if (actions.includes('edit')) table[TIP_LOWERING_NEEDS] = ACTION_ALLOW[TIP_LOWERING_NEEDS];
  return { wrapper, actions: table, ...extra };
}

export interface TransactionField extends ActionFieldDef {
  actions: readonly TransactionAction[];
  storage: 'record' | 'engine' | 'never';
  /** Actions for which the field must be sent (422 "cannot be blank" otherwise). */
  requiredFor?: readonly TransactionAction[];
  /** Bounds that depend on the payment method (account_number); `min`/`max` are their union. */
  byMethod?: { cc: { min: number; max: number }; ach: { min: number; max: number } };
  /**
   * `identifier`: keeps its digits exactly, so a card number in it is refused (422);
   * `consumed`: account data the engine reads and never stores or returns in full. Unset:
   * free text (po_number, customer_id, clerk_number, custom_data …), where a card number is
   * masked before anything reads it (framework/card-mask.ts).
   */
  keepsDigits?: 'identifier' | 'consumed';
  description: string;
}

// Action groups, named once.
const CARD_CHARGE = ['sale', 'authonly', 'force'] as const;
const CARD_POST = ['sale', 'authonly', 'avsonly', 'force', 'refund'] as const;
const ACH_POST = ['debit', 'credit', 'refund'] as const;
const ALL_POST = POST_ACTIONS;
const LODGING = ['sale', 'authonly', 'force', 'refund', 'authcomplete', 'authincrement'] as const;
const ALL = TRANSACTION_ACTIONS;

export const SEC_CODES = ['PPD', 'CCD', 'WEB', 'TEL', 'POP', 'BOC', 'C21'] as const;
export const E_FORMATS = ['ksn', 'ksnpin', 'idtech', 'magnesafe'] as const;
/** additional_amounts[type]: 4S healthcare, 4U prescription, 4V vision, 4W clinic, 4X dental. */
export const ADDITIONAL_AMOUNT_TYPES = ['4S', '4U', '4V', '4W', '4X'] as const;

/**
 * "Alpha-Numeric Only, No Special Characters" in the field table (order_num, po_number):
 * read as letters, digits and spaces, because integrators commonly build them from a word
 * and the Unix time ("Order 1893456000").
 */
const ALNUM_SPACE = /^[A-Za-z0-9 ]*$/;
/**
 * order_num also takes periods: a client that takes the seconds since 1970 as a double (as
 * .NET gives them) prints a fraction ("Order 1893456000.25"), whatever the field table says.
 */
const ORDER_NUM = /^[A-Za-z0-9 .]*$/;
/** Card types the field table lists for a card's account_type (read only: the engine sets it). */
export const CARD_ACCOUNT_TYPES = ['visa', 'mc', 'disc', 'amex', 'jcb', 'diners', 'debit'] as const;
const ZIP = /^[A-Za-z0-9 -]*$/;
const DIGITS = /^\d*$/;
const NO_SPACES = /^\S*$/;

/**
 * A value over an exact length (dl_state, locale…) is answered "should contain at most N
 * characters", as this table always has; a stored resource's field answers "should contain
 * N characters" (FieldDef.messages).
 */
const AT_MOST = { tooLong: MSG.TOO_LONG } as const;

const TABLE: readonly TransactionField[] = [
  // --- what to do and where
  { name: 'action', type: 'enum', enum: TRANSACTION_ACTIONS, actions: ALL, storage: 'engine', ownReader: true, description: 'The action; POST defaults to sale.' },
  { name: 'payment_method', type: 'enum', enum: ['cc', 'ach'], actions: [...ALL_POST, 'authcomplete', 'authincrement'], storage: 'engine', description: 'cc or ach (debit and credit imply ach); on authcomplete/authincrement, if sent, the transaction\'s own.', messages: { invalid: PAY_MSG.PAYMENT_METHOD_INVALID } },
  { name: 'location_id', type: 'string', max: 36, actions: ALL_POST, storage: 'engine', description: "Defaults to the user's only location, else the first with a default product transaction.", keepsDigits: 'identifier' },
  { name: 'location_api_id', type: 'string', max: 36, actions: ALL_POST, storage: 'engine', description: 'The location by its api_id, in place of location_id (one of yours; 422 when unknown, or when location_id names another).', keepsDigits: 'identifier' },
  { name: 'product_transaction_id', type: 'string', max: 36, actions: ALL_POST, storage: 'engine', description: "The merchant account; defaults to the location's default for the payment method.", keepsDigits: 'identifier' },
  { name: 'transaction_api_id', type: 'string', max: 64, pattern: NO_SPACES, patternText: 'no spaces', actions: [...ALL_POST, 'void', 'authcomplete', 'authincrement', 'partialreversal'], storage: 'engine', description: 'Your id, unique per location; a repeat of the same request (amounts, card, payment method, action) returns the original (idempotency), a repeat with other ones is 422. On PUT: the record\'s own (422 otherwise), or given to a record without one.', keepsDigits: 'identifier', messages: { pattern: PAY_MSG.API_ID_SPACES } },
  // --- the money
  { name: 'transaction_amount', type: 'money', actions: [...ALL_POST, 'void', 'authcomplete', 'authincrement', 'partialreversal'], storage: 'engine', requiredFor: ['sale', 'authonly', 'force', 'debit', 'credit', 'authincrement', 'partialreversal'], description: 'POST: the total, tip and tax included. authcomplete: the amount to capture; authincrement: the increment; partialreversal: the final amount; void: the whole amount, if sent.', messages: { invalid: PAY_MSG.AMOUNT_INVALID } },
  { name: 'subtotal_amount', type: 'money', actions: [...CARD_CHARGE, 'refund', 'debit', 'credit', 'authcomplete'], storage: 'record', description: 'The amount before tax, tip and surcharge; with it the parts must add up to transaction_amount.' },
  { name: 'tax', type: 'money', actions: [...CARD_CHARGE, 'refund', 'debit', 'credit', 'authcomplete'], storage: 'record', description: 'Sales tax, included in transaction_amount.' },
  { name: 'tip_amount', type: 'money', actions: [...CARD_CHARGE, 'authcomplete', 'edit'], storage: 'record', description: 'Tip, included in transaction_amount; edit adjusts it (card, unsettled).' },
  { name: 'surcharge_amount', type: 'money', actions: [...CARD_CHARGE, 'refund', 'authcomplete'], storage: 'record', description: 'Surcharge, included in transaction_amount.' },
  { name: 'additional_amounts', type: 'additional_amounts', max: 5, enum: ADDITIONAL_AMOUNT_TYPES, messages: { invalid: PAY_MSG.ADDITIONAL_AMOUNTS_INVALID }, actions: [...CARD_CHARGE, 'refund'], storage: 'record', description: 'Up to 5 healthcare amounts: [{"type": "4S|4U|4V|4W|4X", "amount": "1.00"}], each at most transaction_amount.' },
  { name: 'auth_code', type: 'string', min: 6, max: 6, actions: ['force'], storage: 'engine', requiredFor: ['force'], description: 'The voice authorization code of a force.', messages: { invalid: PAY_MSG.AUTH_CODE_INVALID } },
  // --- the account
  { name: 'account_number', type: 'string', min: 4, max: 19, byMethod: { cc: CARD_NUMBER_DIGITS, ach: ACH_ACCOUNT_DIGITS }, actions: ALL_POST, storage: 'engine', ownReader: true, description: "Card number (Luhn) or bank account (the test data's 4-17 digits; the family's field table says up to 19); only first_six/last_four are kept.", keepsDigits: 'consumed' },
  { name: 'exp_date', type: 'mmyy', actions: [...CARD_POST, 'authcomplete', 'authincrement'], storage: 'engine', description: 'Card expiry MMYY; on authcomplete/authincrement it replaces the stored one.', messages: { invalid: PAY_MSG.EXP_DATE_INVALID } },
  { name: 'cvv', type: 'string', min: 3, max: 4, pattern: DIGITS, patternText: 'digits', actions: CARD_POST, storage: 'never', ownReader: true, description: 'Card security code (4 digits for Amex); never stored.' },
  { name: 'track_data', type: 'string', max: 256, actions: [...CARD_POST, 'debit'], storage: 'never', description: 'Swipe: track 1 %B<pan>^<name>^<YYMM>...? and/or track 2 ;<pan>=<YYMM>...?; entry mode S. On an ACH transaction: a check\'s MICR line, read like micr_data. Never stored.', keepsDigits: 'consumed' },
  { name: 'e_track_data', type: 'string', max: 2048, actions: CARD_POST, storage: 'never', description: "Encrypted reader data; needs e_format. A simulated terminal's store-and-forward read (hex, e_format ksn, its KSN in e_serial_number: entry mode C, P, S or K and EMV data inside); the docs' magnesafe, ksn or ksnpin layout, read with the sandbox's simulated reader key (see Simplifications); or the track text's bytes in hex, entry mode S.", keepsDigits: 'consumed' },
  { name: 'e_format', type: 'enum', enum: E_FORMATS, actions: CARD_POST, storage: 'record', description: 'The format of e_track_data.' },
  { name: 'e_serial_number', type: 'hex', max: 20, actions: CARD_POST, storage: 'record', description: "The reader's key serial number (KSN); ksn and ksnpin data need it (magnesafe data carries its own).", keepsDigits: 'identifier' },
  { name: 'micr_data', type: 'string', max: 64, actions: ACH_POST, storage: 'never', description: "A check's MICR line (T/A transit, U/O/C on-us symbols): routing, account and check number.", keepsDigits: 'consumed' },
  { name: 'account_vault_id', type: 'string', max: 36, actions: ALL_POST, storage: 'engine', description: 'Charge a stored account.', keepsDigits: 'identifier' },
  { name: 'account_vault_api_id', type: 'string', max: 36, actions: ALL_POST, storage: 'engine', description: 'The vault by its api_id, in place of account_vault_id.', keepsDigits: 'identifier' },
  { name: 'previous_transaction_id', type: 'string', max: 36, actions: ALL_POST, storage: 'engine', description: 'Charge or refund the account of an earlier transaction.', keepsDigits: 'identifier' },
  { name: 'previous_transaction_api_id', type: 'string', max: 64, actions: ALL_POST, storage: 'engine', description: 'The earlier transaction by its transaction_api_id.', keepsDigits: 'identifier' },
  { name: 'account_holder_name', type: 'string', max: 32, trim: true, actions: [...ALL_POST, 'void', 'authcomplete', 'authincrement', 'partialreversal'], storage: 'engine', description: 'Name on the card or account (required for ACH without a vault); on PUT it replaces the stored one.' },
  {
    name: 'account_type',
    type: 'enum',
    enum: ['checking', 'savings', ...CARD_ACCOUNT_TYPES],
    actions: ALL_POST,
    storage: 'engine',
    messages: { invalid: PAY_MSG.ACCOUNT_TYPE_UNKNOWN },
    description: 'ACH: checking or savings. Cards: read only; a card type sent (visa, mc, …) is accepted and the engine sets the brand from the number.',
  },
  { name: 'routing', type: 'string', min: 9, max: 9, pattern: DIGITS, patternText: 'digits', actions: ACH_POST, storage: 'engine', description: 'ABA routing number (3-7-1 checksum).', keepsDigits: 'consumed', messages: { invalid: PAY_MSG.ROUTING_INVALID } },
  { name: 'ach_sec_code', type: 'enum', enum: SEC_CODES, actions: ACH_POST, storage: 'engine', description: 'SEC code, kept as sent (default WEB).', messages: { invalid: PAY_MSG.SEC_CODE_INVALID } },
  { name: 'effective_date', type: 'date', actions: ['debit', 'credit'], storage: 'record', description: 'ACH effective date, kept as sent (default: today).' },
  { name: 'check_number', type: 'string', min: 1, max: 15, actions: ACH_POST, storage: 'record', description: 'Check number (TEL, or read from micr_data).', keepsDigits: 'identifier' },
  { name: 'ach_identifier', type: 'string', min: 1, max: 1, actions: ACH_POST, storage: 'record', messages: AT_MOST, description: 'ACH identifier.' },
  { name: 'dl_number', type: 'string', min: 1, max: 50, actions: ['debit', 'credit'], storage: 'record', description: "Driver's licence number (ACH verification).", keepsDigits: 'identifier' },
  { name: 'dl_state', type: 'string', min: 2, max: 2, actions: ['debit', 'credit'], storage: 'record', messages: AT_MOST, description: "Driver's licence state." },
  { name: 'dob_year', type: 'string', min: 4, max: 4, pattern: DIGITS, patternText: 'digits', actions: ['debit', 'credit'], storage: 'record', messages: AT_MOST, description: 'Year of birth (ACH identity check).' },
  { name: 'ssn4', type: 'string', min: 4, max: 4, pattern: DIGITS, patternText: 'digits', actions: ['debit', 'credit'], storage: 'never', messages: AT_MOST, description: 'Last 4 of the SSN (ACH identity check); never stored.' },
  { name: 'image_front', type: 'base64', max: 65535, actions: ['debit'], storage: 'never', description: 'Check image (C21), validated, not kept (no image clearing here).', keepsDigits: 'consumed' },
  { name: 'image_back', type: 'base64', max: 65535, actions: ['debit'], storage: 'never', description: 'Check image (C21), validated, not kept (no image clearing here).', keepsDigits: 'consumed' },
  { name: 'save_account', type: 'boolean', actions: [...CARD_CHARGE, 'debit', 'credit'], storage: 'engine', description: 'Vault the account when approved (account_vault_id on the record).' },
  { name: 'save_account_title', type: 'string', max: 16, actions: [...CARD_CHARGE, 'debit', 'credit'], storage: 'record', description: 'Title of the vault made by save_account.' },
  // --- verification and processor settings per request
  { name: 'billing_street', type: 'string', max: 32, actions: ALL_POST, storage: 'record', description: 'AVS street.' },
  { name: 'billing_zip', type: 'string', min: 4, max: 12, pattern: ZIP, patternText: 'letters, digits, spaces and dashes', actions: ALL_POST, storage: 'record', description: 'AVS zip or postal code.' },
  { name: 'billing_city', type: 'string', max: 36, actions: ALL_POST, storage: 'record', description: 'Billing city.' },
  { name: 'billing_state', type: 'string', max: 26, actions: ALL_POST, storage: 'record', description: 'Billing state.' },
  { name: 'billing_phone', type: 'string', max: 10, actions: ALL_POST, storage: 'record', description: 'Billing phone.' },
  { name: 'auto_decline_cvv_override', type: 'boolean', actions: CARD_POST, storage: 'record', description: "Wins over the product transaction's auto_decline_cvv." },
  { name: 'auto_decline_zip_override', type: 'boolean', actions: CARD_POST, storage: 'record', description: 'Decline when the zip does not match (AVS).' },
  { name: 'auto_decline_street_override', type: 'boolean', actions: CARD_POST, storage: 'record', description: 'Decline when the street does not match (AVS).' },
  { name: 'allow_partial_authorization_override', type: 'boolean', actions: ['sale', 'authonly', 'authincrement'], storage: 'record', description: 'Partial approvals allowed (default yes); off, 2.01 declines.' },
  { name: 'card_present', type: 'boolean', actions: ['sale', 'refund', 'force'], storage: 'record', description: 'Card present (default: 1 when swiped, else 0).' },
  { name: 'cavv', type: 'string', max: 40, actions: ['sale', 'authonly'], storage: 'never', description: '3-D Secure authentication value; never stored.', keepsDigits: 'consumed' },
  { name: 'xid', type: 'string', max: 40, actions: ['sale', 'authonly'], storage: 'never', description: '3-D Secure transaction id; never stored.', keepsDigits: 'consumed' },
  // --- lodging
  { name: 'checkin_date', type: 'date', actions: LODGING, storage: 'record', description: 'Lodging check-in (at most 99 days before checkout).' },
  { name: 'checkout_date', type: 'date', actions: LODGING, storage: 'record', description: 'Lodging check-out.' },
  { name: 'room_num', type: 'string', max: 12, actions: [...LODGING, 'void', 'partialreversal'], storage: 'record', description: 'Lodging room number.' },
  { name: 'room_rate', type: 'money', actions: [...LODGING, 'void', 'partialreversal'], storage: 'record', description: 'Lodging room rate.' },
  { name: 'advance_deposit', type: 'boolean', actions: LODGING, storage: 'record', description: 'Lodging advance deposit.' },
  { name: 'no_show', type: 'boolean', actions: ['sale', 'authonly', 'force', 'refund', 'authcomplete', 'authincrement'], storage: 'record', description: 'Lodging no-show charge.' },
  // --- descriptive
  { name: 'description', type: 'string', max: 64, actions: ALL, storage: 'record', description: 'Description.' },
  { name: 'order_num', type: 'string', max: 32, pattern: ORDER_NUM, patternText: 'letters, digits, spaces and periods', actions: [...ALL_POST, 'authcomplete', 'authincrement', 'edit'], storage: 'record', description: 'Order number.' },
  { name: 'po_number', type: 'string', max: 24, pattern: ALNUM_SPACE, patternText: 'letters, digits and spaces', actions: [...ALL_POST, 'edit'], storage: 'record', description: 'Purchase order number.' },
  { name: 'clerk_number', type: 'string', max: 16, actions: [...ALL_POST, 'edit'], storage: 'record', description: 'Clerk or employee id.' },
  { name: 'customer_id', type: 'string', max: 64, actions: ALL_POST, storage: 'record', description: "The payer's id in your system." },
  { name: 'customer_ip', type: 'string', max: 39, actions: ALL_POST, storage: 'record', description: "The payer's IP address." },
  { name: 'terminal_serial_number', type: 'string', max: 24, actions: [...ALL_POST, 'edit'], storage: 'record', description: 'Serial number of the terminal used.', keepsDigits: 'identifier' },
  { name: 'transaction_c1', type: 'string', max: 128, actions: [...ALL_POST, 'edit'], storage: 'record', description: 'Custom field 1.' },
  { name: 'transaction_c2', type: 'string', max: 128, actions: [...ALL_POST, 'edit'], storage: 'record', description: 'Custom field 2.' },
  { name: 'transaction_c3', type: 'string', max: 128, actions: [...ALL_POST, 'edit'], storage: 'record', description: 'Custom field 3.' },
  { name: 'custom_data', type: 'json', max: 512, actions: [...ALL_POST, 'edit'], storage: 'record', description: 'Your JSON object (at most 512 characters serialised).' },
  { name: 'tags', type: 'tags', max: 64, actions: ALL, storage: 'record', description: 'Tag titles (array or comma list); on PUT they replace the stored ones.' },
  { name: 'locale', type: 'string', min: 5, max: 5, actions: ALL_POST, storage: 'record', messages: AT_MOST, description: 'Locale such as en_CA.' },
  { name: 'terms_agree', type: 'boolean', actions: ALL_POST, storage: 'record', description: 'The payer agreed to the terms.' },
  { name: 'quick_invoice_id', type: 'string', max: 36, actions: ['edit'], storage: 'record', description: 'Links the transaction to a quick invoice.', keepsDigits: 'identifier' },
  { name: 'contact_id', type: 'string', max: 36, actions: [...ALL_POST, 'edit'], storage: 'engine', description: 'Contact of the same location; edit moves the transaction to it ("" detaches it).', keepsDigits: 'identifier' },
  { name: 'contact_api_id', type: 'string', max: 36, actions: [...ALL_POST, 'edit'], storage: 'engine', description: 'The contact by its api_id.', keepsDigits: 'identifier' },
  { name: 'notification_email_address', type: 'email', max: 128, actions: ALL, storage: 'engine', description: 'E-mail a receipt (also on every PUT action).', messages: { invalid: PAY_MSG.EMAIL_INVALID } },
  { name: 'move_account_vault', type: 'boolean', actions: ['edit'], storage: 'never', description: "With contact_id: the transaction's account vault moves to that contact too." },
  { name: 'move_account_vault_transactions', type: 'boolean', actions: ['edit'], storage: 'never', description: "With move_account_vault: every transaction of that vault moves to the contact too." },
];

/**
 * The fields that say where the money comes from (or goes to) besides an earlier
 * transaction. The docs: "Account details OR previous_transaction_id should be passed";
 * both together is 422, so a refund "of" a sale can never pay out to another card.
 */
export const ACCOUNT_SOURCE_FIELDS = ['account_number', 'track_data', 'e_track_data', 'micr_data', 'account_vault_id', 'account_vault_api_id'] as const;
/** Every way to name the account, an earlier transaction included: the document marks them `x-account-source` (one per request). */
const ACCOUNT_SOURCES = new Set<string>([...ACCOUNT_SOURCE_FIELDS, 'previous_transaction_id', 'previous_transaction_api_id']);

/**
 * Examples a generated request can send as they are (the bounds alone would not pass Luhn or
 * the calendar, nor a pattern); the other fields' are derived from their type and bounds
 * (framework/field-openapi.ts), a flag's is 0 (a generated request turns nothing on).
 */
const EXAMPLES: Readonly<Record<string, unknown>> = {
  transaction_api_id: 'A1A1A1A1',
  order_num: 'A1A1A1A1',
  po_number: 'A1A1A1A1',
  dob_year: '1111',
  ssn4: '1111',
  custom_data: {},
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

/**
 * The table with what the document shows beside each row: its example, whether it names the
 * account, and the account number's text form (its digit bounds per payment method are its
 * own reader's, card-source.ts).
 */
export const TRANSACTION_FIELDS: readonly TransactionField[] = TABLE.map((f) => ({
  ...f,
  ...(f.name in EXAMPLES ? { example: EXAMPLES[f.name] } : f.type === 'boolean' ? { example: 0 } : {}),
  ...(ACCOUNT_SOURCES.has(f.name) ? { extensions: { 'x-account-source': true } } : {}),
  ...(f.name === 'account_number' ? { textForm: ACCOUNT_NUMBER_TEXT } : {}),
}));

export const FIELD_BY_NAME: ReadonlyMap<string, TransactionField> = new Map(TRANSACTION_FIELDS.map((f) => [f.name, f]));

/** Each action's reading plan, compiled once (which fields it takes and requires). */
const READ_PLANS = planActionFields(TRANSACTION_FIELDS, TRANSACTION_ACTIONS);

/**
 * Reads a transaction body for `action` with the framework's one reader (framework/validate.ts
 * readActionFields): money in cents, a field of another action a 422, a required one missing
 * "cannot be blank". With `clearing` (PUT edit), null or "" clears the stored value.
 */
export function readTableFields(body: Record<string, unknown>, action: TransactionAction, errs: ErrorCollector, clearing = false): FieldValues {
  return readActionFields(READ_PLANS[action], body, errs, clearing);
}

/** Stored form of a read value: cents back to decimal strings, additional amounts without cents. */
export function storedValue(name: string, value: unknown): unknown {
  const f = FIELD_BY_NAME.get(name);
  if (value === null || value === undefined || !f) return value ?? null;
  if (f.type === 'money') return formatMoney(value as number);
  if (f.type === 'additional_amounts') return (value as { type: string; cents: number }[]).map((a) => ({ type: a.type, amount: formatMoney(a.cents) }));
  return value;
}

/** The card-number rules of the transaction fields (framework/card-mask.ts), under a wrapper (the router's is `routertransaction`). */
export const transactionKeepsDigits = (wrapper: string, extra: Record<string, KeepsDigitsRule> = {}): KeepsDigits => valueFieldsKeepsDigits(wrapper, TRANSACTION_FIELDS, extra);

/** Fields kept on the record as sent; they also appear (null when not sent) on every record. */
export const RECORD_INPUT_FIELDS: readonly string[] = TRANSACTION_FIELDS.filter((f) => f.storage === 'record').map((f) => f.name);

function bounds(f: TransactionField): string {
  if (f.type === 'money') return '0.00-999999999.99';
  if (f.type === 'enum') return (f.enum ?? []).join(', ');
  if (f.type === 'additional_amounts' || f.type === 'tags') return f.max !== undefined ? `up to ${f.max} items` : '';
  if (f.byMethod) return `${f.min}-${f.max} (card ${f.byMethod.cc.min}-${f.byMethod.cc.max}, ACH ${f.byMethod.ach.min}-${f.byMethod.ach.max})`;
  if (f.min !== undefined && f.max !== undefined) return f.min === f.max ? `${f.min}` : `${f.min}-${f.max}`;
  if (f.max !== undefined) return `max ${f.max}`;
  return '';
}

/** The README's field × action table (Markdown), derived from TRANSACTION_FIELDS: ✔ the action takes the field, R it requires it. */
export function renderFieldTable(): string {
  const head = `| Field | Type | Bounds | Stored | ${TRANSACTION_ACTIONS.join(' | ')} | Notes |`;
  const sep = `|${'---|'.repeat(TRANSACTION_ACTIONS.length + 5)}`;
  const rows = TRANSACTION_FIELDS.map((f) => {
    const marks = TRANSACTION_ACTIONS.map((a) => ((f.requiredFor as readonly string[] | undefined)?.includes(a) ? 'R' : (f.actions as readonly string[]).includes(a) ? '✔' : ''));
    const stored = f.storage === 'record' ? 'yes' : f.storage === 'never' ? 'never' : 'derived';
    return `| \`${f.name}\` | ${f.type} | ${bounds(f)} | ${stored} | ${marks.join(' | ')} | ${f.description.replace(/\|/g, '\\|')} |`;
  });
  return [head, sep, ...rows].join('\n');
}
