import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, fmt } from '../../electron/gateway/framework/errors';
import { MAX_PAGE_SIZE } from '../../electron/gateway/framework/list';
import { REF } from '../../electron/gateway/merchant/schema-migrations';
import { TestEngine, errorsOf } from './helpers/engine-fixture';

let t: TestEngine;
beforeAll(async () => {
  t = await TestEngine.start();
});
afterAll(async () => {
  await t.close();
});

describe('authentication', () => {
  it('accepts headers, query parameters and HTTP Basic', async () => {
    expect((await t.get('/users/me')).status).toBe(200);
    const c = t.creds;
    const q = `?developer-id=${c.developerId}&user-id=${c.userId}&user-api-key=${c.apiKey}`;
    const viaQuery = await t.get(`/users/me${q}`, { creds: null });
    expect(viaQuery.status).toBe(200);
    expect(viaQuery.body.user.id).toBe(c.userId);
    const basic = Buffer.from(`${c.userId}:${c.apiKey}`).toString('base64');
    const viaBasic = await t.get('/users/me', { creds: null, headers: { authorization: `Basic ${basic}`, 'developer-id': c.developerId } });
    expect(viaBasic.status).toBe(200);
  });

  it('answers 401 in the envelope for missing or wrong credentials', async () => {
    const c = t.creds;
    const cases = [
      await t.get('/users/me', { creds: null }),
      await t.get('/users/me', { creds: { ...c, apiKey: 'wrong-key-0000000000' } }),
      await t.get('/users/me', { creds: { ...c, developerId: '00000000-0000-4000-8000-000000000000' } }),
      await t.get('/users/me', { creds: { ...c, userId: 'nobody' } }),
      await t.get('/contacts', { creds: null, headers: { authorization: 'Bearer abc', 'developer-id': c.developerId } }),
      await t.get('/contacts', { creds: null, headers: { authorization: `Basic ${Buffer.from(`${c.userId}:nope`).toString('base64')}`, 'developer-id': c.developerId } }),
    ];
    for (const a of cases) {
      expect(a.status).toBe(401);
      expect(errorsOf(a)).toEqual([MSG.UNAUTHORIZED]);
    }
  });

  it('keeps /health open', async () => {
    const res = await fetch(t.url('').replace(/\/v2$/, '/health'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('refuses a foreign Host header (DNS rebinding guard)', async () => {
    const { request } = await import('node:http');
    const url = new URL(t.url('/users/me'));
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, path: url.pathname, headers: { host: 'evil.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });
});

describe('HTTP errors', () => {
  it('404 for unknown paths and ids, 405 with Allow for wrong methods', async () => {
    const unknown = await t.get('/nothing-here');
    expect(unknown.status).toBe(404);
    expect(errorsOf(unknown)).toEqual([MSG.PATH_NOT_FOUND]);
    const id = await t.get('/contacts/00000000-0000-4000-8000-000000000000');
    expect(id.status).toBe(404);
    expect(errorsOf(id)).toEqual([MSG.NOT_FOUND]);
    const wrong = await t.del('/contacts');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, POST');
    expect(errorsOf(wrong)).toEqual([fmt(MSG.METHOD_NOT_ALLOWED, { methods: 'GET, POST' })]);
    const locDelete = await t.del(`/locations/${t.locationId}`);
    expect(locDelete.status).toBe(405);
  });

  it('400 for malformed JSON, 415 for other content types, 413 for huge bodies, 422 for a missing wrapper', async () => {
    const bad = await t.post('/tags', undefined, { raw: '{"tag": {' });
    expect(bad.status).toBe(400);
    expect(errorsOf(bad)).toEqual([MSG.MALFORMED_JSON]);
    const text = await t.post('/tags', undefined, { raw: 'title=x', contentType: 'text/plain' });
    expect(text.status).toBe(415);
    expect(errorsOf(text)).toEqual([MSG.UNSUPPORTED_MEDIA_TYPE]);
    const huge = await t.post('/tags', undefined, { raw: JSON.stringify({ tag: { title: 'x'.repeat(2 * 1024 * 1024) } }) });
    expect(huge.status).toBe(413);
    expect(errorsOf(huge)).toEqual([MSG.BODY_TOO_LARGE]);
    const noWrapper = await t.post('/tags', { title: 'x', location_id: t.locationId });
    expect(noWrapper.status).toBe(422);
    expect(errorsOf(noWrapper)).toEqual([fmt(MSG.WRAPPER_MISSING, { wrapper: 'tag' })]);
    const charset = await t.post('/tags', { tag: { title: 'charset', location_id: t.locationId } }, { contentType: 'application/json; charset=utf-8' });
    expect(charset.status).toBe(201);
  });
});

describe('lists', () => {
  const titles = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'a_b%c'];
  beforeAll(async () => {
    for (const title of titles) expect((await t.post('/tags', { tag: { title, location_id: t.locationId } })).status).toBe(201);
  });

  it('answers the plural key with meta, links and a default sort', async () => {
    const a = await t.get('/tags?page_size=2&page=2');
    expect(a.status).toBe(200);
    expect(a.body.tags).toHaveLength(2);
    const p = a.body.meta.pagination;
    expect(p.totalCount).toBeGreaterThanOrEqual(6);
    expect(p.perPage).toBe(2);
    expect(p.currentPage).toBe(2);
    expect(p.pageCount).toBe(Math.ceil(p.totalCount / 2));
    expect(p.links.self.href).toContain('page=2');
    expect(p.links.next.href).toContain('page=3');
    expect(p.links.last.href).toContain(`page=${p.pageCount}`);
    expect(a.body.meta.sort.attributes).toEqual({ title: 'asc' });
    for (const tag of a.body.tags) expect(tag._links.self.href).toBe(t.url(`/tags/${tag.id}`));
  });

  it('keeps credentials out of pagination links', async () => {
    const c = t.creds;
    const a = await t.get(`/tags?page_size=1&developer-id=${c.developerId}&user-id=${c.userId}&user-api-key=${c.apiKey}`, { creds: null });
    expect(a.status).toBe(200);
    expect(a.body.meta.pagination.links.next.href).not.toContain(c.apiKey);
  });

  it('gives the payment lists the same paging and meta, without credentials in their links', async () => {
    const c = t.creds;
    for (let i = 0; i < 2; i++) {
      const sale = await t.post('/transactions', {
        transaction: { action: 'sale', payment_method: 'cc', account_number: '4111111111111111', exp_date: '1230', transaction_amount: '3.00', location_id: t.locationId },
      });
      expect(sale.status).toBe(201);
    }
    const q = `developer-id=${c.developerId}&user-id=${c.userId}&user-api-key=${c.apiKey}`;
    for (const path of ['/transactions', '/transactionbatches', '/accountvaults']) {
      const a = await t.get(`${path}?page_size=1&${q}`, { creds: null });
      expect(a.status).toBe(200);
      expect(JSON.stringify(a.body.meta)).not.toContain(c.apiKey);
      expect(Object.keys(a.body.meta.pagination).sort()).toEqual(['currentPage', 'links', 'pageCount', 'perPage', 'totalCount']);
      expect(a.body.meta.pagination.pageCount).toBe(Math.ceil(a.body.meta.pagination.totalCount / 1));
      expect(a.body.meta.pagination.links.last === undefined).toBe(a.body.meta.pagination.pageCount <= 1);
      expect((await t.get(`${path}?page_size=999999`)).body.meta.pagination.perPage).toBe(MAX_PAGE_SIZE);
      expect((await t.get(`${path}?per-page=7`)).body.meta.pagination.perPage).toBe(7);
      const bad = await t.get(`${path}?page=0&page_size=abc`);
      expect(bad.status).toBe(422);
      expect(errorsOf(bad, 'page')).toEqual([MSG.BAD_PAGE]);
      expect(errorsOf(bad, 'page_size')).toEqual([MSG.BAD_PAGE_SIZE]);
    }
    const txs = await t.get(`/transactions?page_size=1&${q}`, { creds: null });
    expect(txs.body.meta.pagination.links.next.href).toContain('page=2');
  });

  it('sorts ascending and descending, and refuses unknown sort fields', async () => {
    const asc = (await t.get('/tags?sort=title&page_size=100')).body.tags.map((x: { title: string }) => x.title);
    const desc = (await t.get('/tags?sort=-title&page_size=100')).body.tags.map((x: { title: string }) => x.title);
    expect(asc).toEqual([...asc].sort());
    expect(desc).toEqual([...asc].reverse());
    const bad = await t.get('/tags?sort=nope');
    expect(bad.status).toBe(422);
    expect(errorsOf(bad, 'sort')).toEqual([fmt(MSG.BAD_SORT, { field: 'nope' })]);
  });

  it('defaults page_size to 20, caps it at 5000 and refuses bad paging values', async () => {
    expect((await t.get('/tags')).body.meta.pagination.perPage).toBe(20);
    expect((await t.get('/tags?page_size=999999')).body.meta.pagination.perPage).toBe(MAX_PAGE_SIZE);
    const bad = await t.get('/tags?page=0&page_size=abc');
    expect(bad.status).toBe(422);
    expect(errorsOf(bad, 'page')).toEqual([MSG.BAD_PAGE]);
    expect(errorsOf(bad, 'page_size')).toEqual([MSG.BAD_PAGE_SIZE]);
  });

  it('filters text by substring (with literal % and _), comma lists and numeric ranges', async () => {
    const sub = await t.get('/tags?title=lph');
    expect(sub.body.tags.map((x: { title: string }) => x.title)).toEqual(['alpha']);
    const literal = await t.get('/tags?title=_b%25');
    expect(literal.body.tags.map((x: { title: string }) => x.title)).toEqual(['a_b%c']);
    const list = await t.get('/tags?title=beta,gamma&sort=title');
    expect(list.body.tags.map((x: { title: string }) => x.title)).toEqual(['beta', 'gamma']);
    const all = (await t.get('/tags?page_size=100')).body.tags as { created_ts: number }[];
    const ts = all[0]!.created_ts;
    expect((await t.get(`/tags?created_ts=${ts - 1}|${ts + 1}&page_size=100`)).body.meta.pagination.totalCount).toBe(all.length);
    expect((await t.get(`/tags?created_ts=${ts + 10}|`)).body.meta.pagination.totalCount).toBe(0);
    const badRange = await t.get('/tags?created_ts=soon');
    expect(badRange.status).toBe(422);
  });

  it('filters timestamps by named ranges and custom _from/_to on the engine clock', async () => {
    const day = 86_400;
    const monday = Date.UTC(2026, 5, 1) / 1000; // Monday 1 June 2026
    t.clock.set(monday + 10 * 3600); // Monday 10:00 UTC
    const today = (await t.post('/tags', { tag: { title: 'zz-today', location_id: t.locationId } })).body.tag.id as string;
    t.clock.set(monday - day + 3600); // Sunday (last week)
    const yesterday = (await t.post('/tags', { tag: { title: 'zz-yesterday', location_id: t.locationId } })).body.tag.id as string;
    t.clock.set(monday - 40 * day);
    const old = (await t.post('/tags', { tag: { title: 'zz-old', location_id: t.locationId } })).body.tag.id as string;
    t.clock.set(monday + 12 * 3600);
    const ids = async (q: string) => ((await t.get(`/tags?title=zz-&page_size=100&${q}`)).body.tags as { id: string }[]).map((x) => x.id).sort();
    expect(await ids('created_ts=today')).toEqual([today]);
    expect(await ids('created_ts=yesterday')).toEqual([yesterday]);
    expect(await ids('created_ts=this%20week')).toEqual([today]);
    expect(await ids('created_ts=last%20week')).toEqual([yesterday]);
    expect(await ids('created_ts=last%2030%20days')).toEqual([today, yesterday].sort());
    expect(await ids('created_ts=last%2090%20days')).toEqual([today, yesterday, old].sort());
    expect(await ids('created_ts=this%20month')).toEqual([today]);
    expect(await ids('created_ts=last%20month')).toEqual([yesterday]);
    expect(await ids(`created_ts=custom&created_ts_from=${monday - 50 * day}&created_ts_to=${monday - 30 * day}`)).toEqual([old]);
    const bad = await t.get('/tags?created_ts=custom');
    expect(bad.status).toBe(422);
    expect(errorsOf(bad, 'created_ts')[0]).toContain('must be one of');
    t.clock.release();
  });

  it('expands related records and ignores unknown expands', async () => {
    const a = await t.get('/tags?expand=created_user,nonsense&page_size=1');
    expect(a.status).toBe(200);
    expect(a.body.tags[0].created_user.id).toBe(t.creds.userId);
    expect(a.body.tags[0].created_user.password_hash).toBeUndefined();
    expect(a.body.tags[0].nonsense).toBeUndefined();
  });
});

describe('records', () => {
  it('have ids of 24-36 characters and Unix-second timestamps', async () => {
    const tag = (await t.post('/tags', { tag: { title: 'ids', location_id: t.locationId } })).body.tag;
    expect(tag.id.length).toBeGreaterThanOrEqual(24);
    expect(tag.id.length).toBeLessThanOrEqual(36);
    expect(String(tag.created_ts)).toMatch(/^\d{10}$/);
    expect(tag.modified_ts).toBe(tag.created_ts);
  });

  it('ignore read-only and unknown fields on write', async () => {
    const a = await t.post('/tags', { tag: { title: 'ro', location_id: t.locationId, id: 'x'.repeat(30), created_ts: 5, color: 'red' } });
    expect(a.status).toBe(201);
    expect(a.body.tag.id).not.toBe('x'.repeat(30));
    expect(a.body.tag.created_ts).not.toBe(5);
    expect(a.body.tag.color).toBeUndefined();
  });
});

describe('empty values', () => {
  it('store null on optional fields and restore the default on fields that have one', async () => {
    const term = await t.post('/terminals', {
      terminal: { location_id: t.locationId, serial_number: 'EMPTY-1', terminal_application_id: REF.PAX_BROADPOS, terminal_manufacturer_id: REF.PAX, port: 9000, title: 'T' },
    });
    expect(term.status).toBe(201);
    const up = await t.put(`/terminals/${term.body.terminal.id}`, { terminal: { port: null, title: '' } });
    expect(up.status).toBe(200);
    expect(up.body.terminal.port).toBe(10009);
    expect(up.body.terminal.title).toBeNull();
  });
});

describe('fields that cannot be emptied', () => {
  it('are declared so: every writable field whose column is NOT NULL is required, has a default or is `nullable: false`', () => {
    const loose: string[] = [];
    for (const def of t.engine.ctx.resources.values()) {
      if (!def.methods.includes('create') && !def.methods.includes('update')) continue;
      const cols = t.engine.db.prepare(`PRAGMA table_info("${def.table}")`).all() as { name: string; notnull: number }[];
      for (const [name, f] of Object.entries(def.fields)) {
        if (f.readOnly || f.virtual) continue;
        const notNull = cols.find((c) => c.name === name)?.notnull === 1;
        // Emptied, such a field would reach SQLite's NOT NULL (a 409, or a 500 in a hook) instead of a 422 naming it.
        if (notNull && !f.required && f.default === undefined && f.nullable !== false) loose.push(`${def.name}.${name}`);
      }
    }
    expect(loose).toEqual([]);
  });
});

describe('every declared resource', () => {
  it('lists under its plural key with meta; every record has a dereferenceable _links.self.href and a proper id', async () => {
    const { pathOf } = await import('../../electron/gateway/framework/resource');
    let checked = 0;
    for (const def of t.engine.ctx.resources.values()) {
      if (!def.methods.includes('list')) continue;
      const a = await t.get(`${pathOf(def).replace(/^\/v2/, '')}?page_size=3`);
      expect(a.status, def.plural).toBe(200);
      expect(Array.isArray(a.body[def.plural]), def.plural).toBe(true);
      expect(a.body.meta.pagination.currentPage).toBe(1);
      expect(Object.keys(a.body.meta.sort.attributes)).toHaveLength(1);
      for (const rec of a.body[def.plural] as { id: unknown; _links: { self: { href: string } } }[]) {
        if (def.idKind === 'integer') expect(Number.isInteger(rec.id)).toBe(true);
        else expect(String(rec.id).length, def.plural).toBeGreaterThanOrEqual(24);
        expect(String(rec.id).length).toBeLessThanOrEqual(36);
        if (def.methods.includes('view')) {
          const self = await t.get(rec._links.self.href);
          expect(self.status, rec._links.self.href).toBe(200);
          expect(self.body[def.name].id).toEqual(rec.id);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(5);
  });
});
