/**
 * Card numbers where they do not belong. A run of 13–19 digits (single spaces or hyphens
 * between them allowed) that passes Luhn is never stored or returned in clear from any field.
 * Each field of a request declares what happens to one typed into it (`DigitsRule`):
 *
 * - `mask` (the default; free text: names, notes, descriptions, custom fields, references a
 *   person types such as order, PO or clerk numbers): the run becomes asterisks plus its last
 *   four digits ("************1111") before anything reads the request, and the rest of the
 *   request goes on. Inside a JSON field (custom_data, item_list…) every string and every key is
 *   masked, whatever its name.
 * - `identifier` (ids and references, api ids, serial numbers, keys, user names, anything that
 *   must keep its digits exactly): masking would silently change it, so a card number in it is
 *   refused, 422 naming the field (MSG.CARD_NUMBER_IN_IDENTIFIER), before anything reads the
 *   request. The engine's own ids and keys never look like a card number (ids.ts), so no id it
 *   handed out is ever refused.
 * - `consumed` (the account data a payment or a vault is made of — card and bank account
 *   numbers, track and MICR data, check images, 3-D Secure values — and secrets the engine only
 *   hashes or compares): kept as sent for the engine's own code, which never stores or returns
 *   it in full (first six and last four; AES-GCM in the vault; hashes).
 *
 * Where it is declared: a declared resource's fields (`FieldDef.keepsDigits`, with `id`,
 * references, `*_id` / `*_api_id` fields and the api_id field identifiers by default:
 * `digitsRuleOf`), the transaction field table (`TransactionField.keepsDigits`), and each
 * hand-written route's `config.keepsDigits` (`keepsDigits()`). The OpenAPI document says each
 * field's rule and why (`DIGITS_RULE_TEXT`, and `x-card-numbers`).
 *
 * The query string follows the route's declaration too (identifiers refused, consumed kept,
 * the rest masked), once, in the first hook, so no error and no pagination link can echo a
 * number; credentials sent as query parameters are read as sent. A route that declares
 * nothing masks every body value and refuses card numbers in query parameters named like ids.
 */
import { maskCardNumbersInText } from '../../../shared/payments/masking';
import { ApiError, MSG, fmt, labelOf, type ErrorMap } from './errors';
import type { BodyWrites, FieldDef, ResourceDef } from './resource';

/** What a field does with a card number typed into it (see the top of the file). */
export type DigitsRule = 'mask' | 'identifier' | 'consumed';

/** Why, in the words the OpenAPI document shows on each field. */
export const DIGITS_RULE_TEXT: Record<DigitsRule, string> = {
  mask: 'Free text: a card number typed here is stored and returned masked (************1111).',
  identifier: 'Kept exactly as sent (an identifier), so a card number here is refused (422) rather than masked.',
  consumed: 'Account data or a secret: read by the engine, never stored or returned in full.',
};

/** Credentials may come as query parameters; they are read as sent. */
const CREDENTIAL_PARAMS = new Set(['developer-id', 'user-id', 'user-api-key']);
/** Undeclared routes: query parameters named like ids are identifiers. */
const ID_PARAM = /^id$|_(api_)?ids?$/;

/** The fields of a route's record that keep their digits, and the record's wrapper key. */
export interface KeepsDigits {
  wrapper?: string;
  /** Must keep their digits exactly: a card number in one is refused. */
  identifiers: ReadonlySet<string>;
  /** Read by the engine's own code, never stored or returned in full: kept as sent. */
  consumed: ReadonlySet<string>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What keeps its digits on this route (card-mask.ts); absent: every body value is masked. */
    keepsDigits?: KeepsDigits;
  }
}

/** A route's declaration from its rules (the fields not named are masked). */
/** The two rules a field can declare (`mask`, free text, is the default). */
export type KeepsDigitsRule = Exclude<DigitsRule, 'mask'>;

export function keepsDigits(wrapper: string | undefined, rules: Record<string, KeepsDigitsRule>): KeepsDigits {
  const entries = Object.entries(rules);
  return {
    ...(wrapper ? { wrapper } : {}),
    identifiers: new Set(entries.filter(([, r]) => r === 'identifier').map(([k]) => k)),
    consumed: new Set(entries.filter(([, r]) => r === 'consumed').map(([k]) => k)),
  };
}

/** The masking itself lives in shared/ (the app recognises masked values with it too). */
export const maskCardNumbers = maskCardNumbersInText;

/** True when the value holds a card number (a string, or a JSON number made of one). */
export function holdsCardNumber(value: unknown): boolean {
  if (typeof value === 'string') return maskCardNumbers(value) !== value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1e12) return maskCardNumbers(String(value)) !== String(value);
  return false;
}

function maskScalar(value: unknown): unknown {
  if (typeof value === 'string') return maskCardNumbers(value);
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1e12) {
    const masked = maskCardNumbers(String(value));
    return masked === String(value) ? value : masked;
  }
  return value;
}

/** Masks every string, card-like number and key of a value, in place where it can, whatever the names. */
export function maskAll(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return maskScalar(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = maskAll(value[i]);
    return value;
  }
  const obj = value as Record<string, unknown>;
  for (const k of Object.keys(obj)) {
    const v = maskAll(obj[k]);
    const key = maskCardNumbers(k);
    if (key !== k) {
      // A key is data too (item_list names an item by it): the masked key takes its value.
      delete obj[k];
      obj[key] = v;
    } else obj[k] = v;
  }
  return value;
}

const refusal = (field: string) => fmt(MSG.CARD_NUMBER_IN_IDENTIFIER, { attribute: labelOf(field) });

/** Masks or refuses one record level's values by the declaration; refusals are collected. */
function applyRecord(obj: Record<string, unknown>, declared: KeepsDigits, refused: ErrorMap, isWrapper: (k: string, v: unknown) => boolean): void {
  for (const k of Object.keys(obj)) {
    const v = obj[k];
    if (isWrapper(k, v)) applyRecord(v as Record<string, unknown>, declared, refused, () => false);
    else if (declared.consumed.has(k)) continue;
    else if (declared.identifiers.has(k) && (typeof v !== 'object' || Array.isArray(v))) {
      // A list of identifiers (a client's redirect URLs) is refused as a whole when one holds a card number.
      if (Array.isArray(v) ? v.some(holdsCardNumber) : holdsCardNumber(v)) refused[k] = [refusal(k)];
    } else obj[k] = maskAll(v);
  }
}

const NOTHING_KEPT: KeepsDigits = { identifiers: new Set(), consumed: new Set() };

/**
 * Masks a parsed request body, in place, by the route's declaration, or refuses it (422 naming
 * each identifier that holds a card number). Only the record's own keys (the top level and the
 * wrapper object) follow the declaration; anything below is masked whatever its key.
 */
export function maskBody(value: unknown, declared: KeepsDigits | undefined): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return maskAll(value);
  const d = declared ?? NOTHING_KEPT;
  const refused: ErrorMap = {};
  const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
  applyRecord(value as Record<string, unknown>, d, refused, (k, v) => d.wrapper !== undefined && k === d.wrapper && isObject(v));
  if (Object.keys(refused).length) throw new ApiError(422, refused);
  return value;
}

/** Masks or refuses a parsed query (values are strings or lists of strings), in place, by the route's declaration. */
export function maskQuery(query: unknown, declared: KeepsDigits | undefined): void {
  if (query === null || typeof query !== 'object') return;
  const q = query as Record<string, unknown>;
  const refused: ErrorMap = {};
  for (const k of Object.keys(q)) {
    if (CREDENTIAL_PARAMS.has(k) || declared?.consumed.has(k)) continue;
    const identifier = declared ? declared.identifiers.has(k) : ID_PARAM.test(k);
    if (identifier && [q[k]].flat().some(holdsCardNumber)) refused[k] = [refusal(k)];
    else if (!identifier) q[k] = maskAll(q[k]);
  }
  if (Object.keys(refused).length) throw new ApiError(422, refused);
}

/**
 * A declared resource field's rule: as declared (`keepsDigits`), else `identifier` for `id`,
 * references, `*_id` / `*_api_id` fields (in this engine's declarations every such field names a
 * record) and the api_id field, and for write-only fields (secrets kept as sent, such as a
 * postback's basic auth; the ones only hashed declare `consumed`); `mask` for the rest.
 */
export function digitsRuleOf(def: ResourceDef, name: string, f: FieldDef | undefined = def.fields[name]): DigitsRule {
  if (f?.keepsDigits) return f.keepsDigits;
  if (name === 'id' || f?.ref || /_(api_)?ids?$/.test(name) || def.apiId?.field === name || f?.writeOnly) return 'identifier';
  return 'mask';
}

/**
 * What keeps its digits where a body's fields are read as values (body-dispatched actions,
 * stateful writes, router transactions): `id`, `extra`, and each field's own rule (unset:
 * free text, masked).
 */
export function valueFieldsKeepsDigits(wrapper: string, fields: readonly { name: string; keepsDigits?: KeepsDigitsRule }[], extra: Readonly<Record<string, KeepsDigitsRule>> = {}): KeepsDigits {
  const rules: Record<string, KeepsDigitsRule> = { id: 'identifier', ...extra };
  for (const f of fields) if (f.keepsDigits) rules[f.name] = f.keepsDigits;
  return keepsDigits(wrapper, rules);
}

/** What keeps its digits on the create and update routes of a resource with stateful writes. */
export const bodyWritesKeepsDigits = (def: ResourceDef, writes: BodyWrites): KeepsDigits => valueFieldsKeepsDigits(def.name, writes.fields);

/** What keeps its digits on a declared resource's routes (`digitsRuleOf` per field; a resource written through body-dispatched actions: its action fields). */
export function keepsDigitsOf(def: ResourceDef): KeepsDigits {
  if (def.bodyActions) return valueFieldsKeepsDigits(def.name, def.bodyActions.fields);
  const rules: Record<string, KeepsDigitsRule> = { id: 'identifier' };
  for (const name of Object.keys(def.fields)) {
    const rule = digitsRuleOf(def, name);
    if (rule !== 'mask') rules[name] = rule;
  }
  return keepsDigits(def.name, rules);
}

/** A route declaration's rule for one of its record's keys. */
export function ruleIn(declared: KeepsDigits | undefined, name: string): DigitsRule {
  if (declared?.identifiers.has(name)) return 'identifier';
  if (declared?.consumed.has(name)) return 'consumed';
  return 'mask';
}

/** True for a request schema that can carry a card number (text, an object, a list; not an enum, number or boolean). */
function carriesText(schema: Record<string, unknown>): boolean {
  if (schema.enum) return false;
  const types = [schema.type ?? [...(Array.isArray(schema.anyOf) ? schema.anyOf : []), ...(Array.isArray(schema.oneOf) ? schema.oneOf : [])].map((s) => (s as Record<string, unknown>).type)].flat();
  return types.some((t) => t === 'string' || t === 'object' || t === 'array');
}

/**
 * Says a request field's rule in the OpenAPI document, in place: `x-card-numbers` (mask,
 * identifier or consumed) and the reason appended to its description. Only fields that can
 * carry text are annotated.
 */
export function describeDigits<T extends Record<string, unknown>>(schema: T, rule: DigitsRule): T {
  if (!carriesText(schema)) return schema;
  const s = schema as Record<string, unknown>;
  s['x-card-numbers'] = rule;
  s.description = [s.description, DIGITS_RULE_TEXT[rule]].filter((x) => typeof x === 'string' && x).join(' ');
  return schema;
}

/** Annotates every property of an object schema by a route's declaration (hand-written bodies). */
export function describeDigitsOf<T extends Record<string, unknown>>(objectSchema: T, declared: KeepsDigits): T {
  const props = objectSchema.properties as Record<string, Record<string, unknown>> | undefined;
  for (const [name, p] of Object.entries(props ?? {})) describeDigits(p, ruleIn(declared, name));
  return objectSchema;
}
