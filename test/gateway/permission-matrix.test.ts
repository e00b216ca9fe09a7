/**
 * The permission matrix, generated: every user type × every operation the engine serves
 * under /v2 and /sandbox (read from the engine's registered routes, each transaction and
 * router action apart), with a plausible request. Where the declaration — as the OpenAPI
 * document publishes it (`x-ringup-user-types`, by action where the body's action decides)
 * — forbids, the answer is 403 in the envelope and no row of any table changed (digest of
 * the whole database before and after); where it allows, the answer is anything but 403
 * (a 404 or 422 says the request passed the check). A new route is walked without any
 * change here (an unknown path gets a made-up id and the body `{"<wrapper>": {}}`); a
 * route the document does not describe, or describes without its user types, fails.
 *
 * Requests that address a user address the caller itself, so the users' row rule (only
 * users of a type below your own, escalations.test.ts) does not blur the route's rule.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngine } from '../../electron/gateway/engine';
import { defaultModules } from '../../electron/gateway/engine-modules';
import { MovableClock } from '../../electron/gateway/framework/clock';
import type { EngineModule } from '../../electron/gateway/framework/context';
import { fmt } from '../../electron/gateway/framework/errors';
import { ADMINS, ANY_USER, GUARDED_PATH, PERMISSION_MSG, USER_TYPE_IDS, describeTypes } from '../../electron/gateway/framework/permissions';
import { openApiPath } from '../../electron/gateway/framework/permission-openapi';
import { renderPermissionTable } from '../../electron/gateway/framework/permission-table';
import { REF } from '../../electron/gateway/merchant/schema-migrations';
import { changedTables, digestTables } from './helpers/db-digest';
import { TestEngine, errorsOf, type ApiAnswer, type Creds } from './helpers/engine-fixture';
import { noonNewYork } from './recurring/recurring-harness';

type Op = Record<string, unknown> & { 'x-ringup-user-types'?: number[]; 'x-ringup-user-types-by-action'?: Record<string, number[]>; requestBody?: unknown };
interface Probe {
  name: string;
  method: string;
  path: string;
  body?: unknown;
  allowed: readonly number[];
}

const card = { payment_method: 'cc', account_number: '4111111111111111', exp_date: '1239', cvv: '999' };
const ach = { payment_method: 'ach', account_number: '2079951060953', routing: '072000326', account_type: 'checking', account_holder_name: 'Pat Doe', ach_sec_code: 'WEB' };

let t: TestEngine;
const creds = new Map<number, Creds>();
const ids: Record<string, string> = {};
let n = 0;
const uniq = (p: string) => `${p}${++n}`;

async function must(a: Promise<ApiAnswer>, what: string): Promise<ApiAnswer> {
  const r = await a;
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${r.text.slice(0, 300)}`);
  return r;
}

beforeAll(async () => {
  const clock = new MovableClock();
  clock.set(noonNewYork('2030-03-01'));
  t = await TestEngine.start({ clock, schedulerIntervalMs: 0, postbackPollMs: 0 });
  const loc = t.locationId;
  creds.set(250, t.creds);
  for (const type of [200, 100, 50]) {
    const key = `matrix-key-${type}-${'k'.repeat(20)}`;
    const u = await must(t.post('/users', { user: { username: `matrix-${type}`, email: `m${type}@example.com`, last_name: 'Matrix', user_type_id: type, primary_location_id: loc, password: 'Secret123', user_api_key: key } }), 'user');
    creds.set(type, { developerId: t.creds.developerId, userId: u.body.user.id, apiKey: key });
  }
  ids.location = loc;
  ids.terminal = t.engine.seed.terminalId;
  ids.pt = t.engine.credentials.cc_product_transaction_id;
  ids.contact = (await must(t.post('/contacts', { contact: { location_id: loc, last_name: 'Doe', email: 'pat@example.com' } }), 'contact')).body.contact.id;
  ids.vault = (await must(t.post('/accountvaults', { accountvault: { location_id: loc, contact_id: ids.contact, payment_method: 'cc', account_number: '4111111111111111', exp_date: '1239' } }), 'vault')).body.accountvault.id;
  const sale = (await must(t.post('/transactions', { transaction: { ...card, transaction_amount: '20.00' } }), 'sale')).body.transaction;
  ids.sale = sale.id;
  ids.batch = sale.transaction_batch_id;
  ids.auth = (await must(t.post('/transactions', { transaction: { ...card, action: 'authonly', transaction_amount: '30.00' } }), 'authonly')).body.transaction.id;
  ids.tipped = (await must(t.post('/transactions', { transaction: { ...card, transaction_amount: '15.00', tip_amount: '5.00' } }), 'tipped sale')).body.transaction.id;
  const commercial = ids.commercial = (await must(t.post('/transactions', { transaction: { ...card, account_number: '4005562231212149', transaction_amount: '40.00' } }), 'commercial sale')).body.transaction.id;
  ids.level3 = (await must(t.get(`/transactions/${commercial}?expand=transaction_level3`), 'level3')).body.transaction.transaction_level3.id;
  ids.recurring = (await must(t.post('/recurrings', { recurring: { location_id: loc, account_vault_id: ids.vault, product_transaction_id: ids.pt, transaction_amount: '10.00', interval: 1, interval_type: 'm', start_date: '2030-03-10' } }), 'recurring')).body.recurring.id;
  ids.paylink = (await must(t.post('/paylinks', { paylink: { location_id: loc, delivery_method: 1, amount_due: '12.00', email: 'pat@example.com' } }), 'paylink')).body.paylink.id;
  ids.invoice = (await must(t.post('/quickinvoices', { quickinvoice: { location_id: loc, title: 'Work', due_date: '2030-04-01', item_list: { Labour: 100 }, email: 'pat@example.com' } }), 'invoice')).body.quickinvoice.id;
  ids.notification = (await must(t.get('/notifications?page_size=1'), 'notification')).body.notifications[0].id;
  ids.tag = (await must(t.post('/tags', { tag: { location_id: loc, title: 'Matrix' } }), 'tag')).body.tag.id;
  ids.scanner = (await must(t.post('/scanners', { scanner: { location_id: loc, scanner_model_id: 1, title: 'Front', serial_number: 'SN-MATRIX-1' } }), 'scanner')).body.scanner.id;
  ids.deviceterm = (await must(t.post('/deviceterms', { deviceterm: { location_id: loc, terminal_id: ids.terminal, require_signature: false, terms_conditions: 'I agree.' } }), 'deviceterm')).body.deviceterm.id;
  ids.oauthclient = (await must(t.post('/oauthclients', { oauthclient: { name: 'Matrix', redirect_uris: ['https://matrix.example/cb'] } }), 'oauth client')).body.oauthclient.client_id;
  // One postback delivery (its receiver refuses at once), then the config listens to nothing: no delivery runs in the background under a digest.
  const pb = (await must(t.post('/postbackconfigs', { postbackconfig: { location_id: loc, url: 'http://127.0.0.1:9/hook', resource: 'contact', on_create: 1, on_update: 0, on_delete: 0, attempt_interval: 3600 } }), 'postback config')).body.postbackconfig.id;
  ids.postbackconfig = pb;
  await must(t.post('/contacts', { contact: { location_id: loc, last_name: 'Announced' } }), 'announced contact');
  const deadline = Date.now() + 5000;
  for (;;) {
    const d = (await t.get(`/postbackdeliveries?postback_config_id=${pb}`)).body.postbackdeliveries?.[0];
    if (d && d.number_of_attempts >= 1) {
      ids.postbackdelivery = d.id;
      break;
    }
    if (Date.now() > deadline) throw new Error('the postback delivery was never attempted');
    await new Promise((r) => setTimeout(r, 20));
  }
  await must(t.put(`/postbackconfigs/${pb}`, { postbackconfig: { on_create: 0 } }), 'postback config off');
});
afterAll(async () => {
  await t.close();
});

/** The record a path's `{id}` stands for; a path not listed here gets a made-up id (404 once allowed). */
function idFor(path: string, userType: number): string {
  const table: [RegExp, string][] = [
    [/^\/v2\/users\//, creds.get(userType)?.userId ?? ''],
    [/^\/v2\/locations?(infos)?\//, ids.location ?? ''],
    [/^\/v2\/transactions\//, ids.sale ?? ''],
    [/^\/v2\/accountvaults\//, ids.vault ?? ''],
    [/^\/v2\/transactionbatches\//, ids.batch ?? ''],
    [/^\/v2\/transactionlevel3s\//, ids.level3 ?? ''],
    [/^\/v2\/recurrings\//, ids.recurring ?? ''],
    [/^\/v2\/paylinks\//, ids.paylink ?? ''],
    [/^\/v2\/quickinvoices\//, ids.invoice ?? ''],
    [/^\/v2\/notifications\//, ids.notification ?? ''],
    [/^\/v2\/tags\//, ids.tag ?? ''],
    [/^\/v2\/terminals\//, ids.terminal ?? ''],
    [/^\/v2\/scanners\//, ids.scanner ?? ''],
    [/^\/v2\/scannermodels\//, '1'],
    [/^\/v2\/deviceterms\//, ids.deviceterm ?? ''],
    [/^\/v2\/contacts\//, ids.contact ?? ''],
    [/^\/v2\/oauthclients\//, ids.oauthclient ?? ''],
    [/^\/v2\/postbackconfigs\//, ids.postbackconfig ?? ''],
    [/^\/v2\/postbackdeliveries\//, ids.postbackdelivery ?? ''],
    [/^\/v2\/producttransactions\//, ids.pt ?? ''],
  ];
  return table.find(([re]) => re.test(path))?.[1] ?? randomUUID();
}

/** A plausible body for an operation (the key is `METHOD /openapi/path`, plus ` action` where the body's action decides). */
function bodyFor(key: string, op: Op): unknown {
  const loc = ids.location;
  const samples: Record<string, () => unknown> = {
    'POST /v2/users': () => ({ user: { username: uniq('walker'), email: 'w@example.com', last_name: 'Walker', user_type_id: 50, primary_location_id: loc } }),
    'PUT /v2/users/{id}': () => ({ user: { first_name: 'Walker' } }),
    'POST /v2/locations': () => ({ location: { name: uniq('Branch '), parent_id: loc, branding_domain_url: 'branch.example' } }),
    'PUT /v2/locations/{id}': () => ({ location: { name: 'Demo Store' } }),
    'PUT /v2/locations/{id}/credentials': () => ({ location: { ticket_hash_key: uniq('ticket-key-') } }),
    'POST /v2/contacts': () => ({ contact: { location_id: loc, last_name: uniq('Contact') } }),
    'PUT /v2/contacts/{id}': () => ({ contact: { first_name: 'Pat' } }),
    'POST /v2/tags': () => ({ tag: { location_id: loc, title: uniq('Tag') } }),
    'PUT /v2/tags/{id}': () => ({ tag: { title: 'Matrix' } }),
    'POST /v2/terminals': () => ({ terminal: { location_id: loc, serial_number: uniq('SN-T-'), title: 'Back', terminal_application_id: REF.PAX_BROADPOS, terminal_manufacturer_id: REF.PAX } }),
    'PUT /v2/terminals/{id}': () => ({ terminal: { title: 'Demo Terminal' } }),
    'POST /v2/scanners': () => ({ scanner: { location_id: loc, scanner_model_id: 1, title: 'Side', serial_number: uniq('SN-S-') } }),
    'PUT /v2/scanners/{id}': () => ({ scanner: { title: 'Front' } }),
    'POST /v2/deviceterms': () => ({ deviceterm: { location_id: loc, terminal_id: ids.terminal, require_signature: false, terms_conditions: 'I agree.' } }),
    'POST /v2/postbackconfigs': () => ({ postbackconfig: { location_id: loc, url: 'http://127.0.0.1:9/other', resource: 'contact', on_create: 0, on_update: 0, on_delete: 0 } }),
    'PUT /v2/postbackconfigs/{id}': () => ({ postbackconfig: { attempt_interval: 3600 } }),
    'POST /v2/oauthclients': () => ({ oauthclient: { name: uniq('Client'), redirect_uris: ['https://matrix.example/cb'] } }),
    'POST /v2/accountvaults': () => ({ accountvault: { location_id: loc, contact_id: ids.contact, payment_method: 'cc', account_number: '5454545454545454', exp_date: '1239' } }),
    'PUT /v2/accountvaults/{id}': () => ({ accountvault: { title: 'Visa' } }),
    'POST /v2/recurrings': () => ({ recurring: { location_id: loc, account_vault_id: ids.vault, product_transaction_id: ids.pt, transaction_amount: '10.00', interval: 1, interval_type: 'm', start_date: '2030-03-10' } }),
    'PUT /v2/recurrings/{id}': () => ({ recurring: { description: 'Monthly' } }),
    'POST /v2/paylinks': () => ({ paylink: { location_id: loc, delivery_method: 0, amount_due: '9.00' } }),
    'PUT /v2/paylinks/{id}': () => ({ paylink: { description: 'Order' } }),
    'POST /v2/quickinvoices': () => ({ quickinvoice: { location_id: loc, title: 'More work', due_date: '2030-04-01', item_list: { Labour: 10 }, send_email: 0 } }),
    'PUT /v2/quickinvoices/{id}': () => ({ quickinvoice: { title: 'Work' } }),
    'PUT /v2/quickinvoices/{id}/addTransaction': () => ({ quickinvoice: { transaction_id: ids.sale } }),
    'PUT /v2/quickinvoices/{id}/removeTransaction': () => ({ quickinvoice: { transaction_id: ids.sale } }),
    'PUT /v2/producttransactions/{id}': () => ({ producttransaction: { batch_close_time: '23:59' } }),
    'POST /v2/transactionlevel3s': () => ({ transactionlevel3: { transaction_id: ids.commercial, level3_data: {} } }),
    'POST /v2/routeraccountvaults': () => ({ routeraccountvault: { payment_method: 'cc', action: 'store', location_id: loc, contact_id: ids.contact, terminal_id: ids.terminal } }),
    'POST /sandbox/clock/advance': () => ({ clock: { location_id: loc, seconds: 60 } }),
    'POST /v2/transactions sale': () => ({ transaction: { ...card, action: 'sale', transaction_amount: '3.00' } }),
    'POST /v2/transactions authonly': () => ({ transaction: { ...card, action: 'authonly', transaction_amount: '3.00' } }),
    'POST /v2/transactions avsonly': () => ({ transaction: { ...card, action: 'avsonly', transaction_amount: '0.00' } }),
    'POST /v2/transactions force': () => ({ transaction: { ...card, action: 'force', auth_code: '123456', transaction_amount: '3.00' } }),
    'POST /v2/transactions refund': () => ({ transaction: { action: 'refund', previous_transaction_id: ids.sale, transaction_amount: '1.00' } }),
    'POST /v2/transactions debit': () => ({ transaction: { ...ach, action: 'debit', transaction_amount: '3.00' } }),
    'POST /v2/transactions credit': () => ({ transaction: { ...ach, action: 'credit', transaction_amount: '1.00' } }),
    'PUT /v2/transactions/{id} void': () => ({ transaction: { action: 'void' } }),
    'PUT /v2/transactions/{id} authcomplete': () => ({ transaction: { action: 'authcomplete', transaction_amount: '30.00' } }),
    'PUT /v2/transactions/{id} authincrement': () => ({ transaction: { action: 'authincrement', transaction_amount: '1.00' } }),
    'PUT /v2/transactions/{id} partialreversal': () => ({ transaction: { action: 'partialreversal', transaction_amount: '19.00' } }),
    'PUT /v2/transactions/{id} edit': () => ({ transaction: { action: 'edit', tip_amount: '1.00' } }),
    'POST /v2/routertransactions sale': () => ({ routertransaction: { action: 'sale', location_id: loc, terminal_id: ids.terminal, transaction_amount: '7.10' } }),
    'POST /v2/routertransactions authonly': () => ({ routertransaction: { action: 'authonly', location_id: loc, terminal_id: ids.terminal, transaction_amount: '7.10' } }),
    'POST /v2/routertransactions refund': () => ({ routertransaction: { action: 'refund', location_id: loc, terminal_id: ids.terminal, transaction_amount: '1.00' } }),
  };
  const sample = samples[key];
  if (sample) return sample();
  // Not listed (a new route): the wrapper its document names, empty.
  const schema = (op.requestBody as { content?: Record<string, { schema?: { required?: string[] } }> } | undefined)?.content?.['application/json']?.schema;
  const wrapper = schema?.required?.[0];
  return wrapper ? { [wrapper]: {} } : undefined;
}

/** Which transaction an action needs in the path (an authorization for authcomplete and authincrement). */
function pathFor(path: string, action: string | undefined, userType: number): string {
  const query = path === '/sandbox/clock' ? `?location_id=${ids.location}` : '';
  return path.replace(/\{[A-Za-z_]+\}/g, () => (path.startsWith('/v2/transactions/') && (action === 'authcomplete' || action === 'authincrement') ? (ids.auth as string) : idFor(path, userType))) + query;
}

/** Reads first, then writes; what ends a record's working life (settling, moving time, deleting) last. */
const ORDER: Record<string, number> = { get: 0, post: 1, put: 2, delete: 4 };
const orderOf = (method: string, url: string) => (url.endsWith('/settle') || url.startsWith('/sandbox/clock/advance') ? 3 : (ORDER[method.toLowerCase()] ?? 9));

/** Every operation to walk, from the engine's registered routes; each entry's user types from the document. */
function probes(): Probe[] {
  const doc = t.engine.openapi() as { paths: Record<string, Record<string, Op>> };
  const out: Probe[] = [];
  const routes = t.engine.routes.filter((r) => GUARDED_PATH.test(r.url)).sort((a, b) => orderOf(a.method, a.url) - orderOf(b.method, b.url) || a.url.localeCompare(b.url));
  for (const r of routes) {
    const path = openApiPath(r.url);
    const method = r.method.toLowerCase();
    const op = doc.paths[path]?.[method];
    expect(op, `${r.method} ${path} is not in the OpenAPI document`).toBeDefined();
    const types = op?.['x-ringup-user-types'];
    expect(types, `${r.method} ${path} shows no x-ringup-user-types`).toEqual(expect.any(Array));
    expect((op?.responses as Record<string, unknown>)['403'], `${r.method} ${path} lists no 403`).toBeDefined();
    const byAction = op?.['x-ringup-user-types-by-action'];
    const key = `${r.method} ${path}`;
    if (!byAction) {
      out.push({ name: key, method: r.method, path, body: undefined, allowed: types ?? [] });
      continue;
    }
    for (const [action, allowed] of Object.entries(byAction)) out.push({ name: `${key} ${action}`, method: r.method, path, allowed });
  }
  return out;
}

describe('the permission matrix: every user type × every operation', () => {
  it('answers 403 exactly where the declaration forbids (no row changed), and anything else where it allows', async () => {
    const started = Date.now();
    const doc = t.engine.openapi() as { paths: Record<string, Record<string, Op>> };
    const walked = probes();
    // The tip edit that lowers an amount is a partial reversal: its own row of the matrix.
    const lowering: Probe = { name: 'PUT /v2/transactions/{id} edit lowering the tip', method: 'PUT', path: '/v2/transactions/{id}', allowed: doc.paths['/v2/transactions/{id}']?.put?.['x-ringup-user-types-by-action']?.partialreversal ?? [] };
    walked.splice(walked.findIndex((p) => p.name === 'PUT /v2/transactions/{id} edit') + 1, 0, lowering);
    const refusals: string[] = [];
    let requests = 0;
    for (const p of walked) {
      const action = p.name.startsWith(`${p.method} ${p.path} `) ? p.name.slice(`${p.method} ${p.path} `.length) : undefined;
      for (const type of [...USER_TYPE_IDS].reverse()) {
        const who = creds.get(type) as Creds;
        const op = doc.paths[p.path]?.[p.method.toLowerCase()] as Op;
        const body = p === lowering ? { transaction: { action: 'edit', tip_amount: '0.00' } } : bodyFor(action && action !== 'edit lowering the tip' ? `${p.method} ${p.path} ${action}` : `${p.method} ${p.path}`, op);
        const target = p === lowering ? `/v2/transactions/${ids.tipped}` : pathFor(p.path, action, type);
        const url = t.engine.baseUrl.replace(/\/v2$/, '') + target;
        const before = p.allowed.includes(type) ? undefined : digestTables(t.engine.db);
        const a = await t.call(p.method, url, body, { creds: who, timeoutMs: 15_000 });
        requests++;
        const label = `${type} → ${p.name} (${target}): ${a.status} ${a.text.slice(0, 200)}`;
        if (before) {
          expect(a.status, label).toBe(403);
          expect(errorsOf(a)[0], label).toMatch(/^Your user type \(\d+\) may not /);
          expect(changedTables(before, digestTables(t.engine.db)), label).toEqual([]);
          refusals.push(`${type} ${p.name}`);
        } else {
          expect(a.status, label).not.toBe(403);
          expect(a.status, label).toBeLessThan(500);
        }
        // A re-keyed walker goes on with its new key.
        if (p.path.endsWith('/generateuserapikey') && a.status === 200) creds.set(type, { ...who, apiKey: a.body.user.user_api_key as string });
      }
    }
    // Every guarded route was walked, and the walk stayed quick.
    expect(new Set(walked.map((p) => `${p.method} ${p.path}`)).size).toBe(new Set(t.engine.routes.filter((r) => GUARDED_PATH.test(r.url)).map((r) => `${r.method} ${r.url}`)).size);
    expect(refusals.length).toBeGreaterThan(100);
    expect(requests).toBe(walked.length * USER_TYPE_IDS.length);
    expect(Date.now() - started).toBeLessThan(25_000);
  });

  it('names the operation and who may perform it in every refusal', async () => {
    const a = await t.get(`/oauthclients/${ids.oauthclient}`, { creds: creds.get(200) });
    expect(errorsOf(a)).toEqual([fmt(PERMISSION_MSG.FORBIDDEN, { type: 200, what: 'call GET /v2/oauthclients/{id}', who: describeTypes(ADMINS) })]);
  });
});

describe('the README', () => {
  it('"Roles" holds the table rendered from the declarations', () => {
    const url = new URL('../../electron/gateway/README.md', import.meta.url);
    let readme = readFileSync(url, 'utf8');
    const table = renderPermissionTable(t.engine.routes);
    if (process.env.UPDATE_PERMISSION_TABLE === '1') {
      // The generator: rewrite the section between the markers from the declarations.
      readme = readme.replace(/(<!-- permission-table:start -->)[\s\S]*?(<!-- permission-table:end -->)/, (_m, a: string, b: string) => `${a}\n${table}\n${b}`);
      writeFileSync(url, readme);
    }
    const start = readme.indexOf('<!-- permission-table:start -->');
    const end = readme.indexOf('<!-- permission-table:end -->');
    expect(start).toBeGreaterThan(0);
    expect(readme.slice(start + '<!-- permission-table:start -->'.length, end).trim()).toBe(table);
  });
});

describe('nothing can be left undeclared', () => {
  const tryStart = async (mod: EngineModule, production = false) => {
    const dir = mkdtempSync(join(tmpdir(), 'ringup-undeclared-'));
    try {
      const e = await startEngine({ dataDir: dir, port: 0, production, schedulerIntervalMs: 0, modules: [...defaultModules(), mod] });
      await e.close();
      return undefined;
    } catch (err) {
      return (err as Error).message;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it('a /v2 route without its user types stops the engine at start-up', async () => {
    const msg = await tryStart({ name: 'careless', routes: (app) => void app.get('/v2/careless', async () => ({})) });
    expect(msg).toBe(fmt(PERMISSION_MSG.UNDECLARED_ROUTE, { method: 'GET', url: '/v2/careless' }));
  });

  it('a sandbox route must be for admins only, and a production engine registers none', async () => {
    const open = await tryStart({ name: 'loose-sandbox', routes: (app) => void app.get('/sandbox/loose', { config: { allow: ANY_USER } }, async () => ({})) });
    expect(open).toBe(fmt(PERMISSION_MSG.SANDBOX_NOT_ADMIN, { method: 'GET', url: '/sandbox/loose' }));
    const prod = await tryStart({ name: 'prod-sandbox', routes: (app) => void app.get('/sandbox/extra', { config: { allow: ADMINS } }, async () => ({})) }, true);
    expect(prod).toBe(fmt(PERMISSION_MSG.SANDBOX_IN_PRODUCTION, { method: 'GET', url: '/sandbox/extra' }));
  });
});
