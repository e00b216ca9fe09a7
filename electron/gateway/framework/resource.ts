/**
 * The resource declaration: each v2 resource is declared once (fields, bounds,
 * required-on-create, update-allowed, read-only, filters, expands, api_id field,
 * default sort) and the generic code derives routes, validation, list/filter/sort/page,
 * expands and api_id addressing from it.
 */
import type { FastifyRequest } from 'fastify';
import type { ErrorCollector } from './errors';
import type { IdKind } from './ids';
import type { AuthInfo } from './auth-info';
import type { Allow } from './permissions';

/** How a field is stored and checked. Booleans are stored 0/1, json as TEXT. */
export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'json' | 'date';

/** How a list query parameter on this field filters. */
export type FilterKind =
  | 'text' // substring (LIKE), or a,b,c exact list
  | 'exact' // equality, or a,b,c list
  | 'number' // equality, a,b,c list, or lo|hi inclusive range
  | 'money' // like number, values are decimal amounts ("10.00") compared as integer cents
  | 'timestamp' // number forms plus the named ranges and custom + <field>_from/_to
  | 'boolean' // 1/0/true/false
  | 'suffix'; // the value ends the column's text, any ASCII case (Ringup extension; `%`/`_` are literal)

export type Row = Record<string, unknown>;

/**
 * The engine context as the hooks below receive it: framework/context.ts's EngineContext,
 * merged in there (declaration merging), so this file does not import context.ts, which
 * imports it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by context.ts
export interface HookContext {}
type EngineContext = HookContext;

export interface FieldDef {
  type: FieldType;
  /** String length bounds (characters). */
  min?: number;
  max?: number;
  /** Numeric bounds (integer/number). */
  minValue?: number;
  maxValue?: number;
  /** Allowed values. */
  enum?: readonly (string | number)[];
  /** Required in POST. */
  required?: boolean;
  /**
   * `false`: may be left out, but never emptied: null or "" is a 422 "cannot be blank"
   * (its column is NOT NULL and it has no default to restore; conventions.test.ts checks
   * every declaration against its table). Other optional fields are cleared by null or "".
   */
  nullable?: false;
  /** May be sent on PUT (default: true unless readOnly/createOnly). */
  update?: boolean;
  /**
   * `false`: not part of the create body (it names something that cannot exist before the
   * record does, such as a product transaction of the location being created); the
   * resource's own check refuses a value sent on create.
   */
  create?: false;
  /** System-set; ignored when sent. */
  readOnly?: boolean;
  /** Accepted on write, never returned (passwords). */
  writeOnly?: boolean;
  /** Not a column: accepted in the body and handed to hooks, never stored generically. */
  virtual?: boolean;
  /** Default on create when not sent (value or function). */
  default?: unknown | ((ctx: EngineContext) => unknown);
  /** Regex the string must match (message BAD_FORMAT unless `formatMessage`, which also replaces the `money` format's). */
  pattern?: RegExp;
  formatMessage?: string;
  /** Extra check: return a message template (with {attribute}) or undefined. */
  check?: (value: unknown) => string | undefined;
  /** Built-in string formats (`money`: a decimal amount such as "10.00", no spaces, at most 2 decimals). */
  format?: 'email' | 'url' | 'no-spaces' | 'digits' | 'time-zone' | 'money';
  /** JSON fields: validates and normalises the value (add errors to `errs` under `field`). */
  json?: (value: unknown, errs: ErrorCollector, field: string) => unknown;
  /**
   * JSON fields: the value's shape in the OpenAPI document (default: any object). Declared
   * beside `json`, its engine side: what one refuses the other must refuse too.
   */
  jsonSchema?: Record<string, unknown>;
  /** Must name a visible record of this resource (checked generically: 422 "X is invalid."). */
  ref?: string;
  /** List filter kind; `false` disables. Default derived from type and name. */
  filter?: FilterKind | false;
  /** Sortable in lists (default true except json). */
  sortable?: boolean;
  /** Name in responses when it differs (device terms answer `device_term_api_id`). */
  outputName?: string;
  /** Returned as 1/0 integer instead of true/false (booleans only). */
  outputAsInt?: boolean;
  /** A valid value, shown in the API reference and sent by the contract run (else derived from the bounds). */
  example?: unknown;
  /**
   * What a card number typed into it does (card-mask.ts): `identifier` — the field keeps its
   * digits exactly (a key, a serial number, a user name), so a card number is refused (422);
   * `consumed` — read by the engine and never stored or returned as sent (a password it only
   * hashes), kept as sent. Unset: `id`, references, `*_id` / `*_api_id`, the api_id field and
   * write-only fields are identifiers, everything else is free text and masked.
   */
  keepsDigits?: 'identifier' | 'consumed';
  /** Label used in messages (default from the name: last_name → "Last Name"). */
  label?: string;
  /** Every record has a value (the response schema lists it as required and never null). */
  alwaysSet?: true;
  /**
   * Not a column: `decorate` computes it when the record is read (an account vault's
   * `expiring_in_months`). Answered and documented, never written, filtered or sorted.
   */
  computed?: true;
}

export type ExpandFn = (ctx: EngineContext, row: Row, auth: AuthInfo) => unknown;

export type Method = 'list' | 'view' | 'create' | 'update' | 'delete';

/**
 * An action on one record beyond the five methods: `POST <path>/{id}/<name>`, declared with
 * the resource (who may, what the document says) and mounted by the generic routes; it
 * answers the record after it (status 200).
 */
export interface ResourceAction {
  allow: Allow;
  summary: string;
  description?: string;
  /** What 200 says in the document. */
  answer: string;
  /** Performs the action on a record the caller may see (404 before this otherwise). */
  run(args: { ctx: EngineContext; req: FastifyRequest; row: Row }): void | Promise<void>;
}

/** Which records a user may see. */
export type Scope =
  | { kind: 'column'; column: string } // row[column] ∈ user's locations
  | { kind: 'self' } // the row *is* a location: id ∈ user's locations
  | { kind: 'sql'; where: string } // custom SQL; `:locations` is replaced by a json_each() sub-select
  | { kind: 'none' }; // global reference data

export interface WriteInput {
  /** Validated values of declared, writable fields that were sent (plus create defaults). */
  values: Row;
  /** The raw wrapper object (for virtual fields and hand-written rules). */
  raw: Record<string, unknown>;
}

export interface HookArgs {
  ctx: EngineContext;
  auth: AuthInfo;
  req: FastifyRequest;
  errs: ErrorCollector;
}

export interface ResourceDef {
  /** Singular wrapper key, e.g. `contact`. */
  name: string;
  /** Plural list key, e.g. `contacts`; the path is `/v2/<plural>` unless `path` is given. */
  plural: string;
  path?: string;
  /** SQL table; the primary key column is `id`. */
  table: string;
  idKind?: IdKind | 'integer';
  fields: Record<string, FieldDef>;
  scope: Scope;
  /** Integrator id field (e.g. `contact_api_id`) and the column that scopes its uniqueness. */
  apiId?: { field: string; scopeColumn: string };
  /** e.g. `-created_ts` */
  defaultSort: string;
  expands?: Record<string, ExpandFn>;
  /** Generic routes to mount (hand-written actions are registered by the module). */
  methods: readonly Method[];
  /**
   * Who may perform each generic method (permissions.ts), declared with the fields: a
   * method in `methods` without an entry stops the engine at start-up. Hand-written
   * routes of the resource declare theirs where they are registered.
   */
  allow: Readonly<Partial<Record<Method, Allow>>>;
  /** Actions on one record (`POST <path>/{id}/<name>`). */
  actions?: Readonly<Record<string, ResourceAction>>;
  /** The record's schema name in the document (default from `name`: contact → Contact). */
  schemaName?: string;
  /** One sentence for the document's tag of the resource (default: its label and methods). */
  about?: string;
  /** How the document's summaries name one record and many (default `name` and `plural`: contact, contacts). */
  words?: { one: string; many: string };
  /** Cross-field rules after per-field validation; add to `errs`. */
  validate?(args: HookArgs & { mode: 'create' | 'update'; input: WriteInput; existing?: Row }): void;
  /** Last chance to change values before INSERT (hash a password, generate keys…). */
  beforeInsert?(args: HookArgs & { input: WriteInput }): void;
  afterInsert?(args: HookArgs & { input: WriteInput; row: Row }): void;
  /** POST may answer with an existing record instead of creating (update_if_exists…). */
  createOverride?(args: HookArgs & { input: WriteInput }): { status: number; row: Row } | undefined;
  beforeUpdate?(args: HookArgs & { input: WriteInput; existing: Row }): void;
  afterUpdate?(args: HookArgs & { input: WriteInput; row: Row; existing: Row }): void;
  /** Throw an ApiError (409/422) to refuse. */
  beforeDelete?(args: HookArgs & { existing: Row }): void;
  afterDelete?(args: HookArgs & { existing: Row }): void;
  /** Adds computed fields to the serialised record. */
  decorate?(ctx: EngineContext, row: Row, out: Row, auth: AuthInfo | undefined): void;
}

export function pathOf(def: ResourceDef): string {
  return def.path ?? `/v2/${def.plural}`;
}
