/**
 * Card numbers typed where they do not belong (a description, a custom field, a note,
 * a PO number, a query string) are masked before they are stored or echoed: every run of
 * 13–19 digits (single spaces or hyphens between them allowed) that passes Luhn becomes
 * asterisks plus its last four digits ("************1111"). A JSON number that is such
 * a run becomes the masked string.
 *
 * What keeps its digits is declared per route (`keepsDigits` in the route's config): the
 * fields of that route's record that legitimately hold account data (the card or bank
 * number the payment needs, track and MICR data), identifiers (ids, api ids: masking a
 * merchant's numeric api id would silently change it) and secrets (passwords, keys).
 * The exemption holds only for the record's own keys (the top level and the wrapper
 * object, e.g. `{"transaction": {...}}`); inside a JSON field such as `custom_data`
 * every string is masked whatever its key. The same declaration applies to the query
 * string (filters on an id keep their digits, everything else is masked, once, in the
 * first hook, before any handler reads it), and credentials sent as query parameters
 * are never touched.
 *
 * Simplification: a route that declares nothing (the router's and billing pages' own
 * routes, OAuth forms) falls back to exemption by key name at the record level only.
 */
import { maskCardNumbersInText } from '../../../shared/payments/masking';
import type { ResourceDef } from './resource';

/** The fallback for routes without a declaration (see the simplification above). */
const EXEMPT_KEY = /(^|_)(id|ids|number|routing|password|key|phone|serial|track|token|zip|signature)(_|$)|_id$|password|_key$/;
/** Credentials may come as query parameters; they are read as sent. */
const CREDENTIAL_PARAMS = new Set(['developer-id', 'user-id', 'user-api-key']);

/** The fields of a route's record that keep their digits, and the record's wrapper key. */
export interface KeepsDigits {
  wrapper?: string;
  fields: ReadonlySet<string>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What keeps its digits on this route (card-mask.ts); absent: the by-name fallback. */
    keepsDigits?: KeepsDigits;
  }
}

/** The masking itself lives in shared/ (the app recognises masked values with it too). */
export const maskCardNumbers = maskCardNumbersInText;

function maskScalar(value: unknown): unknown {
  if (typeof value === 'string') return maskCardNumbers(value);
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1e12) {
    const masked = maskCardNumbers(String(value));
    return masked === String(value) ? value : masked;
  }
  return value;
}

/** Masks every string (and card-like number) of a value, in place, whatever the keys. */
export function maskAll(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return maskScalar(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = maskAll(value[i]);
    return value;
  }
  const obj = value as Record<string, unknown>;
  for (const k of Object.keys(obj)) obj[k] = maskAll(obj[k]);
  return value;
}

type Keeps = (key: string) => boolean;

function keepsOf(declared: KeepsDigits | undefined): Keeps {
  if (!declared) return (k) => EXEMPT_KEY.test(k);
  return (k) => declared.fields.has(k);
}

/** Masks an object's values, keeping the declared keys' values; below this level nothing is kept. */
function maskRecord(obj: Record<string, unknown>, keeps: Keeps, wrapperLevel: (key: string, v: unknown) => boolean): void {
  for (const k of Object.keys(obj)) {
    const v = obj[k];
    if (wrapperLevel(k, v)) maskRecord(v as Record<string, unknown>, keeps, () => false);
    else if (!keeps(k)) obj[k] = maskAll(v);
  }
}

/** Masks a parsed request body, in place, by the route's declaration (see the top of the file). */
export function maskBody(value: unknown, declared: KeepsDigits | undefined): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return maskAll(value);
  const keeps = keepsOf(declared);
  const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
  // Declared: only the wrapper's object is a record level. Fallback: any object at the top.
  const wrapperLevel = declared ? (k: string, v: unknown) => k === declared.wrapper && isObject(v) : (k: string, v: unknown) => !keeps(k) && isObject(v);
  maskRecord(value as Record<string, unknown>, keeps, wrapperLevel);
  return value;
}

/** Masks a parsed query (values are strings or lists of strings), in place, by the route's declaration. */
export function maskQuery(query: unknown, declared: KeepsDigits | undefined): void {
  if (query === null || typeof query !== 'object') return;
  const keeps = keepsOf(declared);
  const q = query as Record<string, unknown>;
  for (const k of Object.keys(q)) if (!CREDENTIAL_PARAMS.has(k) && !keeps(k)) q[k] = maskAll(q[k]);
}

/**
 * What keeps its digits on a declared resource's routes: `id`, references (`ref`, and the
 * `*_id` / `*_api_id` fields: in this engine's declarations every such field names a
 * record), the api_id field, write-only fields (passwords) and fields marked
 * `keepsDigits` (keys, device serial numbers). Anything else, such as a contact's
 * `account_number` (the merchant's own reference, not account data), is masked.
 */
export function keepsDigitsOf(def: ResourceDef): KeepsDigits {
  const fields = new Set<string>(['id']);
  for (const [name, f] of Object.entries(def.fields)) {
    if (f.ref || f.writeOnly || f.keepsDigits || /_(api_)?ids?$/.test(name)) fields.add(name);
  }
  if (def.apiId) fields.add(def.apiId.field);
  return { wrapper: def.name, fields };
}
