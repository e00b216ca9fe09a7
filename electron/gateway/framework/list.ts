/**
 * The generic list: filters on any declared column, the timestamp named ranges, sort
 * and -sort over declared sortable columns, page/page_size (default 20, capped at 5000),
 * and the `meta` block (pagination links, totalCount, perPage, pageCount, currentPage;
 * sort.attributes).
 *
 * The SQL is index friendly: conditions are plain comparisons on columns, ORDER BY is
 * one column plus rowid (every SQLite index ends with rowid, so an index on the sort
 * column serves the ORDER BY), paging is LIMIT/OFFSET, and COUNT(*) uses the same WHERE.
 */
import type { FastifyRequest } from 'fastify';
import { parseMoney } from '../../../shared/payments/money';
import type { Clock } from './clock';
import { maskCardNumbers } from './card-mask';
import { ErrorCollector, MSG, fieldError, fmt, unprocessable } from './errors';
import type { EngineContext, ListExtra, ListResult } from './context';
import type { FieldDef, FilterKind, ResourceDef, Row } from './resource';
import { scopeSql } from './records';
import { NAMED_RANGES, isNamedRange, namedRange } from './timestamp-ranges';
import { parseBoolean, parseNumber } from './validate';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 5000;

/** Query parameters that are never filters. */
const RESERVED = new Set(['page', 'page_size', 'per-page', 'sort', 'expand', 'api_id', 'developer-id', 'user-id', 'user-api-key', 'relationship', 'fields']);
/** Stripped from the pagination links so credentials in a query string are not echoed back. */
const SECRET_PARAMS = ['developer-id', 'user-id', 'user-api-key'];

export function filterKindOf(name: string, f: FieldDef): FilterKind | false {
  if (f.filter !== undefined) return f.filter;
  if (f.writeOnly || f.virtual) return false;
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

export function parseSort(def: ResourceDef, raw: string | undefined): { column: string; desc: boolean } {
  const spec = raw && raw.trim() !== '' ? raw.trim() : def.defaultSort;
  const desc = spec.startsWith('-');
  const asked = desc ? spec.slice(1) : spec;
  // Sorting accepts the response name too (device terms answer `device_term_api_id`).
  const name = Object.entries(def.fields).find(([, fd]) => fd.outputName === asked)?.[0] ?? asked;
  const f = Object.hasOwn(def.fields, name) ? def.fields[name] : undefined;
  const ok = name === 'id' || (f !== undefined && !f.virtual && !f.writeOnly && f.type !== 'json' && f.sortable !== false);
  if (!ok) throw unprocessable({ sort: [fmt(MSG.BAD_SORT, { field: name.slice(0, 64) })] });
  return { column: name, desc };
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

export interface PageInfo {
  page: number;
  perPage: number;
  total: number;
  /** Sort field as named in responses, and its direction. */
  sortName: string;
  desc: boolean;
}

/** The `meta` of every list answer (generic resources and hand-written ones alike). */
export function listMetaOf(origin: string, req: FastifyRequest, p: PageInfo): Record<string, unknown> {
  const pageCount = Math.ceil(p.total / p.perPage);
  const links: Record<string, { href: string }> = { self: linkTo(origin, req, p.page) };
  if (p.page < pageCount) links.next = linkTo(origin, req, p.page + 1);
  if (pageCount > 1) links.last = linkTo(origin, req, pageCount);
  return {
    pagination: { links, totalCount: p.total, perPage: p.perPage, pageCount, currentPage: p.page },
    sort: { attributes: { [p.sortName]: p.desc ? 'desc' : 'asc' } },
  };
}

export function list(ctx: EngineContext, def: ResourceDef, req: FastifyRequest, extra: ListExtra = {}): ListResult {
  const query = (req.query ?? {}) as Record<string, unknown>;
  const { page, perPage } = readPaging(query);
  const sort = parseSort(def, lastString(query.sort));

  const scope = scopeSql(def, req.auth);
  const where: string[] = [scope.sql];
  const params: unknown[] = [...scope.params];
  if (extra.where) {
    where.push(`(${extra.where})`);
    params.push(...(extra.params ?? []));
  }
  const filters = filtersOf(def);
  for (const [key, rawValue] of Object.entries(query)) {
    if (RESERVED.has(key)) continue;
    const spec = filters.get(key);
    if (!spec) continue; // unknown parameters are ignored
    const value = lastString(rawValue);
    if (value === undefined || value === '') continue;
    // Declared money fields are stored as decimal strings ("10.00"): compared as integer cents.
    const col = spec[1] === 'money' ? `CAST(ROUND("${spec[0]}" * 100) AS INTEGER)` : `"${spec[0]}"`;
    filterCondition(ctx.clock, key, col, spec[1], value, query, where, params);
  }
  const whereSql = where.join(' AND ');
  const total = (ctx.stmt(`SELECT COUNT(*) AS n FROM "${def.table}" WHERE ${whereSql}`).get(...params) as { n: number }).n;
  const dir = sort.desc ? 'DESC' : 'ASC';
  const rows = ctx
    .stmt(`SELECT * FROM "${def.table}" WHERE ${whereSql} ORDER BY "${sort.column}" ${dir}, rowid ${dir} LIMIT ? OFFSET ?`)
    .all(...params, perPage, (page - 1) * perPage) as Row[];

  const expand = ctx.expandsOf(def, req);
  const items = rows.map((r) => ctx.serialize(def, r, req.auth, expand));
  const sortName = def.fields[sort.column]?.outputName ?? sort.column;
  return {
    rows,
    body: {
      [def.plural]: items,
      meta: listMetaOf(ctx.origin, req, { page, perPage, total, sortName, desc: sort.desc }),
    },
  };
}
