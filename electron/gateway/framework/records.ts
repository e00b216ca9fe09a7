/**
 * Record access shared by every resource: scoped visibility (a user reads and changes
 * only records of its locations; anything else is a 404 as if it did not exist),
 * api_id addressing, and declaration-driven INSERT/UPDATE.
 */
import type { FastifyRequest } from 'fastify';
import { MSG, fieldError, notFound } from './errors';
import type { AuthInfo, EngineContext } from './context';
import type { ResourceDef, Row } from './resource';

/** SQL condition (and its parameters) restricting `def`'s rows to the caller's locations. */
export function scopeSql(def: ResourceDef, auth: AuthInfo | undefined, alias = ''): { sql: string; params: unknown[] } {
  const p = alias ? `${alias}.` : '';
  const s = def.scope;
  if (s.kind === 'none') return { sql: '1', params: [] };
  const json = auth?.locationsJson ?? '[]';
  if (s.kind === 'column') return { sql: `${p}"${s.column}" IN (SELECT value FROM json_each(?))`, params: [json] };
  if (s.kind === 'self') return { sql: `${p}id IN (SELECT value FROM json_each(?))`, params: [json] };
  const parts = s.where.split(':locations');
  return { sql: `(${parts.join('(SELECT value FROM json_each(?))')})`, params: parts.slice(1).map(() => json) };
}

function normaliseId(def: ResourceDef, id: unknown): unknown {
  if (def.idKind === 'integer') {
    if (typeof id === 'number') return id;
    if (typeof id === 'string' && /^\d{1,15}$/.test(id)) return Number(id);
    return undefined;
  }
  return typeof id === 'string' && id.length <= 64 ? id : undefined;
}

export function getById(ctx: EngineContext, def: ResourceDef, id: unknown): Row | undefined {
  const key = normaliseId(def, id);
  if (key === undefined) return undefined;
  return ctx.stmt(`SELECT * FROM "${def.table}" WHERE id = ?`).get(key) as Row | undefined;
}

export function isVisible(ctx: EngineContext, def: ResourceDef, row: Row, auth: AuthInfo | undefined): boolean {
  const s = def.scope;
  if (s.kind === 'none') return true;
  if (!auth) return false;
  if (s.kind === 'column') return auth.locationSet.has(row[s.column] as string);
  if (s.kind === 'self') return auth.locationSet.has(row.id as string);
  const sc = scopeSql(def, auth);
  return ctx.stmt(`SELECT 1 FROM "${def.table}" WHERE id = ? AND ${sc.sql}`).get(row.id, ...sc.params) !== undefined;
}

export function getVisible(ctx: EngineContext, def: ResourceDef, id: unknown, auth: AuthInfo): Row | undefined {
  const row = getById(ctx, def, id);
  return row && isVisible(ctx, def, row, auth) ? row : undefined;
}

function queryOne(req: FastifyRequest, name: string): string | undefined {
  const v = (req.query as Record<string, unknown> | undefined)?.[name];
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && typeof v[v.length - 1] === 'string') return v[v.length - 1] as string;
  return undefined;
}

/** `?api_id=true` or `?api_id=1` switches the path id to the resource's api id; `false`/`0` (or none) keep it; anything else is a 422. */
export function wantsApiId(req: FastifyRequest): boolean {
  const v = queryOne(req, 'api_id');
  if (v === undefined || v === '' || v === 'false' || v === '0') return false;
  if (v === 'true' || v === '1') return true;
  throw fieldError('api_id', MSG.BAD_API_ID);
}

/** Looks a record up by its integrator id within a location (undefined when absent or not visible). */
export function findByApiId(ctx: EngineContext, def: ResourceDef, apiId: string, locationId: string, auth: AuthInfo): Row | undefined {
  if (!def.apiId) return undefined;
  const row = ctx
    .stmt(`SELECT * FROM "${def.table}" WHERE "${def.apiId.field}" = ? AND "${def.apiId.scopeColumn}" = ?`)
    .get(apiId, locationId) as Row | undefined;
  return row && isVisible(ctx, def, row, auth) ? row : undefined;
}

/**
 * Resolves a path segment to a record the caller may see: by id, or — with
 * `?api_id=true|1&location_id=` — by integrator id within that location. 404 otherwise;
 * 422 when api_id addressing lacks its location. Shared by the generic routes and the
 * hand-written resources (payments), which bring their own lookups.
 */
export function resolvePathRecord<T>(
  req: FastifyRequest,
  idOrApiId: string,
  lookups: { byApiId?: (locationId: string, apiId: string) => T | undefined; byId: (id: string) => T | undefined },
): T {
  if (lookups.byApiId && wantsApiId(req)) {
    const locationId = queryOne(req, 'location_id');
    if (!locationId) throw fieldError('location_id', MSG.API_ID_NEEDS_LOCATION);
    const row = lookups.byApiId(locationId, idOrApiId);
    if (!row) throw notFound();
    return row;
  }
  const row = lookups.byId(idOrApiId);
  if (!row) throw notFound();
  return row;
}

export function findVisible(ctx: EngineContext, def: ResourceDef, idOrApiId: string, req: FastifyRequest): Row {
  return resolvePathRecord(req, idOrApiId, {
    ...(def.apiId ? { byApiId: (loc: string, apiId: string) => findByApiId(ctx, def, apiId, loc, req.auth) } : {}),
    byId: (id) => getVisible(ctx, def, id, req.auth),
  });
}

/** Throws 422 TAKEN when `values` would duplicate an api id within its scope. */
export function checkApiIdUnique(ctx: EngineContext, def: ResourceDef, values: Row, existing?: Row): void {
  if (!def.apiId) return;
  const { field, scopeColumn } = def.apiId;
  const apiId = field in values ? values[field] : existing?.[field];
  const scope = scopeColumn in values ? values[scopeColumn] : existing?.[scopeColumn];
  if (apiId === null || apiId === undefined || scope === undefined) return;
  const clash = ctx
    .stmt(`SELECT id FROM "${def.table}" WHERE "${field}" = ? AND "${scopeColumn}" IS ? AND id IS NOT ?`)
    .get(apiId, scope ?? null, existing?.id ?? null);
  if (clash) throw fieldError(field, MSG.TAKEN, { value: String(apiId) });
}

function storable(def: ResourceDef, values: Row): [string[], unknown[]] {
  const cols: string[] = [];
  const vals: unknown[] = [];
  for (const [k, v] of Object.entries(values)) {
    const f = Object.hasOwn(def.fields, k) ? def.fields[k] : undefined;
    if (k !== 'id' && (!f || f.virtual || f.computed)) continue;
    cols.push(k);
    if (f?.type === 'json') vals.push(v === null || v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v));
    else if (f?.type === 'boolean' && typeof v === 'boolean') vals.push(v ? 1 : 0);
    else vals.push(v === undefined ? null : v);
  }
  return [cols, vals];
}

export function insertRecord(ctx: EngineContext, def: ResourceDef, values: Row, auth?: AuthInfo): Row {
  const now = ctx.clock.now();
  const v: Row = { ...values };
  if (v.id === undefined && def.idKind !== 'integer') v.id = ctx.newId(def.idKind === 'hex24' ? 'hex24' : 'uuid');
  if ('created_ts' in def.fields && v.created_ts === undefined) v.created_ts = now;
  if ('modified_ts' in def.fields && v.modified_ts === undefined) v.modified_ts = now;
  if (auth && 'created_user_id' in def.fields && v.created_user_id === undefined) v.created_user_id = auth.userId;
  if (auth && 'modified_user_id' in def.fields && v.modified_user_id === undefined) v.modified_user_id = auth.userId;
  const [cols, vals] = storable(def, v);
  const sql = `INSERT INTO "${def.table}" (${cols.map((c) => `"${c}"`).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`;
  const info = ctx.stmt(sql).run(...vals);
  const row = getById(ctx, def, v.id ?? Number(info.lastInsertRowid));
  if (!row) throw new Error(`insert into ${def.table} did not persist`);
  return row;
}

export function updateRecord(ctx: EngineContext, def: ResourceDef, id: unknown, values: Row, auth?: AuthInfo): Row {
  const v: Row = { ...values };
  delete v.id;
  if ('modified_ts' in def.fields) v.modified_ts = ctx.clock.now();
  if (auth && 'modified_user_id' in def.fields) v.modified_user_id = auth.userId;
  const [cols, vals] = storable(def, v);
  if (cols.length > 0) {
    const sql = `UPDATE "${def.table}" SET ${cols.map((c) => `"${c}" = ?`).join(', ')} WHERE id = ?`;
    ctx.stmt(sql).run(...vals, id);
  }
  const row = getById(ctx, def, id);
  if (!row) throw notFound();
  return row;
}
