/**
 * The field-by-field checks of a new transaction, run once up front into one collector
 * so a 422 lists every bad field at once (the interface answers that way), instead of
 * stopping at the first group (location, then account, then amounts). The same
 * validators run again where the service uses their values; relational checks (vault,
 * previous transaction, product transaction) still come later, one at a time.
 */
import { ErrorCollector } from '../framework/errors';
import { typedAccount } from './card-source';
import { present, type Body } from './input-fields';
import { PAY_MSG } from './payment-messages';
import { ACCOUNT_SOURCE_FIELDS, readTableFields, type PostAction } from './transaction-fields';

export function transactionShapeErrors(body: Body, action: PostAction): ErrorCollector {
  const errs = new ErrorCollector();
  // Every field of the table (type, bounds, action, required); createNew reads them again for their values.
  const f = readTableFields(body, action, errs);
  // An earlier transaction is the account: account data beside it would send the money elsewhere.
  if ((present(body.previous_transaction_id) || present(body.previous_transaction_api_id)) && ACCOUNT_SOURCE_FIELDS.some((k) => present(body[k]))) {
    errs.add(present(body.previous_transaction_id) ? 'previous_transaction_id' : 'previous_transaction_api_id', PAY_MSG.PREVIOUS_WITH_ACCOUNT);
  }
  if (present(body.account_number) && !present(body.account_vault_id) && !present(body.account_vault_api_id)) {
    typedAccount(body, f.payment_method === 'ach' || action === 'debit' || action === 'credit' ? 'ach' : 'cc', errs);
  }
  return errs;
}

/** Adds the messages of a thrown 422 to the collector (each message once per field). */
export function mergeErrors(errs: ErrorCollector, more: Record<string, string[]>): void {
  for (const [field, messages] of Object.entries(more)) {
    const list = (errs.errors[field] ??= []);
    for (const m of messages) if (!list.includes(m)) list.push(m);
  }
}
