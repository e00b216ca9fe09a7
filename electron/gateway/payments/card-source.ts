/**
 * Where the money comes from: typed account data, an account vault (by id or api id),
 * or the card of a previous transaction. Produces the facts the processor and the
 * record need (brand, first six, last four, expiry, ACH routing) and, only for
 * vaulting, the full number, which is kept in memory for the request and never stored
 * in plaintext or logged.
 *
 * Simplification: the simulated processor needs no full number, so a charge "from a
 * previous transaction" reuses its brand, BIN, last four and expiry (a real gateway
 * would use the processor's token for the same card).
 */
import { detectCardBrand, cvvLength, CARD_BRAND_ACCOUNT_TYPE, type CardBrand } from '../../../shared/payments/card-brand';
import { luhnValid } from '../../../shared/payments/luhn';
import { parseExpDate } from '../../../shared/payments/exp-date';
import { abaRoutingValid, achAccountValid } from '../../../shared/payments/aba-routing';
import { firstSix, lastFour } from '../../../shared/payments/masking';
import type { ErrorCollector } from '../framework/errors';
import { accountDigits, digitsText, present, type Body } from './input-fields';
import { PAY_MSG } from './payment-messages';

import { FIELD_BY_NAME, SEC_CODES } from './transaction-fields';

export { SEC_CODES };

/** account_number's bounds per payment method, as the field table declares them. */
const { cc: CARD, ach: ACH } = FIELD_BY_NAME.get('account_number')?.byMethod ?? { cc: { min: 13, max: 19 }, ach: { min: 4, max: 17 } };

export interface AccountData {
  paymentMethod: 'cc' | 'ach';
  brand: CardBrand | null;
  firstSix: string | null;
  lastFour: string;
  expDate: string | null;
  /** Full number, only when typed in this request (for save_account); never persisted in clear. */
  accountNumber: string | null;
  cvv: string | null;
  routing: string | null;
  accountType: string | null;
  accountHolderName: string | null;
  achSecCode: string | null;
  vaultId: string | null;
}

export interface VaultRow {
  id: string;
  location_id: string;
  payment_method: string;
  first_six: string | null;
  last_four: string | null;
  exp_date: string | null;
  routing: string | null;
  account_type: string | null;
  account_holder_name: string | null;
  ach_sec_code: string | null;
  billing_address: string | null;
  billing_zip: string | null;
  contact_id: string | null;
}

/** Typed account data (`account_number` present). */
export function typedAccount(body: Body, method: 'cc' | 'ach', errs: ErrorCollector): AccountData | undefined {
  const number = accountDigits(body.account_number);
  // Its bounds (at most 32) are the field table's, checked with every other field.
  const holder = sentHolder(body);
  if (method === 'cc') {
    const numberOk = !!number && number.length >= CARD.min && number.length <= CARD.max && luhnValid(number);
    if (!numberOk) errs.add('account_number', PAY_MSG.CARD_NUMBER_INVALID);
    // The expiry is checked even after a bad number, so one 422 names both.
    let expDate: string | null = null;
    if (!present(body.exp_date)) errs.add('exp_date', PAY_MSG.EXP_DATE_BLANK);
    else if (typeof body.exp_date !== 'string' || !parseExpDate(body.exp_date)) errs.add('exp_date', PAY_MSG.EXP_DATE_INVALID);
    else expDate = body.exp_date;
    if (!numberOk) return undefined;
    const brand = detectCardBrand(number);
    const cvv = readCvv(body, brand, errs);
    return {
      paymentMethod: 'cc', brand, firstSix: firstSix(number), lastFour: lastFour(number), expDate, accountNumber: number, cvv,
      routing: null, accountType: CARD_BRAND_ACCOUNT_TYPE[brand], accountHolderName: holder, achSecCode: null, vaultId: null,
    };
  }
  if (!number || number.length < ACH.min || number.length > ACH.max || !achAccountValid(number)) {
    errs.add('account_number', PAY_MSG.ACH_ACCOUNT_INVALID);
    return undefined;
  }
  const routing = digitsText(body.routing);
  if (!present(body.routing)) errs.add('routing', PAY_MSG.ROUTING_BLANK);
  else if (!routing || !abaRoutingValid(routing)) errs.add('routing', PAY_MSG.ROUTING_INVALID);
  const accountType = present(body.account_type) ? String(body.account_type) : 'checking';
  if (accountType !== 'checking' && accountType !== 'savings') errs.add('account_type', PAY_MSG.ACCOUNT_TYPE_INVALID);
  if (!holder) errs.add('account_holder_name', PAY_MSG.ACCOUNT_HOLDER_BLANK);
  const sec = readSecCode(body, errs);
  return {
    paymentMethod: 'ach', brand: null, firstSix: null, lastFour: lastFour(number), expDate: null, accountNumber: number, cvv: null,
    routing, accountType, accountHolderName: holder, achSecCode: sec, vaultId: null,
  };
}

export function readSecCode(body: Body, errs: ErrorCollector): string {
  if (!present(body.ach_sec_code)) return 'WEB';
  const s = body.ach_sec_code;
  if (typeof s !== 'string' || !(SEC_CODES as readonly string[]).includes(s)) {
    errs.add('ach_sec_code', PAY_MSG.SEC_CODE_INVALID);
    return 'WEB';
  }
  return s;
}

export function readCvv(body: Body, brand: CardBrand | null, errs: ErrorCollector): string | null {
  if (!present(body.cvv)) return null;
  const cvv = digitsText(body.cvv);
  if (!cvv || cvv.length !== cvvLength(brand ?? 'unknown')) {
    errs.add('cvv', PAY_MSG.CVV_INVALID);
    return null;
  }
  return cvv;
}

export function fromVault(v: VaultRow, body: Body, errs: ErrorCollector): AccountData {
  const method = v.payment_method === 'ach' ? 'ach' : 'cc';
  const brand = method === 'cc' && v.first_six ? brandFromStored(v.first_six, v.account_type) : null;
  let expDate = v.exp_date;
  if (method === 'cc' && typeof body.exp_date === 'string' && body.exp_date) {
    if (parseExpDate(body.exp_date)) expDate = body.exp_date;
    else errs.add('exp_date', PAY_MSG.EXP_DATE_INVALID);
  }
  return {
    paymentMethod: method, brand, firstSix: v.first_six, lastFour: v.last_four ?? '', expDate, accountNumber: null,
    cvv: method === 'cc' ? readCvv(body, brand, errs) : null, routing: v.routing, accountType: v.account_type,
    accountHolderName: sentHolder(body) ?? v.account_holder_name, achSecCode: method === 'ach' ? (present(body.ach_sec_code) ? readSecCode(body, errs) : v.ach_sec_code ?? 'WEB') : null,
    vaultId: v.id,
  };
}

/** account_holder_name as sent (trimmed), for a charge from a vault or an earlier transaction: it wins over the stored name. */
export function sentHolder(body: Body): string | null {
  return typeof body.account_holder_name === 'string' && body.account_holder_name.trim() ? body.account_holder_name.trim() : null;
}

/** The stored record keeps first six + account_type; recover the brand for the processor. */
export function brandFromStored(first6: string | null, accountType: string | null): CardBrand {
  const byType: Record<string, CardBrand> = { visa: 'visa', mc: 'mastercard', amex: 'amex', disc: 'discover' };
  if (accountType && byType[accountType]) return byType[accountType] as CardBrand;
  if (!first6) return 'unknown';
  // Pad the BIN to a plausible length so the range check works on six digits.
  const guess = detectCardBrand(first6.padEnd(first6.startsWith('3') ? 15 : 16, '0'));
  return guess;
}
