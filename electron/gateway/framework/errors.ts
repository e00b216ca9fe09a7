/**
 * The error envelope and every message the engine can answer with.
 *
 * Messages are named constants (stripe-mock style) so tests assert the constant, not a
 * copy of the text. Field messages are Yii-style templates ("{attribute} cannot be
 * blank.") because the interface family answers that way; `fmt` fills them in.
 */

/** Body of every 4xx/5xx answer: `{"errors": {"<field or general>": ["message", ...]}}`. */
export type ErrorMap = Record<string, string[]>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: ErrorMap,
    readonly headers: Record<string, string> = {},
  ) {
    super(Object.values(errors).flat().join(' '));
  }
}

export const MSG = {
  // 400 / 401 / 403 / 404 / 405 / 413 / 415 — key `general`
  MALFORMED_JSON: 'The request body is not valid JSON.',
  MALFORMED_XML: 'The request body is not valid XML (DOCTYPE and entity declarations are not accepted).',
  BAD_REQUEST: 'The request could not be understood.',
  UNAUTHORIZED: 'Your request was made with invalid credentials.',
  HOST_NOT_ALLOWED: 'This Host header is not allowed.',
  HOST_MISSING: 'The request has no Host header (HTTP/1.1 requires one).',
  HOST_DUPLICATE: 'The request has more than one Host header.',
  EXPECTATION_FAILED: 'The Expect header can only be 100-continue.',
  UNSUPPORTED_ENCODING: 'Unsupported content encoding; send the body uncompressed.',
  TUNNEL_NOT_SERVED: 'This server does not open tunnels (CONNECT).',
  NOT_FOUND: 'Object not found.',
  PATH_NOT_FOUND: 'Page not found.',
  METHOD_NOT_ALLOWED: 'Method Not Allowed. This URL can only handle the following request methods: {methods}.',
  BODY_TOO_LARGE: 'The request body is too large.',
  HEADERS_TOO_LARGE: 'The request headers are too large.',
  UNSUPPORTED_MEDIA_TYPE: 'Unsupported content type; send application/json or application/xml.',
  INTERNAL: 'An internal server error occurred.',
  CONFLICT: 'The request conflicts with data already stored.',
  REFERENCE_RENDERER_MISSING: 'The API reference renderer is not installed; /openapi.json has the document.',
  // 422 — request shape
  TOO_DEEP: 'The request body is nested too deeply (at most {max} levels of objects and arrays).',
  REQUEST_TIMEOUT: 'The request was not received in time.',
  BAD_URL_ENCODING: 'The request URL is not validly encoded.',
  WRAPPER_MISSING: 'The request body must be a JSON object with a "{wrapper}" object.',
  ACTION_INVALID: 'Action must be one of: {actions}.',
  // 422 — field templates ({attribute} is the field label, e.g. "Last Name")
  BLANK: '{attribute} cannot be blank.',
  TOO_SHORT: '{attribute} should contain at least {min} characters.',
  TOO_LONG: '{attribute} should contain at most {max} characters.',
  EXACT_LENGTH: '{attribute} should contain {length} characters.',
  NOT_STRING: '{attribute} must be a string.',
  NOT_INTEGER: '{attribute} must be an integer.',
  NOT_NUMBER: '{attribute} must be a number.',
  NOT_BOOLEAN: '{attribute} must be either "1" or "0".',
  NOT_OBJECT: '{attribute} must be an object.',
  TOO_SMALL: '{attribute} must be no less than {min}.',
  TOO_BIG: '{attribute} must be no greater than {max}.',
  INVALID: '{attribute} is invalid.',
  BAD_FORMAT: 'The format of {attribute} is invalid.',
  BAD_DATE: 'The format of {attribute} is invalid; use yyyy-mm-dd.',
  BAD_EMAIL: '{attribute} is not a valid email address.',
  BAD_URL: '{attribute} is not a valid URL.',
  BAD_AMOUNT: '{attribute} must be an amount such as 25.00 (digits, at most 2 decimals, nothing around them).',
  BAD_TIME_ZONE: '{attribute} is not a known time zone; use an IANA name such as America/New_York.',
  HAS_SPACES: '{attribute} must not contain spaces.',
  /** A card number in a field that keeps its digits exactly (card-mask.ts): refused, never masked or stored. */
  CARD_NUMBER_IN_IDENTIFIER: '{attribute} looks like a card number. It is kept exactly as sent, so a card number is refused here; never send card numbers outside the account fields.',
  TAKEN: '{attribute} "{value}" has already been taken.',
  UNKNOWN_KEY: '{attribute} has an unknown key "{key}".',
  NOT_CHANGEABLE: '{attribute} cannot be changed.',
  // 422 — declared body values (validate.ts readValue: the transaction, account vault and router tables)
  MONEY_INVALID: '{attribute} must be a decimal amount with at most 2 decimals, such as "1.00".',
  BAD_MMYY: '{attribute} must be MMYY.',
  FIELD_NOT_FOR_ACTION: '{attribute} is not accepted by the {action} action.',
  FIELD_PATTERN: '{attribute} may contain only {what}.',
  FIELD_CARD_NUMBER: '{attribute} looks like a card number; card numbers are not accepted in this field.',
  FIELD_ENUM: '{attribute} must be one of: {values}.',
  FIELD_ENCODING: '{attribute} must be {encoding} text.',
  JSON_TOO_LONG: '{attribute} should contain at most {max} characters as JSON.',
  TAGS_INVALID: '{attribute} must be a list of at most {max} tag titles (each 1 to 64 characters).',
  TYPED_AMOUNTS_INVALID: '{attribute} must be a list of at most {max} items like {"type": "{example}", "amount": "1.00"} (types {values}).',
  // 422 — list parameters
  BAD_PAGE: 'Page must be an integer no less than 1.',
  BAD_PAGE_SIZE: 'Page Size must be an integer no less than 1.',
  BAD_SORT: 'Sort field "{field}" is not sortable.',
  BAD_FILTER: 'The filter value for {attribute} is invalid.',
  BAD_TS_RANGE: '{attribute} must be one of: {ranges}, or a Unix timestamp or lo|hi range.',
  BAD_EXPAND: 'Unknown expand "{expand}".',
  API_ID_NEEDS_LOCATION: 'Location Id cannot be blank when api_id is used.',
  BAD_API_ID: 'Api Id must be true or 1 (the path names an api id), or false or 0.',
} as const;

export type MessageKey = keyof typeof MSG;

/** Fills `{name}` placeholders of a message template. */
export function fmt(template: string, vars: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m));
}

/** "last_name" → "Last Name", "zip_code" → "Zip Code" (Yii's generateAttributeLabel). */
export function labelOf(field: string): string {
  return field
    .split('_')
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

export const general = (status: number, message: string, headers?: Record<string, string>) =>
  new ApiError(status, { general: [message] }, headers);

export const notFound = () => general(404, MSG.NOT_FOUND);
export const unauthorized = () => general(401, MSG.UNAUTHORIZED);
export const unprocessable = (errors: ErrorMap) => new ApiError(422, errors);
/** A 422 for one field: `fieldError('last_name', MSG.BLANK)` → "Last Name cannot be blank.". */
export function fieldError(field: string, template: string, vars: Record<string, string | number> = {}): ApiError {
  return new ApiError(422, { [field]: [fmt(template, { attribute: labelOf(field), ...vars })] });
}

/** Collects field errors and throws one 422 with all of them. */
export class ErrorCollector {
  readonly errors: ErrorMap = {};
  /** Adds a message; the same message twice for one field is kept once (two readers may check one rule). */
  add(field: string, template: string, vars: Record<string, string | number> = {}): void {
    const list = (this.errors[field] ??= []);
    const message = fmt(template, { attribute: labelOf(field), ...vars });
    if (!list.includes(message)) list.push(message);
  }
  has(field?: string): boolean {
    return field === undefined ? Object.keys(this.errors).length > 0 : field in this.errors;
  }
  throwIfAny(status = 422): void {
    if (this.has()) throw new ApiError(status, this.errors);
  }
}
