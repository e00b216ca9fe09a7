/**
 * The request schemas of the bodies whose fields are declared as tables (resource.ts
 * ActionFieldDef, ModeFieldDef): the bodies of a resource's body-dispatched actions (`action`
 * in the wrapper picks the fields, as the transaction field table declares them) and bodies
 * read by mode (create / update) with fields that apply to one variant only (an account
 * vault's payment method).
 *
 * Each field's schema is the one every declared field gets (field-openapi.ts fieldSchema),
 * placed: an action field is optional (null or "" is "not sent", or clears it on an edit) and
 * says which actions take it; a mode field is optional unless create requires it or update
 * may not empty it, and says which variants take it.
 */
import { fieldSchema } from './field-openapi';
import { pascal, withExample, type JsonSchema } from './openapi-document';
import type { ActionFieldDef, BodyActionRoute, BodyWrites, ModeFieldDef } from './resource';

/** An action field's schema for a route's actions; `x-actions` lists those that take it, machine-readable (the generated fuzz run picks its base request by it). */
function actionFieldSchema(f: ActionFieldDef, actions: readonly string[]): JsonSchema {
  const taken = f.actions.filter((a) => actions.includes(a));
  const notes = taken.length === actions.length ? [] : [`Actions: ${taken.join(', ')}.`];
  return fieldSchema(f.name, f, { empty: 'accepted', notes, extensions: { 'x-actions': taken }, digits: f.keepsDigits ?? 'mask' });
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
    // Create's required fields are refused by the hooks when empty; update's that may not be emptied, by the reader.
    const empty = mode === 'create' && f.required ? 'refused' : mode === 'update' && f.nullable === false ? 'blank' : 'accepted';
    const only = variants && f.variants && f.variants.length < variants.values.length ? f.variants : undefined;
    // Machine-readable, like an action field's x-actions: the other variants refuse it.
    const extensions = variants && only ? { [`x-${variants.field.replace(/_/g, '-')}s`]: [...only] } : undefined;
    const notes = only && variants ? only.map((v) => variants.onlyText(v)) : [];
    properties[f.name] = fieldSchema(f.name, f, { empty, notes, extensions, digits: f.keepsDigits ?? 'mask' });
  }
  const required = mode === 'create' ? writes.fields.filter((f: ModeFieldDef) => f.required && f.modes.includes('create')).map((f) => f.name) : [];
  return { type: 'object', description: writes.about[mode], ...(required.length ? { required } : {}), properties, additionalProperties: true };
}
