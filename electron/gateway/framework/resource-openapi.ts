/**
 * OpenAPI from a resource declaration: the generic routes it mounts (list, view, create,
 * update, delete), their query parameters (the declared filters, paging, sort, expands,
 * api id addressing), the record schema (from the declared fields) and the request
 * schemas (each writable field's from field-openapi.ts fieldSchema, as every declared
 * field's; required-on-create). Hand-written routes reuse `recordSchemaName` /
 * `writeSchemaName` to point at the same shapes.
 *
 * Readings: a response record has every declared, readable field (null when empty) plus
 * whatever `decorate` and expands add, so record schemas allow additional properties.
 * The request schemas say exactly what the engine takes (digit strings for integers,
 * "1"/"0" for booleans, "" or null to clear an optional field): a value the document
 * refuses is refused by the engine with a 422 naming the field.
 */
import { actionBodySchema, actionSchemas, modeBodySchema } from './body-openapi';
import { digitsRuleOf } from './card-mask';
import { labelOf } from './errors';
import { filtersOf } from './list';
import { fieldSchema } from './field-openapi';
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
    // null or "" clears an optional field (or restores its default); the reader refuses it as blank on the others.
    const clearable = !f.required && f.nullable !== false;
    const notes = clearable ? [f.default !== undefined ? 'null or "" restores the default.' : 'null or "" clears it.'] : f.required ? [] : ['May be left out, not emptied.'];
    properties[name] = fieldSchema(name, f, { empty: clearable ? 'accepted' : 'blank', notes, digits: digitsRuleOf(def, name, f) });
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
