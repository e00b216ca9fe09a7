/**
 * The engine's one list planner, for declared resources and the money lists alike
 * (transactions, account vaults, batches): filters in one grammar (`filterCondition`:
 * ids and codes exact, free text by substring, numbers and timestamps also as `lo|hi`,
 * amounts as decimal strings compared in cents, timestamps by named range), sort and
 * -sort over sortable columns, page/page_size (default 20, capped at 5000), and the
 * `meta` block (pagination links, totalCount, perPage, pageCount, currentPage;
 * sort.attributes).
 *
 * The SQL is index friendly: conditions are plain comparisons on columns, the location
 * scope is an equality when one location is visible, ORDER BY is one column plus rowid
 * (every SQLite index ends with rowid, so an index on the sort column serves the ORDER
 * BY), paging is LIMIT/OFFSET, and COUNT(*) uses the same WHERE.
 */
import type { FastifyRequest } from 'fastify';
import { parseMoney } from '../../../shared/payments/money';
import type { Clock } from './clock';
import { maskCardNumbers } from './card-mask';
import { ErrorCollector, MSG, fieldError, fmt, unprocessable } from './errors';
import type { AuthInfo, EngineContext, ListExtra, ListResult } from './context';
import type { FilterKind, ResourceDef, Row, StoredFieldDef } from './resource';
import { scopeSql } from './records';
import { NAMED_RANGES, isNamedRange, namedRange } from './timestamp-ranges';
import { parseBoolean, parseNumber } from './validate';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 5000;

/** Query parameters that are never filters. */
const RESERVED = new Set(['page', 'page_size', 'per-page', 'sort', 'expand', 'api_id', 'developer-id', 'user-id', 'user-api-key', 'relationship', 'fields']);
/** Stripped from the pagination links so credentials in a query string are not echoed back. */
const SECRET_PARAMS = ['developer-id', 'user-id', 'user-api-key'];

export function filterKindOf(name: string, f: StoredFieldDef): FilterKind | false {
  if (f.filter !== undefined) return f.filter;
  if (f.writeOnly || f.virtual || f.computed) return false;
  switch (f.type) {
    case 'json':
      return false;
    case 'boolean':
      return 'boolean';
    case 'integer':
    case 'number':
      return name.endsWith('_ts') ? 'timestamp' : 'number';
    case 'date':
      return 'exact';
    case 'string':
      return name === 'id' || name.endsWith('_id') || f.enum ? 'exact' : 'text';
  }
}

function lastString(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) {
    const s = v.filter((x) => typeof x === 'string');
    return s[s.length - 1];
  }
  return undefined;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function numericList(parts: string[], name: string, kind: FilterKind = 'number'): number[] {
  const nums = parts.map((p) => (kind === 'money' ? (parseMoney(p.trim()) ?? undefined) : parseNumber(p.trim())));
  if (nums.some((n) => n === undefined)) throw fieldError(name, MSG.BAD_FILTER);
  return nums as number[];
}

/**
 * Builds the condition for one filter parameter: the one filter grammar of every list
 * (generic resources and the payment resources' hand-written lists). `col` is an SQL
 * expression (a quoted column, or json_extract over a stored document).
 */
export function filterCondition(clock: Clock, name: string, col: string, kind: FilterKind, value: string, query: Record<string, unknown>, where: string[], params: unknown[]): void {
  if (value.length > 4096) throw fieldError(name, MSG.BAD_FILTER);
  if (kind === 'boolean') {
    const b = parseBoolean(value);
    if (b === undefined) throw fieldError(name, MSG.BAD_FILTER);
    where.push(`${col} = ?`);
    params.push(b);
    return;
  }
  if (kind === 'text' || kind === 'exact') {
    if (value.includes(',')) {
      const parts = value.split(',');
      where.push(`${col} IN (${parts.map(() => '?').join(',')})`);
      params.push(...parts);
    } else if (kind === 'text') {
      where.push(`${col} LIKE ? ESCAPE '\\'`);
      params.push(`%${escapeLike(value)}%`);
    } else {
      where.push(`${col} = ?`);
      params.push(value);
    }
    return;
  }
  if (kind === 'suffix') {
    // LIKE: SQLite compares ASCII letters in any case, so a short Ref printed in capitals finds a lower-case id.
    where.push(`${col} LIKE ? ESCAPE '\\'`);
    params.push(`%${escapeLike(value)}`);
    return;
  }
  if (kind === 'timestamp') {
    const v = value.trim().toLowerCase();
    if (isNamedRange(v)) {
      const [from, to] = namedRange(v, clock.now());
      where.push(`${col} BETWEEN ? AND ?`);
      params.push(from, to);
      return;
    }
    if (v === 'custom') {
      const from = lastString(query[`${name}_from`]);
      const to = lastString(query[`${name}_to`]);
      const f = from === undefined || from === '' ? undefined : parseNumber(from);
      const t = to === undefined || to === '' ? undefined : parseNumber(to);
      if ((from && f === undefined) || (to && t === undefined) || (f === undefined && t === undefined)) {
        throw fieldError(name, MSG.BAD_TS_RANGE, { ranges: [...NAMED_RANGES, 'custom'].join(', ') });
      }
      if (f !== undefined) {
        where.push(`${col} >= ?`);
        params.push(f);
      }
      if (t !== undefined) {
        where.push(`${col} <= ?`);
        params.push(t);
      }
      return;
    }
  }
  // number (and timestamp given as number / list / range)
  if (value.includes('|')) {
    const [lo = '', hi = '', ...rest] = value.split('|');
    if (rest.length > 0) throw fieldError(name, MSG.BAD_FILTER);
    const l = lo.trim() === '' ? undefined : numericList([lo], name, kind)[0];
    const h = hi.trim() === '' ? undefined : numericList([hi], name, kind)[0];
    if (l === undefined && h === undefined) throw fieldError(name, MSG.BAD_FILTER);
    if (l !== undefined) {
      where.push(`${col} >= ?`);
      params.push(l);
    }
    if (h !== undefined) {
      where.push(`${col} <= ?`);
      params.push(h);
    }
    return;
  }
  if (value.includes(',')) {
    const nums = numericList(value.split(','), name, kind);
    where.push(`${col} IN (${nums.map(() => '?').join(',')})`);
    params.push(...nums);
    return;
  }
  const n = kind === 'money' ? (parseMoney(value.trim()) ?? undefined) : parseNumber(value.trim());
  if (n === undefined) {
    if (kind === 'timestamp') throw fieldError(name, MSG.BAD_TS_RANGE, { ranges: [...NAMED_RANGES, 'custom'].join(', ') });
    throw fieldError(name, MSG.BAD_FILTER);
  }
  where.push(`${col} = ?`);
  params.push(n);
}

/** Filter parameter name → [column, kind] for a resource (declared name and output name). */
const filterMaps = new WeakMap<ResourceDef, Map<string, [string, FilterKind]>>();
export function filtersOf(def: ResourceDef): Map<string, [string, FilterKind]> {
  let m = filterMaps.get(def);
  if (!m) {
    m = new Map();
    if (!('id' in def.fields)) m.set('id', ['id', def.idKind === 'integer' ? 'number' : 'exact']);
    for (const [name, f] of Object.entries(def.fields)) {
      const kind = filterKindOf(name, f);
      if (!kind) continue;
      m.set(name, [name, kind]);
      if (f.outputName) m.set(f.outputName, [name, kind]);
    }
    filterMaps.set(def, m);
  }
  return m;
}

/** One list parameter: the SQL it filters and sorts on, how it filters, whether it sorts. */
export interface ListColumn {
  /** SQL expression (a quoted column, or json_extract over a stored document). */
  sql: string;
  /** How a query parameter of this name filters; `false`: it does not. */
  kind: FilterKind | false;
  /** Default true. */
  sortable?: boolean;
  /** What ORDER BY uses when it differs from `sql`. */
  sortSql?: string;
  /** The name the `meta.sort` block reports (a field's response name); default the parameter's. */
  name?: string;
}

/** What a list may filter and sort on: declared resources derive it (`listSpecOf`), the payment lists spell it out. */
export interface ListSpec {
  table: string;
  columns: Readonly<Record<string, ListColumn>>;
  /** e.g. `-created_ts` */
  defaultSort: string;
}

/** Which rows the caller may see: one SQL condition. */
export interface ListScope {
  sql: string;
  params: unknown[];
  /** The locations the condition admits, when it is a location scope (locationScope). */
  locations?: readonly string[];
  /** The scope already applied `location_id` (it is not a filter then). */
  takesLocationId?: boolean;
}

export interface ListPlan {
  where: string;
  params: unknown[];
  orderBy: string;
  page: number;
  pageSize: number;
  sortName: string;
  desc: boolean;
  /** Number of filter conditions beyond the scope. */
  filterCount: number;
  /** The locations the scope admits (location scopes only). */
  scopedLocations: readonly string[];
}

const listSpecs = new WeakMap<ResourceDef, ListSpec>();
/** A declared resource's list parameters: every declared field (and its response name) plus `id`. */
export function listSpecOf(def: ResourceDef): ListSpec {
  let spec = listSpecs.get(def);
  if (spec) return spec;
  const columns: Record<string, ListColumn> = {};
  const filters = filtersOf(def);
  const add = (param: string, name: string, f: StoredFieldDef | undefined) => {
    const kind = filters.get(param)?.[1] ?? false;
    const sortable = name === 'id' || (f !== undefined && !f.virtual && !f.writeOnly && !f.computed && f.type !== 'json' && f.sortable !== false);
    // Declared money fields are stored as decimal strings ("10.00"): filtered as integer cents, sorted as stored.
    const sql = kind === 'money' ? `CAST(ROUND("${name}" * 100) AS INTEGER)` : `"${name}"`;
    columns[param] = { sql, sortSql: `"${name}"`, kind, sortable, name: f?.outputName ?? name };
  };
  if (!Object.hasOwn(def.fields, 'id')) add('id', 'id', undefined);
  for (const [name, f] of Object.entries(def.fields)) {
    add(name, name, f);
    if (f.outputName) add(f.outputName, name, f);
  }
  spec = { table: def.table, columns, defaultSort: def.defaultSort };
  listSpecs.set(def, spec);
  return spec;
}

/**
 * The location scope of the money lists (and of every resource scoped by `location_id`):
 * with one visible location it is an equality, so an index on (location_id, created_ts)
 * serves the default sort without a sort step; `location_id=x` (one of the caller's) narrows
 * it to that equality, `location_id=a,b` to those of the caller's locations, any other to
 * nothing. `scopeLocations`: the caller's locations that can hold rows at all (the
 * transaction list passes those that have transactions, so a user of a parent and a child
 * location still gets an equality and an index-ordered scan).
 */
export function locationScope(req: FastifyRequest, auth: AuthInfo, scopeLocations?: readonly string[]): ListScope {
  const loc = lastString(((req.query ?? {}) as Record<string, unknown>).location_id);
  let scope = scopeLocations ?? auth.locationIds;
  if (loc !== undefined && loc.includes(',')) {
    const wanted = new Set(loc.split(','));
    scope = scope.filter((l) => wanted.has(l));
  }
  const base = { takesLocationId: true };
  if (loc !== undefined && loc !== '' && !loc.includes(',')) {
    return auth.locationSet.has(loc) ? { ...base, sql: 'location_id = ?', params: [loc], locations: [loc] } : { ...base, sql: '0', params: [], locations: [] };
  }
  if (scope.length === 0) return { ...base, sql: '0', params: [], locations: scope };
  if (scope.length === 1) return { ...base, sql: 'location_id = ?', params: [scope[0]], locations: scope };
  return { ...base, sql: 'location_id IN (SELECT value FROM json_each(?))', params: [scope === auth.locationIds ? auth.locationsJson : JSON.stringify(scope)], locations: scope };
}

/** The scope of a declared resource: its location column through `locationScope`, else records.ts's `scopeSql`. */
export function scopeOf(def: ResourceDef, req: FastifyRequest): ListScope {
  if (def.scope.kind === 'column' && def.scope.column === 'location_id' && req.auth) return locationScope(req, req.auth);
  return scopeSql(def, req.auth);
}

/**
 * The engine's one list planner: scope, the one filter grammar over the spec's columns,
 * sort (one column plus rowid, so an index on the sort column serves the ORDER BY) and
 * page. Unknown parameters are ignored; a sort on anything but a sortable column is a 422.
 */
export function planList(spec: ListSpec, req: FastifyRequest, clock: Clock, scope: ListScope, extra: ListExtra = {}): ListPlan {
  const query = (req.query ?? {}) as Record<string, unknown>;
  const { page, perPage } = readPaging(query);
  const where: string[] = [scope.sql];
  const params: unknown[] = [...scope.params];
  if (extra.where) {
    where.push(`(${extra.where})`);
    params.push(...(extra.params ?? []));
  }
  const fixed = where.length;
  for (const [key, rawValue] of Object.entries(query)) {
    if (RESERVED.has(key) || (key === 'location_id' && scope.takesLocationId)) continue;
    const col = Object.hasOwn(spec.columns, key) ? spec.columns[key] : undefined;
    if (!col || !col.kind) continue; // unknown parameters are ignored
    const value = lastString(rawValue);
    if (value === undefined || value === '') continue;
    filterCondition(clock, key, col.sql, col.kind, value, query, where, params);
  }
  const raw = lastString(query.sort);
  const sortSpec = raw && raw.trim() !== '' ? raw.trim() : spec.defaultSort;
  const desc = sortSpec.startsWith('-');
  const asked = sortSpec.replace(/^[-+]/, '');
  const sortCol = Object.hasOwn(spec.columns, asked) ? spec.columns[asked] : undefined;
  if (!sortCol || sortCol.sortable === false) throw unprocessable({ sort: [fmt(MSG.BAD_SORT, { field: asked.slice(0, 64) })] });
  const dir = desc ? 'DESC' : 'ASC';
  const sortSql = sortCol.sortSql ?? sortCol.sql;
  return {
    where: where.join(' AND '),
    params,
    orderBy: `${sortSql} ${dir}, rowid ${dir}`,
    page,
    pageSize: perPage,
    sortName: sortCol.name ?? asked,
    desc,
    filterCount: where.length - fixed,
    scopedLocations: scope.locations ?? [],
  };
}

/** The filter parameters of a list and how each filters (the OpenAPI document lists them). */
export function listFilters(spec: ListSpec): [string, FilterKind][] {
  return Object.entries(spec.columns).flatMap(([name, c]) => (c.kind ? [[name, c.kind] as [string, FilterKind]] : []));
}

/** Runs a plan: the page of rows and the total (`countOf`: a cheaper total for an unfiltered list). */
export function runList<R = Row>(ctx: EngineContext, spec: ListSpec, plan: ListPlan, countOf?: (plan: ListPlan) => number | undefined): { rows: R[]; total: number } {
  const total = countOf?.(plan) ?? (ctx.stmt(`SELECT COUNT(*) AS n FROM "${spec.table}" WHERE ${plan.where}`).get(...plan.params) as { n: number }).n;
  const rows = ctx
    .stmt(`SELECT * FROM "${spec.table}" WHERE ${plan.where} ORDER BY ${plan.orderBy} LIMIT ? OFFSET ?`)
    .all(...plan.params, plan.pageSize, (plan.page - 1) * plan.pageSize) as R[];
  return { rows, total };
}

function pageParam(v: string | undefined, fallback: number, field: 'page' | 'page_size', errs: ErrorCollector): number {
  if (v === undefined || v === '') return fallback;
  if (!/^\d{1,9}$/.test(v) || Number(v) < 1) {
    (errs.errors[field] ??= []).push(field === 'page' ? MSG.BAD_PAGE : MSG.BAD_PAGE_SIZE);
    return fallback;
  }
  return Number(v);
}

/** `page` (1-based) and `page_size` (alias `per-page`; default 20, capped at 5000) of a list request; 422 when malformed. */
export function readPaging(query: Record<string, unknown>): { page: number; perPage: number } {
  const errs = new ErrorCollector();
  const page = pageParam(lastString(query.page), 1, 'page', errs);
  const perPage = Math.min(pageParam(lastString(query.page_size ?? query['per-page']), DEFAULT_PAGE_SIZE, 'page_size', errs), MAX_PAGE_SIZE);
  errs.throwIfAny();
  return { page, perPage };
}

function linkTo(origin: string, req: FastifyRequest, page: number): { href: string } {
  const url = new URL(req.url, 'http://x');
  // Credentials sent as query parameters never travel on in the links of an answer.
  for (const s of SECRET_PARAMS) url.searchParams.delete(s);
  // Nor does a card number someone typed into a filter.
  for (const [k, v] of [...url.searchParams]) if (maskCardNumbers(v) !== v) url.searchParams.set(k, maskCardNumbers(v));
  url.searchParams.set('page', String(page));
  return { href: `${origin}${url.pathname}?${url.searchParams.toString()}` };
}

/** The `meta` of every list answer: pagination links and counts, and the sort. */
export function listMetaOf(origin: string, req: FastifyRequest, p: ListPlan, total: number): Record<string, unknown> {
  const pageCount = Math.ceil(total / p.pageSize);
  const links: Record<string, { href: string }> = { self: linkTo(origin, req, p.page) };
  if (p.page < pageCount) links.next = linkTo(origin, req, p.page + 1);
  if (pageCount > 1) links.last = linkTo(origin, req, pageCount);
  return {
    pagination: { links, totalCount: total, perPage: p.pageSize, pageCount, currentPage: p.page },
    sort: { attributes: { [p.sortName]: p.desc ? 'desc' : 'asc' } },
  };
}

/** The generic list of a declared resource. */
export function list(ctx: EngineContext, def: ResourceDef, req: FastifyRequest, extra: ListExtra = {}): ListResult {
  const spec = listSpecOf(def);
  const plan = planList(spec, req, ctx.clock, scopeOf(def, req), extra);
  const { rows, total } = runList(ctx, spec, plan);
  const expand = ctx.expandsOf(def, req);
  return { rows, body: { [def.plural]: rows.map((r) => ctx.serialize(def, r, req.auth, expand)), meta: listMetaOf(ctx.origin, req, plan, total) } };
}
