/**
 * The engine describes itself: GET /openapi.json is valid OpenAPI 3.1 (Redocly's
 * recommended rules, zero errors), documents every route the engine registers and
 * nothing it does not serve, and real answers validate against the documented schemas
 * (ajv, draft 2020-12). The reference page (/docs) is checked in Chromium by
 * test/e2e/api-reference.spec.ts; the Portman + newman contract run is
 * test/contract/run-portman.mjs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startEngine, type RunningEngine } from '../../electron/gateway/engine';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an OpenAPI document walked by key
type Doc = any;

let engine: RunningEngine;
let dir: string;
let doc: Doc;
let headers: Record<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ringup-openapi-'));
  engine = await startEngine({ dataDir: dir, port: 0 });
  const c = engine.credentials;
  headers = { 'developer-id': c.developer_id, 'user-id': c.user_id, 'user-api-key': c.user_api_key };
  const res = await fetch(`${new URL(c.base_url).origin}/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  doc = await res.json();
});

afterAll(async () => {
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

const openapiPath = (fastifyUrl: string) => fastifyUrl.replace(/:([A-Za-z_]+)/g, '{$1}').replace(/\/$/, '') || '/';

describe('the OpenAPI document', () => {
  test('is OpenAPI 3.1 and passes the Redocly linter (recommended rules) with zero errors and zero warnings', async () => {
    expect(doc.openapi).toBe('3.1.0');
    // One rule is replaced by the stricter check below: a single sign-on link succeeds only
    // with a redirect (302 to the hosted page), which Redocly's 2XX rule cannot express.
    const config = await createConfig({ extends: ['recommended'], rules: { 'operation-2xx-response': 'off' } });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`);
    expect(errors).toEqual([]);
    const warnings = problems.filter((p) => p.severity === 'warn').map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`);
    expect(warnings).toEqual([]);
    const without2xx: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, Doc>>)) {
      for (const [m, op] of Object.entries(ops)) if (!Object.keys(op.responses).some((c) => c.startsWith('2'))) without2xx.push(`${m} ${path}`);
    }
    expect(without2xx.sort()).toEqual(['get /custom/contactsso', 'get /custom/sso', 'post /custom/contactsso', 'post /custom/sso']);
  });

  test('documents every route the engine registers, and no other', () => {
    const served = new Set(engine.routes.map((r) => `${r.method} ${openapiPath(r.url)}`));
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const m of Object.keys(ops)) if (['get', 'put', 'post', 'delete', 'patch'].includes(m)) documented.add(`${m.toUpperCase()} ${path}`);
    }
    // Every route, the OAuth and SSO pages included (they were not described before).
    expect([...served].filter((r) => !documented.has(r)).sort()).toEqual([]);
    for (const r of ['GET /o/authrize', 'POST /o/token', 'POST /o/revoke', 'GET /custom/sso', 'POST /hosted/virtualterminal', 'DELETE /v2/oauthclients/{id}']) expect(documented).toContain(r);
    expect([...documented].filter((r) => !served.has(r)).sort()).toEqual([]);
    expect(served.size).toBeGreaterThan(40);
  });

  test('every operation documents the error envelope for its failures and has an id', () => {
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, Doc>>)) {
      for (const [m, op] of Object.entries(ops)) {
        expect(op.operationId, `${m} ${path}`).toBeTruthy();
        if (path.startsWith('/v2/')) expect(Object.keys(op.responses), `${m} ${path}`).toContain('401');
        // /v2 JSON bodies; the OAuth and SSO forms answer pages and OAuth's own 400/401.
        if (op.requestBody && path.startsWith('/v2/')) expect(Object.keys(op.responses), `${m} ${path}`).toEqual(expect.arrayContaining(['400', '415', '422']));
        if (path.includes('{id}')) expect(Object.keys(op.responses), `${m} ${path}`).toContain('404');
      }
    }
    expect(doc.components.schemas.ErrorEnvelope.required).toEqual(['errors']);
  });

  test('declared bounds and filters reach the document (contacts)', () => {
    const create = doc.components.schemas.ContactCreate;
    expect(create.required).toEqual(['location_id', 'last_name']);
    expect(create.properties.last_name).toMatchObject({ type: 'string', minLength: 1, maxLength: 64 });
    // Integers also come as digit strings; an optional field takes null or "" to clear it.
    expect(create.properties.header_message_type.type).toEqual(['integer', 'string', 'null']);
    expect(create.properties.header_message_type).toMatchObject({ minimum: 0, maximum: 4 });
    const params = (doc.paths['/v2/contacts'].get.parameters as { name: string }[]).map((p) => p.name);
    expect(params).toEqual(expect.arrayContaining(['page', 'page_size', 'sort', 'expand', 'last_name', 'created_ts', 'created_ts_from', 'created_ts_to']));
    expect(doc.paths['/v2/contacts'].post.responses['200']).toBeDefined(); // update_if_exists answers 200
    expect(doc.paths['/v2/tags/{id}'].delete.responses['204']).toBeDefined();
    expect(doc.paths['/v2/locations/{id}']?.delete).toBeUndefined(); // no DELETE on locations
  });

  test('the transaction bodies come from the field descriptors, split by action', () => {
    const post = doc.components.schemas.TransactionCreate;
    const put = doc.components.schemas.TransactionAction;
    // POST: left out, null or "" is the default (sale).
    expect(post.properties.action.enum).toEqual(['sale', 'authonly', 'avsonly', 'force', 'refund', 'debit', 'credit', '', null]);
    expect(post.properties.description['x-actions']).toEqual(['sale', 'authonly', 'avsonly', 'force', 'refund', 'debit', 'credit']);
    expect(put.properties.action.enum).toEqual(['void', 'authcomplete', 'authincrement', 'partialreversal', 'edit']);
    expect(put.required).toEqual(['action']);
    expect(post.properties.account_number).toBeDefined();
    expect(put.properties.account_number).toBeUndefined(); // no PUT action takes account data
    expect(put.properties.tip_amount.description).toMatch(/Actions: [a-z, ]*\bedit\b/);
  });

  test('request schemas hand generators a valid value: the first alternative of each anyOf is whole, and each example is accepted', () => {
    // openapi-to-postman (under Portman) fakes an anyOf from its first alternative alone,
    // dropping what sits beside it; it reads `example` there. So in every request body:
    // the first alternative (down nested anyOfs) repeats every rule beside the anyOf and
    // the example, and every example satisfies the whole schema it illustrates.
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ ...doc, $id: 'https://ringup.test/openapi.json' });
    const pointer = (path: string[]) => path.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');
    const annotation = (k: string) => ['anyOf', 'description', 'title', 'default'].includes(k) || k.startsWith('x-');
    const problems: string[] = [];
    let checked = 0;
    const visit = (node: Doc, path: string[]) => {
      if (Array.isArray(node)) return node.forEach((n, i) => visit(n, [...path, String(i)]));
      if (!node || typeof node !== 'object') return;
      const at = `/${path.join('/')}`;
      if (Array.isArray(node.anyOf)) {
        let first = node.anyOf[0];
        while (Array.isArray(first?.anyOf)) first = first.anyOf[0];
        for (const [k, v] of Object.entries(node)) {
          if (annotation(k)) continue;
          if (k === 'required') {
            for (const r of v as string[]) if (!(first.required ?? []).includes(r)) problems.push(`${at}: first alternative lacks required ${r}`);
          } else if (JSON.stringify(first[k]) !== JSON.stringify(v)) problems.push(`${at}: first alternative lacks ${k}`);
        }
        checked++;
      }
      if (node.example !== undefined && path.at(-1) !== 'properties') {
        const validate = ajv.getSchema(`https://ringup.test/openapi.json#/${pointer(path)}`);
        if (!validate?.(node.example)) problems.push(`${at}: example ${JSON.stringify(node.example)} refused: ${ajv.errorsText(validate?.errors)}`);
        checked++;
      }
      for (const [k, v] of Object.entries(node)) if (k !== 'example' && k !== 'examples') visit(v, [...path, k]);
    };
    const bodies = new Set<string>();
    for (const [p, ops] of Object.entries(doc.paths as Record<string, Record<string, Doc>>)) {
      for (const [m, op] of Object.entries(ops)) {
        for (const [type, content] of Object.entries((op.requestBody?.content ?? {}) as Record<string, Doc>)) visit(content.schema, ['paths', p, m, 'requestBody', 'content', type, 'schema']);
      }
    }
    // The bodies' shapes (wrappers point at them).
    for (const name of Object.keys(doc.components.schemas)) if (/(Create|Update|Action)$/.test(name)) bodies.add(name);
    for (const name of bodies) visit(doc.components.schemas[name], ['components', 'schemas', name]);
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(300);
    // The cases the contract run met: a phone, a date, a hash key, an invoice's items.
    expect(doc.components.schemas.UserCreate.properties.office_phone.anyOf[0]).toMatchObject({ type: ['string', 'null'], minLength: 10, maxLength: 10, example: '5555555555' });
    expect(doc.components.schemas.UserCreate.properties.date_of_birth.anyOf[0]).toMatchObject({ format: 'date', example: '1990-01-31' });
  });

  test('security: the three headers, the query-parameter form and HTTP Basic', () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['basic', 'developerId', 'developerIdQuery', 'userApiKey', 'userApiKeyQuery', 'userId', 'userIdQuery']);
    expect(doc.security).toHaveLength(4);
    expect(doc.paths['/health'].get.security).toEqual([]);
  });
});

describe('real answers match the documented schemas', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- compiled per response
  let ajv: any;
  beforeAll(() => {
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ $id: 'doc', components: doc.components });
  });

  /** Validates an answer against the operation's documented response for its status. */
  function check(method: string, path: string, status: number, body: unknown): string[] {
    const op = doc.paths[path]?.[method.toLowerCase()];
    if (!op) return [`${method} ${path} is not documented`];
    let resp = op.responses[String(status)];
    if (!resp) return [`${method} ${path} does not document ${status}`];
    if (resp.$ref) resp = doc.components.responses[resp.$ref.split('/').pop()];
    const schema = resp.content?.['application/json']?.schema;
    if (!schema) return body === null || body === '' ? [] : [`${method} ${path} ${status}: body but no schema`];
    const rewritten = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'));
    const validate = ajv.compile(rewritten);
    return validate(body) ? [] : validate.errors.map((e: { instancePath: string; message: string }) => `${method} ${path} ${status}: ${e.instancePath} ${e.message}`);
  }

  async function call(method: string, docPath: string, url: string, body?: unknown): Promise<{ status: number; body: Doc; problems: string[] }> {
    const res = await fetch(`${engine.credentials.base_url.replace(/\/v2$/, '')}${url}`, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const parsed = text ? JSON.parse(text) : null;
    return { status: res.status, body: parsed, problems: check(method, docPath, res.status, parsed) };
  }

  test("the reference page's transaction examples run as they are (no location_id beside location_api_id, no invented ids)", async () => {
    const origin = new URL(engine.credentials.base_url).origin;
    const send = async (method: string, path: string, body: unknown) => {
      const res = await fetch(`${origin}${path}`, { method, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, text: await res.text() };
    };
    const posts = doc.paths['/v2/transactions'].post.requestBody.content['application/json'].examples as Record<string, { value: { transaction: Record<string, unknown> } }>;
    expect(Object.keys(posts).length).toBeGreaterThanOrEqual(3);
    for (const [name, ex] of Object.entries(posts)) {
      const r = await send('POST', '/v2/transactions', ex.value);
      expect(r.status, `${name}: ${r.text}`).toBe(201);
    }
    const puts = doc.paths['/v2/transactions/{id}'].put.requestBody.content['application/json'].examples as Record<string, { value: { transaction: Record<string, unknown> } }>;
    expect(Object.keys(puts).length).toBeGreaterThanOrEqual(3);
    for (const [name, ex] of Object.entries(puts)) {
      const onAuth = ['authcomplete', 'authincrement'].includes(String(ex.value.transaction.action));
      const t = JSON.parse((await send('POST', '/v2/transactions', { transaction: { action: onAuth ? 'authonly' : 'sale', account_number: '4111111111111111', exp_date: '1230', transaction_amount: '50.00' } })).text).transaction;
      const r = await send('PUT', `/v2/transactions/${t.id}`, ex.value);
      expect(r.status, `${name}: ${r.text}`).toBe(200);
    }
  });

  test('a scripted tour of every resource validates (successes and errors)', async () => {
    const c = engine.credentials;
    const loc = c.location_id;
    const problems: string[] = [];
    const run = async (method: string, docPath: string, url: string, body?: unknown, expected?: number) => {
      const r = await call(method, docPath, url, body);
      problems.push(...r.problems);
      if (expected !== undefined && r.status !== expected) problems.push(`${method} ${url}: ${r.status} (expected ${expected}) ${JSON.stringify(r.body).slice(0, 200)}`);
      return r;
    };
    await run('GET', '/health', '/health', undefined, 200);
    await run('GET', '/v2/users/me', '/v2/users/me', undefined, 200);
    const users = await run('GET', '/v2/users', '/v2/users?page_size=5', undefined, 200);
    await run('GET', '/v2/users/{id}', `/v2/users/${users.body.users[0].id}`, undefined, 200);
    const user = await run('POST', '/v2/users', '/v2/users', { user: { username: 'clerk7', email: 'clerk7@example.com', user_type_id: 100, primary_location_id: loc, last_name: 'Clerk', password: 'Passw0rd1' } }, 201);
    await run('PUT', '/v2/users/{id}', `/v2/users/${user.body.user.id}`, { user: { first_name: 'Pat' } }, 200);
    await run('POST', '/v2/users/{id}/generateuserapikey', `/v2/users/${user.body.user.id}/generateuserapikey`, undefined, 200);
    await run('DELETE', '/v2/users/{id}', `/v2/users/${c.user_id}`, undefined, 409);
    await run('GET', '/v2/locations', '/v2/locations?expand=product_transactions,terminals', undefined, 200);
    await run('GET', '/v2/locations/{id}', `/v2/locations/${loc}?expand=parent,branding_domain,developer_company`, undefined, 200);
    await run('PUT', '/v2/locations/{id}/credentials', `/v2/locations/${loc}/credentials`, { location: { location_api_id: 'store-1' } }, 200);
    await run('GET', '/v2/locationinfos', '/v2/locationinfos?relationship=direct', undefined, 200);
    await run('GET', '/v2/locationinfos/{id}', `/v2/locationinfos/${loc}`, undefined, 200);
    const contact = await run('POST', '/v2/contacts', '/v2/contacts', { contact: { location_id: loc, last_name: 'Doe', email: 'doe@example.com', contact_api_id: 'c-1' } }, 201);
    await run('POST', '/v2/contacts', '/v2/contacts', { contact: { location_id: loc, last_name: 'Doe2', contact_api_id: 'c-1', update_if_exists: 1 } }, 200);
    await run('GET', '/v2/contacts', '/v2/contacts?created_ts=today&expand=location', undefined, 200);
    await run('GET', '/v2/contacts/{id}', `/v2/contacts/c-1?api_id=true&location_id=${loc}`, undefined, 200);
    await run('PUT', '/v2/contacts/{id}', `/v2/contacts/${contact.body.contact.id}`, { contact: { zip: '1' } }, 422);
    await run('POST', '/v2/contacts', '/v2/contacts', { contact: { location_id: loc } }, 422);
    await run('GET', '/v2/contacts', '/v2/contacts?sort=nope', undefined, 422);
    await run('GET', '/v2/contacts/{id}', '/v2/contacts/no-such-id', undefined, 404);
    const tag = await run('POST', '/v2/tags', '/v2/tags', { tag: { location_id: loc, title: 'VIP' } }, 201);
    await run('PUT', '/v2/tags/{id}', `/v2/tags/${tag.body.tag.id}`, { tag: { title: 'Gold' } }, 200);
    await run('GET', '/v2/tags', '/v2/tags', undefined, 200);
    await run('DELETE', '/v2/tags/{id}', `/v2/tags/${tag.body.tag.id}`, undefined, 204);
    const terms = await run('GET', '/v2/terminals', '/v2/terminals', undefined, 200);
    await run('GET', '/v2/terminals/{id}', `/v2/terminals/${terms.body.terminals[0].id}`, undefined, 200);
    const models = await run('GET', '/v2/scannermodels', '/v2/scannermodels', undefined, 200);
    await run('GET', '/v2/scannermodels/{id}', `/v2/scannermodels/${models.body.scannermodels[0].id}`, undefined, 200);
    await run('GET', '/v2/scanners', '/v2/scanners', undefined, 200);
    await run('GET', '/v2/deviceterms', '/v2/deviceterms', undefined, 200);
    await run('GET', '/v2/postbackconfigs', '/v2/postbackconfigs', undefined, 200);
    // payments
    const sale = await run('POST', '/v2/transactions', '/v2/transactions', { transaction: { action: 'sale', account_number: '4005562231212149', exp_date: '1230', cvv: '999', transaction_amount: '10.00', save_account: 1, transaction_api_id: 'o-1' } }, 201);
    const t = sale.body.transaction;
    await run('POST', '/v2/transactions', '/v2/transactions', { transaction: { action: 'sale', account_number: '4111111111111111', exp_date: '1230', transaction_amount: '5.00' } }, 201); // declined, stored
    await run('POST', '/v2/transactions', '/v2/transactions', { transaction: { action: 'debit', account_number: '123456789', routing: '072000326', account_holder_name: 'Pat Doe', transaction_amount: '12.00' } }, 201);
    await run('POST', '/v2/transactions', '/v2/transactions', { transaction: { action: 'sale', transaction_amount: 'ten' } }, 422);
    await run('GET', '/v2/transactions', '/v2/transactions?created_ts=today&transaction_amount=1.00|20.00&expand=transaction_batch', undefined, 200);
    await run('GET', '/v2/transactions/{id}', `/v2/transactions/${t.id}?expand=transaction_level3,account_vault,transaction_batch,contact,previous_transaction`, undefined, 200);
    await run('GET', '/v2/transactions/{id}', `/v2/transactions/o-1?api_id=true&location_id=${loc}`, undefined, 200);
    await run('PUT', '/v2/transactions/{id}', `/v2/transactions/${t.id}`, { transaction: { action: 'edit', tip_amount: '1.00', description: 'tip' } }, 200);
    await run('PUT', '/v2/transactions/{id}', `/v2/transactions/${t.id}`, { transaction: { action: 'authcomplete' } }, 422);
    const l3 = await run('POST', '/v2/transactionlevel3s', '/v2/transactionlevel3s', { transactionlevel3: { transaction_id: t.id, level3_data: { tax_amount: '1.00', line_items: [{ description: 'Bolts', product_code: 'B-1', unit_code: 'BX', unit_cost: '2.5000', quantity: 4, commodity_code: '3100' }] } } }, 201);
    await run('GET', '/v2/transactionlevel3s/{id}', `/v2/transactionlevel3s/${l3.body.transactionlevel3.id}`, undefined, 200);
    await run('DELETE', '/v2/transactionlevel3s/{id}', `/v2/transactionlevel3s/${l3.body.transactionlevel3.id}`, undefined, 204);
    await run('GET', '/v2/accountvaults', '/v2/accountvaults?expand=contact', undefined, 200);
    await run('GET', '/v2/accountvaults/{id}', `/v2/accountvaults/${t.account_vault_id}?expand=contact`, undefined, 200);
    await run('GET', '/v2/accountvaults/{id}/bininfo', `/v2/accountvaults/${t.account_vault_id}/bininfo`, undefined, 200);
    const vault = await run('POST', '/v2/accountvaults', '/v2/accountvaults', { accountvault: { location_id: loc, payment_method: 'cc', account_number: '4111111111111111', exp_date: '1230', title: 'Visa' } }, 201);
    await run('PUT', '/v2/accountvaults/{id}', `/v2/accountvaults/${vault.body.accountvault.id}`, { accountvault: { title: 'Work card' } }, 200);
    await run('DELETE', '/v2/accountvaults/{id}', `/v2/accountvaults/${vault.body.accountvault.id}`, undefined, 204);
    const batches = await run('GET', '/v2/transactionbatches', '/v2/transactionbatches?is_open=1', undefined, 200);
    await run('GET', '/v2/transactionbatches/{id}', `/v2/transactionbatches/${batches.body.transactionbatches[0].id}`, undefined, 200);
    await run('POST', '/v2/transactionbatches/{id}/settle', `/v2/transactionbatches/${batches.body.transactionbatches[0].id}/settle`, undefined, 200);
    // the plumbing's errors
    const noAuth = await fetch(`${c.base_url}/users/me`);
    problems.push(...check('GET', '/v2/users/me', noAuth.status, await noAuth.json()));
    const bad = await fetch(`${c.base_url}/contacts`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{nope' });
    problems.push(...check('POST', '/v2/contacts', bad.status, await bad.json()));
    const plain = await fetch(`${c.base_url}/contacts`, { method: 'POST', headers: { ...headers, 'content-type': 'text/plain' }, body: 'contact' });
    problems.push(...check('POST', '/v2/contacts', plain.status, await plain.json()));
    expect(problems).toEqual([]);
  });
});
