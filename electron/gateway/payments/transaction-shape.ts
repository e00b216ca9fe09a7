/**
 * The field-by-field checks of a new transaction, run once up front into one collector
 * so a 422 lists every bad field at once (the interface answers that way), instead of
 * stopping at the first group (location, then account, then amounts). The same
 * validators run again where the service uses their values; relational checks (vault,
 * previous transaction, product transaction) still come later, one at a time.
 */
import { ErrorCollector } from '../framework/errors';
import { typedAccount } from './card-source';
import { EMAIL_RE, money, present, text, type Body } from './input-fields';
import { PAY_MSG } from './payment-messages';

export function transactionShapeErrors(body: Body, action: string, textFields: readonly (readonly [string, number])[]): ErrorCollector {
  const errs = new ErrorCollector();
  money(body, 'transaction_amount', errs);
  money(body, 'tax', errs);
  money(body, 'tip_amount', errs);
  for (const [f, max] of textFields) text(body, f, max, errs);
  if (present(body.notification_email_address)) {
    const email = String(body.notification_email_address);
    if (email.length > 128 || !EMAIL_RE.test(email)) errs.add('notification_email_address', PAY_MSG.EMAIL_INVALID);
  }
  if (present(body.custom_data) && (typeof body.custom_data !== 'object' || Array.isArray(body.custom_data))) errs.add('custom_data', PAY_MSG.CUSTOM_DATA_INVALID);
  const explicit = present(body.payment_method) ? String(body.payment_method) : undefined;
  if (explicit !== undefined && explicit !== 'cc' && explicit !== 'ach') errs.add('payment_method', PAY_MSG.PAYMENT_METHOD_INVALID);
  if (present(body.account_number) && !present(body.account_vault_id) && !present(body.account_vault_api_id)) {
    typedAccount(body, explicit === 'ach' || action === 'debit' || action === 'credit' ? 'ach' : 'cc', errs);
  }
  return errs;
}

/** Adds the messages of a thrown 422 to the collector. */
export function mergeErrors(errs: ErrorCollector, more: Record<string, string[]>): void {
  for (const [field, messages] of Object.entries(more)) (errs.errors[field] ??= []).push(...messages);
}
