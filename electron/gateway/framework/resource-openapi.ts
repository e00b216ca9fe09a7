/**
 * OpenAPI from a resource declaration: the generic routes it mounts (list, view, create,
 * update, delete), their query parameters (the declared filters, paging, sort, expands,
 * api id addressing), the record schema (from the declared fields) and the request
 * schemas (the writable fields with their bounds, required-on-create). Hand-written
 * routes reuse `recordSchemaName` / `writeSchemaName` to point at the same shapes.
 *
 * Readings: a response record has every declared, readable field (null when empty) plus
 * whatever `decorate` and expands add, so record schemas allow additional properties.
 * The request schemas say exactly what the engine takes (digit strings for integers,
 * "1"/"0" for booleans, "" or null to clear an optional field): a value the document
 * refuses is refused by the engine with a 422 naming the field.
 */
import { actionBodySchema, actionSchemas, modeBodySchema } from './body-openapi';
import { describeDigits, digitsRuleOf, type DigitsRule } from './card-mask';
import { labelOf } from './errors';
import { filtersOf } from './list';
import { INPUT_PATTERNS } from './validate';
import {
  API_ID_PARAMETERS,
  BODY_ERRORS,
  COMMON_ERRORS,
  errorResponses,
  expandParameter,
  filterParameters,
  idPathParameter,
  jsonContent,
  listEnvelope,
  nullable,
  pascal,
  PAGING_PARAMETERS,
  ref,
  sampleText,
  wholeFirstAlternative,
  withExample,
  wrapper,
  type ErrorStatus,
  type JsonSchema,
  type OpenApiOperation,
  type OpenApiPart,
} from './openapi-document';
import { pathOf, type BodyActionRoute, type ResourceDef, type StoredFieldDef } from './resource';

export const recordSchemaName = (def: ResourceDef) => def.schemaName ?? pascal(def.name);
export const writeSchemaName = (def: ResourceDef, mode: 'create' | 'update') => `${recordSchemaName(def)}${mode === 'create' ? 'Create' : 'Update'}`;

function outputSchema(f: StoredFieldDef): JsonSchema {
  if (f.answerSchema) return { ...f.answerSchema };
  // A field every record has is never null in an answer.
  const n = f.alwaysSet ? (x: JsonSchema) => x : nullable;
  switch (f.type) {
    case 'string':
      return n(f.enum ? { type: 'string', enum: [...f.enum] } : { type: 'string' });
    case 'date':
      return n({ type: 'string', format: 'date' });
    case 'integer':
      return n(f.enum ? { type: 'integer', enum: [...f.enum] } : { type: 'integer' });
    case 'number':
      return n({ type: 'number' });
    case 'boolean':
      return n(f.outputAsInt ? { type: 'integer', enum: [0, 1] } : { type: 'boolean' });
    case 'json':
      return { description: 'JSON value (object, or null when unset).' };
  }
}

/** A value the field accepts, shown in the reference and used by generated requests. */
function sampleOf(name: string, f: StoredFieldDef): unknown {
  if (f.example !== undefined) return f.example;
  if (f.enum) return f.enum[0];
  switch (f.type) {
    case 'integer':
    case 'number':
      return f.minValue ?? 1;
    case 'boolean':
      return 1;
    case 'date':
      return '1990-01-31';
    case 'json':
      return undefined;
    case 'string': {
      if (f.format === 'money') return '10.00';
      if (f.pattern || f.ref) return undefined;
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

/** The pattern (JSON Schema text) of a string format, or of numbers sent as text; shared with validate.ts. */
function formatPattern(f: StoredFieldDef): string | undefined {
  if (f.pattern) return f.pattern.source;
  if (f.format === 'email' || f.format === 'url' || f.format === 'digits' || f.format === 'no-spaces' || f.format === 'money') return INPUT_PATTERNS[f.format].source;
  return undefined;
}

/**
 * The request schema of one field, saying exactly what validate.ts takes: strings as JSON
 * strings; integers and numbers as JSON numbers or as text (digit strings, as XML bodies
 * and the family's samples send them); booleans as true/false/1/0 and their text; and, on
 * an optional field that may be emptied, null or "" (which clear it or restore its
 * default). The rules an empty string breaks (minimum length, pattern, date format) then
 * bind only the non-empty value: `anyOf: [<rules>, {const: ""}]`, the bounds an empty
 * string meets (maximum length, type) stay on the field itself, and are repeated in the
 * first alternative with the example (wholeFirstAlternative: what generators read).
 */
function inputSchema(name: string, f: StoredFieldDef, digits: DigitsRule): JsonSchema {
  let out: JsonSchema = {};
  const nonEmpty: JsonSchema = {};
  const clearable = !f.required && f.nullable !== false;
  let types: string[] = [];
  switch (f.type) {
    case 'string':
    case 'date': {
      types = ['string'];
      if (f.max !== undefined) out.maxLength = f.max;
      const min = f.required || f.nullable === false ? Math.max(f.min ?? 1, 1) : f.min;
      if (min !== undefined && min > 0) nonEmpty.minLength = min;
      const pattern = formatPattern(f);
      if (pattern) nonEmpty.pattern = pattern;
      if (f.type === 'date') nonEmpty.format = 'date';
      if (f.enum) out.enum = [...f.enum];
      break;
    }
    case 'integer':
    case 'number': {
      types = [f.type, 'string'];
      const text = INPUT_PATTERNS[f.type].source.replace(/^\^/, '').replace(/\$$/, '');
      out.pattern = clearable ? `^(?:${text})?$` : `^${text}$`;
      if (f.minValue !== undefined) out.minimum = f.minValue;
      if (f.maxValue !== undefined) out.maximum = f.maxValue;
      if (f.enum) out.enum = [...f.enum, ...f.enum.map(String)];
      break;
    }
    case 'boolean':
      out.enum = [true, false, 1, 0, '1', '0', 'true', 'false'];
      break;
    case 'json':
      out = f.jsonSchema ? { ...f.jsonSchema } : { type: 'object' };
      break;
  }
  if (types.length) out.type = types.length === 1 ? types[0] : types;
  if (clearable) {
    // "" or null clears the field (or restores its default).
    if (Array.isArray(out.enum)) {
      out.enum = [...(out.enum as unknown[]), '', null];
      if (types.length) out.type = [...new Set([...types, 'string', 'null'])];
    }
    // null as `const` (no `type`): Portman's fuzzer types an anyOf by its last typed
    // alternative, and must read this one as the object whose keys it fuzzes.
    else if (f.type === 'json') out = { anyOf: [out, { const: '' }, { const: null }] };
    else {
      out.type = [...types, 'null'];
      if (Object.keys(nonEmpty).length) out.anyOf = [nonEmpty, { const: '' }];
    }
  } else if (f.type !== 'json') Object.assign(out, nonEmpty);
  const notes: string[] = [];
  if (f.ref) notes.push(`Id of a ${f.ref.replace(/_/g, ' ')} the caller can see.`);
  if (f.update === false) notes.push('Cannot be changed after create.');
  if (f.writeOnly) notes.push('Never returned.');
  if (f.format === 'time-zone') notes.push('An IANA time zone name, such as America/New_York.');
  if (f.format === 'email') notes.push('An e-mail address.');
  if (f.format === 'url') notes.push('An http or https URL.');
  if (f.format === 'money') notes.push('An amount such as "25.00".');
  if (clearable) notes.push(f.default !== undefined ? 'null or "" restores the default.' : 'null or "" clears it.');
  else if (!f.required) notes.push('May be left out, not emptied.');
  if (notes.length) out.description = notes.join(' ');
  // What a card number typed here does, and why (card-mask.ts).
  describeDigits(out, digits);
  return wholeFirstAlternative(withExample(out, sampleOf(name, f)));
}

/** The expands a resource answers: its declared ones, or those of the module that keeps its records. */
const expandNames = (def: ResourceDef): readonly string[] => def.records?.expands ?? Object.keys(def.expands ?? {});

/** The response record of a declared resource. */
export function recordSchema(def: ResourceDef): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  if (!('id' in def.fields)) properties.id = def.idKind === 'integer' ? { type: 'integer' } : { type: 'string' };
  for (const [name, f] of Object.entries(def.fields)) {
    if (f.writeOnly || f.virtual) continue;
    properties[f.outputName ?? name] = name === 'id' ? { type: def.idKind === 'integer' ? 'integer' : 'string' } : outputSchema(f);
  }
  for (const e of expandNames(def)) properties[e] ??= { description: `With \`?expand=${e}\`.` };
  properties._links = ref('Links');
  const always = Object.entries(def.fields).filter(([name, f]) => (f.alwaysSet || def.everyFieldAnswered) && name !== 'id' && !f.writeOnly && !f.virtual).map(([name, f]) => f.outputName ?? name);
  return { type: 'object', required: ['id', ...always, '_links'], properties, additionalProperties: true };
}

/** The inner object of a create or update body. */
export function writeSchema(def: ResourceDef, mode: 'create' | 'update'): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, f] of Object.entries(def.fields)) {
    if (f.readOnly) continue;
    if (mode === 'update' && f.update === false) continue;
    if (mode === 'create' && f.create === false) continue;
    properties[name] = inputSchema(name, f, digitsRuleOf(def, name, f));
    if (mode === 'create' && f.required) required.push(name);
  }
  return {
    type: 'object',
    description: 'Unknown keys and read-only fields are ignored.',
    ...(required.length ? { required } : {}),
    properties,
    additionalProperties: true,
  };
}

export const responseOf = (description: string, schema: JsonSchema) => ({ description, content: jsonContent(schema) });

/** The words the summaries use for one record and many, with the article for one ("an account vault", "a user": no resource name starts with a sounded u). */
function wordsOf(def: ResourceDef): { one: string; many: string; aOne: string } {
  const one = def.words?.one ?? def.name;
  return { one, many: def.words?.many ?? def.plural, aOne: `${/^[aeio]/i.test(one) ? 'an' : 'a'} ${one}` };
}

/** GET of a declared resource's collection (also used by hand-written list routes over `ctx.list`). */
export function listOperation(def: ResourceDef, extraParameters: Record<string, unknown>[] = []): OpenApiOperation {
  const expands = expandNames(def);
  const filters = def.records ? def.records.filters.map(([param, kind]) => [param, kind] as [string, typeof kind]) : [...filtersOf(def)].map(([param, [, kind]]) => [param, kind] as [string, typeof kind]);
  return {
    tags: [def.plural],
    operationId: `${def.plural}List`,
    summary: `List ${wordsOf(def).many}`,
    description: `Default sort \`${def.defaultSort}\`.`,
    parameters: [...PAGING_PARAMETERS, ...(expands.length ? [expandParameter(expands)] : []), ...extraParameters, ...filterParameters(filters)],
    responses: { 200: responseOf(`A page of ${wordsOf(def).many}.`, listEnvelope(def.plural, ref(recordSchemaName(def)))), ...errorResponses([401, 403, 422]) },
  };
}

/** Paths and schemas of one declared resource (nothing when it mounts no generic route). */
export function resourceOpenApi(def: ResourceDef): OpenApiPart {
  const methods = new Set(def.methods);
  if (methods.size === 0) return { paths: {} };
  const base = pathOf(def);
  const tag = def.plural;
  const rec = recordSchemaName(def);
  const expands = expandNames(def);
  const expandParams = expands.length ? [expandParameter(expands)] : [];
  const apiIdParams = def.apiId ? API_ID_PARAMETERS : [];
  const single = wrapper(def.name, ref(rec));
  const op = (o: OpenApiOperation, errors: ErrorStatus[]): OpenApiOperation => ({
    tags: [tag],
    ...o,
    responses: { ...(o.responses as object), ...errorResponses(errors) },
  });
  const body = (mode: 'create' | 'update') => ({ required: true, content: jsonContent(wrapper(def.name, ref(writeSchemaName(def, mode)))) });
  // 409: SQLite's constraints behind the generic insert; stateful writes (bodyWrites) refuse with a 422 before they write.
  const writeErrors: ErrorStatus[] = def.bodyWrites ? [...COMMON_ERRORS, ...BODY_ERRORS] : [...COMMON_ERRORS, ...BODY_ERRORS, 409];
  const w = wordsOf(def);

  const collection: Record<string, OpenApiOperation> = {};
  const item: Record<string, OpenApiOperation> = {};
  const schemas: Record<string, JsonSchema> = { [rec]: recordSchema(def) };

  if (methods.has('list')) collection.get = listOperation(def);
  if (methods.has('create')) {
    schemas[writeSchemaName(def, 'create')] = def.bodyWrites ? modeBodySchema(def.bodyWrites, 'create') : writeSchema(def, 'create');
    const responses: Record<string, unknown> = { 201: responseOf('Created.', single) };
    if (def.createOverride) responses[200] = responseOf('An existing record was updated instead (see the resource notes).', single);
    collection.post = op({ operationId: `${def.plural}Create`, summary: `Create ${w.aOne}`, requestBody: body('create'), responses }, writeErrors);
  }
  if (methods.has('view')) {
    item.get = op(
      {
        operationId: `${def.plural}View`,
        summary: `View ${w.aOne}`,
        parameters: [idPathParameter(), ...expandParams, ...apiIdParams],
        responses: { 200: responseOf(`The ${w.one}.`, single) },
      },
      [...COMMON_ERRORS, 422],
    );
  }
  if (methods.has('update')) {
    schemas[writeSchemaName(def, 'update')] = def.bodyWrites ? modeBodySchema(def.bodyWrites, 'update') : writeSchema(def, 'update');
    item.put = op(
      {
        operationId: `${def.plural}Update`,
        summary: `Update ${w.aOne}`,
        description: 'Only the fields sent change.',
        parameters: [idPathParameter(), ...apiIdParams],
        requestBody: body('update'),
        responses: { 200: responseOf(`The updated ${w.one}.`, single) },
      },
      writeErrors,
    );
  }
  if (methods.has('delete')) {
    item.delete = op(
      {
        operationId: `${def.plural}Delete`,
        summary: `Delete ${w.aOne}`,
        parameters: [idPathParameter(), ...apiIdParams],
        responses: { 204: { description: 'Deleted (no body).' } },
      },
      [...COMMON_ERRORS, 409, 422],
    );
  }
  // Body-dispatched writes: one request schema per route over the field table, each field saying which actions take it.
  const bodyActions = def.bodyActions;
  const actionWrite = (route: BodyActionRoute, status: 200 | 201, parameters: Record<string, unknown>[]): OpenApiOperation => {
    const fields = bodyActions?.fields ?? [];
    schemas[route.schemaName] = actionBodySchema(fields, route);
    Object.assign(schemas, actionSchemas(fields, route));
    const examples = Object.fromEntries(Object.entries(route.actions).flatMap(([name, a]) => (a.example ? [[name, { summary: a.example.summary, value: { [def.name]: a.example.value } }]] : [])));
    const content = jsonContent(wrapper(def.name, ref(route.schemaName)));
    const withExamples = Object.keys(examples).length ? { 'application/json': { ...content['application/json'], examples } } : content;
    return op(
      { operationId: route.operationId, summary: route.summary, ...(parameters.length ? { parameters } : {}), requestBody: { required: true, content: withExamples }, responses: { [status]: responseOf(route.answer, single) } },
      [...COMMON_ERRORS, ...BODY_ERRORS],
    );
  };
  if (bodyActions?.create) collection.post = actionWrite(bodyActions.create, 201, []);
  if (bodyActions?.update) item.put = actionWrite(bodyActions.update, 200, [idPathParameter(), ...apiIdParams]);

  const paths: OpenApiPart['paths'] = {};
  if (Object.keys(collection).length) paths[base] = collection;
  if (Object.keys(item).length) paths[`${base}/{id}`] = item;
  for (const [name, action] of Object.entries(def.actions ?? {})) {
    const answers = action.answers;
    if (action.method === 'get' && answers) {
      schemas[answers.schemaName] = answers.schema;
      paths[`${base}/{id}/${name}`] = {
        get: op(
          {
            operationId: action.operationId ?? `${def.plural}${pascal(name)}`,
            summary: action.summary,
            ...(action.description ? { description: action.description } : {}),
            parameters: [idPathParameter('The record id.')],
            responses: { 200: responseOf(action.answer, wrapper(answers.wrapper, ref(answers.schemaName))) },
          },
          [...COMMON_ERRORS, 422],
        ),
      };
      continue;
    }
    paths[`${base}/{id}/${name}`] = {
      post: op(
        {
          operationId: `${def.plural}${pascal(name)}`,
          summary: action.summary,
          description: action.description ?? 'No body.',
          parameters: [idPathParameter('The record id.')],
          responses: { 200: responseOf(action.answer, single) },
        },
        COMMON_ERRORS,
      ),
    };
  }
  const verbs = { list: 'list', view: 'view', create: 'create', update: 'update', delete: 'delete' } as const;
  const description = def.about ?? `${labelOf(def.name)} records (${def.methods.map((m) => verbs[m]).join(', ')}).`;
  return { paths, schemas, tags: [{ name: tag, description }] };
}
