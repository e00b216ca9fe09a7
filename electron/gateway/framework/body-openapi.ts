/**
 * The request schemas of declared body values (resource.ts FieldDef, as ActionFieldDef and ModeFieldDef): the bodies of a
 * resource's body-dispatched actions (`action` in the wrapper picks the fields, as the
 * transaction field table declares them) and bodies read by mode (create / update) with
 * fields that apply to one variant only (an account vault's payment method).
 *
 * Each field's schema says exactly what validate.ts readValue takes: its JSON type and
 * bounds (INPUT_PATTERNS for the typed text: money, MMYY, e-mail, hex, base64) and, on an
 * optional field, null or "" for "not sent" (on an edit or an update: clear it); the rules an
 * empty string breaks bind only a sent value (`anyOf: [<rules>, {const: ""}]`).
 */
import { describeDigits } from './card-mask';
import { pascal, sampleText, wholeFirstAlternative, withExample, type JsonSchema } from './openapi-document';
import type { ActionFieldDef, BodyActionRoute, BodyWrites, FieldDef, FieldType, ModeFieldDef } from './resource';
import { INPUT_PATTERNS } from './validate';

/** A value's JSON type, as its schema is built. */
type SchemaKind = 'string' | 'money' | 'boolean' | 'object' | 'tags' | 'array';

const KIND: Record<FieldType, SchemaKind> = {
  string: 'string', money: 'money', boolean: 'boolean', date: 'string', mmyy: 'string', json: 'object', enum: 'string',
  hex: 'string', base64: 'string', email: 'string', tags: 'tags', additional_amounts: 'array',
  // Not declared in a body table (a declared resource's fields are documented by resource-openapi.ts).
  integer: 'string', number: 'string',
};

/** The text rule of a value type read from text (money, MMYY, e-mail, hex, base64). */
const TYPE_PATTERNS: Readonly<Partial<Record<FieldType, RegExp>>> = { money: INPUT_PATTERNS.money, mmyy: INPUT_PATTERNS.mmyy, email: INPUT_PATTERNS.email, hex: INPUT_PATTERNS.hex, base64: INPUT_PATTERNS.base64 };

/** What the schema of one value states: its kind and bounds. */
interface Bounds {
  kind: SchemaKind;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  enum?: readonly (string | number)[];
  pattern?: string;
  format?: 'date';
}

function boundsOf(f: FieldDef): Bounds {
  const b: Bounds = { kind: KIND[f.type] };
  // A field whose own reader checks its length (per payment method) states its text form only.
  if (f.textForm) b.pattern = f.textForm.source;
  else if (f.type === 'tags' || f.type === 'additional_amounts') b.maxItems = f.max;
  else if (f.type !== 'money' && f.type !== 'json' && f.type !== 'mmyy') {
    if (f.min !== undefined) b.minLength = f.min;
    if (f.max !== undefined) b.maxLength = f.max;
  }
  // The item types of an amount list are in its message and description, not an enum of the list.
  if (f.enum && f.type !== 'additional_amounts') b.enum = f.enum;
  b.pattern ??= f.pattern?.source ?? TYPE_PATTERNS[f.type]?.source;
  if (f.type === 'date') b.format = 'date';
  return b;
}

/** One value's schema; `optional`: null or "" mean "not sent" (or "clear it" where the body may clear). */
function valueSchema(b: Bounds, optional: boolean): JsonSchema {
  let s: JsonSchema;
  const nonEmpty: JsonSchema = {};
  switch (b.kind) {
    case 'tags':
      // A comma-separated list or an array of titles.
      s = { anyOf: [{ type: 'string' }, { type: 'array', maxItems: b.maxItems, items: { type: 'string', minLength: 1, maxLength: 64 } }] };
      break;
    case 'array':
      s = { type: 'array', maxItems: b.maxItems, items: { type: 'object' } };
      break;
    case 'boolean':
      s = { enum: [true, false, 1, 0, '1', '0', 'true', 'false'] };
      break;
    case 'object':
      s = { type: 'object' };
      break;
    default:
      s = { type: 'string' };
  }
  if (b.minLength !== undefined) nonEmpty.minLength = b.minLength;
  if (b.maxLength !== undefined) s.maxLength = b.maxLength;
  if (b.enum) s.enum = [...b.enum];
  if (b.pattern) nonEmpty.pattern = b.pattern;
  if (b.format) nonEmpty.format = b.format;
  if (!optional) return Object.assign(s, nonEmpty);
  // Not sent: absent, null or "" (the engine reads all three alike).
  if (Array.isArray(s.enum)) {
    s.enum = [...(s.enum as unknown[]), '', null];
    if (s.type === 'string') s.type = ['string', 'null'];
  } else if (s.type === 'string') {
    s.type = ['string', 'null'];
    if (Object.keys(nonEmpty).length) s.anyOf = [nonEmpty, { const: '' }];
  } else s = { anyOf: [s, { const: '' }, { const: null }] };
  return s;
}

/** A value the field takes, for the document and generated requests, when the declaration names none. */
function sampleOf(f: ActionFieldDef, b: Bounds): unknown {
  if (b.enum) return b.enum[0];
  switch (b.kind) {
    case 'money':
      return '1.00';
    case 'tags':
      return 'regular';
    case 'array':
      return [];
    case 'boolean':
      return 0;
    case 'object':
      return {};
    default:
      if (b.format === 'date') return '2030-01-15';
      if (f.type === 'hex') return 'ab'.repeat(Math.min(4, Math.floor((b.maxLength ?? 8) / 2)));
      if (f.type === 'base64') return 'aGVsbG8=';
      if (b.pattern && /^\^\\d/.test(b.pattern)) return '1'.repeat(b.minLength ?? 1);
      if (b.pattern) return 'A1'.repeat(8).slice(0, Math.max(b.minLength ?? 1, Math.min(b.maxLength ?? 8, 8)));
      return sampleText(f.name, b.minLength, b.maxLength);
  }
}

/** An action field's schema for a route's actions; `x-actions` lists those that take it, machine-readable (the generated fuzz run picks its base request by it). */
function actionFieldSchema(f: ActionFieldDef, actions: readonly string[]): JsonSchema {
  const b = boundsOf(f);
  const s = valueSchema(b, true);
  const taken = f.actions.filter((a) => actions.includes(a));
  s['x-actions'] = taken;
  Object.assign(s, f.extensions);
  const which = taken.length === actions.length ? '' : ` Actions: ${taken.join(', ')}.`;
  const desc = `${f.description ?? ''}${which}`.trim();
  if (desc) s.description = desc;
  if (f.type !== 'money') describeDigits(s, f.keepsDigits ?? 'mask');
  return wholeFirstAlternative(withExample(s, f.example ?? sampleOf(f, b)));
}


/** The name of one action's request schema: the route's schema and the action (`TransactionCreateSale`). */
export const actionSchemaName = (route: Pick<BodyActionRoute, 'schemaName'>, action: string) => `${route.schemaName}${pascal(action)}`;

/**
 * One action's request schema: its `action` value, the fields it takes (each the route
 * schema's own field, by reference) and those it requires. The route's schema picks it by
 * `action` (oneOf + discriminator), so a generator or a reader gets one schema per action;
 * the fields' bounds stay where they are stated once.
 */
function actionSchema(fields: readonly ActionFieldDef[], route: Pick<BodyActionRoute, 'schemaName'>, action: string): JsonSchema {
  const taken = fields.filter((f) => f.name !== 'action' && f.actions.includes(action));
  const required = fields.filter((f) => f.requiredFor?.includes(action)).map((f) => f.name);
  const properties: Record<string, JsonSchema> = { action: { const: action } };
  for (const f of taken) properties[f.name] = { $ref: `#/components/schemas/${route.schemaName}/properties/${f.name}` };
  return {
    type: 'object',
    description: `The \`${action}\` action: the fields it takes${required.length ? `, ${required.map((n) => `\`${n}\``).join(', ')} required` : ''}. A field of another action is refused; unknown keys are ignored.`,
    required: ['action', ...required],
    properties,
    additionalProperties: true,
  };
}

/**
 * The inner object of a body-dispatched route's body: `action` (its actions, the default
 * when none is sent) and every field one of them takes, with the actions that take it; and
 * one schema per action (actionSchema), picked by `action`.
 */
export function actionBodySchema(fields: readonly ActionFieldDef[], route: Pick<BodyActionRoute, 'actions' | 'defaultAction' | 'schemaName'>): JsonSchema {
  const actions = Object.keys(route.actions);
  const defaultAction = route.defaultAction;
  const action: JsonSchema = { type: 'string', enum: [...actions], ...(defaultAction ? { default: defaultAction } : {}) };
  // Left out, null or "" means the default action.
  if (defaultAction) Object.assign(action, { type: ['string', 'null'], enum: [...actions, '', null] });
  const properties: Record<string, JsonSchema> = { action: withExample(action, defaultAction ?? actions[0]) };
  for (const f of fields) if (f.name !== 'action' && f.actions.some((a) => actions.includes(a))) properties[f.name] = actionFieldSchema(f, actions);
  const notes = fields
    .filter((f) => f.requiredFor?.some((a) => actions.includes(a)))
    .map((f) => `\`${f.name}\` is required for ${f.requiredFor?.filter((a) => actions.includes(a)).join(', ')}`);
  const description = `Unknown keys are ignored.${notes.length ? ` ${notes.join('; ')}.` : ''}`;
  // A route with a default action takes bodies without `action`, which no discriminator can
  // read (Redocly's no-illogical-composition-keywords says so): it keeps the one schema.
  if (defaultAction) return { type: 'object', description, properties, additionalProperties: true };
  const mapping = Object.fromEntries(actions.map((a) => [a, `#/components/schemas/${actionSchemaName(route, a)}`]));
  return {
    type: 'object',
    description: `${description} One schema per action, picked by \`action\`: ${actions.map((a) => actionSchemaName(route, a)).join(', ')}.`,
    required: ['action'],
    properties,
    additionalProperties: true,
    oneOf: actions.map((a) => ({ $ref: mapping[a] })),
    discriminator: { propertyName: 'action', mapping },
  };
}

/** The per-action schemas of a route (none for a route with a default action: see actionBodySchema). */
export function actionSchemas(fields: readonly ActionFieldDef[], route: Pick<BodyActionRoute, 'actions' | 'defaultAction' | 'schemaName'>): Record<string, JsonSchema> {
  if (route.defaultAction) return {};
  return Object.fromEntries(Object.keys(route.actions).map((a) => [actionSchemaName(route, a), actionSchema(fields, route, a)]));
}

/**
 * The inner object of a create or update body read by mode (an account vault's): each field
 * of the mode, optional unless create requires it or update may not empty it; a field of
 * some variants only says so in words and in `x-<variant field, plural>`.
 */
export function modeBodySchema(writes: BodyWrites, mode: 'create' | 'update'): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const variants = writes.variants;
  for (const f of writes.fields) {
    if (!f.modes.includes(mode)) continue;
    const b = boundsOf(f);
    const optional = !(mode === 'create' && f.required) && !(mode === 'update' && f.nullable === false);
    const s = valueSchema(b, optional);
    const only = variants && f.variants && f.variants.length < variants.values.length ? f.variants : undefined;
    // Machine-readable, like an action field's x-actions: the other variants refuse it.
    if (variants && only) s[`x-${variants.field.replace(/_/g, '-')}s`] = [...only];
    s.description = `${f.description}${only && variants ? ` ${only.map((v) => variants.onlyText(v)).join(' ')}` : ''}`;
    const example = f.example ?? (f.type === 'string' && !f.pattern ? sampleText(f.name, f.min ?? 0, f.max ?? 64) : undefined);
    properties[f.name] = describeDigits(wholeFirstAlternative(withExample(s, example)), f.keepsDigits ?? 'mask');
  }
  const required = mode === 'create' ? writes.fields.filter((f: ModeFieldDef) => f.required && f.modes.includes('create')).map((f) => f.name) : [];
  return { type: 'object', description: writes.about[mode], ...(required.length ? { required } : {}), properties, additionalProperties: true };
}
