/**
 * Validates a transaction body against the field table (`transaction-fields.ts`): a known
 * field sent with an action that does not take it is a 422, a field the action requires
 * and that is missing is a 422, and every field without its own reader (`ownReader`:
 * action, account_number, cvv) is checked for its type and bounds and returned normalised.
 *
 * Unknown keys are ignored (the family's API does the same), so an integrator's extra
 * bookkeeping keys do not break a charge.
 */
import { MSG, type ErrorCollector } from '../framework/errors';
import { charLength, INPUT_PATTERNS } from '../framework/validate';
import { formatMoney, parseMoneyInput } from '../../../shared/payments/money';
import { parseExpDate } from '../../../shared/payments/exp-date';
import { BOOLEAN_INPUTS, present, type Body } from './input-fields';
import { PAY_MSG } from './payment-messages';
import { ADDITIONAL_AMOUNT_TYPES, FIELD_BY_NAME, TRANSACTION_FIELDS, type TransactionAction, type TransactionField } from './transaction-fields';

const REQUIRED_FIELDS = TRANSACTION_FIELDS.filter((f) => f.requiredFor);

export type FieldValues = Record<string, unknown>;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const HEX_RE = /^(?:[0-9a-fA-F]{2})+$/;
const BASE64_RE = /^[A-Za-z0-9+/]+={0,2}$/;
/** What maskCardNumbers leaves of a card number. */
const MASKED_CARD = /\*{9,15}\d{4}/;

export function isIsoDate(s: string): boolean {
  const m = DATE_RE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/** What the per-value reader needs of a declared field (transaction fields, vault fields). */
export type ReadableField = Pick<TransactionField, 'name' | 'type' | 'min' | 'max' | 'values' | 'pattern' | 'patternText' | 'trim' | 'messages'>;

/** A string field: a JSON string (a number is refused, as the OpenAPI document says), its bounds counted as sent. */
function stringValue(f: ReadableField, v: unknown, errs: ErrorCollector): string | undefined {
  if (typeof v !== 'string') {
    errs.add(f.name, f.messages?.invalid ?? MSG.NOT_STRING);
    return undefined;
  }
  const s = f.trim ? v.trim() : v;
  const invalid = f.messages?.invalid;
  const length = charLength(v);
  if (f.max !== undefined && length > f.max) errs.add(f.name, invalid ?? MSG.TOO_LONG, { max: f.max });
  else if (f.min !== undefined && length < f.min) errs.add(f.name, invalid ?? (f.min === f.max ? MSG.EXACT_LENGTH : MSG.TOO_SHORT), { min: f.min, length: f.min });
  else if (f.pattern && !f.pattern.test(s)) {
    // A card number typed here was masked on arrival (framework/card-mask.ts): say so.
    if (MASKED_CARD.test(s)) errs.add(f.name, PAY_MSG.FIELD_CARD_NUMBER);
    else errs.add(f.name, f.messages?.pattern ?? invalid ?? PAY_MSG.FIELD_PATTERN, { what: f.patternText ?? 'valid characters' });
  } else return s;
  return undefined;
}

/** Checks one sent (non-empty) value against its declaration: the normalised value (money in cents), or undefined after adding a 422 message. */
export function readFieldValue(f: ReadableField, v: unknown, errs: ErrorCollector): unknown {
  const invalid = f.messages?.invalid;
  switch (f.type) {
    case 'string':
      return stringValue(f, v, errs);
    case 'money': {
      const c = parseMoneyInput(v);
      if (c === null) errs.add(f.name, invalid ?? PAY_MSG.MONEY_INVALID);
      return c ?? undefined; // cents
    }
    case 'boolean':
      if (!BOOLEAN_INPUTS.has(v)) {
        errs.add(f.name, invalid ?? MSG.NOT_BOOLEAN);
        return undefined;
      }
      return BOOLEAN_INPUTS.get(v);
    case 'date':
      if (typeof v !== 'string' || !isIsoDate(v)) {
        errs.add(f.name, invalid ?? MSG.BAD_DATE);
        return undefined;
      }
      return v;
    case 'mmyy':
      if (typeof v !== 'string' || !parseExpDate(v)) {
        errs.add(f.name, invalid ?? PAY_MSG.EXP_DATE_INVALID);
        return undefined;
      }
      return v;
    case 'json': {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) {
        errs.add(f.name, invalid ?? PAY_MSG.CUSTOM_DATA_INVALID);
        return undefined;
      }
      if (f.max !== undefined && JSON.stringify(v).length > f.max) {
        errs.add(f.name, PAY_MSG.JSON_TOO_LONG, { max: f.max });
        return undefined;
      }
      return v;
    }
    case 'enum': {
      // Exactly one of the values, as the document's enum lists them.
      const hit = typeof v === 'string' ? (f.values ?? []).find((x) => x === v) : undefined;
      if (hit === undefined) errs.add(f.name, invalid ?? PAY_MSG.FIELD_ENUM, { values: (f.values ?? []).join(', ') });
      return hit;
    }
    case 'hex':
    case 'base64': {
      const s = stringValue({ ...f, pattern: undefined }, v, errs);
      if (s === undefined) return undefined;
      if (!(f.type === 'hex' ? HEX_RE : BASE64_RE).test(s)) {
        errs.add(f.name, invalid ?? PAY_MSG.FIELD_ENCODING, { encoding: f.type === 'hex' ? 'hexadecimal' : 'base64' });
        return undefined;
      }
      return s;
    }
    case 'email': {
      const s = typeof v === 'string' ? v : '';
      if (!s || s.length > (f.max ?? 128) || !INPUT_PATTERNS.email.test(s)) {
        errs.add(f.name, invalid ?? PAY_MSG.EMAIL_INVALID);
        return undefined;
      }
      return s;
    }
    case 'tags': {
      const list = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : null;
      if (!list || list.some((t) => typeof t !== 'string' || t.trim() === '' || t.length > 64) || list.length > (f.max ?? 64)) {
        errs.add(f.name, PAY_MSG.TAGS_INVALID, { max: f.max ?? 64 });
        return undefined;
      }
      return [...new Set(list.map((t) => (t as string).trim()))];
    }
    case 'additional_amounts': {
      if (!Array.isArray(v) || v.length > (f.max ?? 5)) {
        errs.add(f.name, PAY_MSG.ADDITIONAL_AMOUNTS_INVALID);
        return undefined;
      }
      const out: { type: string; amount: string; cents: number }[] = [];
      for (const item of v) {
        const type = typeof item === 'object' && item !== null ? (item as Body).type : undefined;
        const cents = typeof item === 'object' && item !== null ? parseMoneyInput((item as Body).amount) : null;
        if (typeof type !== 'string' || !(ADDITIONAL_AMOUNT_TYPES as readonly string[]).includes(type.toUpperCase()) || cents === null) {
          errs.add(f.name, PAY_MSG.ADDITIONAL_AMOUNTS_INVALID);
          return undefined;
        }
        out.push({ type: type.toUpperCase(), amount: String((item as Body).amount), cents });
      }
      return out;
    }
  }
}

/**
 * Reads the table's fields for `action`: every sent field must be one the action takes,
 * and every field but those with their own reader is checked against its type and bounds
 * (`engine` fields too, so an overlong id is "too long", not "invalid") and returned
 * normalised (money in cents). A field the table requires for the action and that is not
 * sent is "cannot be blank". With `clearing` (PUT edit), a field sent as null or "" is
 * returned as null (it clears the stored value); otherwise absent.
 */
export function readTableFields(body: Body, action: TransactionAction, errs: ErrorCollector, clearing = false): FieldValues {
  const out: FieldValues = {};
  for (const key of Object.keys(body)) {
    const f = FIELD_BY_NAME.get(key);
    if (!f) continue;
    const v = body[key];
    const sent = present(v);
    if (!sent && !(clearing && key in body)) continue;
    if (!(f.actions as readonly string[]).includes(action)) {
      if (sent) errs.add(key, PAY_MSG.FIELD_NOT_FOR_ACTION, { action });
      continue;
    }
    // Its own reader checks the finer rule; the JSON type is the document's, checked here like any other.
    if (f.ownReader) {
      if (sent && typeof v !== 'string') errs.add(key, f.messages?.invalid ?? MSG.NOT_STRING);
      continue;
    }
    if (!sent) {
      out[key] = null;
      continue;
    }
    const value = readFieldValue(f, v, errs);
    if (value !== undefined) out[key] = value;
  }
  for (const f of REQUIRED_FIELDS) {
    if ((f.requiredFor as readonly string[]).includes(action) && !present(body[f.name]) && !errs.has(f.name)) errs.add(f.name, MSG.BLANK);
  }
  return out;
}

/** Stored form of a read value: cents back to decimal strings, additional amounts without cents. */
export function storedValue(name: string, value: unknown): unknown {
  const f = FIELD_BY_NAME.get(name);
  if (value === null || value === undefined || !f) return value ?? null;
  if (f.type === 'money') return formatMoney(value as number);
  if (f.type === 'additional_amounts') return (value as { type: string; cents: number }[]).map((a) => ({ type: a.type, amount: formatMoney(a.cents) }));
  return value;
}
