/**
 * Hostile input on every OAuth, SSO and hosted route: wrong types, repeated and missing
 * parameters, huge and deeply nested bodies, NUL and unicode, wrong content types. The
 * engine must answer every request (no hang), never with a 5xx, and keep its database sound.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TestEngine } from '../helpers/engine-fixture';

let te: TestEngine;
let origin: string;
const logged: string[] = [];

beforeAll(async () => {
  te = await TestEngine.start({ log: (line) => logged.push(line) });
  origin = (te.engine.credentials as unknown as { auth_url: string }).auth_url;
});
afterAll(() => te.close());

const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
const values = ['', 'x'.repeat(70_000), '\u0000', '💳'.repeat(500), '%00', '../../etc/passwd', "' OR 1=1 --", '<script>alert(1)</script>', '1e309', '-1', '0'];
const keys = ['client_id', 'client_secret', 'code', 'refresh_token', 'token', 'grant_type', 'redirect_uri', 'state', 'response_type', 'scope', 'code_challenge', 'code_verifier',
  'request_id', 'csrf_token', 'domain', 'username', 'password', 'decision', 'data', 'e_data', 'developer-id', 'transaction_amount', 'account_number'];

it('answers every hostile request below 500, with the database intact', async () => {
  const routes: Array<[string, string]> = [
    ['GET', '/o/authrize'], ['POST', '/o/authrize'], ['POST', '/o/token'], ['POST', '/o/revoke'],
    ['GET', '/custom/sso'], ['POST', '/custom/contactsso'], ['GET', '/hosted/virtualterminal'], ['POST', '/hosted/virtualterminal'],
  ];
  let count = 0;
  const check = async (method: string, url: string, init: { body?: string; headers?: Record<string, string> } = {}) => {
    const res = await fetch(url, { method, redirect: 'manual', signal: AbortSignal.timeout(10_000), ...init });
    await res.arrayBuffer();
    count++;
    expect(res.status, `${method} ${url.slice(0, 200)} ${String(init.body).slice(0, 200)}`).toBeLessThan(500);
  };
  for (const [method, path] of routes) {
    for (const k of keys) {
      for (const v of values) {
        const q = new URLSearchParams({ [k]: v });
        if (method === 'GET') await check(method, `${origin}${path}?${q}`);
        else await check(method, `${origin}${path}`, { body: q.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      }
      if (method === 'POST') {
        for (const body of [JSON.stringify({ [k]: { nested: [1, 2] } }), JSON.stringify({ [k]: [k, k] }), `{"${k}": 12345678901234567890123}`, JSON.stringify({ [k]: null })]) {
          await check(method, `${origin}${path}`, { body, headers: { 'content-type': 'application/json' } });
        }
      }
    }
    if (method === 'POST') {
      for (const [body, type] of [
        [deep(1000), 'application/json'], ['{"a":', 'application/json'], ['[1,2,3]', 'application/json'], ['"text"', 'application/json'],
        ['a=1&a=2&a[]=3&%ZZ=%ZZ', 'application/x-www-form-urlencoded'], ['x'.repeat(2 * 1024 * 1024), 'application/x-www-form-urlencoded'],
        ['<xml/>', 'text/xml'], ['--b\r\n', 'multipart/form-data; boundary=b'], ['', 'application/x-www-form-urlencoded'],
      ] as const) {
        await check(method, `${origin}${path}`, { body, headers: { 'content-type': type } });
      }
    }
  }
  // Client authentication by Basic with broken encodings.
  for (const basic of ['Basic', 'Basic !!!', `Basic ${Buffer.from('%E0%A4%A:x').toString('base64')}`, `Basic ${Buffer.from(':').toString('base64')}`]) {
    await check('POST', `${origin}/o/token`, { body: 'grant_type=refresh_token&refresh_token=x', headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' } });
  }
  // Bearer on /v2 with junk tokens.
  for (const tok of ['', ' ', 'x'.repeat(10_000), '\u00ff', 'a b c']) {
    await check('GET', `${te.engine.baseUrl}/users/me`, { headers: { authorization: `Bearer ${tok}`, 'developer-id': te.creds.developerId } });
  }
  expect(count).toBeGreaterThan(1500);
  expect(logged.filter((l) => l.startsWith('internal error'))).toEqual([]);
  expect(te.engine.db.pragma('integrity_check', { simple: true })).toBe('ok');
}, 240_000);
