/**
 * Small readers for hand-written request bodies: each returns the normalised value or
 * records a 422 message under the field name and returns undefined.
 */
import { type ErrorCollector, MSG } from '../framework/errors';
import { parseMoney } from '../../../shared/payments/money';
import { PAY_MSG } from './payment-messages';

export type Body = Record<string, unknown>;

export function present(v: unknown): boolean {
  return v !== undefined && v !== null && v !== '';
}

export function text(body: Body, field: string, max: number, errs: ErrorCollector): string | null {
  const v = body[field];
  if (!present(v)) return null;
  if (typeof v !== 'string' && typeof v !== 'number') {
    errs.add(field, MSG.NOT_STRING);
    return null;
  }
  const s = String(v);
  if (s.length > max) {
    errs.add(field, PAY_MSG.TEXT_TOO_LONG, { max });
    return null;
  }
  return s;
}

export function money(body: Body, field: string, errs: ErrorCollector): number | null {
  const v = body[field];
  if (!present(v)) return null;
  const c = parseMoney(v);
  if (c === null) {
    if (field === 'transaction_amount') errs.add(field, PAY_MSG.AMOUNT_INVALID);
    else errs.add(field, PAY_MSG.MONEY_INVALID);
    return null;
  }
  return c;
}

export function digitsOnly(v: unknown): string | null {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  if (typeof v !== 'string') return null;
  const s = v.replace(/[\s-]/g, '');
  return /^\d+$/.test(s) ? s : null;
}

export function flag(v: unknown): boolean {
  return v === true || v === 1 || v === '1' || v === 'true';
}

export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
