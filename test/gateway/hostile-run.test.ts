/**
 * The hostile run (issue 19, "Done when"): more than 10,000 requests an attacker would
 * send, over every endpoint family the engine documents (merchant resources, transactions,
 * vaults, batches, Level 3, recurrings, pay links, quick invoices, postbacks, notifications,
 * OAuth and SSO, the router, the sandbox, the reference pages), walked from /openapi.json:
 * - per operation: missing, wrong and foreign credentials; hostile ids; wrapper and body
 *   mistakes (types, nesting, content types, encodings, sizes, XML); every documented field
 *   given every hostile value; hostile list and query parameters; undocumented methods;
 * - over raw sockets, what fetch cannot write: absolute-form and asterisk-form request lines,
 *   Expect values, missing and doubled Host, huge headers, odd and lower-case methods,
 *   CONNECT, TRACE, bad versions, bad Content-Length and Transfer-Encoding, pipelining.
 * Every answer must be below 500; every refusal the {"errors": {...}} envelope (JSON, or
 * its XML form for an XML request), except a page the document lists as text/html for a
 * browser that asked for one; integers written as integers (helpers/answer-checks.ts).
 * Afterwards every list still answers and `PRAGMA integrity_check` is ok. The counts per
 * family are printed.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestEngine } from './helpers/engine-fixture';
import { PATH_RECORDS, baseBodies, baseQueries, seedFamilyRecords, type Records } from './helpers/family-records';
import { HOSTILE_IDS, HOSTILE_VALUES, LIST_QUERIES, RAW_PATH_TAILS, deep } from './helpers/hostile-corpus';
import { XML_ENVELOPE, documentsHtml, integerViolations, isEnvelopeText, parseKeepingNumbers, responseSchema, templateOf } from './helpers/answer-checks';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an OpenAPI document walked by key
type Doc = any;
type Body = Record<string, unknown>;

let t: TestEngine;
let doc: Doc;
let records: Records;
let origin: string;
let port: number;
beforeAll(async () => {
  t = await TestEngine.start({ schedulerIntervalMs: 0, requestTimeoutMs: 5_000 });
  records = await seedFamilyRecords(t);
  origin = new URL(t.engine.baseUrl).origin;
  port = Number(new URL(origin).port);
  doc = await (await fetch(`${origin}/openapi.json`)).json();
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const failures: string[] = [];
/** Per family (the operation's first tag, or `protocol`): requests and answers by class. */
const counts = new Map<string, { requests: number; ok: number; refused: number; server: number }>();

function count(family: string, status: number): void {
  const c = counts.get(family) ?? { requests: 0, ok: 0, refused: 0, server: 0 };
  c.requests++;
  if (status >= 500 || status === 0) c.server++;
  else if (status >= 400) c.refused++;
  else c.ok++;
  counts.set(family, c);
}

function familyOf(method: string, path: string): string {
  const tpl = templateOf(doc, method, path) ?? templateOf(doc, 'get', path) ?? templateOf(doc, 'post', path);
  const op = tpl ? Object.values(doc.paths[tpl] as Record<string, Doc>)[0] : undefined;
  return (op?.tags?.[0] as string | undefined) ?? 'undocumented paths';
}

/** The rules every answer keeps (see the top of the file). */
function judge(label: string, method: string, path: string, status: number, contentType: string, text: string, accept: string): void {
  const tpl = templateOf(doc, method, path);
  if (status === 0) failures.push(`${label} → no answer`);
  else if (status >= 500) failures.push(`${label} → ${status} ${text.slice(0, 160)}`);
  else if (status >= 400 && method !== 'HEAD') {
    const html = contentType.startsWith('text/html') && accept.includes('text/html') && tpl !== undefined && documentsHtml(doc, tpl, method, status);
    const xml = contentType.startsWith('application/xml') && XML_ENVELOPE.test(text);
    if (!html && !xml && !isEnvelopeText(text)) failures.push(`${label} → ${status} not the envelope (${contentType}): ${text.slice(0, 120)}`);
  }
  if (contentType.startsWith('application/json') && text) {
    try {
      const bad = integerViolations(doc, tpl ? responseSchema(doc, tpl, method, status) : undefined, parseKeepingNumbers(text));
      if (bad.length) failures.push(`${label} → integers: ${bad.slice(0, 2).join('; ')}`);
    } catch (err) {
      failures.push(`${label} → unreadable JSON: ${(err as Error).message}`);
    }
  }
}

interface Send {
  method: string;
  path: string;
  body?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /** Credentials as the seeded admin (default), none, or given in `headers`. */
  creds?: boolean;
  label: string;
}

const JSON_ACCEPT = 'application/json';

async function send(s: Send): Promise<number> {
  const family = familyOf(s.method, s.path.split('?')[0] as string);
  const c = t.creds;
  const headers: Record<string, string> = { accept: JSON_ACCEPT, ...(s.creds === false ? {} : { 'developer-id': c.developerId, 'user-id': c.userId, 'user-api-key': c.apiKey }), ...(s.headers ?? {}) };
  if (s.body !== undefined) headers['content-type'] ??= s.contentType ?? 'application/json';
  let status = 0;
  let text: string;
  let type = '';
  try {
    const res = await fetch(`${origin}${s.path}`, { method: s.method, headers, body: s.body, redirect: 'manual', signal: AbortSignal.timeout(15_000) });
    status = res.status;
    type = res.headers.get('content-type') ?? '';
    text = await res.text();
  } catch (err) {
    text = (err as Error).message;
  }
  count(family, status);
  judge(`${s.method} ${s.path.slice(0, 90)} [${s.label}]`, s.method, s.path.split('?')[0] as string, status, type, text, headers.accept ?? '');
  return status;
}

interface RawAnswer {
  status: number;
  text: string;
}

/** One connection, the bytes as given; the answer when the server closes (or after 5 s: a hang is a failure). */
function rawExchange(bytes: string): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const done = () => {
      clearTimeout(timer);
      const all = Buffer.concat(chunks).toString('latin1');
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(all)?.[1] ?? 0), text: all });
    };
    const timer = setTimeout(() => {
      s.destroy();
      done();
    }, 5_000);
    s.on('data', (d) => chunks.push(d));
    s.on('close', done);
    s.on('error', () => {});
    s.write(bytes);
    s.end();
  });
}

/** The bodies of the answers on one raw connection (several when pipelined; the 100-continue interim is skipped). */
function answersOf(raw: string): { status: number; type: string; body: string }[] {
  const out: { status: number; type: string; body: string }[] = [];
  let rest = raw;
  while (rest.startsWith('HTTP/1.')) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) break;
    const head = rest.slice(0, end);
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
    rest = rest.slice(end + 4);
    if (status === 100) continue;
    const type = /content-type: ([^\r\n]*)/i.exec(head)?.[1] ?? '';
    let body = '';
    const len = /content-length: (\d+)/i.exec(head);
    if (len) {
      body = rest.slice(0, Number(len[1]));
      rest = rest.slice(Number(len[1]));
    } else if (/transfer-encoding: chunked/i.test(head)) {
      for (;;) {
        const nl = rest.indexOf('\r\n');
        const size = parseInt(rest.slice(0, nl), 16);
        rest = rest.slice(nl + 2);
        if (!size) {
          rest = rest.slice(2);
          break;
        }
        body += rest.slice(0, size);
        rest = rest.slice(size + 2);
      }
    }
    out.push({ status, type, body });
  }
  return out;
}

async function raw(bytes: string, label: string, path: string, method = 'GET', accept = ''): Promise<void> {
  const a = await rawExchange(bytes);
  const answers = answersOf(a.text);
  if (answers.length === 0) {
    count('protocol', 0);
    failures.push(`raw ${label} ${path.slice(0, 60)} → no answer: ${JSON.stringify(a.text.slice(0, 80))}`);
    return;
  }
  for (const ans of answers) {
    count('protocol', ans.status);
    judge(`raw ${label} ${path.slice(0, 60)}`, method, path.split('?')[0] as string, ans.status, ans.type, ans.body, accept);
  }
}

function concrete(method: string, path: string): string | undefined {
  if (!path.includes('{')) return path;
  const rec = PATH_RECORDS[`${method}::${path}`] ?? PATH_RECORDS[`GET::${path}`];
  const id = rec === undefined ? undefined : records[rec];
  return id === undefined ? undefined : path.replace(/\{[^}]+\}/, encodeURIComponent(id));
}

function deref(s: unknown): Doc {
  let cur = s as Doc;
  while (cur && typeof cur.$ref === 'string') cur = (cur.$ref as string).slice(2).split('/').reduce((o: Doc, k: string) => o?.[k], doc);
  return cur;
}

/** The documented fields of an operation's JSON body, and its wrapper (if any). */
function bodyFields(op: Doc): { wrapper?: string; fields: string[] } | undefined {
  const schema = deref(op.requestBody?.content?.['application/json']?.schema);
  if (!schema?.properties) return undefined;
  const keys = Object.keys(schema.properties as object);
  if (keys.length === 1 && keys[0] !== 'token') {
    const inner = deref(schema.properties[keys[0] as string]);
    return { wrapper: keys[0], fields: Object.keys(inner?.properties ?? {}) };
  }
  return { fields: keys };
}

const CREDENTIAL_ABUSE: { label: string; headers: Record<string, string> }[] = [
  { label: 'no credentials', headers: {} },
  { label: 'wrong key', headers: { 'developer-id': 'x', 'user-id': 'y', 'user-api-key': 'z' } },
  { label: 'bearer junk', headers: { authorization: 'Bearer ' + 'a'.repeat(64), 'developer-id': 'd' } },
  { label: 'basic junk', headers: { authorization: 'Basic %%%notbase64', 'developer-id': 'd' } },
  { label: 'basic no colon', headers: { authorization: `Basic ${Buffer.from('nocolon').toString('base64')}`, 'developer-id': 'd' } },
  { label: 'empty headers', headers: { 'developer-id': '', 'user-id': '', 'user-api-key': '' } },
];

const CONTENT_ABUSE: { label: string; body: (w: string) => string; type: string; headers?: Record<string, string> }[] = [
  { label: 'text/plain', body: (w) => JSON.stringify({ [w]: {} }), type: 'text/plain' },
  { label: 'form', body: (w) => `${w}[x]=1`, type: 'application/x-www-form-urlencoded' },
  { label: 'xml', body: (w) => `<${w}><description>x</description></${w}>`, type: 'application/xml' },
  { label: 'xml doctype', body: (w) => `<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><${w}>&e;</${w}>`, type: 'application/xml' },
  { label: 'multipart', body: () => '--b\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n--b--', type: 'multipart/form-data; boundary=b' },
  { label: 'json latin1 charset', body: (w) => JSON.stringify({ [w]: {} }), type: 'application/json; charset=latin1' },
  { label: 'json utf-16 charset', body: (w) => JSON.stringify({ [w]: {} }), type: 'application/json; charset=utf-16' },
  { label: 'gzip encoding', body: (w) => JSON.stringify({ [w]: {} }), type: 'application/json', headers: { 'content-encoding': 'gzip' } },
  { label: 'br encoding', body: (w) => JSON.stringify({ [w]: {} }), type: 'application/json', headers: { 'content-encoding': 'br' } },
  { label: 'malformed json', body: (w) => `{"${w}": {`, type: 'application/json' },
  { label: 'trailing garbage', body: (w) => `{"${w}": {}} x`, type: 'application/json' },
  { label: 'deep nesting', body: (w) => JSON.stringify({ [w]: deep(2000) }), type: 'application/json' },
  { label: 'huge body', body: (w) => JSON.stringify({ [w]: { description: 'x'.repeat(1_100_000) } }), type: 'application/json' },
  { label: 'prototype keys', body: (w) => `{"${w}": {"__proto__": {"admin": true}, "constructor": {"prototype": {"x": 1}}}}`, type: 'application/json' },
  { label: 'null', body: () => 'null', type: 'application/json' },
  { label: 'array', body: () => '[]', type: 'application/json' },
  { label: 'string', body: () => '"x"', type: 'application/json' },
  { label: 'wrapper array', body: (w) => JSON.stringify({ [w]: [] }), type: 'application/json' },
  { label: 'wrapper string', body: (w) => JSON.stringify({ [w]: 'x' }), type: 'application/json' },
  { label: 'doubled wrapper', body: (w) => JSON.stringify({ [w]: { [w]: {} } }), type: 'application/json' },
];

/** Given to every documented query parameter (lists have up to a hundred: a few values each keeps the run short). */
const QUERY_VALUES = ['abc', "'", '😀', 'x'.repeat(5000), '1|2|3', 'custom'];
/** Given to every documented body field: one of each kind of HOSTILE_VALUES (types, sizes, unicode, SQL, cards, prototype keys, nesting). */
const FIELD_VALUES = HOSTILE_VALUES.filter((_v, i) => [0, 1, 2, 5, 6, 8, 11, 12, 14, 15, 20, 22, 25, 27, 28].includes(i));

describe('the hostile run', () => {
  it('answers more than 10,000 hostile requests over every family: no 5xx, every refusal the envelope, integers as integers', { timeout: 180_000 }, async () => {
    const started = Date.now();
    const bases = baseBodies(records);
    const queries = baseQueries(records);
    const ops: { method: string; tpl: string; op: Doc }[] = [];
    for (const [tpl, byMethod] of Object.entries(doc.paths as Record<string, Record<string, Doc>>)) {
      for (const [m, op] of Object.entries(byMethod)) ops.push({ method: m.toUpperCase(), tpl, op });
    }
    // Write operations that destroy a seeded record last, so the others still find theirs.
    ops.sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));

    for (const { method, tpl, op } of ops) {
      const key = `${method}::${tpl}`;
      const path = concrete(method, tpl);
      const base = bases[key];
      const baseQuery = new URLSearchParams(Object.entries(queries[key] ?? {}).filter((e): e is [string, string] => e[1] !== undefined)).toString();
      const q = (extra: string) => [baseQuery, extra].filter(Boolean).join('&');
      if (path === undefined) {
        failures.push(`${key}: no seeded record for its path`);
        continue;
      }
      const withBody = method === 'POST' || method === 'PUT';
      const bodyText = base ? JSON.stringify(base).replace(/\{\{n\}\}/g, () => `h${Math.random().toString(36).slice(2, 10)}`) : undefined;
      // 1. Credentials.
      for (const ca of CREDENTIAL_ABUSE) await send({ method, path: `${path}?${q('')}`, creds: false, headers: ca.headers, body: withBody ? bodyText ?? '{}' : undefined, label: ca.label });
      await send({ method, path: `${path}?${q('developer-id=x&user-id=y&user-api-key=z')}`, creds: false, body: withBody ? bodyText ?? '{}' : undefined, label: 'credentials in query, wrong' });
      // 2. Hostile ids.
      if (tpl.includes('{')) {
        for (const hid of HOSTILE_IDS) {
          const p = tpl.replace(/\{[^}]+\}/, encodeURIComponent(hid));
          await send({ method, path: p, body: withBody ? bodyText ?? '{}' : undefined, label: 'hostile id' });
          await send({ method, path: `${p}?api_id=true&location_id=${encodeURIComponent(hid)}`, body: withBody ? bodyText ?? '{}' : undefined, label: 'hostile api id' });
        }
        for (const tail of RAW_PATH_TAILS) await send({ method, path: tpl.replace(/\/\{[^}]+\}.*$/, '') + tail, label: 'path tail' });
      }
      // 3. Query parameters: the documented ones and list abuse.
      for (const p of (op.parameters ?? []) as Doc[]) {
        if (p.in !== 'query') continue;
        for (const v of QUERY_VALUES) await send({ method, path: `${path}?${q(`${encodeURIComponent(p.name)}=${encodeURIComponent(v)}`)}`, body: withBody ? bodyText : undefined, label: `query ${p.name}` });
      }
      if (method === 'GET') for (const lq of LIST_QUERIES) await send({ method, path: `${path}?${q(lq)}`, label: lq });
      // 4. Bodies: content types, shapes, and every documented field given every hostile value.
      if (withBody) {
        const shape = bodyFields(op);
        const wrapper = shape?.wrapper ?? 'x';
        for (const ca of CONTENT_ABUSE) await send({ method, path: `${path}?${q('')}`, body: ca.body(wrapper), contentType: ca.type, headers: ca.headers, label: ca.label });
        await send({ method, path: `${path}?${q('')}`, label: 'no body' });
        for (const f of shape?.fields ?? []) {
          for (const v of FIELD_VALUES) {
            const b = structuredClone(base ?? (shape?.wrapper ? { [shape.wrapper]: {} } : {})) as Body;
            const inner = (shape?.wrapper ? b[shape.wrapper] : b) as Body;
            inner[f] = v;
            const text = JSON.stringify(b).replace(/\{\{n\}\}/g, () => `h${Math.random().toString(36).slice(2, 10)}`);
            await send({ method, path: `${path}?${q('')}`, body: text, label: `${f}=${JSON.stringify(v)?.slice(0, 24)}` });
          }
        }
      }
      // 5. Methods the path does not document, and pages asked for by a browser.
      for (const m of ['PATCH', 'OPTIONS', 'HEAD']) if (!doc.paths[tpl][m.toLowerCase()]) await send({ method: m, path, label: 'odd method' });
      if (/^\/(o|custom|hosted|paylink|quickinvoice)(\/|$)/.test(tpl)) {
        await send({ method, path: `${path}?${q('')}`, headers: { accept: 'text/html,application/xhtml+xml' }, body: withBody ? 'x=1' : undefined, contentType: 'application/x-www-form-urlencoded', label: 'browser' });
      }
    }

    // 6. The protocol, over raw sockets, on one path of every family.
    const c = t.creds;
    // An API client's request: it asks for JSON (the pages answer a browser with HTML).
    const cred = `accept: application/json\r\ndeveloper-id: ${c.developerId}\r\nuser-id: ${c.userId}\r\nuser-api-key: ${c.apiKey}\r\n`;
    const paths = [...new Set(ops.filter((o) => o.method === 'GET').map((o) => concrete('GET', o.tpl)).filter((p): p is string => p !== undefined))];
    const json = '{"contact":{"last_name":"Raw"}}';
    for (const p of paths) {
      const h = `Host: 127.0.0.1:${port}\r\naccept: application/json\r\n`;
      const abuse: [string, string, string?][] = [
        ['absolute-form, no credentials', `GET http://127.0.0.1:${port}${p} HTTP/1.1\r\n${h}Connection: close\r\n\r\n`],
        ['absolute-form', `GET http://127.0.0.1:${port}${p} HTTP/1.1\r\n${h}${cred}Connection: close\r\n\r\n`],
        ['absolute-form, foreign authority', `GET http://evil.example${p} HTTP/1.1\r\n${h}${cred}Connection: close\r\n\r\n`],
        ['absolute-form https, userinfo', `GET https://u:p@127.0.0.1${p} HTTP/1.1\r\n${h}${cred}Connection: close\r\n\r\n`],
        ['asterisk-form', `OPTIONS * HTTP/1.1\r\n${h}Connection: close\r\n\r\n`],
        ['Expect: nonsense', `GET ${p} HTTP/1.1\r\n${h}Expect: nonsense\r\n${cred}Connection: close\r\n\r\n`],
        ['Expect: 100-continue', `POST /v2/contacts HTTP/1.1\r\n${h}Expect: 100-continue\r\nContent-Type: application/json\r\nContent-Length: ${json.length}\r\n${cred}Connection: close\r\n\r\n${json}`, 'POST'],
        ['no Host', `GET ${p} HTTP/1.1\r\n${cred}Connection: close\r\n\r\n`],
        ['two Hosts', `GET ${p} HTTP/1.1\r\n${h}${h}${cred}Connection: close\r\n\r\n`],
        ['foreign Host', `GET ${p} HTTP/1.1\r\nHost: evil.example\r\n${cred}Connection: close\r\n\r\n`],
        ['HTTP/1.0 no Host', `GET ${p} HTTP/1.0\r\n${cred}\r\n`],
        ['huge header', `GET ${p} HTTP/1.1\r\n${h}X-Big: ${'a'.repeat(20_000)}\r\n${cred}Connection: close\r\n\r\n`],
        ['many headers', `GET ${p} HTTP/1.1\r\n${h}${Array.from({ length: 3000 }, (_, i) => `X-H${i}: v`).join('\r\n')}\r\n${cred}Connection: close\r\n\r\n`],
        ['lower-case method', `get ${p} HTTP/1.1\r\n${h}${cred}Connection: close\r\n\r\n`],
        ['unknown method', `BREW ${p} HTTP/1.1\r\n${h}${cred}Connection: close\r\n\r\n`],
        ['TRACE', `TRACE ${p} HTTP/1.1\r\n${h}${cred}Connection: close\r\n\r\n`, 'TRACE'],
        ['PROPFIND', `PROPFIND ${p} HTTP/1.1\r\n${h}${cred}Connection: close\r\n\r\n`, 'PROPFIND'],
        ['CONNECT', `CONNECT 127.0.0.1:${port} HTTP/1.1\r\n${h}Connection: close\r\n\r\n`, 'CONNECT'],
        ['HTTP/2.0 line', `GET ${p} HTTP/2.0\r\n${h}${cred}Connection: close\r\n\r\n`],
        ['HTTP/0.9 line', `GET ${p}\r\n\r\n`],
        ['two Content-Lengths', `POST ${p} HTTP/1.1\r\n${h}Content-Length: 2\r\nContent-Length: 3\r\n${cred}Connection: close\r\n\r\n{}`, 'POST'],
        ['negative Content-Length', `POST ${p} HTTP/1.1\r\n${h}Content-Length: -1\r\n${cred}Connection: close\r\n\r\n`, 'POST'],
        ['Content-Length and chunked', `POST ${p} HTTP/1.1\r\n${h}Content-Length: 4\r\nTransfer-Encoding: chunked\r\n${cred}Connection: close\r\n\r\n0\r\n\r\n`, 'POST'],
        ['bad chunk size', `POST ${p} HTTP/1.1\r\n${h}Transfer-Encoding: chunked\r\nContent-Type: application/json\r\n${cred}Connection: close\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`, 'POST'],
        ['unknown Transfer-Encoding', `POST ${p} HTTP/1.1\r\n${h}Transfer-Encoding: gzip, chunked\r\n${cred}Connection: close\r\n\r\n0\r\n\r\n`, 'POST'],
        ['NUL in the path', `GET ${p}\u0000x HTTP/1.1\r\n${h}${cred}Connection: close\r\n\r\n`],
        ['space in the path', `GET ${p} x HTTP/1.1\r\n${h}${cred}Connection: close\r\n\r\n`],
        ['header without colon', `GET ${p} HTTP/1.1\r\n${h}BrokenHeader\r\n${cred}Connection: close\r\n\r\n`],
        ['bad header name', `GET ${p} HTTP/1.1\r\n${h}X Bad: 1\r\n${cred}Connection: close\r\n\r\n`],
        ['Upgrade: websocket', `GET ${p} HTTP/1.1\r\n${h}Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n${cred}\r\n`],
        ['Upgrade: h2c', `GET ${p} HTTP/1.1\r\n${h}Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\nConnection: Upgrade, HTTP2-Settings, close\r\n${cred}\r\n`],
        ['HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
        ['percent-encoded prefix', `GET ${p.replace(/^\/(\w)/, (_m, ch: string) => `/%${ch.charCodeAt(0).toString(16)}`)} HTTP/1.1\r\n${h}Connection: close\r\n\r\n`],
        ['double slash', `GET /${p} HTTP/1.1\r\n${h}Connection: close\r\n\r\n`],
        ['pipelined', `GET ${p} HTTP/1.1\r\n${h}${cred}\r\nGET ${p} HTTP/1.1\r\n${h}\r\nGET http://127.0.0.1${p} HTTP/1.1\r\n${h}Connection: close\r\n\r\n`],
        ['gzip body', `POST ${p} HTTP/1.1\r\n${h}Content-Encoding: gzip\r\nContent-Type: application/json\r\nContent-Length: 2\r\n${cred}Connection: close\r\n\r\n{}`, 'POST'],
      ];
      for (const [label, bytes, method] of abuse) await raw(bytes, label, p, method ?? 'GET');
    }

    // Nothing stored above breaks a later reader: every list still answers; the database is intact.
    for (const { method, tpl } of ops) {
      if (method !== 'GET' || tpl.includes('{') || !tpl.startsWith('/v2/')) continue;
      const a = await t.get(`${tpl.replace(/^\/v2/, '')}?page_size=5000`);
      if (a.status !== 200) failures.push(`list after: GET ${tpl} → ${a.status} ${a.text.slice(0, 160)}`);
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const total = [...counts.values()].reduce((n, c) => n + c.requests, 0);
    const rows = [...counts.entries()].sort((a, b) => a[0].localeCompare(b[0])).map(([f, c]) => `  ${f.padEnd(22)} ${String(c.requests).padStart(6)} requests: ${c.ok} 2xx/3xx, ${c.refused} 4xx, ${c.server} 5xx or no answer`);
    console.log(`hostile run: ${total} requests in ${seconds} s over ${counts.size} families; ${failures.length} failure(s)\n${rows.join('\n')}`);
    expect(failures.slice(0, 50)).toEqual([]);
    expect(total).toBeGreaterThan(10_000);
    for (const family of ['users', 'locations', 'contacts', 'terminals', 'transactions', 'accountvaults', 'transactionbatches', 'transactionlevel3s', 'recurrings', 'paylinks', 'quickinvoices', 'postbackconfigs', 'postbackdeliveries', 'notifications', 'oauth', 'sso', 'router', 'payment pages', 'engine', 'Sandbox clock', 'protocol']) {
      expect(counts.get(family)?.requests ?? 0, family).toBeGreaterThan(50);
    }
    expect((await t.get('/users/me')).status).toBe(200);
    expect(t.engine.db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(t.engine.db.pragma('foreign_key_check')).toEqual([]);
  });
});
