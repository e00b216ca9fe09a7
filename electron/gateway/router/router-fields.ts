/**
 * The router endpoints' request checks, all made before the terminal is asked anything:
 * a request the document refuses must never reach the customer's card (and a field's type
 * error must be named as such, not hidden behind "the terminal has no address"). A router
 * transaction's fields are the transaction table's (transaction-fields.ts, read for its
 * action) plus `terminal_id`; the answer names every bad field at once.
 */
import { ErrorCollector, MSG } from '../framework/errors';
import { parseMoneyInput } from '../../../shared/payments/money';
import { present, type Body } from '../payments/input-fields';
import { PAY_MSG } from '../payments/payment-messages';
import { readTableFields, type PostAction } from '../payments/transaction-fields';
import { ROUTER_MSG } from './router-messages';

export const ROUTER_ACTIONS = ['sale', 'authonly', 'refund'] as const;

function idText(body: Body, field: string, errs: ErrorCollector, required: boolean): void {
  const v = body[field];
  if (!present(v)) {
    if (required) errs.add(field, MSG.BLANK);
  } else if (typeof v !== 'string') errs.add(field, MSG.NOT_STRING);
}

/**
 * Ringup's tip fields on a sale whose tip the customer picks on the terminal (issue 21): what the
 * terminal's percents are taken of (`tip_base_amount`, the store's tip base: before or after tax;
 * the whole amount when not sent), and smart tips (`tip_amounts`: three flat amounts shown
 * instead of the percents). Null when not sent; checked by routerTransactionErrors.
 */
export function routerTipOffer(body: Body): { tipBaseCents?: number; tipAmountsCents?: number[] } {
  const base = present(body.tip_base_amount) ? parseMoneyInput(body.tip_base_amount) : null;
  const amounts = Array.isArray(body.tip_amounts) ? body.tip_amounts.map(parseMoneyInput) : null;
  return {
    ...(base !== null ? { tipBaseCents: base } : {}),
    ...(amounts && amounts.every((a) => a !== null) ? { tipAmountsCents: amounts } : {}),
  };
}

function tipOfferErrors(body: Body, errs: ErrorCollector): void {
  if (present(body.tip_base_amount)) {
    const base = parseMoneyInput(body.tip_base_amount);
    const amount = parseMoneyInput(body.transaction_amount);
    if (base === null || (amount !== null && base > amount)) errs.add('tip_base_amount', ROUTER_MSG.TIP_BASE_INVALID);
  }
  // null is "not sent"; anything else must be the three amounts (an empty string is not a list).
  if (body.tip_amounts !== undefined && body.tip_amounts !== null) {
    const a = body.tip_amounts;
    if (!Array.isArray(a) || a.length !== 3 || !a.every((v) => (parseMoneyInput(v) ?? 0) > 0)) errs.add('tip_amounts', ROUTER_MSG.TIP_AMOUNTS_INVALID);
  }
}

/** Everything wrong with a router transaction's body (the action is one of ROUTER_ACTIONS when no `action` error is reported). */
export function routerTransactionErrors(body: Body): ErrorCollector {
  const errs = new ErrorCollector();
  const action = present(body.action) ? body.action : 'sale';
  if (!(ROUTER_ACTIONS as readonly unknown[]).includes(action)) errs.add('action', ROUTER_MSG.ACTION_INVALID);
  if (present(body.payment_method) && body.payment_method !== 'cc') errs.add('payment_method', ROUTER_MSG.PAYMENT_METHOD_CC);
  idText(body, 'terminal_id', errs, true);
  // The transaction table's checks for the action (a refund's amount is required here too: the terminal is asked for it).
  if (!errs.has('action')) readTableFields(body, action as PostAction, errs);
  if (!present(body.transaction_amount)) errs.add('transaction_amount', MSG.BLANK);
  else if (!errs.has('transaction_amount') && parseMoneyInput(body.transaction_amount) === 0) errs.add('transaction_amount', PAY_MSG.AMOUNT_ZERO);
  tipOfferErrors(body, errs);
  return errs;
}

/** Everything wrong with a router account vault's body. */
export function routerVaultErrors(body: Body): ErrorCollector {
  const errs = new ErrorCollector();
  if (body.payment_method !== 'cc') errs.add('payment_method', ROUTER_MSG.PAYMENT_METHOD_CC);
  if (body.action !== 'store') errs.add('action', ROUTER_MSG.VAULT_ACTION_INVALID);
  for (const f of ['terminal_id', 'location_id', 'contact_id']) idText(body, f, errs, true);
  return errs;
}

/** A cancel's body, `{"terminalcancel": {"transaction_api_id": "…"}}` (both optional): the api id when one is named. */
export function cancelApiId(body: unknown, errs: ErrorCollector): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body !== 'object' || Array.isArray(body)) {
    errs.add('terminalcancel', MSG.NOT_OBJECT);
    return undefined;
  }
  const wrapped = (body as Body).terminalcancel;
  if (wrapped === undefined || wrapped === null) return undefined;
  if (typeof wrapped !== 'object' || Array.isArray(wrapped)) {
    errs.add('terminalcancel', MSG.NOT_OBJECT);
    return undefined;
  }
  const apiId = (wrapped as Body).transaction_api_id;
  if (!present(apiId)) return undefined;
  if (typeof apiId !== 'string') {
    errs.add('transaction_api_id', MSG.NOT_STRING);
    return undefined;
  }
  if (apiId.length > 64) errs.add('transaction_api_id', MSG.TOO_LONG, { max: 64 });
  return apiId;
}
