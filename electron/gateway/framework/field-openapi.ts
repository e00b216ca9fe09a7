/**
 * The OpenAPI request schema of one field declaration (resource.ts FieldDef), wherever the
 * field is placed: a declared resource's create and update bodies (resource-openapi.ts
 * writeSchema), a body-dispatched action's field table and a body read by mode
 * (body-openapi.ts). It says exactly what validate.ts readValue takes: strings as JSON strings
 * with their bounds, format and pattern (INPUT_PATTERNS, the reader's own rules), integers and
 * numbers as JSON numbers or as text (digit strings, as XML bodies and clients that quote
 * every value send them), booleans as true/false/1/0 and their text, amounts, expiries and encoded text
 * by their rules, objects, tags and amount lists by their shapes.
 *
 * Where null or "" is accepted (they mean "not sent", clear the field or restore its
 * default), the rules an empty string breaks (minimum length, pattern, date format) bind only
 * the non-empty value: `anyOf: [<rules>, {const: ""}]`; the bounds an empty string meets
 * (maximum length, type) stay on the field itself and are repeated in the first alternative
 * with the example (wholeFirstAlternative: what generators read).
 */
import { describeDigits, type DigitsRule } from './card-mask';
import { sampleText, wholeFirstAlternative, withExample, type JsonSchema } from './openapi-document';
import type { FieldDef, FieldType } from './resource';
import { INPUT_PATTERNS } from './validate';

/** Where a field is placed, as its schema says it. */
export interface FieldPlacement {
  /**
   * What null or "" is there: `accepted` — "not sent" (or it clears the field, or restores
   * its default); `blank` — refused by the reader ("cannot be blank"), so text states at
   * least one character; `refused` — refused by the owner's own code (a field a body read
   * by mode requires on create: its hooks name it), no length stated beyond the declared one.
   */
  empty: 'accepted' | 'blank' | 'refused';
  /** Sentences about the placement, after the field's own (which actions take it, how it is cleared…). */
  notes?: readonly string[];
  /** Machine-readable keys about the placement (`x-actions`, `x-payment-methods`). */
  extensions?: Readonly<Record<string, unknown>>;
  /** What a card number typed into it does (card-mask.ts), said in the document. */
  digits: DigitsRule;
}

/** The types whose `min` / `max` count characters in the document (amounts and expiries have their pattern instead). */
const LENGTH_TYPES: ReadonlySet<FieldType> = new Set<FieldType>(['string', 'date', 'enum', 'hex', 'base64', 'email']);
/** The types whose empty value is an alternative beside their shape (no `type: "string"` to widen). */
const SHAPED_TYPES: ReadonlySet<FieldType> = new Set<FieldType>(['json', 'tags', 'additional_amounts']);

/** The text rule the document states for a text value: its own text form, its pattern, its format's or its type's. */
function patternOf(f: FieldDef): RegExp | undefined {
  if (f.textForm) return f.textForm;
  if (f.pattern) return f.pattern;
  if (f.format && f.format in INPUT_PATTERNS) return INPUT_PATTERNS[f.format as keyof typeof INPUT_PATTERNS];
  return f.type in INPUT_PATTERNS ? INPUT_PATTERNS[f.type as keyof typeof INPUT_PATTERNS] : undefined;
}

/** The value's schema: its type and bounds, and what null or "" is there. */
function valueSchema(f: FieldDef, empty: FieldPlacement['empty']): JsonSchema {
  const optional = empty === 'accepted';
  let s: JsonSchema;
  // The rules an empty string breaks: they bind the whole value, or only a non-empty one.
  const nonEmpty: JsonSchema = {};
  switch (f.type) {
    case 'integer':
    case 'number': {
      const text = INPUT_PATTERNS[f.type].source.replace(/^\^/, '').replace(/\$$/, '');
      s = { type: [f.type, 'string'], pattern: optional ? `^(?:${text})?$` : `^${text}$` };
      if (f.minValue !== undefined) s.minimum = f.minValue;
      if (f.maxValue !== undefined) s.maximum = f.maxValue;
      if (f.enum) s.enum = [...f.enum, ...f.enum.map(String)];
      break;
    }
    case 'boolean':
      s = { enum: [true, false, 1, 0, '1', '0', 'true', 'false'] };
      break;
    case 'json':
      s = f.jsonSchema ? { ...f.jsonSchema } : { type: 'object' };
      break;
    case 'tags':
      // A comma-separated list or an array of titles.
      s = { anyOf: [{ type: 'string' }, { type: 'array', maxItems: f.max, items: { type: 'string', minLength: 1, maxLength: 64 } }] };
      break;
    case 'additional_amounts':
      // Its items' types are in its message and description, not an enum of the list.
      s = { type: 'array', maxItems: f.max, items: { type: 'object' } };
      break;
    default: {
      s = { type: 'string' };
      // A field whose own reader checks its length (per payment method) states its text form only.
      if (!f.textForm && LENGTH_TYPES.has(f.type)) {
        if (f.max !== undefined) s.maxLength = f.max;
        const min = empty === 'blank' ? Math.max(f.min ?? 1, 1) : f.min;
        if (min !== undefined && min > 0) nonEmpty.minLength = min;
      }
      const pattern = patternOf(f);
      if (pattern) nonEmpty.pattern = pattern.source;
      if (f.type === 'date') nonEmpty.format = 'date';
      if (f.enum) s.enum = [...f.enum];
    }
  }
  if (!optional) return Object.assign(s, nonEmpty);
  if (Array.isArray(s.enum)) {
    // "" and null join the values.
    s.enum = [...(s.enum as unknown[]), '', null];
    if (s.type !== undefined) s.type = [...new Set([...[s.type as string | string[]].flat(), 'string', 'null'])];
  } else if (SHAPED_TYPES.has(f.type)) {
    // null as `const` (no `type`): Portman's fuzzer types an anyOf by its last typed
    // alternative, and must read this one as the object whose keys it fuzzes.
    s = { anyOf: [s, { const: '' }, { const: null }] };
  } else {
    s.type = [...[s.type as string | string[]].flat(), 'null'];
    if (Object.keys(nonEmpty).length) s.anyOf = [nonEmpty, { const: '' }];
  }
  return s;
}

/** The document's sentences the declaration itself implies (a reference, a format, what never changes). */
function declaredNotes(f: FieldDef): string[] {
  const notes: string[] = [];
  if (f.ref) notes.push(`Id of a ${f.ref.replace(/_/g, ' ')} the caller can see.`);
  if (f.update === false) notes.push('Cannot be changed after create.');
  if (f.writeOnly) notes.push('Never returned.');
  if (f.format === 'time-zone') notes.push('An IANA time zone name, such as America/New_York.');
  if (f.format === 'email') notes.push('An e-mail address.');
  if (f.format === 'url') notes.push('An http or https URL.');
  if (f.format === 'money') notes.push('An amount such as "25.00".');
  return notes;
}

/** A value the field takes, shown in the reference and sent by generated requests, when the declaration names none. */
function sampleOf(name: string, f: FieldDef): unknown {
  if (f.noExample) return undefined;
  if (f.example !== undefined) return f.example;
  if (f.enum && f.type !== 'additional_amounts') return f.enum[0];
  switch (f.type) {
    case 'integer':
    case 'number':
      return f.minValue ?? 1;
    case 'boolean':
      return 1;
    case 'date':
      return '1990-01-31';
    case 'money':
      return '1.00';
    case 'mmyy':
      return '1230';
    case 'email':
      return 'pat@example.com';
    case 'hex':
      return 'ab'.repeat(Math.min(4, Math.floor((f.max ?? 8) / 2)));
    case 'base64':
      return 'aGVsbG8=';
    case 'tags':
      return 'regular';
    case 'additional_amounts':
      return [];
    case 'json':
    case 'enum':
      return undefined;
    case 'string': {
      if (f.format === 'money') return '1.00';
      // A pattern's or a reference's value cannot be made up from the bounds: declare its example.
      if (f.pattern || f.textForm || f.ref) return undefined;
      if (f.format === 'email') return 'pat@example.com';
      if (f.format === 'url') return 'https://example.com';
      if (f.format === 'time-zone') return 'America/Chicago';
      const min = f.min ?? 0;
      const max = f.max ?? 64;
      if (f.format === 'digits') return '5'.repeat(Math.max(min, Math.min(max, 10)));
      return sampleText(name, min, max);
    }
  }
}

/**
 * The request schema of one field where it is placed: its value's schema, its description
 * (the declaration's sentence, what the declaration implies, the placement's notes), the
 * placement's and the declaration's `x-…` keys, what a card number typed into it does (not
 * said of an amount: no card number reads as one), and its example.
 */
export function fieldSchema(name: string, f: FieldDef, at: FieldPlacement): JsonSchema {
  const s = valueSchema(f, at.empty);
  Object.assign(s, at.extensions, f.extensions);
  const description = [f.description, ...declaredNotes(f), ...(at.notes ?? [])].filter((x) => x).join(' ');
  if (description) s.description = description;
  if (f.type !== 'money') describeDigits(s, at.digits);
  return wholeFirstAlternative(withExample(s, sampleOf(name, f)));
}
