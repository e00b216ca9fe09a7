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
import type { ActionAllow, Allow } from './permissions';

/**
 * What a field's value is, as the one reader checks it and what it makes of it
 * (validate.ts readValue): `string` (bounds in characters, `format`, `pattern`);
 * `integer` / `number` (JSON numbers or their text); `boolean` true/false/1/0/"1"/"0";
 * `date` yyyy-mm-dd; `json` an object (`max`: its serialised length); and the types of
 * values read rather than stored as sent: `money` a decimal string read into integer
 * cents; `mmyy` a card expiry; `enum` exactly one of `enum`, named in the message; `hex` /
 * `base64` encoded text; `email`; `tags` an array of titles or a comma list (`max` items);
 * `additional_amounts` a list of `{type, amount}` (`max` items, `type` one of `enum`, any
 * case, answered upper-case).
 */
export type FieldType = StoredType | 'money' | 'mmyy' | 'enum' | 'hex' | 'base64' | 'email' | 'tags' | 'additional_amounts';

/** The types a declared resource's record keeps in its columns (booleans stored 0/1, json as TEXT). */
export type StoredType = 'string' | 'integer' | 'number' | 'boolean' | 'json' | 'date';

/** Built-in text formats of a `string` (`money`: a decimal amount such as "10.00", kept as sent, no spaces, at most 2 decimals). */
export type TextFormat = 'email' | 'url' | 'no-spaces' | 'digits' | 'time-zone' | 'money';

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

/**
 * One field, declared once: what its value is and how the one reader checks it
 * (validate.ts readValue), what the OpenAPI document states of it (field-openapi.ts
 * fieldSchema) and, for a field of a declared resource, how its record keeps it. The same
 * declaration is a declared resource's field (`ResourceDef.fields`, keyed by name), a row of
 * a body-dispatched field table (`ActionFieldDef`: which actions take it) and a field of a
 * body read by mode (`ModeFieldDef`: create / update, which variants).
 */
export interface FieldDef {
  // ---- the value (validate.ts readValue)
  type: FieldType;
  /** Length bounds in characters (serialised length for `json`, items for `tags` / `additional_amounts`). */
  min?: number;
  max?: number;
  /** Numeric bounds (integer/number). */
  minValue?: number;
  maxValue?: number;
  /** Allowed values (`enum`: the values; `additional_amounts`: its items' types). */
  enum?: readonly (string | number)[];
  /** Built-in string formats (INPUT_PATTERNS and their messages). */
  format?: TextFormat;
  /** Regex the string must match (after `trim`). */
  pattern?: RegExp;
  /**
   * The pattern in words ("digits", "no spaces"): a mismatch then says what the field may
   * contain (MSG.FIELD_PATTERN) and names a card number masked on arrival (card-mask.ts) as
   * such, since the digits the caller typed would meet those words; without it a mismatch is
   * MSG.BAD_FORMAT.
   */
  patternText?: string;
  /** Used without surrounding spaces (its bounds count the text as sent, as the OpenAPI document's do). */
  trim?: true;
  /**
   * Named messages: `invalid` for a value that breaks the type or bounds (and the pattern or
   * format, unless `pattern`), `pattern` for a pattern or format mismatch, `tooLong` for a
   * value over `max` where the default (EXACT_LENGTH when `min` equals `max`, else TOO_LONG)
   * is not what the field answers.
   */
  messages?: { invalid?: string; pattern?: string; tooLong?: string };
  /** Extra check of the read value: return a message template (with {attribute}) or undefined. */
  check?: (value: unknown) => string | undefined;
  /** JSON fields: validates and normalises the value (add errors to `errs` under `field`). */
  json?: (value: unknown, errs: ErrorCollector, field: string) => unknown;
  /** Checked by the owner's own code with a finer rule (CVV length by brand, the account number); only its JSON type (a string) is checked generically. */
  ownReader?: true;
  /** Label used in messages (default from the name: last_name → "Last Name"). */
  label?: string;

  // ---- what the document says of it (field-openapi.ts)
  /** One sentence for the document. */
  description?: string;
  /** A valid value, shown in the API reference and sent by the contract run (else derived from the type and bounds). */
  example?: unknown;
  /** The document shows no example for it (none is derived either). */
  noExample?: true;
  /**
   * JSON fields: the value's shape in the OpenAPI document (default: any object). Declared
   * beside `json`, its engine side: what one refuses the other must refuse too.
   */
  jsonSchema?: Record<string, unknown>;
  /**
   * The text form the document states for a field whose own reader checks its bounds
   * (an account number: digits with spaces or dashes, its length per payment method): the
   * document shows this pattern and no lengths.
   */
  textForm?: RegExp;
  /** Machine-readable notes for the document (`x-…` keys), such as which fields name the account. */
  extensions?: Readonly<Record<string, unknown>>;
  /**
   * What a card number typed into it does (card-mask.ts): `identifier` — the field keeps its
   * digits exactly (a key, a serial number, a user name), so a card number is refused (422);
   * `consumed` — read by the engine and never stored or returned as sent (a password it only
   * hashes, account data), kept as sent. Unset on a declared resource's field: `id`,
   * references, `*_id` / `*_api_id`, the api_id field and write-only fields are identifiers,
   * everything else is free text and masked; unset elsewhere: free text, masked.
   */
  keepsDigits?: 'identifier' | 'consumed';

  // ---- how a declared resource keeps it (validateWrite, records, list, serialise)
  /** Required in POST (a body read by mode: must be sent on create). */
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
  /** Every record has a value (the response schema lists it as required and never null). */
  alwaysSet?: true;
  /**
   * The answer's schema when the type alone does not say it (a transaction's amounts as
   * decimal strings, a field kept as the caller sent it, a key always null).
   */
  answerSchema?: Record<string, unknown>;
  /**
   * Not a column: `decorate` computes it when the record is read (an account vault's
   * `expiring_in_months`). Answered and documented, never written, filtered or sorted.
   */
  computed?: true;
}

/** A field of a declared resource: its record keeps one of the stored types. */
export type StoredFieldDef = FieldDef & { type: StoredType };

export type ExpandFn = (ctx: EngineContext, row: Row, auth: AuthInfo) => unknown;

export type Method = 'list' | 'view' | 'create' | 'update' | 'delete';

/**
 * An action on one record beyond the five methods: `POST <path>/{id}/<name>`, declared with
 * the resource (who may, what the document says) and mounted by the generic routes; it
 * answers the record after it (status 200).
 */
export interface ResourceAction {
  allow: Allow;
  /** The document's operationId (default `<plural><Name>`). */
  operationId?: string;
  /** `get` reads (`GET <path>/{id}/<name>`, answering `answers` under its own wrapper); default `post`. */
  method?: 'get' | 'post';
  /** A read action's answer: its wrapper key and record schema (default: the resource's record after the action). */
  answers?: { wrapper: string; schemaName: string; schema: Record<string, unknown> };
  summary: string;
  description?: string;
  /** What 200 says in the document. */
  answer: string;
  /** Performs the action on a record the caller may see (404 before this otherwise); a read action returns its answer. */
  run(args: { ctx: EngineContext; req: FastifyRequest; row: Row }): unknown;
}

// ------------------------------------------------------------------ body values and body-dispatched actions

/** What a body's read values are, by field name (money in cents). */
export type FieldValues = Record<string, unknown>;

/** A field of a resource whose POST/PUT bodies are dispatched by `action`, as a row of its field table: which actions take it, which require it. */
export interface ActionFieldDef extends FieldDef {
  name: string;
  actions: readonly string[];
  /** Actions for which it must be sent (422 "cannot be blank" otherwise). */
  requiredFor?: readonly string[];
}

/** One action of a body-dispatched route: who may perform it, and a whole request the document shows (and openapi.test.ts runs). */
export interface BodyAction {
  allow: Allow;
  example?: { summary: string; value: Record<string, unknown> };
}

/** What the generic route hands a body-dispatched action's handler. */
export interface BodyActionInput {
  action: string;
  /** The inner object of the wrapper. */
  body: Record<string, unknown>;
  /** The action's fields, read by the one validator (money in cents; null where an edit clears). */
  values: FieldValues;
  /**
   * The field errors found, not thrown yet: the handler adds its own request-level rules
   * (the location, the account…) so one 422 names every bad field, and throws before it acts.
   */
  errs: ErrorCollector;
}

/** The answer of a body-dispatched action: its status and the wrapped record, already serialised. */
export interface BodyActionAnswer {
  status: number;
  body: string | Buffer;
}

/**
 * A POST `<path>` or PUT `<path>/{id}` whose body's `action` (in the wrapper) picks what
 * runs: the generic route reads the wrapper and the action, runs the one permission check
 * (each action's `allow`), reads the action's fields with the one validator and hands them
 * to `run`, the resource's one pipeline, which runs the action's own step.
 */
export interface BodyActionRoute {
  actions: Readonly<Record<string, BodyAction>>;
  /** The action when none is sent (null or "" too). */
  defaultAction?: string;
  /** Actions whose null or "" clears a stored value (an edit); elsewhere they mean "not sent". */
  clearing?: readonly string[];
  /** When the record decides which action's role a request needs (permissions.ts ActionAllow.effective). */
  effective?: ActionAllow['effective'];
  operationId: string;
  summary: string;
  /** What the success status says in the document. */
  answer: string;
  /** The request schema's name in the document (`TransactionCreate`). */
  schemaName: string;
  /** PUT: find the record first (404 before any body error, as every update answers). */
  find?(args: { ctx: EngineContext; req: FastifyRequest; id: string }): unknown;
  run(args: { ctx: EngineContext; req: FastifyRequest; input: BodyActionInput; record?: unknown }): Promise<BodyActionAnswer>;
}

/** A resource's body-dispatched writes, over one field table (the transaction fields × actions). */
export interface BodyActions {
  fields: readonly ActionFieldDef[];
  create?: BodyActionRoute;
  update?: BodyActionRoute;
}

/**
 * A field of a body read by mode: which modes take it, whether create needs it (`required`)
 * or update may not empty it (`nullable: false`: a card vault always has an expiry), and the
 * variants (payment methods) it applies to.
 */
export interface ModeFieldDef extends FieldDef {
  name: string;
  modes: readonly ('create' | 'update')[];
  /** The record variants that take it (BodyWrites.variants); unset: all. */
  variants?: readonly string[];
  description: string;
}

/** What the generic create and update routes hand a resource's write hooks. */
export interface BodyWriteInput {
  /** The inner object of the wrapper. */
  body: Record<string, unknown>;
  /** The mode's fields that were sent, read by the one validator (on update null where one is emptied). */
  values: FieldValues;
  /** The field errors found, not thrown yet: the hook adds its own and throws them together before it writes. */
  errs: ErrorCollector;
}

/**
 * Create and update of a resource whose writes are stateful (an account vault: the account
 * number encrypted into its blob, a vault made from an earlier transaction, the writes
 * through the module's group-commit writer): the generic routes read the body with the one
 * validator over `fields`, by mode and by the record's variant, and the hooks write. The
 * document's request schemas derive from `fields` too.
 */
export interface BodyWrites {
  fields: readonly ModeFieldDef[];
  /**
   * The record's variants: the body's (create) or the record's (update) `field` names one,
   * and a field of another variant that carries a value is a 422 (`message`, with {kind}).
   */
  variants?: {
    field: string;
    values: readonly string[];
    /** Each variant in the message's words ({kind}: "card", "bank account"). */
    kind: Readonly<Record<string, string>>;
    message: string;
    /** The document's sentence for a field of one variant ("Card vaults only."). */
    onlyText(variant: string): string;
  };
  /** The request schemas' descriptions. */
  about: { create: string; update: string };
  create?(args: { ctx: EngineContext; req: FastifyRequest; input: BodyWriteInput }): Promise<Row>;
  update?(args: { ctx: EngineContext; req: FastifyRequest; input: BodyWriteInput; existing: Row }): Promise<Row>;
}

/**
 * Records a module keeps in its own form (a serialised record per row, written through its
 * group-commit writer, as transactions): the generic routes mount list and view and ask it
 * for the answer; the document derives from the declaration like any other resource's.
 */
export interface RecordSource {
  /** The list's filter parameters and their kinds (its own indexed columns and record fields). */
  filters: readonly (readonly [string, FilterKind])[];
  /** The expands it answers (`?expand=`). */
  expands: readonly string[];
  list(args: { ctx: EngineContext; req: FastifyRequest }): string | Buffer;
  view(args: { ctx: EngineContext; req: FastifyRequest; id: string }): string | Buffer;
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
  fields: Record<string, StoredFieldDef>;
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
  /** POST / PUT whose body's `action` picks what runs (transactions). */
  bodyActions?: BodyActions;
  /** Create and update read by the generic routes and written by the module's hooks (account vaults). */
  bodyWrites?: BodyWrites;
  /** Records kept in the module's own form: list and view ask it (transactions). */
  records?: RecordSource;
  /** Every record carries every declared field, null when unset: the answer's schema lists them all as required. */
  everyFieldAnswered?: true;
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
