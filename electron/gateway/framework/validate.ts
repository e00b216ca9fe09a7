/**
 * Write validation derived from a resource declaration: the singular wrapper, types,
 * bounds, required-on-create, update-allowed, read-only, references and formats.
 *
 * Decisions (documented in the README): unknown keys in the wrapper are ignored, as are
 * read-only fields; an empty string or null on an optional field stores null (restores its
 * default), except on a field declared `nullable: false`; a field that may not change on
 * update is refused with 422 only when the value differs.
 *
 * The OpenAPI document's request schemas (resource-openapi.ts) are built from the same
 * declarations and the same patterns (INPUT_PATTERNS): whatever the document refuses,
 * this refuses, and the other way round (test/gateway/openapi-fuzz.test.ts walks it).
 *
 * Two kinds of declaration are read here, by one set of rules: a stored resource's
 * FieldDef (`checkField`, `validateWrite`) and a body value that is read rather than
 * stored as a column (`ValueDef`, `readValue`: money into cents, MMYY, hex, base64, tags,
 * typed amount lists…), which the payment tables (transactions by action, account vaults
 * by payment method, router transactions) declare. Body-dispatched actions read theirs
 * through a plan compiled once per action (`planActionFields`, `readActionFields`), so a
 * sale pays for a map lookup per sent key and nothing is allocated per request but the
 * values read.
 */
import type { FastifyRequest } from 'fastify';
import { MONEY_INPUT_RE, parseMoneyInput } from '../../../shared/payments/money';
import { parseExpDate } from '../../../shared/payments/exp-date';
import { ErrorCollector, MSG, fmt, labelOf, unprocessable } from './errors';
// The engine context as declarations see it (resource.ts HookContext): importing context.ts here would close a circle through openapi-document.ts.
import type { ActionFieldDef, BodyWrites, FieldDef, FieldValues, HookContext as EngineContext, ResourceDef, Row, ValueDef, ValueType, WriteInput } from './resource';

export type { ActionFieldDef, FieldValues, ValueDef, ValueType } from './resource';

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The object under a body's wrapper key (`{"contact": {...}}` → its fields), or the 422 that names the wrapper. */
export function wrappedBody(body: unknown, wrapper: string): Record<string, unknown> {
  const inner = isPlainObject(body) ? body[wrapper] : undefined;
  if (!isPlainObject(inner)) throw unprocessable({ general: [fmt(MSG.WRAPPER_MISSING, { wrapper })] });
  return inner;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const INT_RE = /^-?\d{1,16}$/;
const NUM_RE = /^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
/** http(s) only, nothing blank in it (the WHATWG parser would quietly percent-encode a space). */
const URL_RE = /^https?:\/\/\S+$/;

/**
 * The text rules of the built-in formats and of numbers sent as text, shared with the
 * OpenAPI document (resource-openapi.ts writes them as `pattern`), so both read one rule.
 */
export const INPUT_PATTERNS = {
  email: EMAIL_RE,
  url: URL_RE,
  digits: /^\d+$/,
  'no-spaces': /^\S*$/,
  money: MONEY_INPUT_RE,
  /** An integer sent as text (XML bodies, and clients such as the family's C# samples). */
  integer: INT_RE,
  number: NUM_RE,
} as const;

export function isValidDate(s: string): boolean {
  const m = DATE_RE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

export function parseBoolean(v: unknown): 0 | 1 | undefined {
  if (v === true || v === 1 || v === '1' || v === 'true') return 1;
  if (v === false || v === 0 || v === '0' || v === 'false') return 0;
  return undefined;
}

export function parseInteger(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : undefined;
  if (typeof v === 'string' && INT_RE.test(v)) {
    const n = Number(v);
    return Number.isSafeInteger(n) ? n : undefined;
  }
  return undefined;
}

export function parseNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.length <= 32 && NUM_RE.test(v)) {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** An IANA time zone this engine's Intl can compute with (aliases such as US/Eastern included). */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Length in characters (code points), as JSON Schema's minLength/maxLength count them: "😀" is one. */
export const charLength = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

/**
 * Checks one present, non-empty value against its declaration. Returns the value to
 * store (booleans as 1/0, integers as numbers, json normalised) or undefined after
 * adding an error.
 */
export function checkField(name: string, f: FieldDef, value: unknown, errs: ErrorCollector): unknown {
  const a = { attribute: f.label ?? labelOf(name) };
  const add = (tpl: string, vars: Record<string, string | number> = {}) => {
    (errs.errors[name] ??= []).push(fmt(tpl, { ...a, ...vars }));
    return undefined;
  };
  let out: unknown = value;
  switch (f.type) {
    case 'string': {
      if (typeof value !== 'string') return add(MSG.NOT_STRING);
      const len = charLength(value);
      if (f.min !== undefined && f.max !== undefined && f.min === f.max && len !== f.min) return add(MSG.EXACT_LENGTH, { length: f.min });
      if (f.min !== undefined && len < f.min) return add(MSG.TOO_SHORT, { min: f.min });
      if (f.max !== undefined && len > f.max) return add(MSG.TOO_LONG, { max: f.max });
      if (f.format === 'email' && !EMAIL_RE.test(value)) return add(MSG.BAD_EMAIL);
      if (f.format === 'no-spaces' && /\s/.test(value)) return add(MSG.HAS_SPACES);
      if (f.format === 'digits' && !/^\d+$/.test(value)) return add(MSG.BAD_FORMAT);
      if (f.format === 'money' && !MONEY_INPUT_RE.test(value)) return add(f.formatMessage ?? MSG.BAD_AMOUNT);
      if (f.format === 'time-zone' && !isTimeZone(value)) return add(MSG.BAD_TIME_ZONE);
      if (f.format === 'url') {
        if (!URL_RE.test(value) || !isHttpUrl(value)) return add(MSG.BAD_URL);
      }
      if (f.pattern && !f.pattern.test(value)) return add(f.formatMessage ?? MSG.BAD_FORMAT);
      break;
    }
    case 'integer': {
      const n = parseInteger(value);
      if (n === undefined) return add(MSG.NOT_INTEGER);
      out = n;
      break;
    }
    case 'number': {
      const n = parseNumber(value);
      if (n === undefined) return add(MSG.NOT_NUMBER);
      out = n;
      break;
    }
    case 'boolean': {
      const b = parseBoolean(value);
      if (b === undefined) return add(MSG.NOT_BOOLEAN);
      out = b;
      break;
    }
    case 'date': {
      if (typeof value !== 'string' || !isValidDate(value)) return add(MSG.BAD_DATE);
      break;
    }
    case 'json': {
      if (f.json) {
        const before = errs.errors[name]?.length ?? 0;
        out = f.json(value, errs, name);
        if ((errs.errors[name]?.length ?? 0) > before) return undefined;
      } else if (!isPlainObject(value)) return add(MSG.NOT_OBJECT);
      break;
    }
  }
  if (typeof out === 'number') {
    if (f.minValue !== undefined && out < f.minValue) return add(MSG.TOO_SMALL, { min: f.minValue });
    if (f.maxValue !== undefined && out > f.maxValue) return add(MSG.TOO_BIG, { max: f.maxValue });
  }
  if (f.enum && !f.enum.includes(out as string | number)) return add(MSG.INVALID);
  if (f.check) {
    const msg = f.check(out);
    if (msg) return add(msg);
  }
  return out;
}

const isEmpty = (v: unknown) => v === null || v === '';

function defaultOf(ctx: EngineContext, f: FieldDef): unknown {
  return typeof f.default === 'function' ? (f.default as (c: EngineContext) => unknown)(ctx) : f.default;
}

export function validateWrite(
  ctx: EngineContext,
  def: ResourceDef,
  body: unknown,
  mode: 'create' | 'update',
  req: FastifyRequest,
  existing?: Row,
): WriteInput {
  const raw = wrappedBody(body, def.name);
  const errs = new ErrorCollector();
  const values: Row = {};
  for (const [name, f] of Object.entries(def.fields)) {
    if (f.readOnly) continue;
    const present = Object.prototype.hasOwnProperty.call(raw, name) && raw[name] !== undefined;
    if (mode === 'update') {
      if (!present) continue;
      if (f.update === false) {
        if (existing && raw[name] !== existing[name] && !isEmpty(raw[name])) errs.add(name, MSG.NOT_CHANGEABLE);
        continue;
      }
    }
    if (!present) {
      if (mode === 'create') {
        if (f.required) errs.add(name, MSG.BLANK);
        else if (f.default !== undefined) values[name] = defaultOf(ctx, f);
      }
      continue;
    }
    const v = raw[name];
    if (isEmpty(v)) {
      if (f.required || f.nullable === false) errs.add(name, MSG.BLANK);
      // A field with a default always holds a value: emptying it restores the default.
      else if (f.default !== undefined) values[name] = defaultOf(ctx, f);
      else values[name] = null;
      continue;
    }
    const out = checkField(name, f, v, errs);
    if (out === undefined) continue;
    if (f.ref && !f.virtual) {
      const target = ctx.resource(f.ref);
      if (!ctx.getVisible(target, out, req.auth)) {
        errs.add(name, MSG.INVALID);
        continue;
      }
    }
    values[name] = out;
  }
  const input: WriteInput = { values, raw };
  if (!errs.has()) def.validate?.({ ctx, auth: req.auth, req, errs, mode, input, existing });
  errs.throwIfAny();
  return input;
}

// ------------------------------------------------------------------ declared body values

/** The values a boolean body value takes (the OpenAPI document's enum), and what they mean. */
export const BOOLEAN_INPUTS: ReadonlyMap<unknown, boolean> = new Map<unknown, boolean>([
  [true, true], [1, true], ['1', true], ['true', true],
  [false, false], [0, false], ['0', false], ['false', false],
]);

const HEX_RE = /^(?:[0-9a-fA-F]{2})+$/;
const BASE64_RE = /^[A-Za-z0-9+/]+={0,2}$/;
/** What card-mask.ts leaves of a card number typed into free text. */
const MASKED_CARD = /\*{9,15}\d{4}/;

/** The text rules of the value types, as readValue applies them (the OpenAPI document writes them as `pattern`). */
export const VALUE_PATTERNS: Readonly<Partial<Record<ValueType, RegExp>>> = {
  money: MONEY_INPUT_RE,
  mmyy: /^(0[1-9]|1[0-2])[0-9]{2}$/,
  email: EMAIL_RE,
  hex: HEX_RE,
  base64: BASE64_RE,
};

/** Sent: null and "" are not (they mean "not sent", or "clear it" where a body may clear). */
const sent = (v: unknown): boolean => v !== undefined && v !== null && v !== '';

/** A text value: a JSON string (a number is refused, as the document says), its bounds counted as sent; `pattern` off for the encoded types, which have their own rule. */
function textValue(f: ValueDef, v: unknown, errs: ErrorCollector, pattern: RegExp | undefined): string | undefined {
  if (typeof v !== 'string') {
    errs.add(f.name, f.messages?.invalid ?? MSG.NOT_STRING);
    return undefined;
  }
  const s = f.trim ? v.trim() : v;
  const invalid = f.messages?.invalid;
  const length = charLength(v);
  if (f.max !== undefined && length > f.max) errs.add(f.name, invalid ?? MSG.TOO_LONG, { max: f.max });
  else if (f.min !== undefined && length < f.min) errs.add(f.name, invalid ?? (f.min === f.max ? MSG.EXACT_LENGTH : MSG.TOO_SHORT), { min: f.min, length: f.min });
  else if (pattern && !pattern.test(s)) {
    // A card number typed here was masked on arrival (framework/card-mask.ts): say so.
    if (MASKED_CARD.test(s)) errs.add(f.name, MSG.FIELD_CARD_NUMBER);
    else errs.add(f.name, f.messages?.pattern ?? invalid ?? MSG.FIELD_PATTERN, { what: f.patternText ?? 'valid characters' });
  } else return s;
  return undefined;
}

/** Checks one sent (non-empty) body value against its declaration: the normalised value (money in cents), or undefined after adding a 422 message. */
export function readValue(f: ValueDef, v: unknown, errs: ErrorCollector): unknown {
  const invalid = f.messages?.invalid;
  switch (f.type) {
    case 'string':
      return textValue(f, v, errs, f.pattern);
    case 'money': {
      const c = parseMoneyInput(v);
      if (c === null) errs.add(f.name, invalid ?? MSG.MONEY_INVALID);
      return c ?? undefined; // cents
    }
    case 'boolean':
      if (!BOOLEAN_INPUTS.has(v)) {
        errs.add(f.name, invalid ?? MSG.NOT_BOOLEAN);
        return undefined;
      }
      return BOOLEAN_INPUTS.get(v);
    case 'date':
      if (typeof v !== 'string' || !isValidDate(v)) {
        errs.add(f.name, invalid ?? MSG.BAD_DATE);
        return undefined;
      }
      return v;
    case 'mmyy':
      if (typeof v !== 'string' || !parseExpDate(v)) {
        errs.add(f.name, invalid ?? MSG.BAD_MMYY);
        return undefined;
      }
      return v;
    case 'json': {
      if (!isPlainObject(v)) {
        errs.add(f.name, invalid ?? MSG.NOT_OBJECT);
        return undefined;
      }
      if (f.max !== undefined && JSON.stringify(v).length > f.max) {
        errs.add(f.name, MSG.JSON_TOO_LONG, { max: f.max });
        return undefined;
      }
      return v;
    }
    case 'enum': {
      // Exactly one of the values, as the document's enum lists them.
      const hit = typeof v === 'string' && f.values?.includes(v) ? v : undefined;
      if (hit === undefined) errs.add(f.name, invalid ?? MSG.FIELD_ENUM, { values: (f.values ?? []).join(', ') });
      return hit;
    }
    case 'hex':
    case 'base64': {
      const s = textValue(f, v, errs, undefined);
      if (s === undefined) return undefined;
      if (!(f.type === 'hex' ? HEX_RE : BASE64_RE).test(s)) {
        errs.add(f.name, invalid ?? MSG.FIELD_ENCODING, { encoding: f.type === 'hex' ? 'hexadecimal' : 'base64' });
        return undefined;
      }
      return s;
    }
    case 'email': {
      const s = typeof v === 'string' ? v : '';
      if (!s || s.length > (f.max ?? 128) || !EMAIL_RE.test(s)) {
        errs.add(f.name, invalid ?? MSG.BAD_EMAIL);
        return undefined;
      }
      return s;
    }
    case 'tags': {
      const list = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : null;
      if (!list || list.some((t) => typeof t !== 'string' || t.trim() === '' || t.length > 64) || list.length > (f.max ?? 64)) {
        errs.add(f.name, MSG.TAGS_INVALID, { max: f.max ?? 64 });
        return undefined;
      }
      return [...new Set(list.map((t) => (t as string).trim()))];
    }
    case 'additional_amounts': {
      const max = f.max ?? 5;
      const types = f.values ?? [];
      const refuse = () => {
        errs.add(f.name, invalid ?? MSG.TYPED_AMOUNTS_INVALID, { max, example: types[0] ?? '', values: types.join(', ') });
        return undefined;
      };
      if (!Array.isArray(v) || v.length > max) return refuse();
      const out: { type: string; amount: string; cents: number }[] = [];
      for (const item of v) {
        const type = isPlainObject(item) ? item.type : undefined;
        const cents = isPlainObject(item) ? parseMoneyInput(item.amount) : null;
        if (typeof type !== 'string' || !types.includes(type.toUpperCase()) || cents === null) return refuse();
        out.push({ type: type.toUpperCase(), amount: String((item as Record<string, unknown>).amount), cents });
      }
      return out;
    }
  }
}

// ------------------------------------------------------------------ body-dispatched actions

/** One action's reading plan, compiled once at start-up (the validator runs on every sale). */
export interface ActionFieldPlan {
  readonly action: string;
  /** Every declared field of the resource, by name (a field of another action is named as such, never dropped). */
  readonly known: ReadonlyMap<string, ActionFieldDef>;
  /** The fields this action takes. */
  readonly takes: ReadonlySet<string>;
  readonly required: readonly ActionFieldDef[];
}

/** The reading plan of each action, from one field table. */
export function planActionFields<A extends string>(fields: readonly ActionFieldDef[], actions: readonly A[]): Readonly<Record<A, ActionFieldPlan>> {
  const known = new Map(fields.map((f) => [f.name, f]));
  const plans = {} as Record<A, ActionFieldPlan>;
  for (const action of actions) {
    plans[action] = {
      action,
      known,
      takes: new Set(fields.filter((f) => f.actions.includes(action)).map((f) => f.name)),
      required: fields.filter((f) => f.requiredFor?.includes(action)),
    };
  }
  return plans;
}

/**
 * Reads a body for one action: every sent field must be one the action takes (else 422
 * FIELD_NOT_FOR_ACTION), and every field but those with their own reader is checked
 * against its type and bounds and returned normalised (money in cents). A field the action
 * requires and that is not sent is "cannot be blank". With `clearing` (an edit), a field
 * sent as null or "" is returned as null (it clears the stored value); otherwise absent.
 * Unknown keys are ignored (the family's API does the same).
 */
export function readActionFields(plan: ActionFieldPlan, body: Record<string, unknown>, errs: ErrorCollector, clearing = false): FieldValues {
  const out: FieldValues = {};
  for (const key in body) {
    const f = plan.known.get(key);
    if (!f) continue;
    const v = body[key];
    const isSent = sent(v);
    if (!isSent && !clearing) continue;
    if (!plan.takes.has(key)) {
      if (isSent) errs.add(key, MSG.FIELD_NOT_FOR_ACTION, { action: plan.action });
      continue;
    }
    // Its own reader checks the finer rule; the JSON type is the document's, checked here like any other.
    if (f.ownReader) {
      if (isSent && typeof v !== 'string') errs.add(key, f.messages?.invalid ?? MSG.NOT_STRING);
      continue;
    }
    if (!isSent) {
      out[key] = null;
      continue;
    }
    const value = readValue(f, v, errs);
    if (value !== undefined) out[key] = value;
  }
  for (const f of plan.required) if (!sent(body[f.name]) && !errs.has(f.name)) errs.add(f.name, MSG.BLANK);
  return out;
}

// ------------------------------------------------------------------ bodies read by mode

/**
 * Reads the declared fields of a create or update body (`variant`: the record's variant, when
 * known): each sent field's type and bounds, and that the variant takes it. Returns the
 * normalised values of the sent fields (booleans as true/false); on update a field sent as
 * null or "" is returned as null (it clears), or is "cannot be blank" when it may not be
 * emptied. Fields of the other mode are ignored (update: "only the fields sent change"), as
 * are unknown keys; create's required fields are the hooks' to name (their messages differ by variant).
 */
export function readModeFields(writes: BodyWrites, mode: 'create' | 'update', variant: string | undefined, body: Record<string, unknown>, errs: ErrorCollector): FieldValues {
  const out: FieldValues = {};
  const variants = writes.variants;
  for (const f of writes.fields) {
    if (!f.modes.includes(mode) || !Object.hasOwn(body, f.name)) continue;
    const v = body[f.name];
    if (!sent(v)) {
      if (mode === 'update' && f.nullable === false) errs.add(f.name, MSG.BLANK);
      else if (mode === 'update') out[f.name] = null;
      continue;
    }
    if (variants && variant !== undefined && f.variants && !f.variants.includes(variant)) {
      errs.add(f.name, variants.message, { kind: variants.kind[variant] ?? variant });
      continue;
    }
    if (f.ownReader) {
      if (typeof v !== 'string') errs.add(f.name, MSG.NOT_STRING);
      continue;
    }
    const value = readValue(f, v, errs);
    if (value !== undefined) out[f.name] = value;
  }
  return out;
}
