/**
 * Write validation derived from the field declarations (resource.ts FieldDef): the singular
 * wrapper, types, bounds, required-on-create, update-allowed, read-only, references and
 * formats.
 *
 * Decisions (documented in the README): unknown keys in the wrapper are ignored, as are
 * read-only fields; an empty string or null on an optional field stores null (restores its
 * default), except on a field declared `nullable: false`; a field that may not change on
 * update is refused with 422 only when the value differs.
 *
 * One reader, `readValue`, checks a sent value against its declaration (the per-type checks,
 * bounds, enum, formats and patterns of INPUT_PATTERNS, trim, the messages), wherever the
 * field is declared: a declared resource's fields (`validateWrite`, which keeps booleans
 * 0/1 as its columns do), the body-dispatched tables (transactions by action:
 * `planActionFields`, `readActionFields`) and the bodies read by mode (account vaults by
 * payment method: `readModeFields`). A body-dispatched action reads through a plan compiled
 * once per action, so a sale pays for a map lookup per sent key and nothing is allocated per
 * request but the values read.
 *
 * The OpenAPI document's request schemas (field-openapi.ts) are built from the same
 * declarations and the same patterns: whatever the document refuses, this refuses, and the
 * other way round (test/gateway/openapi-fuzz.test.ts walks it).
 */
import type { FastifyRequest } from 'fastify';
import { MONEY_INPUT_RE, parseMoneyInput } from '../../../shared/payments/money';
import { parseExpDate } from '../../../shared/payments/exp-date';
import { ErrorCollector, MSG, fmt, unprocessable } from './errors';
// The engine context as declarations see it (resource.ts HookContext): importing context.ts here would close a circle through openapi-document.ts.
import type { ActionFieldDef, BodyWrites, FieldDef, FieldValues, HookContext as EngineContext, ModeFieldDef, ResourceDef, Row, TextFormat, WriteInput } from './resource';

export type { ActionFieldDef, FieldDef, FieldType, FieldValues } from './resource';

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
 * The text rules of the formats and of the types read from text (numbers sent as text,
 * amounts, card expiries, encoded text), shared with the OpenAPI document (field-openapi.ts
 * writes them as `pattern`), so both read one rule.
 */
export const INPUT_PATTERNS = {
  email: EMAIL_RE,
  url: URL_RE,
  digits: /^\d+$/,
  'no-spaces': /^\S*$/,
  money: MONEY_INPUT_RE,
  /** An integer sent as text (XML bodies, and clients that quote every value they send). */
  integer: INT_RE,
  number: NUM_RE,
  mmyy: /^(0[1-9]|1[0-2])[0-9]{2}$/,
  hex: /^(?:[0-9a-fA-F]{2})+$/,
  base64: /^[A-Za-z0-9+/]+={0,2}$/,
} as const;

export function isValidDate(s: string): boolean {
  const m = DATE_RE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/** The values a boolean takes (the OpenAPI document's enum), and what they mean. */
export const BOOLEAN_INPUTS: ReadonlyMap<unknown, boolean> = new Map<unknown, boolean>([
  [true, true], [1, true], ['1', true], ['true', true],
  [false, false], [0, false], ['0', false], ['false', false],
]);

/** A boolean as a column keeps it (list filters read theirs so too); the inputs are BOOLEAN_INPUTS. */
export function parseBoolean(v: unknown): 0 | 1 | undefined {
  const b = BOOLEAN_INPUTS.get(v);
  return b === undefined ? undefined : b ? 1 : 0;
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

const isEmpty = (v: unknown) => v === null || v === '';

function defaultOf(ctx: EngineContext, f: FieldDef): unknown {
  return typeof f.default === 'function' ? (f.default as (c: EngineContext) => unknown)(ctx) : f.default;
}

/** A resource's writable fields with their reader's copies, made on its first write. */
const WRITABLE = new WeakMap<ResourceDef, readonly { name: string; f: FieldDef; reader: FieldDef }[]>();
function writableFieldsOf(def: ResourceDef): readonly { name: string; f: FieldDef; reader: FieldDef }[] {
  let list = WRITABLE.get(def);
  if (!list) {
    list = Object.entries(def.fields)
      .filter(([, f]) => !f.readOnly)
      .map(([name, f]) => ({ name, f, reader: readerCopy(f) }));
    WRITABLE.set(def, list);
  }
  return list;
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
  for (const { name, f, reader } of writableFieldsOf(def)) {
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
    const out = readValue(name, reader, v, errs);
    if (out === undefined) continue;
    if (f.ref && !f.virtual) {
      const target = ctx.resource(f.ref);
      if (!ctx.getVisible(target, out, req.auth)) {
        errs.add(name, MSG.INVALID);
        continue;
      }
    }
    // A record keeps booleans 0/1, as its columns do and its hooks compare them.
    values[name] = f.type === 'boolean' ? (out === true ? 1 : 0) : out;
  }
  const input: WriteInput = { values, raw };
  if (!errs.has()) def.validate?.({ ctx, auth: req.auth, req, errs, mode, input, existing });
  errs.throwIfAny();
  return input;
}

// ------------------------------------------------------------------ the one reader

/** What card-mask.ts leaves of a card number typed into free text. */
const MASKED_CARD = /\*{9,15}\d{4}/;

/** The message of each format, when its rule is broken. */
const FORMAT_MESSAGES: Readonly<Record<TextFormat, string>> = {
  email: MSG.BAD_EMAIL,
  url: MSG.BAD_URL,
  'no-spaces': MSG.HAS_SPACES,
  digits: MSG.BAD_FORMAT,
  money: MSG.BAD_AMOUNT,
  'time-zone': MSG.BAD_TIME_ZONE,
};

function formatHolds(format: TextFormat, s: string): boolean {
  if (format === 'time-zone') return isTimeZone(s);
  if (format === 'url') return URL_RE.test(s) && isHttpUrl(s);
  return INPUT_PATTERNS[format].test(s);
}

/** Sent: null and "" are not (they mean "not sent", or "clear it" where a body may clear). */
const sent = (v: unknown): boolean => v !== undefined && v !== null && v !== '';

/** Adds a field's message (under its `label` where it declares one); undefined, for the reader to return. */
function refuse(errs: ErrorCollector, name: string, f: FieldDef, template: string, vars?: Record<string, string | number>): undefined {
  errs.add(name, template, f.label === undefined ? vars : { ...vars, attribute: f.label });
  return undefined;
}

/**
 * A text value: a JSON string (a number is refused, as the document says), its bounds
 * counted as sent, its format, and `pattern` (off for the encoded types, which have their
 * own rule) on the text without surrounding spaces where the field says `trim`.
 */
function readText(name: string, f: FieldDef, v: unknown, errs: ErrorCollector, pattern: RegExp | undefined): string | undefined {
  const invalid = f.messages?.invalid;
  if (typeof v !== 'string') return refuse(errs, name, f, invalid ?? MSG.NOT_STRING);
  const length = charLength(v);
  if (f.max !== undefined && length > f.max) return refuse(errs, name, f, invalid ?? f.messages?.tooLong ?? (f.min === f.max ? MSG.EXACT_LENGTH : MSG.TOO_LONG), { max: f.max, length: f.max });
  if (f.min !== undefined && length < f.min) return refuse(errs, name, f, invalid ?? (f.min === f.max ? MSG.EXACT_LENGTH : MSG.TOO_SHORT), { min: f.min, length: f.min });
  const s = f.trim ? v.trim() : v;
  if (f.format !== undefined && !formatHolds(f.format, s)) return refuse(errs, name, f, f.messages?.pattern ?? invalid ?? FORMAT_MESSAGES[f.format]);
  if (pattern && !pattern.test(s)) {
    if (f.patternText === undefined) return refuse(errs, name, f, f.messages?.pattern ?? invalid ?? MSG.BAD_FORMAT);
    // A card number typed here was masked on arrival (framework/card-mask.ts): say so.
    if (MASKED_CARD.test(s)) return refuse(errs, name, f, MSG.FIELD_CARD_NUMBER);
    return refuse(errs, name, f, f.messages?.pattern ?? invalid ?? MSG.FIELD_PATTERN, { what: f.patternText });
  }
  return s;
}

/**
 * The reader's copy of a declaration: every property readValue reads, present in one order
 * (undefined where the declaration says nothing), so the reader's property loads see one
 * object shape whoever declared the field: declarations are object literals of many shapes,
 * and the reader runs for every field of every sale. Made once per declaration, by the plans
 * below (per action, per resource, per body read by mode), never per request.
 */
export function readerCopy(f: FieldDef): FieldDef {
  const m = f.messages;
  return {
    type: f.type,
    ownReader: f.ownReader,
    min: f.min,
    max: f.max,
    trim: f.trim,
    format: f.format,
    pattern: f.pattern,
    patternText: f.patternText,
    messages: m === undefined ? undefined : { invalid: m.invalid, pattern: m.pattern, tooLong: m.tooLong },
    label: f.label,
    json: f.json,
    minValue: f.minValue,
    maxValue: f.maxValue,
    enum: f.enum,
    check: f.check,
  };
}

/**
 * Checks one sent (non-empty) value against its declaration: the normalised value (money in
 * cents, booleans true/false, numbers sent as text as numbers, json as its own reader leaves
 * it), or undefined after adding a 422 message under `name`. A field with its own reader gets
 * its JSON type checked and no value (undefined, no message).
 */
export function readValue(name: string, f: FieldDef, v: unknown, errs: ErrorCollector): unknown {
  const invalid = f.messages?.invalid;
  if (f.ownReader) return typeof v === 'string' ? undefined : refuse(errs, name, f, invalid ?? MSG.NOT_STRING);
  let out: unknown = v;
  switch (f.type) {
    case 'string':
      out = readText(name, f, v, errs, f.pattern);
      if (out === undefined) return undefined;
      break;
    case 'integer':
      out = parseInteger(v);
      if (out === undefined) return refuse(errs, name, f, invalid ?? MSG.NOT_INTEGER);
      break;
    case 'number':
      out = parseNumber(v);
      if (out === undefined) return refuse(errs, name, f, invalid ?? MSG.NOT_NUMBER);
      break;
    case 'boolean':
      out = BOOLEAN_INPUTS.get(v);
      if (out === undefined) return refuse(errs, name, f, invalid ?? MSG.NOT_BOOLEAN);
      break;
    case 'date':
      if (typeof v !== 'string' || !isValidDate(v)) return refuse(errs, name, f, invalid ?? MSG.BAD_DATE);
      break;
    case 'json': {
      if (f.json) {
        const before = errs.errors[name]?.length ?? 0;
        out = f.json(v, errs, name);
        if ((errs.errors[name]?.length ?? 0) > before) return undefined;
      } else if (!isPlainObject(v)) return refuse(errs, name, f, invalid ?? MSG.NOT_OBJECT);
      if (f.max !== undefined && JSON.stringify(out).length > f.max) return refuse(errs, name, f, MSG.JSON_TOO_LONG, { max: f.max });
      break;
    }
    case 'money': {
      const cents = parseMoneyInput(v);
      return cents === null ? refuse(errs, name, f, invalid ?? MSG.MONEY_INVALID) : cents;
    }
    case 'mmyy':
      return typeof v === 'string' && parseExpDate(v) ? v : refuse(errs, name, f, invalid ?? MSG.BAD_MMYY);
    case 'enum':
      // Exactly one of the values, as the document's enum lists them.
      return typeof v === 'string' && f.enum?.includes(v) ? v : refuse(errs, name, f, invalid ?? MSG.FIELD_ENUM, { values: (f.enum ?? []).join(', ') });
    case 'hex':
    case 'base64': {
      const s = readText(name, f, v, errs, undefined);
      if (s === undefined) return undefined;
      return INPUT_PATTERNS[f.type].test(s) ? s : refuse(errs, name, f, invalid ?? MSG.FIELD_ENCODING, { encoding: f.type === 'hex' ? 'hexadecimal' : 'base64' });
    }
    case 'email': {
      // One message for any failure. Known limitation: the bound counts UTF-16 units where the document's maxLength counts characters, so an address of astral characters can be refused within its documented length.
      const s = typeof v === 'string' ? v : '';
      return s && s.length <= (f.max ?? 128) && INPUT_PATTERNS.email.test(s) ? s : refuse(errs, name, f, invalid ?? MSG.BAD_EMAIL);
    }
    case 'tags': {
      const max = f.max ?? 64;
      const list = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : null;
      if (!list || list.some((t) => typeof t !== 'string' || t.trim() === '' || t.length > 64) || list.length > max) return refuse(errs, name, f, MSG.TAGS_INVALID, { max });
      return [...new Set(list.map((t) => (t as string).trim()))];
    }
    case 'additional_amounts': {
      const max = f.max ?? 5;
      const types = f.enum ?? [];
      if (!Array.isArray(v) || v.length > max) return refuseAmounts(errs, name, f, max, types);
      const amounts: { type: string; amount: string; cents: number }[] = [];
      for (const item of v) {
        const type = isPlainObject(item) ? item.type : undefined;
        const cents = isPlainObject(item) ? parseMoneyInput(item.amount) : null;
        if (typeof type !== 'string' || !types.includes(type.toUpperCase()) || cents === null) return refuseAmounts(errs, name, f, max, types);
        amounts.push({ type: type.toUpperCase(), amount: String((item as Record<string, unknown>).amount), cents });
      }
      return amounts;
    }
  }
  // The bounds and checks of the stored types, on the value read.
  if (typeof out === 'number') {
    if (f.minValue !== undefined && out < f.minValue) return refuse(errs, name, f, MSG.TOO_SMALL, { min: f.minValue });
    if (f.maxValue !== undefined && out > f.maxValue) return refuse(errs, name, f, MSG.TOO_BIG, { max: f.maxValue });
  }
  if (f.enum && !f.enum.includes(out as string | number)) return refuse(errs, name, f, MSG.INVALID);
  if (f.check) {
    const msg = f.check(out);
    if (msg) return refuse(errs, name, f, msg);
  }
  return out;
}

function refuseAmounts(errs: ErrorCollector, name: string, f: FieldDef, max: number, types: readonly (string | number)[]): undefined {
  return refuse(errs, name, f, f.messages?.invalid ?? MSG.TYPED_AMOUNTS_INVALID, { max, example: types[0] ?? '', values: types.join(', ') });
}

// ------------------------------------------------------------------ body-dispatched actions

/** One action's reading plan, compiled once at start-up (the validator runs on every sale). */
export interface ActionFieldPlan {
  readonly action: string;
  /** Every declared field of the resource, by name, as the reader's copy (a field of another action is named as such, never dropped). */
  readonly known: ReadonlyMap<string, FieldDef>;
  /** The fields this action takes. */
  readonly takes: ReadonlySet<string>;
  readonly required: readonly ActionFieldDef[];
}

/** The reading plan of each action, from one field table. */
export function planActionFields<A extends string>(fields: readonly ActionFieldDef[], actions: readonly A[]): Readonly<Record<A, ActionFieldPlan>> {
  const known = new Map(fields.map((f) => [f.name, readerCopy(f)]));
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
    if (!isSent) {
      // Clearing: null or "" clears the stored value (a field with its own reader is its owner's to clear).
      if (!f.ownReader) out[key] = null;
      continue;
    }
    const value = readValue(key, f, v, errs);
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
/** The reader's copies of a body's fields read by mode, in their order, made on its first read. */
const MODE_READERS = new WeakMap<BodyWrites, readonly FieldDef[]>();
function modeReadersOf(writes: BodyWrites): readonly FieldDef[] {
  let readers = MODE_READERS.get(writes);
  if (!readers) {
    readers = writes.fields.map(readerCopy);
    MODE_READERS.set(writes, readers);
  }
  return readers;
}

export function readModeFields(writes: BodyWrites, mode: 'create' | 'update', variant: string | undefined, body: Record<string, unknown>, errs: ErrorCollector): FieldValues {
  const out: FieldValues = {};
  const variants = writes.variants;
  const readers = modeReadersOf(writes);
  for (let i = 0; i < writes.fields.length; i++) {
    const f = writes.fields[i] as ModeFieldDef;
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
    const value = readValue(f.name, readers[i] as FieldDef, v, errs);
    if (value !== undefined) out[f.name] = value;
  }
  return out;
}
