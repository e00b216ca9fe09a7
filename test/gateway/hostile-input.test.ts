/**
 * Generated hostile input over every declared resource (the payments module's too) and
 * every method: wrong types, over-long and empty strings, deep nesting, unicode and NUL,
 * huge numbers, SQL-looking text, missing/doubled/array wrappers, wrong content types,
 * huge bodies, hostile ids and list parameters. Every answer must be a 4xx in the error
 * envelope (or a 2xx where the input is in fact valid), never a 5xx, never a hang; the
 * database must pass `PRAGMA integrity_check` afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathOf, type ResourceDef } from '../../electron/gateway/framework/resource';
import { TestEngine, type ApiAnswer } from './helpers/engine-fixture';
import { HOSTILE_IDS, HOSTILE_VALUES, LIST_QUERIES, RAW_PATH_TAILS, deep } from './helpers/hostile-corpus';

let t: TestEngine;
let throwawayUserId: string;
beforeAll(async () => {
  t = await TestEngine.start();
  const u = await t.post('/users', { user: { username: 'hostile-target', email: 'h@example.com', last_name: 'Target', user_type_id: 100, primary_location_id: t.locationId } });
  expect(u.status).toBe(201);
  throwawayUserId = u.body.user.id as string;
});
afterAll(async () => {
  await t.close();
});

const failures: string[] = [];

function check(label: string, a: ApiAnswer): void {
  const ok2xx = a.status >= 200 && a.status < 300;
  const ok4xx = a.status >= 400 && a.status < 500;
  let envelope = false;
  const XML_ENVELOPE = /^<\?xml[^>]*>\n<response><errors>(<([\w.-]+)>(<item>[^<]*<\/item>)+<\/\2>)+<\/errors><\/response>\n$/;
  if (ok4xx && a.headers.get('content-type')?.startsWith('application/xml')) {
    // An XML request is answered in XML: the same envelope, written as XML.
    envelope = XML_ENVELOPE.test(a.text);
  } else if (ok4xx) {
    const errs = (a.body as { errors?: unknown } | undefined)?.errors;
    envelope =
      typeof errs === 'object' && errs !== null && !Array.isArray(errs) && Object.values(errs).every((v) => Array.isArray(v) && v.every((m) => typeof m === 'string'));
  }
  if (!(ok2xx || (ok4xx && envelope))) failures.push(`${label} → ${a.status} ${a.text.slice(0, 200)}`);
}

function bodiesFor(def: ResourceDef): { label: string; raw: string; contentType?: string }[] {
  const fields = Object.keys(def.fields);
  const out: { label: string; raw: string; contentType?: string }[] = [
    { label: 'empty object', raw: '{}' },
    { label: 'array body', raw: '[]' },
    { label: 'null body', raw: 'null' },
    { label: 'string body', raw: '"text"' },
    { label: 'number body', raw: '42' },
    { label: 'wrapper array', raw: JSON.stringify({ [def.name]: [] }) },
    { label: 'wrapper string', raw: JSON.stringify({ [def.name]: 'x' }) },
    { label: 'wrapper null', raw: JSON.stringify({ [def.name]: null }) },
    { label: 'doubled wrapper', raw: JSON.stringify({ [def.name]: { [def.name]: { location_id: t.locationId } } }) },
    { label: 'proto pollution', raw: `{"${def.name}": {"__proto__": {"admin": true}, "constructor": {"prototype": {"x": 1}}}}` },
    { label: 'deep nesting', raw: JSON.stringify({ [def.name]: deep(1000) }) },
    { label: 'malformed json', raw: `{"${def.name}": {` },
    { label: 'trailing garbage', raw: `{"${def.name}": {}} xyz` },
    { label: 'text/plain', raw: JSON.stringify({ [def.name]: {} }), contentType: 'text/plain' },
    { label: 'form encoded', raw: `${def.name}[title]=x`, contentType: 'application/x-www-form-urlencoded' },
    { label: 'xml', raw: `<${def.name}><title>x</title></${def.name}>`, contentType: 'application/xml' },
    { label: 'multipart', raw: '--b\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n--b--', contentType: 'multipart/form-data; boundary=b' },
    { label: 'huge body', raw: JSON.stringify({ [def.name]: { title: 'x'.repeat(1_200_000) } }) },
  ];
  HOSTILE_VALUES.forEach((v, i) => {
    const all = Object.fromEntries(fields.map((f) => [f, v]));
    out.push({ label: `all fields = value#${i}`, raw: JSON.stringify({ [def.name]: all }) });
    // The same value in one field at a time, with a valid location so validation goes deeper.
    for (const f of fields) {
      out.push({ label: `${f} = value#${i}`, raw: JSON.stringify({ [def.name]: { location_id: t.locationId, [f]: v } }) });
    }
  });
  return out;
}

async function targetId(def: ResourceDef): Promise<string | undefined> {
  if (def.name === 'user') return throwawayUserId;
  const a = await t.get(`${pathOf(def).replace(/^\/v2/, '')}?page_size=1`);
  const first = (a.body as Record<string, { id?: unknown }[]> | undefined)?.[def.plural]?.[0];
  return first?.id === undefined ? undefined : String(first.id);
}

describe('hostile input', () => {
  it('never answers 5xx, never hangs, always uses the error envelope', { timeout: 600_000 }, async () => {
    const defs = [...t.engine.ctx.resources.values()];
    expect(defs.length).toBeGreaterThanOrEqual(10);
    let requests = 0;
    const send = async (label: string, method: string, path: string, raw?: string, contentType?: string) => {
      requests++;
      try {
        const a = await t.call(method, path, undefined, { raw, contentType, timeoutMs: 15_000 });
        check(`${method} ${path.slice(0, 80)} [${label}]`, a);
      } catch (err) {
        failures.push(`${method} ${path.slice(0, 80)} [${label}] → ${(err as Error).name}: ${(err as Error).message}`);
      }
    };
    for (const def of defs) {
      const base = pathOf(def).replace(/^\/v2/, '');
      const id = await targetId(def);
      const bodies = bodiesFor(def);
      for (const b of bodies) {
        await send(b.label, 'POST', base, b.raw, b.contentType);
        if (id) await send(b.label, 'PUT', `${base}/${encodeURIComponent(id)}`, b.raw, b.contentType);
      }
      await send('no body', 'POST', base);
      for (const q of LIST_QUERIES) await send(q, 'GET', `${base}?${q}`);
      for (const f of Object.keys(def.fields)) {
        for (const v of ['%', "'", '|', ',,,', '1|2|3', 'a|b', 'today', 'custom', '😀', 'x'.repeat(5000)]) {
          await send(`filter ${f}`, 'GET', `${base}?${encodeURIComponent(f)}=${encodeURIComponent(v)}`);
        }
      }
      for (const hid of HOSTILE_IDS) {
        const p = `${base}/${encodeURIComponent(hid)}`;
        await send('hostile id', 'GET', p);
        await send('hostile id', 'DELETE', p);
        await send('hostile id', 'PUT', p, JSON.stringify({ [def.name]: { title: 'x' } }));
        await send('hostile api id', 'GET', `${p}?api_id=true&location_id=${encodeURIComponent(hid)}`);
        await send('hostile api id', 'DELETE', `${p}?api_id=1&location_id=${t.locationId}`);
      }
      for (const m of ['PATCH', 'OPTIONS']) await send('odd method', m, base);
      for (const tail of RAW_PATH_TAILS) {
        for (const m of ['GET', 'PUT', 'DELETE']) await send('raw path', m, base + tail, m === 'PUT' ? JSON.stringify({ [def.name]: {} }) : undefined);
      }
    }
    for (const p of ['/users/me', '/users/x/generateuserapikey', '/locations/x/credentials', `/locations/${t.locationId}/credentials`]) {
      for (const b of bodiesFor(t.engine.ctx.resource('location')).slice(0, 20)) {
        await send(b.label, 'PUT', p, b.raw, b.contentType);
        await send(b.label, 'POST', p, b.raw, b.contentType);
      }
    }
    expect(requests).toBeGreaterThan(10_000);
    // Nothing stored above breaks a later reader: every list of every resource still answers.
    for (const def of defs.filter((d) => d.methods?.includes('list'))) {
      const path = `${pathOf(def).replace(/^\/v2/, '')}?page_size=5000`;
      const a = await t.get(path);
      if (a.status !== 200) failures.push(`list after: GET ${path} → ${a.status} ${a.text.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
    // The engine still serves the seed user and the database is intact.
    expect((await t.get('/users/me')).status).toBe(200);
    expect(t.engine.db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(t.engine.db.pragma('foreign_key_check')).toEqual([]);
  });
});
