/**
 * The engine's OpenAPI 3.1 document: the shapes every resource shares (the error
 * envelope, `_links`, list `meta`, the paging/sort/expand parameters, the credentials)
 * and the merge of the parts each module contributes (`EngineModule.openapi`). Declared
 * resources contribute through `resource-openapi.ts`; hand-written routes describe
 * themselves in their module. Served at `GET /openapi.json` (see api-reference.ts).
 *
 * Simplification: the document is plain JSON built from objects (no OpenAPI typings
 * package); the linter (Redocly) and the contract run (Portman + newman) check it.
 */

import { INPUT_PATTERNS } from './validate';

export type JsonSchema = Record<string, unknown>;
export type OpenApiOperation = Record<string, unknown>;
export type OpenApiParameter = Record<string, unknown>;

/** What a module adds to the document. */
export interface OpenApiPart {
  paths: Record<string, Record<string, OpenApiOperation>>;
  schemas?: Record<string, JsonSchema>;
  tags?: { name: string; description?: string }[];
}

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** An integer field of a hand-written body: a JSON integer or its digits as text, as the declared resources take them (validate.ts). */
export const integerInput = (bounds: { minimum?: number; maximum?: number } = {}): JsonSchema => ({ type: ['integer', 'string'], pattern: INPUT_PATTERNS.integer.source, ...bounds });
export const nullable = (s: JsonSchema): JsonSchema => {
  if (Array.isArray(s.enum) && !s.enum.includes(null)) s = { ...s, enum: [...(s.enum as unknown[]), null] };
  const t = s.type;
  if (typeof t === 'string') return { ...s, type: [t, 'null'] };
  if (Array.isArray(t)) return t.includes('null') ? s : { ...s, type: [...t, 'null'] };
  if (Array.isArray(s.enum)) return s;
  return { anyOf: [s, { type: 'null' }] };
};

/**
 * A readable string within [min, max] characters: letters of the field name plus a digit
 * (so it also passes the password rule). Used as the example of text fields.
 */
export function sampleText(name: string, min = 0, max = 64): string {
  let s = `${name.replace(/[^a-z]/gi, '').slice(0, 8) || 'Sample'}1`;
  while (s.length < min) s += 'x';
  return s.slice(0, Math.max(max, 1));
}

/** Sets `example` (read by generators such as openapi-to-postman) and the 3.1 `examples`. */
export function withExample(s: JsonSchema, value: unknown): JsonSchema {
  return value === undefined ? s : { ...s, example: value, examples: [value] };
}

/**
 * Request generators (openapi-to-postman, which Portman drives) fake a value for an `anyOf`
 * from its FIRST alternative alone and drop the keywords beside it (type, bounds, example),
 * so "a value meeting these rules, or empty" came out as a value breaking them. The first
 * alternative is therefore made whole: the keywords beside `anyOf` are repeated in it
 * (`required` merged), down nested `anyOf`s. Exact for validators: a keyword beside `anyOf`
 * binds every value already, so repeating it inside one alternative accepts the same set.
 */
const ANNOTATIONS = new Set(['anyOf', 'description', 'title', 'default']);
export function wholeFirstAlternative(s: JsonSchema): JsonSchema {
  if (!Array.isArray(s.anyOf) || s.anyOf.length === 0) return s;
  const [first, ...rest] = s.anyOf as [JsonSchema, ...JsonSchema[]];
  const beside = Object.fromEntries(Object.entries(s).filter(([k]) => !ANNOTATIONS.has(k) && !k.startsWith('x-')));
  const merged: JsonSchema = { ...beside, ...first };
  if (Array.isArray(beside.required) || Array.isArray(first.required)) {
    merged.required = [...new Set([...((beside.required as string[] | undefined) ?? []), ...((first.required as string[] | undefined) ?? [])])];
  }
  return { ...s, anyOf: [wholeFirstAlternative(merged), ...rest] };
}

/** The statuses the engine answers with the error envelope, and when. */
export const ERROR_STATUS = {
  400: 'Malformed JSON body.',
  401: 'Missing or wrong credentials.',
  403: "Host header not allowed (the engine is bound to loopback), or the caller's user type may not perform this operation (each operation lists its `x-ringup-user-types`).",
  404: 'Unknown id or path, or a record of a location the caller does not belong to.',
  405: 'Known path, wrong method (the Allow header lists the methods).',
  409: 'The request conflicts with stored data (e.g. deleting yourself, an active scanner).',
  413: 'Body over 1 MiB.',
  415: 'Content type other than JSON or XML (XML bodies and answers mirror the JSON ones).',
  422: 'Validation failed: the messages are keyed by field.',
  503: 'The terminal (router endpoints) cannot be reached.',
} as const;
export type ErrorStatus = keyof typeof ERROR_STATUS;

/** Statuses any authenticated /v2 request may answer. */
export const COMMON_ERRORS: ErrorStatus[] = [401, 403, 404];
/** Plus those of a request that carries a JSON body. */
export const BODY_ERRORS: ErrorStatus[] = [400, 413, 415, 422];

export function errorResponses(statuses: readonly ErrorStatus[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of [...new Set(statuses)].sort()) out[String(s)] = { $ref: `#/components/responses/Error${s}` };
  return out;
}

/**
 * A page's refusal (the OAuth, SSO, hosted and payment pages): the page for a browser, the
 * error envelope for a client whose Accept asks for JSON (oauth/html-page.ts).
 */
export const pageRefusal = (description: string) => ({
  description,
  content: { 'text/html': { schema: { type: 'string' } }, 'application/json': { schema: ref('ErrorEnvelope') } },
});

export const jsonContent = (schema: JsonSchema, example?: unknown) => ({
  'application/json': example === undefined ? { schema } : { schema, example },
});

/** `{ "<key>": <schema> }`, the wrapper of every single-record request and answer. */
export function wrapper(key: string, schema: JsonSchema): JsonSchema {
  return { type: 'object', required: [key], properties: { [key]: schema } };
}

/** `{ "<plural>": [<schema>], "meta": {...} }`. */
export function listEnvelope(plural: string, item: JsonSchema): JsonSchema {
  return { type: 'object', required: [plural, 'meta'], properties: { [plural]: { type: 'array', items: item }, meta: ref('ListMeta') } };
}

export const idPathParameter = (description = 'The record id, or its api id with `api_id=true&location_id=`.'): OpenApiParameter => ({
  name: 'id',
  in: 'path',
  required: true,
  description,
  schema: { type: 'string', minLength: 1 },
});

const query = (name: string, description: string, schema: JsonSchema = { type: 'string' }): OpenApiParameter => ({ name, in: 'query', required: false, description, schema });

export const PAGING_PARAMETERS: OpenApiParameter[] = [
  query('page', '1-based page number.', { type: 'integer', minimum: 1 }),
  query('page_size', 'Records per page (default 20; values over 5000 are capped).', { type: 'integer', minimum: 1 }),
  query('sort', 'A field name, or `-field` for descending.'),
];
export const expandParameter = (names: readonly string[]): OpenApiParameter =>
  query('expand', `Comma-separated related records to embed: ${names.map((n) => `\`${n}\``).join(', ')}. Unknown names are ignored.`);
export const API_ID_PARAMETERS: OpenApiParameter[] = [
  query('api_id', 'With `true` (or `1`), the path segment is the record\'s api id; `location_id` is then required. `false` or `0`: the record id.', { type: 'string', enum: ['true', '1', 'false', '0'] }),
  query('location_id', 'The location the api id belongs to (with `api_id=true`).'),
];

export type FilterKindName = 'text' | 'exact' | 'number' | 'money' | 'timestamp' | 'boolean' | 'suffix';
const FILTER_HELP: Record<FilterKindName, string> = {
  text: 'Substring match; `a,b,c` matches any of the values exactly.',
  exact: 'Exact match; `a,b,c` matches any.',
  number: 'Exact number, `a,b,c`, or an inclusive range `lo|hi` (either side may be empty).',
  money: 'Decimal amount ("10.00"), `a,b,c`, or an inclusive range `lo|hi`.',
  timestamp:
    'Unix seconds, `lo|hi`, or a named range (today, yesterday, this week, last week, last 30 days, last 90 days, this month, last month; UTC) or `custom` with `<field>_from` / `<field>_to`.',
  boolean: '1/0/true/false.',
  suffix: 'Ringup extension: the value ends the field, in any case (`%` and `_` are literal).',
};

/** The query parameters of a list's filters (plus `_from`/`_to` of timestamp filters). */
export function filterParameters(filters: Iterable<[string, FilterKindName]>): OpenApiParameter[] {
  const out: OpenApiParameter[] = [];
  for (const [name, kind] of filters) {
    out.push(query(name, `Filter. ${FILTER_HELP[kind]}`));
    if (kind === 'timestamp') {
      out.push(query(`${name}_from`, `Start (Unix seconds) of \`${name}=custom\`.`));
      out.push(query(`${name}_to`, `End (Unix seconds) of \`${name}=custom\`.`));
    }
  }
  return out;
}

const linkHref: JsonSchema = { type: 'object', required: ['href'], properties: { href: { type: 'string', format: 'uri' } } };

const SHARED_SCHEMAS: Record<string, JsonSchema> = {
  ErrorEnvelope: {
    type: 'object',
    description: 'Every error answer: messages keyed by field name, or `general`.',
    required: ['errors'],
    properties: { errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } } },
  },
  Links: { type: 'object', required: ['self'], properties: { self: linkHref } },
  ListMeta: {
    type: 'object',
    required: ['pagination', 'sort'],
    properties: {
      pagination: {
        type: 'object',
        required: ['links', 'totalCount', 'perPage', 'pageCount', 'currentPage'],
        properties: {
          links: { type: 'object', required: ['self'], properties: { self: linkHref, next: linkHref, last: linkHref } },
          totalCount: { type: 'integer', minimum: 0 },
          perPage: { type: 'integer', minimum: 1 },
          pageCount: { type: 'integer', minimum: 0 },
          currentPage: { type: 'integer', minimum: 1 },
        },
      },
      sort: {
        type: 'object',
        required: ['attributes'],
        properties: { attributes: { type: 'object', additionalProperties: { type: 'string', enum: ['asc', 'desc'] } } },
      },
    },
  },
};

const SECURITY_SCHEMES: Record<string, unknown> = {
  developerId: { type: 'apiKey', in: 'header', name: 'developer-id', description: 'The developer company id (always needed).' },
  userId: { type: 'apiKey', in: 'header', name: 'user-id', description: 'The user id.' },
  userApiKey: { type: 'apiKey', in: 'header', name: 'user-api-key', description: 'The user\'s API key.' },
  developerIdQuery: { type: 'apiKey', in: 'query', name: 'developer-id', description: 'The developer id as a query parameter.' },
  userIdQuery: { type: 'apiKey', in: 'query', name: 'user-id', description: 'The user id as a query parameter.' },
  userApiKeyQuery: { type: 'apiKey', in: 'query', name: 'user-api-key', description: 'The API key as a query parameter.' },
  basic: { type: 'http', scheme: 'basic', description: 'HTTP Basic `user_id:user_api_key`, with `developer-id` as header or query parameter.' },
};

/** Any one of these satisfies a /v2 operation. */
export const SECURITY: Record<string, string[]>[] = [
  { developerId: [], userId: [], userApiKey: [] },
  { developerIdQuery: [], userIdQuery: [], userApiKeyQuery: [] },
  { developerId: [], basic: [] },
  { developerIdQuery: [], basic: [] },
];

export interface DocumentInfo {
  version: string;
  /** Absolute server URL (the engine's origin). */
  serverUrl: string;
}

/** Merges module parts into one document; a path + method declared twice is a programming error. */
export function buildOpenApiDocument(info: DocumentInfo, parts: readonly OpenApiPart[]): Record<string, unknown> {
  const paths: Record<string, Record<string, OpenApiOperation>> = {};
  const schemas: Record<string, JsonSchema> = { ...SHARED_SCHEMAS };
  const tags = new Map<string, { name: string; description?: string }>();
  for (const part of parts) {
    for (const [path, ops] of Object.entries(part.paths)) {
      const into = (paths[path] ??= {});
      for (const [method, op] of Object.entries(ops)) {
        if (into[method]) throw new Error(`OpenAPI: ${method.toUpperCase()} ${path} is described twice.`);
        into[method] = op;
      }
    }
    for (const [name, s] of Object.entries(part.schemas ?? {})) {
      if (schemas[name]) throw new Error(`OpenAPI: schema ${name} is declared twice.`);
      schemas[name] = s;
    }
    for (const t of part.tags ?? []) if (!tags.has(t.name)) tags.set(t.name, t);
  }
  const responses: Record<string, unknown> = {};
  // 405 belongs to no operation (it answers the methods a path does not have): the description says it.
  for (const [status, description] of Object.entries(ERROR_STATUS)) {
    if (status !== '405') responses[`Error${status}`] = { description, content: jsonContent(ref('ErrorEnvelope')) };
  }
  const sortedPaths = Object.fromEntries(Object.keys(paths).sort().map((p) => [p, paths[p]]));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Ringup embedded payment gateway',
      version: info.version,
      description:
        'The v2-compatible REST interface of the engine embedded in Ringup. Requests and answers wrap one record under its singular name (`{"contact": {...}}`); lists answer under the plural name with `meta`. Money is a decimal string ("10.00"). Errors answer `{"errors": {"<field>": ["message"]}}`; a known path called with a method it does not list answers 405 with an `Allow` header and the same envelope.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Ringup-Proprietary' },
    },
    servers: [{ url: info.serverUrl, description: 'This engine' }],
    security: SECURITY,
    tags: [...tags.values()].sort((a, b) => a.name.localeCompare(b.name)),
    paths: sortedPaths,
    components: { securitySchemes: SECURITY_SCHEMES, schemas, responses },
  };
}

/** snake_case → PascalCase, for schema names and operation ids (`transaction_batch` → `TransactionBatch`). */
export const pascal = (s: string): string => s.replace(/(^|_)([a-z0-9])/g, (_m, _u: string, c: string) => c.toUpperCase());
