#!/usr/bin/env node
// Contract and fuzz run of the engine's own OpenAPI document (`npm test` runs it):
//  1. starts the standalone engine (build/node/gateway-cli.mjs) on port 0 with a fresh data dir,
//  2. seeds the records the generated requests address (ids become collection variables),
//  3. generates a Postman collection from GET /openapi.json with Portman
//     (test/contract/portman-config.json: contract tests on every operation, fuzz
//     variations that must answer 422/400 with the error envelope),
//  4. runs it with newman's Node API and fails on any 5xx or failed assertion.
// Portman and newman run behind test/contract/loopback-only.mjs: any connection or DNS
// lookup that is not loopback is refused and fails the run (they must work offline).
// Writes test/output/contract-results.json ({ passed, failed, failures, … }) for run-all.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const require = createRequire(import.meta.url);
const work = mkdtempSync(join(tmpdir(), 'ringup-contract-'));
const guardLog = join(work, 'network-guard.log');
process.env.RINGUP_NET_GUARD_LOG = guardLog;
const guard = join(root, 'test/contract/loopback-only.mjs');
await import(pathToFileURL(guard).href);
const out = join(root, 'test/output');
mkdirSync(out, { recursive: true });
const report = join(out, 'contract-results.json');
rmSync(report, { force: true });

function fail(message) {
  console.error(`contract run: ${message}`);
  writeFileSync(report, JSON.stringify({ passed: 0, failed: 1, failures: [message] }, null, 2));
  process.exitCode = 1;
}

/**
 * Portman fuzzes only fields present in the request body; for a field the request leaves
 * out (ids we cannot invent, the other payment method's fields) the "variation" is the
 * unchanged request, which rightly succeeds. Such no-op variations are dropped.
 */
function dropNoOpFuzz(collection) {
  const leaves = (items, out = []) => {
    for (const it of items) {
      if (it.item) leaves(it.item, out);
      else out.push(it);
    }
    return out;
  };
  const key = (it) => `${it.request.method} ${[it.request.url.path].flat().join('/')}`;
  const bodyOf = (it) => {
    try {
      return JSON.stringify(JSON.parse(it.request.body?.raw ?? 'null'));
    } catch {
      return it.request.body?.raw ?? '';
    }
  };
  const base = new Map();
  for (const it of leaves(collection.item)) if (!it.name.includes('[Fuzz]')) base.set(key(it), bodyOf(it));
  let dropped = 0;
  const prune = (items) =>
    items.filter((it) => {
      if (it.item) {
        it.item = prune(it.item);
        return true;
      }
      const noop = it.name.includes('[Fuzz]') && it.request.body?.raw && base.get(key(it)) === bodyOf(it);
      if (noop) dropped++;
      return !noop;
    });
  collection.item = prune(collection.item);
  return dropped;
}

/**
 * Postman's `{{$guid}}` is a random UUID, and about one in 450 holds a run of 13 or more digits
 * (hyphens between them allowed) that passes Luhn: the engine refuses such an identifier as a
 * card number (422), so a request the run expects to succeed failed now and then (a fresh-clone
 * run: "Create an account vault" refused for its account_vault_api_id). Every `{{$guid}}` is
 * read from `cardSafeId` instead, which a collection-level script sets before each request to a
 * random UUID with no run of 13 digits at all.
 */
function cardSafeGuids(collection) {
  const swapped = JSON.parse(JSON.stringify(collection).replaceAll('{{$guid}}', '{{cardSafeId}}'));
  const script = [
    "const hex = (n) => Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join('');",
    'let id;',
    "do id = `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[Math.floor(Math.random() * 4)]}${hex(3)}-${hex(12)}`;",
    'while (/\\d(?:-?\\d){12}/.test(id));',
    "pm.variables.set('cardSafeId', id);",
  ];
  swapped.event = [...(swapped.event ?? []), { listen: 'prerequest', script: { type: 'text/javascript', exec: script } }];
  return swapped;
}

/** The engine's patterns that allow any non-space character, and the narrower ones Portman reads instead (below). */
const JSON_SAFE_PATTERNS = {
  '^\\S*$': '^[A-Za-z0-9._-]*$',
  '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$': '^[a-z0-9]+@[a-z0-9]+\\.[a-z]+$',
  '^https?:\\/\\/\\S+$': '^https:\\/\\/[a-z0-9]+\\.[a-z]+\\/[a-z0-9]*$',
};

/**
 * The document as Portman's fuzzer can read it. A field that may be emptied says "at least
 * N characters, or empty" as `anyOf: [{minLength: N, …}, {const: ""}]`; the fuzzer reads
 * bounds only beside an anyOf, never inside one, so it would not try "one character too
 * short" there. Here the first alternative's minLength is repeated beside the anyOf when it
 * is 2 or more: the too-short value the fuzzer then sends (N - 1 characters) is never the
 * empty string, so every variation it makes is still one the engine's document refuses.
 * The requests Portman generates come from the first alternative (with its example) as
 * before, and responses are checked against the engine's own schemas, which this leaves alone.
 *
 * Patterns that allow any non-space character (identifiers kept exactly as sent, e-mail
 * addresses, URLs) are narrowed to characters JSON needs no escaping for. Portman fakes a value
 * from the pattern and writes its fuzz variations into the raw JSON body by text: a faked
 * transaction_api_id of `}` became 65 of them with the closing quote lost, so the "maximum
 * length" request was not JSON at all (400, where the run expects 422) on one run in a few.
 * Every value a narrowed pattern allows, the engine's own pattern allows too.
 */
function portmanReading(doc) {
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const first = Array.isArray(node.anyOf) ? node.anyOf[0] : undefined;
    const emptiable = node.anyOf?.some((s) => s?.const === '');
    if (emptiable && node.minLength === undefined && typeof first?.minLength === 'number' && first.minLength >= 2) node.minLength = first.minLength;
    if (typeof node.pattern === 'string' && Object.hasOwn(JSON_SAFE_PATTERNS, node.pattern)) node.pattern = JSON_SAFE_PATTERNS[node.pattern];
    Object.values(node).forEach(visit);
  };
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) if (/(Create|Update|Action)$/.test(name)) visit(schema);
  for (const methods of Object.values(doc.paths ?? {})) for (const op of Object.values(methods)) visit(op?.requestBody);
  return doc;
}

// ---------------------------------------------------------------- 1. the engine
const cli = join(root, 'build/node/gateway-cli.mjs');
// Always rebuilt (esbuild, a second or two): a stale bundle would test yesterday's engine.
spawnSync(process.execPath, [join(root, 'electron/tools/build.mjs'), '--quiet', '--only', 'node'], { cwd: root, stdio: 'inherit' });
const dataDir = join(work, 'gateway');
const engine = spawn(process.execPath, [cli, '--port', '0', '--data', dataDir], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
const engineLog = [];
engine.stderr.on('data', (d) => engineLog.push(String(d)));
let stdout = '';
const creds = await new Promise((resolve, reject) => {
  engine.stdout.on('data', (d) => {
    stdout += String(d);
    try {
      resolve(JSON.parse(stdout));
    } catch {
      /* not complete yet */
    }
  });
  engine.on('exit', (code) => reject(new Error(`engine exited (${code}): ${engineLog.join('')}`)));
});
const origin = new URL(creds.base_url).origin;
const headers = { 'developer-id': creds.developer_id, 'user-id': creds.user_id, 'user-api-key': creds.user_api_key, 'content-type': 'application/json' };

async function api(method, path, body) {
  const res = await fetch(`${creds.base_url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = res.status === 204 ? null : await res.json();
  if (res.status >= 300) throw new Error(`seed ${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

try {
  // ---------------------------------------------------------------- 2. seed
  const loc = creds.location_id;
  const v = { baseUrl: origin, developerId: creds.developer_id, userId: creds.user_id, userApiKey: creds.user_api_key, locationId: loc };
  const user = (n) => api('POST', '/users', { user: { username: `contract-${n}`, email: `${n}@example.com`, user_type_id: 100, primary_location_id: loc, last_name: 'Contract' } });
  v.otherUserId = (await user('other')).user.id;
  v.deleteUserId = (await user('gone')).user.id;
  const contact = (n) => api('POST', '/contacts', { contact: { location_id: loc, last_name: n } });
  v.contactId = (await contact('Keep')).contact.id;
  v.deleteContactId = (await contact('Gone')).contact.id;
  const tag = (n) => api('POST', '/tags', { tag: { location_id: loc, title: n } });
  v.tagId = (await tag('Keep')).tag.id;
  v.deleteTagId = (await tag('Gone')).tag.id;
  const seeded = (await api('GET', '/terminals')).terminals[0];
  v.terminalId = seeded.id;
  v.terminalApplicationId = seeded.terminal_application_id;
  v.terminalManufacturerId = seeded.terminal_manufacturer_id;
  v.deleteTerminalId = (await api('POST', '/terminals', { terminal: { location_id: loc, serial_number: 'GONE-1', terminal_application_id: v.terminalApplicationId, terminal_manufacturer_id: v.terminalManufacturerId } })).terminal.id;
  v.scannerModelId = (await api('GET', '/scannermodels')).scannermodels[0].id;
  const scanner = (n) => api('POST', '/scanners', { scanner: { location_id: loc, title: n, serial_number: `SN-${n}`, scanner_model_id: v.scannerModelId, active: 0 } });
  v.scannerId = (await scanner('Keep')).scanner.id;
  v.deleteScannerId = (await scanner('Gone')).scanner.id;
  // Device terms prompt on a terminal that has an address; this one has none, so the engine's
  // built-in customer answers (the router tests drive a real simulator instead).
  v.termsTerminalId = (await api('POST', '/terminals', { terminal: { location_id: loc, serial_number: 'TERMS-1', terminal_application_id: v.terminalApplicationId, terminal_manufacturer_id: v.terminalManufacturerId } })).terminal.id;
  v.deviceTermId = (await api('POST', '/deviceterms', { deviceterm: { location_id: loc, terminal_id: v.termsTerminalId, require_signature: 0, terms_conditions: 'I agree.' } })).deviceterm.id;
  const postback = () => api('POST', '/postbackconfigs', { postbackconfig: { location_id: loc, resource: 'contact', url: 'http://127.0.0.1:9/hook' } });
  v.postbackConfigId = (await postback()).postbackconfig.id;
  v.deletePostbackConfigId = (await postback()).postbackconfig.id;
  const sale = () => api('POST', '/transactions', { transaction: { action: 'sale', account_number: '4005562231212149', exp_date: '1230', cvv: '999', transaction_amount: '10.00' } });
  const t1 = (await sale()).transaction;
  const t2 = (await sale()).transaction;
  v.transactionId = t1.id;
  v.level3Id = (await api('GET', `/transactions/${t1.id}?expand=transaction_level3`)).transaction.transaction_level3.id;
  v.deleteLevel3Id = (await api('GET', `/transactions/${t2.id}?expand=transaction_level3`)).transaction.transaction_level3.id;
  v.batchId = t1.transaction_batch_id;
  const vault = () => api('POST', '/accountvaults', { accountvault: { location_id: loc, payment_method: 'cc', account_number: '4111111111111111', exp_date: '1230' } });
  v.vaultId = (await vault()).accountvault.id;
  v.deleteVaultId = (await vault()).accountvault.id;
  // A postback delivery (the contact config above hears this contact; its url refuses) and an outbox row (a receipt).
  await contact('Heard');
  v.postbackDeliveryId = (await api('GET', `/postbackdeliveries?postback_config_id=${v.postbackConfigId}`)).postbackdeliveries[0].id;
  await api('PUT', `/transactions/${t2.id}`, { transaction: { action: 'edit', notification_email_address: 'contract@example.com' } });
  v.notificationId = (await api('GET', '/notifications')).notifications[0].id;
  v.ccProductTransactionId = creds.cc_product_transaction_id;
  // Recurrings, one per state an action needs: to read and update, to delete, to hold, on hold
  // (to activate), active (to skip) and an installment plan (to defer).
  const recurring = async (extra = {}) =>
    (await api('POST', '/recurrings', { recurring: { location_id: loc, product_transaction_id: v.ccProductTransactionId, account_vault_id: v.vaultId, transaction_amount: '10.00', interval: 1, interval_type: 'm', start_date: '2030-01-15', ...extra } })).recurring.id;
  v.recurringId = await recurring();
  v.deleteRecurringId = await recurring();
  v.holdRecurringId = await recurring();
  v.heldRecurringId = await recurring();
  await api('POST', `/recurrings/${v.heldRecurringId}/placeOnHold`);
  v.skipRecurringId = await recurring();
  v.deferRecurringId = await recurring({ installment_total_count: 6 });
  // Pay links and quick invoices: one to read, update and resend, one to delete; an invoice
  // closed while unpaid (reopen), one with a linked and an unlinked $1 sale (add / remove
  // transaction), one with a stored file (the invoice page's file link).
  const paylink = () => api('POST', '/paylinks', { paylink: { location_id: loc, delivery_method: 1, email: 'pat@example.com', amount_due: '5.00' } });
  v.paylinkId = (await paylink()).paylink.id;
  v.deletePaylinkId = (await paylink()).paylink.id;
  const invoice = (title) => api('POST', '/quickinvoices', { quickinvoice: { location_id: loc, title, due_date: '2030-06-10', item_list: { Work: 100 }, email: 'pat@example.com' } });
  v.quickInvoiceId = (await invoice('Keep')).quickinvoice.id;
  v.deleteQuickInvoiceId = (await invoice('Gone')).quickinvoice.id;
  v.reopenQuickInvoiceId = (await invoice('Reopen')).quickinvoice.id;
  await api('PUT', `/quickinvoices/${v.reopenQuickInvoiceId}`, { quickinvoice: { status_id: 0 } });
  v.txnQuickInvoiceId = (await invoice('Txn')).quickinvoice.id;
  const dollar = () => api('POST', '/transactions', { transaction: { action: 'sale', account_number: '4111111111111111', exp_date: '1230', transaction_amount: '1.00' } });
  v.addTransactionId = (await dollar()).transaction.id;
  v.removeTransactionId = (await dollar()).transaction.id;
  await api('PUT', `/quickinvoices/${v.txnQuickInvoiceId}/addTransaction`, { quickinvoice: { transaction_id: v.removeTransactionId } });
  {
    const form = new FormData();
    for (const [k, val] of Object.entries({ title: 'File', due_date: '2030-06-10', location_id: loc, 'item_list][a': '1' })) form.set(`quickinvoice[${k}]`, val);
    form.set('quickinvoice[files][0]', new Blob(['contract file']), 'contract.txt');
    const res = await fetch(`${creds.base_url}/quickinvoices?expand=files`, { method: 'POST', headers: { 'developer-id': creds.developer_id, 'user-id': creds.user_id, 'user-api-key': creds.user_api_key }, body: form });
    const inv = (await res.json()).quickinvoice;
    v.fileQuickInvoiceId = inv.id;
    v.fileId = inv.files[0].id;
  }
  // OAuth: the sandbox client of credentials.json opens the login page; two more clients to read and to delete.
  v.sandboxClientId = creds.oauth.client_id;
  v.sandboxRedirectUri = creds.oauth.redirect_uri;
  const oauthClient = (n) => api('POST', '/oauthclients', { oauthclient: { name: `Contract ${n}`, redirect_uris: ['http://127.0.0.1:8765/cb'] } });
  v.oauthClientId = (await oauthClient('Keep')).oauthclient.client_id;
  v.deleteOauthClientId = (await oauthClient('Gone')).oauthclient.client_id;

  // ---------------------------------------------------------------- 3. Portman
  const oas = join(work, 'openapi.json');
  const doc = await (await fetch(`${origin}/openapi.json`)).json();
  writeFileSync(oas, JSON.stringify(portmanReading(structuredClone(doc)), null, 2));
  // A transaction body's fields belong to different actions (the field × action table), and a
  // field sent with an action that does not take it is a 422. The generated sale and edit keep
  // only the fields the config sets (SENT); every other documented field is removed, so the
  // run follows the table as it grows.
  const SENT = {
    'POST::/v2/transactions': ['action', 'payment_method', 'account_number', 'exp_date', 'cvv', 'transaction_amount', 'transaction_api_id', 'description', 'transaction_c1'],
    'PUT::/v2/transactions/{id}': ['action', 'description', 'transaction_c1'],
  };
  const portmanConfig = JSON.parse(readFileSync(join(root, 'test/contract/portman-config.json'), 'utf8'));
  for (const [op, schemaName] of [['POST::/v2/transactions', 'TransactionCreate'], ['PUT::/v2/transactions/{id}', 'TransactionAction']]) {
    const entry = portmanConfig.overwrites.find((o) => o.openApiOperation === op && o.overwriteRequestBody);
    const listed = new Set(entry.overwriteRequestBody.map((o) => o.key));
    for (const name of Object.keys(doc.components.schemas[schemaName].properties)) {
      const key = `transaction.${name}`;
      if (!SENT[op].includes(name) && !listed.has(key)) entry.overwriteRequestBody.push({ key, remove: true });
    }
  }
  // A vault's bank-account fields are refused on a card vault (and the other way round); the
  // document marks each with `x-payment-methods`. The generated vault (cc, as the config
  // sets) leaves out the fields its method does not take, read from the document.
  {
    const op = 'POST::/v2/accountvaults';
    const entry = portmanConfig.overwrites.find((o) => o.openApiOperation === op && o.overwriteRequestBody);
    const method = entry.overwriteRequestBody.find((o) => o.key === 'accountvault.payment_method').value;
    for (const [name, s] of Object.entries(doc.components.schemas.AccountVaultCreate.properties)) {
      const methods = s['x-payment-methods'];
      if (Array.isArray(methods) && !methods.includes(method)) entry.overwriteRequestBody.push({ key: `accountvault.${name}`, remove: true });
    }
  }
  const portmanConfigFile = join(work, 'portman-config.json');
  writeFileSync(portmanConfigFile, JSON.stringify(portmanConfig, null, 2));
  const collectionFile = join(work, 'collection.json');
  const portman = spawnSync(
    process.execPath,
    ['--import', pathToFileURL(guard).href, require.resolve('@apideck/portman/bin/portman'), '--local', oas, '--output', collectionFile, '--portmanConfigFile', portmanConfigFile, '--includeTests', '--baseUrl', '{{baseUrl}}'],
    { cwd: work, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } },
  );
  if (portman.status !== 0 || !existsSync(collectionFile)) throw new Error(`Portman failed (${portman.status}): ${portman.stdout}\n${portman.stderr}`);

  // ---------------------------------------------------------------- 4. newman
  const newman = require('newman');
  const collection = cardSafeGuids(JSON.parse(readFileSync(collectionFile, 'utf8')));
  const skipped = dropNoOpFuzz(collection);
  writeFileSync(join(out, 'contract-collection.json'), JSON.stringify(collection, null, 2)); // to read when something fails
  const summary = await new Promise((resolve, reject) => {
    newman.run(
      { collection, envVar: Object.entries(v).map(([key, value]) => ({ key, value: String(value) })), reporters: ['cli'], reporter: { cli: { noSummary: false, silent: !process.env.CONTRACT_VERBOSE } }, timeoutRequest: 30_000 },
      (err, s) => (err ? reject(err) : resolve(s)),
    );
  });
  const failures = [];
  let requests = 0;
  for (const ex of summary.run.executions) {
    requests++;
    const name = ex.item.name;
    const code = ex.response?.code;
    if (code === undefined) failures.push(`${name}: no response (${ex.requestError?.message ?? 'unknown'})`);
    else if (code >= 500) failures.push(`${name}: ${code} ${ex.response.stream?.toString().slice(0, 300)}`);
    for (const a of ex.assertions ?? []) if (a.error) failures.push(`${name}: ${a.assertion}: ${a.error.message} [${code}] ${ex.response?.stream?.toString().slice(0, 300)}`);
  }
  const assertions = summary.run.stats.assertions;
  const outside = existsSync(guardLog) ? readFileSync(guardLog, 'utf8').trim().split('\n').filter(Boolean) : [];
  for (const o of outside) failures.push(`network access outside loopback: ${o}`);
  const failed = failures.length;
  writeFileSync(report, JSON.stringify({ requests, assertions: assertions.total, passed: assertions.total - assertions.failed, failed, failures }, null, 2));
  console.log(`contract run: ${skipped} fuzz variations skipped (they target a field the request does not send, so they change nothing)`);
  console.log(`contract run: ${requests} requests, ${assertions.total} assertions, ${assertions.failed} failed; ${failed} failure(s) in all (5xx, assertions, network)`);
  for (const f of failures) console.log(`  FAIL ${f}`);
  if (failed > 0) process.exitCode = 1;
} catch (err) {
  fail(err instanceof Error ? err.stack ?? err.message : String(err));
} finally {
  engine.kill('SIGTERM');
  await new Promise((r) => (engine.exitCode !== null ? r() : engine.on('exit', r)));
  rmSync(work, { recursive: true, force: true });
}
