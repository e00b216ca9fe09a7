/**
 * A card number typed into any field is never stored or returned in clear (issue 19, point 5).
 * Generated from the declarations, so a new field is covered without touching this file:
 * - every writable text or JSON field of every declared resource (the engine's own registry),
 *   with its rule from `digitsRuleOf` (framework/card-mask.ts);
 * - every text field of the transaction field table (`TransactionField.keepsDigits`), on
 *   `/v2/transactions` and on `/v2/routertransactions` (the sandbox's mock terminal);
 * - every text field of the account vault body, with the rule /openapi.json publishes for it;
 * plus the routes that take form and multipart bodies (a pay link's payment page, a quick invoice
 * with files), the location credentials and OAuth client registration.
 * For each field: an identifier answers 422 naming it (MSG.CARD_NUMBER_IN_IDENTIFIER); free text
 * is accepted masked (or refused for another reason); account data is consumed. Every answer is
 * checked for the number, and at the end every file of the engine's data folder (the database,
 * its write-ahead log) is searched for it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIGITS_RULE_TEXT, digitsRuleOf, type DigitsRule } from '../../electron/gateway/framework/card-mask';
import { MSG, fmt, labelOf } from '../../electron/gateway/framework/errors';
import { writeSchemaName } from '../../electron/gateway/framework/resource-openapi';
import type { FieldDef } from '../../electron/gateway/framework/resource';
import { REF } from '../../electron/gateway/merchant/schema-migrations';
import { TRANSACTION_FIELDS, type TransactionField } from '../../electron/gateway/payments/transaction-fields';
import { luhnValid } from '../../shared/payments/luhn';
import { TestEngine, type ApiAnswer } from './helpers/engine-fixture';

/** The probes: Luhn-valid, used nowhere else in the engine's data (the sales below pay with 4111…). */
const PROBE = '4000056655665556';
const PROBE13 = '4222222222222';
const MASKED = `${'*'.repeat(PROBE.length - 4)}${PROBE.slice(-4)}`;

let t: TestEngine;
let seq = 0;
const uniq = (p: string) => `${p}${++seq}`;
const ids: Record<string, string> = {};
let openapi: { components: { schemas: Record<string, { properties?: Record<string, { description?: string; 'x-card-numbers'?: DigitsRule }> }> } };

/** A value that holds the probe within the field's length bounds, or undefined when no card number fits. */
function probeFor(min = 0, max = Infinity): string | undefined {
  const n = max >= PROBE.length ? PROBE : max >= PROBE13.length ? PROBE13 : undefined;
  if (n === undefined) return undefined;
  return n.length >= min ? n : `${n}${'x'.repeat(min - n.length)}`.slice(0, Math.max(min, n.length));
}

/** What an answer must show for a rule; every answer is also checked for the number. */
function expectRule(a: ApiAnswer, field: string, rule: DigitsRule, where: string, returned: (body: Record<string, unknown>) => unknown): void {
  const label = `${where} ${field} (${rule}): ${a.status} ${a.text.slice(0, 300)}`;
  // A consumed secret the caller chose (user_api_key) is echoed to that caller once, as the
  // interface's user record does; what is stored is checked by 'the data folder' below.
  if (rule !== 'consumed') expect(a.text.includes(PROBE) || a.text.includes(PROBE13), label).toBe(false);
  if (rule === 'identifier') {
    expect(a.status, label).toBe(422);
    expect(a.body?.errors?.[field], label).toEqual([fmt(MSG.CARD_NUMBER_IN_IDENTIFIER, { attribute: labelOf(field) })]);
  } else if (rule === 'mask') {
    // Free text is never refused for holding a card number (another rule, a pattern or a format, may refuse it).
    expect(JSON.stringify(a.body?.errors?.[field] ?? []), label).not.toContain('kept exactly as sent');
    if (a.status < 300) {
      const v = returned(a.body as Record<string, unknown>);
      if (v !== undefined && v !== null) expect(JSON.stringify(v), label).toMatch(/\*{9}/);
    }
  }
}

const isText = (f: FieldDef) => !f.readOnly && (f.type === 'string' || f.type === 'json') && !f.enum;

beforeAll(async () => {
  t = await TestEngine.start({ deviceSecondMs: 4 });
  const c = t.engine.credentials;
  ids.location = c.location_id;
  ids.cc = c.cc_product_transaction_id;
  ids.terminal = ((await t.get('/terminals')).body.terminals as { id: string; communication_type: string }[]).find((x) => x.communication_type === 'mock')!.id;
  ids.vault = (await t.post('/accountvaults', { accountvault: { location_id: ids.location, payment_method: 'cc', account_number: '4111111111111111', exp_date: '1230' } })).body.accountvault.id;
  ids.sale = (await t.post('/transactions', { transaction: { action: 'sale', account_number: '4111111111111111', exp_date: '1230', transaction_amount: '3.00' } })).body.transaction.id;
  // A commercial card of the family's test data: its sale may carry Level 3.
  ids.commercialSale = (await t.post('/transactions', { transaction: { action: 'sale', account_number: '4005562231212149', exp_date: '1230', transaction_amount: '3.00' } })).body.transaction.id;
  openapi = (await (await fetch(new URL('/openapi.json', t.engine.baseUrl))).json()) as typeof openapi;
});
afterAll(() => t.close());

/** A minimal valid create body per declared resource that can be created (a new one fails the walk until it has one). */
const FIXTURES: Record<string, () => Record<string, unknown>> = {
  user: () => ({ username: uniq('probe'), email: 'probe@example.com', last_name: 'Probe', user_type_id: 100, primary_location_id: ids.location }),
  location: () => ({ name: uniq('Probe Store '), parent_id: ids.location, branding_domain_url: 'probe.example' }),
  contact: () => ({ location_id: ids.location, last_name: 'Probe' }),
  tag: () => ({ location_id: ids.location, title: uniq('probe') }),
  terminal: () => ({ location_id: ids.location, serial_number: uniq('SN'), terminal_application_id: REF.PAX_BROADPOS, terminal_manufacturer_id: REF.PAX }),
  scanner: () => ({ location_id: ids.location, title: 'Probe', serial_number: uniq('SC'), scanner_model_id: 1 }),
  deviceterm: () => ({ location_id: ids.location, terminal_id: ids.terminal, require_signature: false, terms_conditions: 'I agree.' }),
  postbackconfig: () => ({ location_id: ids.location, resource: 'contact', url: 'http://127.0.0.1:9/probe', on_create: 1 }),
  recurring: () => ({
    location_id: ids.location, account_vault_id: ids.vault, product_transaction_id: ids.cc, transaction_amount: '1.00', interval: 1, interval_type: 'd',
    start_date: new Date((t.clock.now() + 3 * 86400) * 1000).toISOString().slice(0, 10),
  }),
  paylink: () => ({ location_id: ids.location, amount_due: '1.00', delivery_method: 0 }),
  transactionlevel3: () => ({ transaction_id: ids.commercialSale, level3_data: { line_items: [{ description: 'Bolts', product_code: 'B-1', unit_code: 'BX', unit_cost: '2.5000', quantity: 4, commodity_code: '3100' }] } }),
  quickinvoice: () => ({ location_id: ids.location, title: 'Probe', due_date: '2031-01-01', item_list: { Service: 1 } }),
  // Its request fields are declared apart from its record (bodyWrites) and walked by "account vaults" below.
  accountvault: () => ({ location_id: ids.location, payment_method: 'cc', account_number: '4111111111111111', exp_date: '1230' }),
};

describe('declared resources: every writable text and JSON field', () => {
  it('refuses card numbers in identifiers, masks them in free text, as each declaration says (and /openapi.json shows it)', async () => {
    const defs = [...t.engine.ctx.resources.values()].filter((d) => d.methods.includes('create'));
    expect(defs.filter((d) => !FIXTURES[d.name]).map((d) => d.name), 'a creatable resource without a fixture here').toEqual([]);
    const walked: string[] = [];
    for (const def of defs) {
      for (const [name, f] of Object.entries(def.fields)) {
        if (!isText(f)) continue;
        // A field set only after create (a location's default product transactions) is probed on update.
        const mode = f.create === false ? 'update' : 'create';
        const schema = openapi.components.schemas[writeSchemaName(def, mode)]?.properties ?? {};
        const rule = digitsRuleOf(def, name);
        // The document says the rule and why, from the same declaration.
        expect(schema[name]?.['x-card-numbers'], `${def.name}.${name} in /openapi.json`).toBe(rule);
        expect(schema[name]?.description ?? '', `${def.name}.${name} description`).toContain(DIGITS_RULE_TEXT[rule]);
        const value = f.type === 'json' ? jsonProbe(name) : probeFor(f.min, f.max);
        if (value === undefined) continue;
        let a: ApiAnswer;
        if (mode === 'create') a = await t.post(`/${def.plural}`, { [def.name]: { ...FIXTURES[def.name]!(), [name]: value } });
        else {
          const made = await t.post(`/${def.plural}`, { [def.name]: FIXTURES[def.name]!() });
          expect(made.status, `${def.name} fixture: ${made.text.slice(0, 200)}`).toBe(201);
          a = await t.put(`/${def.plural}/${(made.body[def.name] as { id: string }).id}`, { [def.name]: { [name]: value } });
        }
        expectRule(a, name, rule, def.name, (b) => (b[def.name] as Record<string, unknown> | undefined)?.[f.outputName ?? name]);
        walked.push(`${def.name}.${name}`);
      }
    }
    // The fields the finding named are among them, and refused.
    for (const n of ['terminal.serial_number', 'terminal.terminal_number', 'scanner.serial_number', 'contact.contact_api_id', 'recurring.recurring_api_id', 'paylink.paylink_api_id', 'deviceterm.device_terms_api_id', 'location.location_api_id', 'user.user_hash_key']) {
      expect(walked, n).toContain(n);
    }
    expect(walked.length).toBeGreaterThan(80);
  });
});

/** A JSON value holding the probe as a value and as a key (item_list names items by key). */
function jsonProbe(name: string): unknown {
  if (name === 'item_list') return { [`Repair ${PROBE}`]: 1 };
  if (name === 'terminal_timeouts' || name === 'tip_percents' || name === 'ui_prefs') return undefined; // closed key sets: no free text
  return { note: PROBE, [PROBE]: 'x' };
}

/** A body a transaction action takes, to carry one probed field. */
function transactionBase(action: string): Record<string, unknown> {
  const card = { account_number: '4111111111111111', exp_date: '1230', transaction_amount: '2.00' };
  const ach = { payment_method: 'ach', account_number: '2079951060953', routing: '072000326', account_type: 'checking', account_holder_name: 'Probe', transaction_amount: '2.00' };
  if (action === 'force') return { action, ...card, auth_code: '123456' };
  if (action === 'refund') return { action, ...card };
  if (action === 'debit' || action === 'credit') return { action, ...ach };
  return { action, ...card };
}

const textual = (f: TransactionField) => ['string', 'hex', 'base64', 'email', 'tags', 'json'].includes(f.type) && f.name !== 'action';

describe('secrets the engine only hashes', () => {
  it("an API key or password holding a card-number-like digit run is taken: a client's random hex key is never refused", async () => {
    // 48 hex characters with a Luhn-valid 16-digit run in them, as randomBytes(24).toString('hex') now and then makes.
    const key = `ab${PROBE}cdef0123456789abcdef0123456`.slice(0, 48);
    const made = await t.post('/users', {
      user: { username: uniq('keyed-'), last_name: 'Keyed', user_type_id: 100, primary_location_id: ids.location, email: `${uniq('k')}@example.com`, user_api_key: key, password: `Rg${PROBE}x9` },
    });
    expect(made.status, made.text).toBe(201);
    // Echoed once to the caller who chose it (the interface's user record), stored only hashed ('the data folder' below).
    expect((made.body.user as { user_api_key?: string }).user_api_key).toBe(key);
    const me = await fetch(`${t.engine.baseUrl}/users/me`, { headers: { 'developer-id': t.engine.credentials.developer_id, 'user-id': (made.body.user as { id: string }).id, 'user-api-key': key } });
    expect(me.status).toBe(200);
  });
});

describe('transactions and router transactions: every text field of the field table', () => {
  it('on POST /v2/transactions (or PUT edit for the fields only an edit takes)', async () => {
    let n = 0;
    for (const f of TRANSACTION_FIELDS.filter(textual)) {
      const value = f.type === 'json' ? { note: PROBE } : f.type === 'tags' ? [`vip ${PROBE}`] : probeFor(f.min, f.max);
      if (value === undefined) continue;
      const rule: DigitsRule = f.keepsDigits ?? 'mask';
      const post = f.actions.find((a) => ['sale', 'authonly', 'avsonly', 'force', 'refund', 'debit', 'credit'].includes(a));
      const a = post
        ? await t.post('/transactions', { transaction: { ...transactionBase(post), [f.name]: value } })
        : await t.put(`/transactions/${ids.sale}`, { transaction: { action: 'edit', [f.name]: value } });
      expectRule(a, f.name, rule, 'transaction', (b) => (f.storage === 'record' ? (b.transaction as Record<string, unknown> | undefined)?.[f.name] : undefined));
      n++;
    }
    expect(n).toBeGreaterThan(30);
  });

  it('on POST /v2/routertransactions (the mock terminal), plus its terminal_id', async () => {
    const base = { action: 'sale', payment_method: 'cc', location_id: ids.location, terminal_id: ids.terminal, transaction_amount: '1.00', tip_amount: '0.00' };
    const refusedTerminal = await t.post('/routertransactions', { routertransaction: { ...base, terminal_id: PROBE } });
    expectRule(refusedTerminal, 'terminal_id', 'identifier', 'routertransaction', () => undefined);
    for (const f of TRANSACTION_FIELDS.filter((x) => textual(x) && x.actions.includes('sale') && x.keepsDigits !== 'consumed')) {
      const value = f.type === 'json' ? { note: PROBE } : f.type === 'tags' ? [`vip ${PROBE}`] : probeFor(f.min, f.max);
      if (value === undefined) continue;
      const a = await t.post('/routertransactions', { routertransaction: { ...base, [f.name]: value } });
      expectRule(a, f.name, f.keepsDigits ?? 'mask', 'routertransaction', (b) => (f.storage === 'record' ? (b.routertransaction as Record<string, unknown> | undefined)?.[f.name] : undefined));
    }
  });
});

describe('account vaults and the other hand-written bodies', () => {
  it('account vaults: every text field, with the rule /openapi.json publishes', async () => {
    const props = openapi.components.schemas.AccountVaultCreate?.properties ?? {};
    const base = { location_id: ids.location, payment_method: 'cc', account_number: '5454545454545454', exp_date: '1230' };
    let n = 0;
    for (const [name, p] of Object.entries(props)) {
      const rule = p['x-card-numbers'];
      if (!rule || rule === 'consumed') continue;
      expect(p.description ?? '').toContain(DIGITS_RULE_TEXT[rule]);
      const a = await t.post('/accountvaults', { accountvault: { ...base, [name]: PROBE } });
      expectRule(a, name, rule, 'accountvault', (b) => (b.accountvault as Record<string, unknown> | undefined)?.[name]);
      n++;
    }
    expect(n).toBeGreaterThan(10);
  });

  it('location credentials and OAuth client registration', async () => {
    for (const name of ['location_api_id', 'location_api_key', 'ticket_hash_key']) {
      const a = await t.put(`/locations/${ids.location}/credentials`, { location: { [name]: PROBE } });
      expectRule(a, name, 'identifier', 'credentials', () => undefined);
    }
    const client = await t.post('/oauthclients', { oauthclient: { name: `Books ${PROBE}`, description: `card ${PROBE}`, redirect_uris: ['https://books.example/cb'] } });
    expect(client.status).toBe(201);
    expect(client.body.oauthclient).toMatchObject({ name: `Books ${MASKED}`, description: `card ${MASKED}` });
    expectRule(await t.post('/oauthclients', { oauthclient: { name: 'Books', redirect_uris: [`https://books.example/${PROBE}`] } }), 'redirect_uris', 'identifier', 'oauthclient', () => undefined);
  });

  it("a quick invoice sent as multipart (fields and a file's name), and a pay link's payment page form", async () => {
    const form = new FormData();
    form.set('quickinvoice[location_id]', ids.location!);
    form.set('quickinvoice[title]', 'Probe');
    form.set('quickinvoice[due_date]', '2031-01-01');
    form.set('quickinvoice[item_list][Work]', '2');
    form.set('quickinvoice[note]', `paid by ${PROBE}`);
    form.set('quickinvoice[files][0]', new Blob(['%PDF-1.4'], { type: 'application/pdf' }), `card-${PROBE}.pdf`);
    const c = t.engine.credentials;
    const res = await fetch(t.url('/quickinvoices?expand=files'), { method: 'POST', headers: { 'developer-id': c.developer_id, 'user-id': c.user_id, 'user-api-key': c.user_api_key }, body: form });
    const text = await res.text();
    expect(res.status, text).toBe(201);
    expect(text).not.toContain(PROBE);
    expect(text).toContain(`paid by ${MASKED}`);
    const apiId = new FormData();
    apiId.set('quickinvoice[location_id]', ids.location!);
    apiId.set('quickinvoice[contact_api_id]', PROBE);
    const refused = await fetch(t.url('/quickinvoices'), { method: 'POST', headers: { 'developer-id': c.developer_id, 'user-id': c.user_id, 'user-api-key': c.user_api_key }, body: apiId });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { errors: Record<string, string[]> }).errors.contact_api_id).toEqual([fmt(MSG.CARD_NUMBER_IN_IDENTIFIER, { attribute: 'Contact Api Id' })]);

    // A payer types the number in the name box of a pay link's page: the name is kept masked, the card still pays.
    const link = (await t.post('/paylinks', { paylink: { location_id: ids.location, amount_due: '4.00', delivery_method: 0 } })).body.paylink as { id: string };
    const page = await (await fetch(new URL(`/paylink?paylink_id=${link.id}`, t.url('/')).toString())).text();
    const hidden = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1] ?? '';
    const paid = await fetch(new URL('/paylink', t.url('/')).toString(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ paylink_id: link.id, form_id: hidden('form_id'), csrf_token: hidden('csrf_token'), payment_method: 'cc', account_holder_name: PROBE, account_number: '4111111111111111', exp_date: '1230' }).toString(),
    });
    const paidText = await paid.text();
    expect(paid.status, paidText).toBe(201);
    expect(paidText).not.toContain(PROBE);
    const txn = ((await t.get(`/transactions?paylink_id=${link.id}`)).body.transactions as Record<string, unknown>[])[0];
    expect(txn).toMatchObject({ account_holder_name: MASKED, status_id: 101, last_four: '1111' });
  });
});

describe('the data folder', () => {
  it('holds the probe numbers nowhere: database, write-ahead log, any other file', () => {
    expect(luhnValid(PROBE) && luhnValid(PROBE13)).toBe(true);
    const files = readdirSync(t.dataDir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    expect(files.map((f) => f.name)).toContain('gateway.sqlite');
    for (const f of files) {
      const bytes = readFileSync(join(f.parentPath, f.name));
      expect(bytes.includes(PROBE), f.name).toBe(false);
      expect(bytes.includes(PROBE13), f.name).toBe(false);
    }
  });
});

