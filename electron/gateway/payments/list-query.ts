/**
 * List requests of the payment resources: scope, sort, page and `meta` over explicit
 * column specs (the transaction list must stay fast at a million rows); the filters use
 * the engine's one filter grammar (`filterCondition` in framework/list.ts):
 * ids and codes match exactly (so they use indexes), free text by substring, numbers
 * and timestamps also as `lo|hi` ranges; amounts are decimal strings turned into cents.
 * The caller's locations scope every query; with one visible location it is an equality,
 * so (location_id, created_ts) serves the default sort without a sort step.
 */
import type { FastifyRequest } from 'fastify';
import type { AuthInfo } from '../framework/context';
import type { Clock } from '../framework/clock';
import { ApiError, MSG, fmt } from '../framework/errors';
import { filterCondition, listMetaOf, readPaging } from '../framework/list';
import type { FilterKind } from '../framework/resource';

export type ColumnKind = FilterKind;

export interface ColumnSpec {
  /** SQL expression (a column name, or json_extract(doc, '$.x')). */
  sql: string;
  kind: ColumnKind;
  sortable?: boolean;
}

export interface ListSpec {
  table: string;
  columns: Record<string, ColumnSpec>;
  /** e.g. `-created_ts` */
  defaultSort: string;
}

export interface ListPlan {
  where: string;
  params: unknown[];
  orderBy: string;
  page: number;
  pageSize: number;
  sortField: string;
  sortDir: 'asc' | 'desc';
  /** Number of filter conditions beyond the location scope. */
  filterCount: number;
  /** The locations the scope condition admits (undefined for an explicit location_id outside them). */
  scopedLocations: readonly string[];
}

const RESERVED = new Set(['page', 'page_size', 'per-page', 'sort', 'expand', 'api_id', 'developer-id', 'user-id', 'user-api-key', 'fields']);

function one(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && typeof v[v.length - 1] === 'string') return v[v.length - 1] as string;
  return undefined;
}

/**
 * `scopeLocations`: the caller's locations that can hold rows at all (the transaction
 * list passes the locations that have transactions, so a user of a parent and a child
 * location still gets an equality and an index-ordered scan).
 */
export function planList(spec: ListSpec, req: FastifyRequest, auth: AuthInfo, clock: Clock, scopeLocations?: readonly string[]): ListPlan {
  const q = (req.query ?? {}) as Record<string, unknown>;
  const conds: string[] = [];
  const params: unknown[] = [];

  // Scope to the caller's locations.
  const loc = one(q.location_id);
  let scope = scopeLocations ?? auth.locationIds;
  // location_id=a,b narrows the scope to those of the caller's locations.
  if (loc !== undefined && loc.includes(',')) {
    const wanted = new Set(loc.split(','));
    scope = scope.filter((l) => wanted.has(l));
  }
  let scopedLocations: readonly string[] = scope;
  if (loc !== undefined && loc !== '' && !loc.includes(',')) {
    if (auth.locationSet.has(loc)) {
      conds.push('location_id = ?');
      params.push(loc);
      scopedLocations = [loc];
    } else {
      conds.push('0');
      scopedLocations = [];
    }
  } else if (scope.length === 0) {
    conds.push('0');
  } else if (scope.length === 1) {
    conds.push('location_id = ?');
    params.push(scope[0]);
  } else {
    conds.push('location_id IN (SELECT value FROM json_each(?))');
    params.push(scope === auth.locationIds ? auth.locationsJson : JSON.stringify(scope));
  }

  // Filters: the engine's one filter grammar (framework/list.ts), over this spec's columns.
  for (const [key, raw] of Object.entries(q)) {
    if (RESERVED.has(key) || key === 'location_id') continue;
    const col = Object.hasOwn(spec.columns, key) ? spec.columns[key] : undefined;
    const value = one(raw);
    if (!col || value === undefined || value === '') continue;
    filterCondition(clock, key, col.sql, col.kind, value, q, conds, params);
  }

  const sortRaw = one(q.sort) || spec.defaultSort;
  const sortDir: 'asc' | 'desc' = sortRaw.startsWith('-') ? 'desc' : 'asc';
  const sortField = sortRaw.replace(/^[-+]/, '');
  const sortCol = Object.hasOwn(spec.columns, sortField) ? spec.columns[sortField] : undefined;
  if (!sortCol || sortCol.sortable === false) throw new ApiError(422, { sort: [fmt(MSG.BAD_SORT, { field: sortField })] });

  const { page, perPage: pageSize } = readPaging(q);

  return {
    filterCount: conds.length - 1,
    scopedLocations,
    where: conds.join(' AND '),
    params,
    orderBy: `${sortCol.sql} ${sortDir.toUpperCase()}, rowid ${sortDir.toUpperCase()}`,
    page,
    pageSize,
    sortField,
    sortDir,
  };
}

/** `meta` of a list answer: the engine's one pagination and sort shape. */
export function listMeta(req: FastifyRequest, origin: string, plan: ListPlan, total: number): Record<string, unknown> {
  return listMetaOf(origin, req, { page: plan.page, perPage: plan.pageSize, total, sortName: plan.sortField, desc: plan.sortDir === 'desc' });
}
