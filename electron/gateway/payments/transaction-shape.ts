/**
 * The field-by-field checks of a new transaction, run once up front into one collector
 * so a 422 lists every bad field at once (the interface answers that way), instead of
 * stopping at the first group (location, then account, then amounts). The same
 * validators run again where the service uses their values; relational checks (vault,
 * previous transaction, product transaction) still come later, one at a time.
 */
import { ErrorCollector } from '../framework/errors';
import { typedAccount } from './card-source';
import { EMAIL_RE, money, present, type Body } from './input-fields';
import { PAY_MSG } from './payment-messages';
import { readTableFields } from './transaction-field-reader';
import { ACCOUNT_SOURCE_FIELDS, FIELD_BY_NAME, type PostAction } from './transaction-fields';

export function transactionShapeErrors(body: Body, action: PostAction): ErrorCollector {
  const errs = new ErrorCollector();
  // Every field of the table (type, bounds, action); createNew reads them again for their values.
  readTableFields(body, action, errs);
  // Amounts and the e-mail, which the engine's own code reads later, are checked here too,
  // with the same readers and messages, so they are named in the same 422.
  for (const [key, v] of Object.entries(body)) {
    const f = FIELD_BY_NAME.get(key);
    if (!f || f.storage !== 'engine' || errs.errors[key] || !present(v) || !(f.actions as readonly string[]).includes(action)) continue;
    if (f.type === 'money') money(body, key, errs);
    else if (f.type === 'email' && (String(v).length > (f.max ?? 128) || !EMAIL_RE.test(String(v)))) errs.add(key, PAY_MSG.EMAIL_INVALID);
  }
  const explicit = present(body.payment_method) ? String(body.payment_method) : undefined;
  if (explicit !== undefined && explicit !== 'cc' && explicit !== 'ach') errs.add('payment_method', PAY_MSG.PAYMENT_METHOD_INVALID);
  // An earlier transaction is the account: account data beside it would send the money elsewhere.
  if ((present(body.previous_transaction_id) || present(body.previous_transaction_api_id)) && ACCOUNT_SOURCE_FIELDS.some((k) => present(body[k]))) {
    errs.add(present(body.previous_transaction_id) ? 'previous_transaction_id' : 'previous_transaction_api_id', PAY_MSG.PREVIOUS_WITH_ACCOUNT);
  }
  if (present(body.account_number) && !present(body.account_vault_id) && !present(body.account_vault_api_id)) {
    typedAccount(body, explicit === 'ach' || action === 'debit' || action === 'credit' ? 'ach' : 'cc', errs);
  }
  return errs;
}

/** Adds the messages of a thrown 422 to the collector. */
export function mergeErrors(errs: ErrorCollector, more: Record<string, string[]>): void {
  for (const [field, messages] of Object.entries(more)) (errs.errors[field] ??= []).push(...messages);
}
