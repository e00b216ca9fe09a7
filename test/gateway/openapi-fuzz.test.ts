/**
 * Schema-driven fuzz run: the engine refuses whatever its own /openapi.json refuses.
 *
 * Reads the document from a running engine and walks EVERY operation that takes a request
 * body or query parameters. For each field of a body (and each constrained query
 * parameter) it makes values from the field's schema — wrong JSON types, null where the
 * schema is not nullable, values out of the enum, one character too long or too short,
 * below the minimum or above the maximum, pattern and format violations, amounts with
 * spaces around them — keeps those the document itself refuses (ajv, draft 2020-12, over
 * the whole body as the document describes it), and sends each in an otherwise valid
 * request. Each must answer 422 in the envelope naming that field (never a 2xx: a value
 * stored as null or coerced is a failure; never a 5xx). A missing required field is the
 * same 422; a body without its wrapper is a 4xx envelope. Then a valid-value pass: each
 * field given a value the document accepts (its example, or one made from the schema,
 * or a seeded record's id) must not be refused under that field's name.
 *
 * Every answer is also checked for the integer rule (helpers/answer-checks.ts): what the
 * document types as integer is written as an integer.
 *
 * Readings (the generator's, written down):
 * - the base request of each operation (helpers/family-records.ts) names seeded records:
 *   a schema cannot know which ids exist;
 * - transaction fields say which actions take them (`x-actions`); each is fuzzed on a base
 *   of an action that takes it;
 * - query values are text: an integer parameter is refused when its text is not an integer
 *   or breaks the bounds; an empty query value counts as not sent (as every list reads it);
 * - the browser forms (OAuth login, SSO links, hosted and payment pages) answer their
 *   refusals with the documented HTML page or OAuth's envelope: they are held to "4xx,
 *   documented", not to a field name.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TerminalSimulator } from '../../electron/devices/sim/terminal-simulator';
import { TestEngine, type ApiAnswer } from './helpers/engine-fixture';
import { PATH_RECORDS, baseBodies, baseQueries, seedFamilyRecords, type Records } from './helpers/family-records';
import { documentsHtml, integerViolations, isEnvelopeText, parseKeepingNumbers, responseSchema } from './helpers/answer-checks';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an OpenAPI document walked by key
type Doc = any;
const OUTPUT = fileURLToPath(new URL('../output/', import.meta.url));
type Schema = Record<string, unknown>;
type Body = Record<string, unknown>;

let t: TestEngine;
let sim: TerminalSimulator;
let doc: Doc;
let records: Records;
let ajv: InstanceType<typeof Ajv2020>;
const failures: string[] = [];
const stats = { operations: 0, requests: 0, refusals: 0, valid: 0, skippedValid: [] as string[] };

beforeAll(async () => {
  t = await TestEngine.start({ schedulerIntervalMs: 0, deviceSecondMs: 4 });
  records = await seedFamilyRecords(t);
  // The router operations' valid requests reach a terminal: a simulated one on a local port.
  sim = new TerminalSimulator({ secondMs: 4, serialNumber: 'SIM-FUZZ' });
  const port = await sim.listenTcp(0);
  const term = await t.post('/terminals', {
    terminal: { location_id: t.locationId, serial_number: 'FUZZ-ROUTER', terminal_application_id: records.terminalApplicationId, terminal_manufacturer_id: records.terminalManufacturerId, local_ip_address: '127.0.0.1', port },
  });
  records.routerTerminalId = term.body.terminal.id;
  const res = await fetch(`${new URL(t.engine.baseUrl).origin}/openapi.json`);
  expect(res.status).toBe(200);
  doc = await res.json();
  ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema(doc, 'openapi.json');
}, 60_000);

afterAll(async () => {
  await t?.close();
  await sim?.close();
});

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

function deref(s: unknown): Schema {
  let cur = s as Schema;
  while (cur && typeof cur.$ref === 'string') cur = (cur.$ref as string).slice(2).split('/').reduce<Doc>((o, k) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  return cur;
}

/** The non-null alternatives of a schema. */
function alternatives(s: unknown): Schema[] {
  const r = deref(s);
  const alts = (r.anyOf ?? r.oneOf) as unknown[] | undefined;
  if (alts) return alts.flatMap(alternatives).filter((b) => b.type !== 'null');
  return [r];
}

const validators = new Map<string, (v: unknown) => boolean>();
function validatorAt(ref: string): (v: unknown) => boolean {
  let v = validators.get(ref);
  if (!v) {
    const fn = ajv.compile({ $ref: `openapi.json#${ref}` });
    v = (x: unknown) => fn(x) as boolean;
    validators.set(ref, v);
  }
  return v;
}

/** Values to try against a field: all the usual wrong types plus what the field's own bounds suggest. The document decides which are wrong. */
function candidates(s: unknown): unknown[] {
  const out: unknown[] = [
    123, -1, 0, 1.5, 2 ** 70, true, false, null, {}, [], [1], { a: 1 }, '', ' ', 'zz-not-valid', ' 10.00', '10.00 ', '1.5', '12', '-3', 'true', 'yes',
    '0000-00-00', '2030-02-30', '2030-1-5', 'not-an-email', 'ftp://example.com', 'x y', '😀', '10.001', '1e3',
  ];
  for (const b of alternatives(s)) {
    if (typeof b.maxLength === 'number') out.push('x'.repeat(b.maxLength + 1), '9'.repeat(b.maxLength + 1));
    if (typeof b.minLength === 'number' && b.minLength > 1) out.push('x'.repeat(b.minLength - 1), '9'.repeat(b.minLength - 1));
    if (typeof b.minimum === 'number') out.push(b.minimum - 1, String(b.minimum - 1));
    if (typeof b.maximum === 'number') out.push(b.maximum + 1, String(b.maximum + 1));
    if (typeof b.pattern === 'string') out.push('!', 'x!', '1 2');
    if (Array.isArray(b.enum)) out.push(...b.enum.map((e) => (typeof e === 'string' ? `${e}zz` : typeof e === 'number' ? e + 1000 : 'zz')));
  }
  const seen = new Set<string>();
  return out.filter((v) => {
    const k = JSON.stringify(v);
    return seen.has(k) ? false : (seen.add(k), true);
  });
}

/** Seeded records a field that names a record takes in the valid pass (the schema cannot know which ids exist). */
function recordFor(field: string, wrapper: string | undefined): unknown {
  const r = records;
  if (wrapper === 'contact' && field === 'parent_id') return r.contactId;
  // The caller (an admin) gives users a type below its own.
  if (wrapper === 'user' && field === 'user_type_id') return 100;
  if (wrapper === 'transactionlevel3' && field === 'transaction_id') return r.transactionId;
  if ((wrapper === 'routertransaction' || wrapper === 'routeraccountvault') && field === 'terminal_id') return r.routerTerminalId;
  if (wrapper !== 'contact' && field === 'contact_api_id') return r.contactApiId;
  if (wrapper !== 'accountvault' && field === 'account_vault_api_id') return r.vaultApiId;
  if (wrapper === 'transaction' && field === 'previous_transaction_api_id') return r.transactionApiId;
  const map: Record<string, string | number | undefined> = {
    location_id: r.locationId, primary_location_id: r.locationId, parent_id: r.locationId, contact_id: r.contactId, terminal_id: r.termsTerminalId,
    product_transaction_id: r.ccProductTransactionId, cc_product_transaction_id: r.ccProductTransactionId, ach_product_transaction_id: r.achProductTransactionId,
    account_vault_id: r.vaultId, transaction_id: r.addTransactionId, previous_transaction_id: r.transactionId, scanner_model_id: Number(r.scannerModelId),
    terminal_application_id: r.terminalApplicationId, terminal_manufacturer_id: r.terminalManufacturerId, default_cc: r.ccProductTransactionId,
    default_ach: r.achProductTransactionId, branding_domain_id: r.brandingDomainId, location_api_id: r.locationApiId,
  };
  return map[field];
}

let unique = 0;
const PATTERN_PROBES = ['1.00', '1230', '072000326', '5555550123', '12:30', 'A1', 'abc', 'ab', '1'];
/** Fields whose values are unique per location (api ids, usernames): a fresh value each time. */
const isUnique = (field: string, wrapper: string | undefined) =>
  (field.endsWith('_api_id') && wrapper !== undefined && field.replace(/_/g, '').startsWith(wrapper.replace(/^router/, ''))) || field === 'username';

/** Values the document accepts for the field, best first (checked by the caller against the whole body). */
function validValues(field: string, s: unknown, wrapper?: string): unknown[] {
  const out: unknown[] = [];
  const rec = isUnique(field, wrapper) ? undefined : recordFor(field, wrapper);
  if (rec !== undefined) out.push(rec);
  const top = deref(s);
  const alts = alternatives(s);
  if (isUnique(field, wrapper)) {
    const min = Math.max(1, ...alts.map((x) => Number(x.minLength ?? 0)), Number(top.minLength ?? 0));
    out.push(`u${++unique}`.padEnd(min, 'x'));
  }
  if (top.example !== undefined) out.push(top.example);
  for (const b of alts) {
    if (b.example !== undefined) out.push(b.example);
    if (Array.isArray(b.enum)) out.push(...b.enum.filter((e) => e !== null && e !== ''));
    if (b.const !== undefined && b.const !== '') out.push(b.const);
    // A pattern: the first of a few usual shapes it takes.
    if (typeof b.pattern === 'string') out.push(...PATTERN_PROBES.filter((p) => new RegExp(b.pattern as string, 'u').test(p)).slice(0, 1));
    const own = b.type ?? top.type;
    const types = Array.isArray(own) ? own : [own];
    if (types.includes('integer') || types.includes('number')) out.push(typeof b.minimum === 'number' ? b.minimum : 1);
    if (types.includes('string')) {
      if (b.format === 'date') out.push('2030-01-15');
      else if (b.format === 'email') out.push('pat@example.com');
      else if (b.format === 'uri') out.push('https://example.com/cb');
      else out.push('a'.repeat(Math.max(1, Number(b.minLength ?? 1))));
    }
    if (types.includes('boolean')) out.push(true);
    if (types.includes('object')) out.push({});
    if (types.includes('array')) out.push([]);
  }
  return out;
}

interface Target {
  key: string;
  method: string;
  path: string;
  url: string;
  contentType?: string;
  bodyRef?: string;
  wrapper?: string;
  inner?: Schema;
  innerRef?: string;
  base?: Body;
  browser: boolean;
}

const BROWSER = /^\/(o|custom|hosted|paylink|quickinvoice)(\/|$)/;

function concretePath(key: string, path: string): string | undefined {
  if (!path.includes('{')) return path;
  const rec = PATH_RECORDS[key];
  const id = rec === undefined ? undefined : records[rec];
  return id === undefined ? undefined : path.replace(/\{[^}]+\}/, encodeURIComponent(id));
}

async function send(target: Target, body: unknown, query: Record<string, string>, label: string): Promise<ApiAnswer | undefined> {
  stats.requests++;
  const qs = new URLSearchParams(query).toString();
  const url = `${new URL(t.engine.baseUrl).origin}${target.url}${qs ? `?${qs}` : ''}`;
  let raw: string | undefined;
  if (body !== undefined) raw = target.contentType === 'application/x-www-form-urlencoded' ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body);
  raw = raw?.replace(/\{\{n\}\}/g, () => String(++unique));
  let a: ApiAnswer;
  try {
    // Redirects are answers here (OAuth and SSO answer 302), never followed.
    const c = t.creds;
    const headers: Record<string, string> = { 'developer-id': c.developerId, 'user-id': c.userId, 'user-api-key': c.apiKey };
    if (raw !== undefined) headers['content-type'] = target.contentType ?? 'application/json';
    const res = await fetch(url, { method: target.method, headers, body: raw, redirect: 'manual', signal: AbortSignal.timeout(15_000) });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    a = { status: res.status, body: parsed, text, headers: res.headers };
  } catch (err) {
    failures.push(`${target.key} [${label}] → ${(err as Error).message}`);
    return undefined;
  }
  if (a.status >= 500) failures.push(`${target.key} [${label}] → ${a.status} ${a.text.slice(0, 200)}`);
  else if (a.status >= 400 && !isEnvelopeText(a.text) && !documentsHtml(doc, target.path, target.method, a.status)) {
    failures.push(`${target.key} [${label}] → ${a.status} not the envelope: ${a.text.slice(0, 120)}`);
  }
  if ((a.headers.get('content-type') ?? '').startsWith('application/json') && a.text) {
    try {
      const bad = integerViolations(doc, responseSchema(doc, target.path, target.method, a.status), parseKeepingNumbers(a.text));
      if (bad.length) failures.push(`${target.key} [${label}] → integers: ${bad.slice(0, 3).join('; ')}`);
    } catch (err) {
      failures.push(`${target.key} [${label}] → unreadable JSON: ${(err as Error).message}`);
    }
  }
  return a;
}

/** The answer's errors name the field (or a part of it: `level3_data.line_items`). */
function named(a: ApiAnswer | undefined, field: string): boolean {
  const errs = (a?.body as { errors?: Record<string, unknown> } | undefined)?.errors;
  return !!errs && Object.keys(errs).some((k) => k === field || k.startsWith(`${field}.`) || k.startsWith(`${field}[`));
}

/** A browser flow's refusal: a 4xx (page or OAuth envelope), or the redirect its document lists (OAuth sends protocol errors back to the client). */
function browserRefusal(target: Target, a: ApiAnswer): boolean {
  if (a.status >= 400 && a.status < 500) return true;
  const op = doc.paths[target.path][target.method.toLowerCase()];
  return a.status >= 300 && a.status < 400 && Object.hasOwn(op.responses ?? {}, String(a.status));
}

/** Body with the inner field set (or removed with `undefined`). */
function withField(target: Target, field: string, value: unknown): Body {
  const base = structuredClone(target.base ?? {});
  const inner = (target.wrapper ? (base[target.wrapper] as Body) : base) ?? {};
  if (value === undefined) delete inner[field];
  else inner[field] = value;
  return target.wrapper ? { ...base, [target.wrapper]: inner } : inner;
}

/** Transaction bases per action, and the record each PUT action works on. */
function transactionBase(target: Target, actions: string[]): { base: Body; url: string } | undefined {
  const card = { payment_method: 'cc', account_number: '4111111111111111', exp_date: '1230' };
  const ach = { payment_method: 'ach', account_number: '123456789', routing: '072000326', account_type: 'checking', account_holder_name: 'Pat Doe' };
  const post: Record<string, Body> = {
    sale: { action: 'sale', ...card, transaction_amount: '1.00' },
    authonly: { action: 'authonly', ...card, transaction_amount: '1.00' },
    avsonly: { action: 'avsonly', ...card, transaction_amount: '0.00' },
    force: { action: 'force', ...card, transaction_amount: '1.00', auth_code: '123456' },
    refund: { action: 'refund', ...card, transaction_amount: '0.01' },
    debit: { action: 'debit', ...ach, transaction_amount: '1.00' },
    credit: { action: 'credit', ...ach, transaction_amount: '1.00' },
  };
  const put: Record<string, [Body, string]> = {
    edit: [{ action: 'edit', description: 'Fuzz' }, records.transactionId as string],
    void: [{ action: 'void' }, records.voidTransactionId as string],
    authcomplete: [{ action: 'authcomplete', transaction_amount: '1.00' }, records.authTransactionId as string],
    authincrement: [{ action: 'authincrement', transaction_amount: '0.01' }, records.authTransactionId as string],
    partialreversal: [{ action: 'partialreversal', transaction_amount: '0.50' }, records.authTransactionId as string],
  };
  // The first action that takes the field, in an order that keeps a valid value valid (edit before void: a void takes only the whole amount).
  for (const action of TRANSACTION_ACTION_ORDER) {
    if (!actions.includes(action)) continue;
    if (target.method === 'POST' && post[action]) return { base: { transaction: post[action] }, url: target.url };
    const p = put[action];
    if (target.method === 'PUT' && p) return { base: { transaction: p[0] }, url: `/v2/transactions/${encodeURIComponent(p[1])}` };
  }
  return undefined;
}

const TRANSACTION_ACTION_ORDER = ['sale', 'authonly', 'force', 'avsonly', 'debit', 'credit', 'refund', 'edit', 'authcomplete', 'authincrement', 'partialreversal', 'void'];

/** A vault field of one payment method (`x-payment-methods`) is fuzzed on a vault of that method. */
function vaultBase(target: Target, methods: string[]): { base: Body; url: string } | undefined {
  if (!methods.includes('ach')) return undefined;
  if (target.method === 'POST') {
    return { base: { accountvault: { location_id: records.locationId, payment_method: 'ach', account_number: '123456789', routing: '072000326', account_type: 'checking', is_company: 0, account_holder_name: 'Pat Doe' } }, url: target.url };
  }
  return { base: { accountvault: { title: 'Keep' } }, url: `/v2/accountvaults/${encodeURIComponent(records.achVaultId as string)}` };
}

/** The base request for one field: the operation's, or one of the action / payment method the field belongs to. */
function baseFor(target: Target, schema: Schema): Target | undefined {
  const s = deref(schema);
  const actions = s['x-actions'] as string[] | undefined;
  if (actions && target.wrapper === 'transaction') {
    const b = transactionBase(target, actions);
    if (!b) return undefined;
    // Another way to name the account: the base then names none itself (both together are refused).
    if (s['x-account-source']) for (const k of ['account_number', 'exp_date', 'routing', 'account_type', 'cvv']) delete (b.base.transaction as Body)[k];
    return { ...target, base: b.base, url: b.url };
  }
  const methods = s['x-payment-methods'] as string[] | undefined;
  if (methods && target.wrapper === 'accountvault') {
    const b = vaultBase(target, methods);
    return b ? { ...target, base: b.base, url: b.url } : { ...target };
  }
  return { ...target };
}

function targets(): Target[] {
  const out: Target[] = [];
  const bases = baseBodies(records);
  for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, Doc>>)) {
    for (const [m, op] of Object.entries(ops)) {
      const method = m.toUpperCase();
      const key = `${method}::${path}`;
      const url = concretePath(key, path);
      const hasQuery = (op.parameters ?? []).some((p: Doc) => p.in === 'query');
      const content = (op.requestBody?.content ?? {}) as Record<string, Doc>;
      if (!op.requestBody && !hasQuery) continue;
      if (url === undefined) {
        failures.push(`${key}: no seeded record for its path (add it to PATH_RECORDS)`);
        continue;
      }
      const browser = BROWSER.test(path);
      const ct = ['application/json', 'application/x-www-form-urlencoded'].find((c) => content[c]);
      const target: Target = { key, method, path, url, browser };
      if (ct) {
        target.contentType = ct;
        target.bodyRef = `/${pointer('paths', path, m, 'requestBody', 'content', ct, 'schema')}`;
        const schema = deref(content[ct].schema);
        const props = (schema.properties ?? {}) as Record<string, unknown>;
        const keys = Object.keys(props);
        const isWrapper = keys.length === 1 && !browser && path !== '/o/token' && path !== '/o/revoke';
        if (isWrapper) {
          target.wrapper = keys[0] as string;
          target.inner = deref(props[target.wrapper]);
          const r = (props[target.wrapper] as Schema).$ref;
          target.innerRef = typeof r === 'string' ? r.slice(1) : `${target.bodyRef}/properties/${pointer(target.wrapper)}`;
        } else {
          target.inner = schema;
          target.innerRef = target.bodyRef;
        }
        target.base = bases[key] ?? Object.fromEntries(((target.inner.required ?? []) as string[]).map((f) => [f, validValues(f, (target.inner?.properties as Schema)[f], target.wrapper)[0]]));
        if (!bases[key] && target.wrapper) target.base = { [target.wrapper]: target.base };
      }
      out.push(target);
    }
  }
  return out;
}

const definedOnly = (q: Record<string, string | undefined>): Record<string, string> => Object.fromEntries(Object.entries(q).filter((e): e is [string, string] => e[1] !== undefined));

/** Whether the document refuses a query value (query text read as its schema's type). */
function queryRefuses(schema: Schema, value: string): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  let v: unknown = value;
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(value)) v = Number(value);
  if (types.includes('boolean') && (value === 'true' || value === 'false')) v = value === 'true';
  return !ajv.validate(schema, v);
}

describe('the schema-driven fuzz run (every operation of /openapi.json)', () => {
  it('refuses with a 422 naming the field whatever the document refuses, and takes what it accepts', { timeout: 120_000 }, async () => {
    // States the transaction actions need: an authorization to complete or change, a sale to void.
    const auth = await t.post('/transactions', { transaction: { action: 'authonly', account_number: '4111111111111111', exp_date: '1230', transaction_amount: '5.00' } });
    records.authTransactionId = auth.body.transaction.id;
    const sale = await t.post('/transactions', { transaction: { action: 'sale', account_number: '4111111111111111', exp_date: '1230', transaction_amount: '5.00' } });
    records.voidTransactionId = sale.body.transaction.id;
    const started = Date.now();
    const all = targets();
    const queries = baseQueries(records);

    // 0. Each base request is one the document accepts (else every variation would be "refused" for another reason).
    // The browser forms carry a CSRF token and a one-time form id a generated request cannot have: no base there.
    for (const target of all) {
      if (target.bodyRef && target.base && !target.browser && !validatorAt(target.bodyRef)(target.base)) failures.push(`${target.key}: the base body breaks its own schema: ${JSON.stringify(ajv.errors?.slice(0, 2))}`);
    }

    // 1. Values the document refuses, one field at a time.
    for (const target of all) {
      stats.operations++;
      const op = doc.paths[target.path][target.method.toLowerCase()];
      const baseQuery = definedOnly(queries[target.key] ?? {});
      for (const p of (op.parameters ?? []) as Doc[]) {
        if (p.in !== 'query') continue;
        for (const v of ['abc', '-1', '0', '1.5', '1e3', 'zz', '😀', ...candidates(p.schema).filter((c): c is string => typeof c === 'string')]) {
          if (v === '' || !queryRefuses(p.schema, v)) continue;
          stats.refusals++;
          const a = await send(target, target.base, { ...baseQuery, [p.name]: v }, `query ${p.name}=${v.slice(0, 20)}`);
          if (!a) continue;
          if (target.browser) {
            if (!browserRefusal(target, a)) failures.push(`${target.key} query ${p.name}=${v.slice(0, 20)} → ${a.status}: the document refuses it`);
          } else if (a.status !== 422 || !named(a, p.name)) failures.push(`${target.key} query ${p.name}=${v.slice(0, 20)} → ${a.status} ${a.text.slice(0, 160)}`);
        }
        if (p.required) {
          const q = { ...baseQuery };
          delete q[p.name];
          stats.refusals++;
          const a = await send(target, target.base, q, `query ${p.name} missing`);
          if (a && !(target.browser ? browserRefusal(target, a) : a.status >= 400)) failures.push(`${target.key} without required query ${p.name} → ${a.status}`);
        }
      }
      if (!target.inner || !target.bodyRef) continue;
      const accepts = validatorAt(target.bodyRef);
      const props = (target.inner.properties ?? {}) as Record<string, Schema>;
      for (const [field, schema] of Object.entries(props)) {
        const base = baseFor(target, schema);
        if (!base) continue;
        for (const v of candidates(schema)) {
          const body = withField(base, field, v);
          if (accepts(body)) continue;
          stats.refusals++;
          const label = `${field}=${JSON.stringify(v)?.slice(0, 30)}`;
          const a = await send(base, body, baseQuery, label);
          if (!a) continue;
          if (target.browser) {
            if (!browserRefusal(target, a)) failures.push(`${target.key} ${label} → ${a.status}: the document refuses it`);
          } else if (a.status !== 422 || !named(a, field)) failures.push(`${target.key} ${label} → ${a.status} ${a.text.slice(0, 160)}`);
        }
        // A required field left out.
        if (((target.inner.required ?? []) as string[]).includes(field)) {
          const body = withField(base, field, undefined);
          if (!accepts(body)) {
            stats.refusals++;
            const a = await send(base, body, baseQuery, `${field} missing`);
            if (a && !target.browser && (a.status !== 422 || !named(a, field))) failures.push(`${target.key} without ${field} → ${a.status} ${a.text.slice(0, 160)}`);
            else if (a && target.browser && !browserRefusal(target, a)) failures.push(`${target.key} without ${field} → ${a.status}`);
          }
        }
      }
      // A key the document does not declare: where it says additionalProperties false, that is a 422 too.
      if (target.inner && target.base && !target.browser) {
        const body = withField(target, 'zz_unknown_key', 1);
        if (!accepts(body)) {
          stats.refusals++;
          const a = await send(target, body, baseQuery, 'unknown key');
          if (a && a.status !== 422) failures.push(`${target.key} with an unknown key → ${a.status}: the document refuses it`);
        }
      }
      // The body's own shape: no wrapper, a wrapper of the wrong type, not an object at all.
      if (target.wrapper && target.contentType === 'application/json') {
        for (const body of [{}, { [target.wrapper]: null }, { [target.wrapper]: 'x' }, { [target.wrapper]: [] }, [], 'text', 42]) {
          if (accepts(body)) continue;
          stats.refusals++;
          const a = await send(target, body, baseQuery, `wrapper ${JSON.stringify(body)}`);
          if (a && (a.status < 400 || a.status >= 500)) failures.push(`${target.key} body ${JSON.stringify(body)} → ${a.status}`);
        }
      }
    }

    // 2. Values the document accepts, one field at a time: never refused under that field's name.
    for (const target of all) {
      if (!target.inner || !target.bodyRef || target.browser) continue;
      const accepts = validatorAt(target.bodyRef);
      const baseQuery = definedOnly(queries[target.key] ?? {});
      for (const [field, schema] of Object.entries((target.inner.properties ?? {}) as Record<string, Schema>)) {
        const base = baseFor(target, schema);
        if (!base) continue;
        const sent = (base.wrapper ? (base.base?.[base.wrapper] as Body | undefined) : base.base)?.[field];
        const value = [...validValues(field, schema, target.wrapper), ...(sent === undefined ? [] : [sent])].find((v) => accepts(withField(base, field, v)));
        // A location's default product transactions must be its own: only the seed location has any.
        if (target.key === 'PUT::/v2/locations/{id}' && (field === 'default_cc' || field === 'default_ach')) base.url = `/v2/locations/${encodeURIComponent(records.locationId as string)}`;
        if (value === undefined) {
          stats.skippedValid.push(`${target.key} ${field}`);
          continue;
        }
        stats.valid++;
        const a = await send(base, withField(base, field, value), baseQuery, `valid ${field}=${JSON.stringify(value)?.slice(0, 30)}`);
        if (a && named(a, field)) failures.push(`${target.key} valid ${field}=${JSON.stringify(value)?.slice(0, 40)} refused: ${a.text.slice(0, 200)}`);
      }
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `openapi fuzz: ${stats.operations} operations, ${stats.requests} requests in ${seconds} s; ${stats.refusals} values the document refuses, ${stats.valid} it accepts (no value to try: ${stats.skippedValid.join(', ') || 'none'}); ${failures.length} failure(s)`,
    );
    // The whole list, to read when something fails (test/output is not committed).
    mkdirSync(OUTPUT, { recursive: true });
    writeFileSync(join(OUTPUT, 'openapi-fuzz-failures.json'), JSON.stringify(failures, null, 2));
    expect(failures).toEqual([]);
    expect(stats.operations).toBeGreaterThanOrEqual(60);
    expect(t.engine.db.pragma('integrity_check', { simple: true })).toBe('ok');
  });
});
