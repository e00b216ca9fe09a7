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
 */
import type { FastifyRequest } from 'fastify';
import { MONEY_INPUT_RE } from '../../../shared/payments/money';
import { ErrorCollector, MSG, fmt, labelOf, unprocessable } from './errors';
// The engine context as declarations see it (resource.ts HookContext): importing context.ts here would close a circle through openapi-document.ts.
import type { FieldDef, HookContext as EngineContext, ResourceDef, Row, WriteInput } from './resource';

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
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
  const raw = isPlainObject(body) ? body[def.name] : undefined;
  if (!isPlainObject(raw)) throw unprocessable({ general: [fmt(MSG.WRAPPER_MISSING, { wrapper: def.name })] });
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
