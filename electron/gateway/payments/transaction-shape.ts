/**
 * The field-by-field checks of a new transaction beyond the field table (which the one
 * validator has read into the same collector: framework/validate.ts readActionFields), so a
 * 422 lists every bad field at once (the interface answers that way), instead of stopping at
 * the first group (location, then account, then amounts). Relational checks (vault,
 * previous transaction, product transaction) still come later, one at a time.
 */
import type { ErrorCollector } from '../framework/errors';
import type { FieldValues } from '../framework/validate';
import { typedAccount, type AccountData } from './card-source';
import { present, type Body } from './input-fields';
import { PAY_MSG } from './payment-messages';
import { ACCOUNT_SOURCE_FIELDS, type PostAction } from './transaction-fields';

/**
 * Adds what is wrong with the body's shape (`f`: the table's values as read) to `errs`, and
 * returns the typed account it read (account_number without a vault), which the pipeline
 * charges: the card is read once.
 */
export function checkTransactionShape(body: Body, action: PostAction, f: FieldValues, errs: ErrorCollector): AccountData | undefined {
  // An earlier transaction is the account: account data beside it would send the money elsewhere.
  if ((present(body.previous_transaction_id) || present(body.previous_transaction_api_id)) && ACCOUNT_SOURCE_FIELDS.some((k) => present(body[k]))) {
    errs.add(present(body.previous_transaction_id) ? 'previous_transaction_id' : 'previous_transaction_api_id', PAY_MSG.PREVIOUS_WITH_ACCOUNT);
  }
  if (present(body.account_number) && !present(body.account_vault_id) && !present(body.account_vault_api_id)) {
    return typedAccount(body, f.payment_method === 'ach' || action === 'debit' || action === 'credit' ? 'ach' : 'cc', errs);
  }
  return undefined;
}

/** Adds the messages of a thrown 422 to the collector (each message once per field). */
export function mergeErrors(errs: ErrorCollector, more: Record<string, string[]>): void {
  for (const [field, messages] of Object.entries(more)) {
    const list = (errs.errors[field] ??= []);
    for (const m of messages) if (!list.includes(m)) list.push(m);
  }
}
