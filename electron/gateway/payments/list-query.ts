/**
 * List requests of the payment resources: filters, sort, page and `meta`, the same
 * conventions as the engine's generic lists (GATEWAY-FACTS "Lists"), written here over
 * explicit column specs because the transaction list must stay fast at a million rows:
 * ids and codes match exactly (so they use indexes), free text by substring, numbers
 * and timestamps also as `lo|hi` ranges; amounts are decimal strings turned into cents.
 * The caller's locations scope every query; with one visible location it is an equality,
 * so (location_id, created_ts) serves the default sort without a sort step.
 */
import type { FastifyRequest } from 'fastify';
import { parseMoney } from '../../../shared/payments/money';
import type { AuthInfo } from '../framework/context';
import type { Clock } from '../framework/clock';
import { ApiError, MSG, fmt, labelOf } from '../framework/errors';
import { listMetaOf, readPaging } from '../framework/list';
import { isNamedRange, namedRange, NAMED_RANGES } from '../framework/timestamp-ranges';

export type ColumnKind = 'exact' | 'text' | 'number' | 'money' | 'timestamp' | 'boolean';

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

function badFilter(field: string): ApiError {
  return new ApiError(422, { [field]: [fmt(MSG.BAD_FILTER, { attribute: labelOf(field) })] });
}

function numberValue(field: string, kind: ColumnKind, s: string): number {
  if (kind === 'money') {
    const c = parseMoney(s);
    if (c === null) throw badFilter(field);
    return c;
  }
  if (!/^-?\d{1,15}(\.\d+)?$/.test(s)) throw badFilter(field);
  return Number(s);
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

  for (const [key, raw] of Object.entries(q)) {
    if (RESERVED.has(key) || key === 'location_id' || key.endsWith('_from') || key.endsWith('_to')) continue;
    const col = Object.hasOwn(spec.columns, key) ? spec.columns[key] : undefined;
    const value = one(raw);
    if (!col || value === undefined || value === '') continue;
    switch (col.kind) {
      case 'exact':
      case 'text': {
        const list = value.split(',');
        if (list.length > 1) {
          conds.push(`${col.sql} IN (${list.map(() => '?').join(', ')})`);
          params.push(...list);
        } else if (col.kind === 'exact') {
          conds.push(`${col.sql} = ?`);
          params.push(value);
        } else {
          conds.push(`${col.sql} LIKE ? ESCAPE '\\'`);
          params.push(`%${value.replace(/[\\%_]/g, (m) => '\\' + m)}%`);
        }
        break;
      }
      case 'boolean': {
        const b = value === '1' || value === 'true' ? 1 : value === '0' || value === 'false' ? 0 : undefined;
        if (b === undefined) throw badFilter(key);
        conds.push(`${col.sql} = ?`);
        params.push(b);
        break;
      }
      case 'number':
      case 'money':
      case 'timestamp': {
        let range: [number, number] | undefined;
        if (col.kind === 'timestamp' && isNamedRange(value)) range = namedRange(value, clock.now());
        else if (col.kind === 'timestamp' && value === 'custom') {
          const from = one(q[`${key}_from`]);
          const to = one(q[`${key}_to`]);
          range = [from ? numberValue(key, 'number', from) : 0, to ? numberValue(key, 'number', to) : Number.MAX_SAFE_INTEGER];
        } else if (value.includes('|')) {
          const [lo, hi] = value.split('|', 2);
          range = [lo ? numberValue(key, col.kind, lo) : -Number.MAX_SAFE_INTEGER, hi ? numberValue(key, col.kind, hi) : Number.MAX_SAFE_INTEGER];
        }
        if (range) {
          conds.push(`${col.sql} BETWEEN ? AND ?`);
          params.push(range[0], range[1]);
        } else if (col.kind === 'timestamp' && !/^-?\d+(,-?\d+)*$/.test(value)) {
          throw new ApiError(422, { [key]: [fmt(MSG.BAD_TS_RANGE, { attribute: labelOf(key), ranges: NAMED_RANGES.join(', ') })] });
        } else {
          const list = value.split(',').map((v) => numberValue(key, col.kind, v));
          conds.push(list.length > 1 ? `${col.sql} IN (${list.map(() => '?').join(', ')})` : `${col.sql} = ?`);
          params.push(...list);
        }
        break;
      }
    }
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
