import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, fmt } from '../../electron/gateway/framework/errors';
import { DECLINE_TRIGGER, DEVICE_TERMS_ACCEPTED, DEVICE_TERMS_DECLINED } from '../../electron/gateway/merchant/device-terms';
import { MERCHANT_MSG } from '../../electron/gateway/merchant/messages';
import { REF } from '../../electron/gateway/merchant/schema-migrations';
import { TERMINAL_TIMEOUTS, defaultTimeouts } from '../../electron/gateway/merchant/terminal-settings';
import { TestEngine, errorsOf } from './helpers/engine-fixture';

let t: TestEngine;
beforeAll(async () => {
  t = await TestEngine.start();
});
afterAll(async () => {
  await t.close();
});

const terminalBody = (extra: Record<string, unknown> = {}) => ({
  terminal: { location_id: t.locationId, serial_number: `SN${Math.random().toString(36).slice(2, 10)}`, terminal_application_id: REF.PAX_BROADPOS, terminal_manufacturer_id: REF.PAX, ...extra },
});

describe('contacts', () => {
  it('creates, reads (by id and by api id), lists, updates and deletes', async () => {
    const c = await t.post('/contacts', { contact: { location_id: t.locationId, last_name: 'Doe', first_name: 'Jane', contact_api_id: 'jane-1', email: 'jane@example.com', email_trx_receipt: '1', zip: '32606-1234', date_of_birth: '1990-02-28' } });
    expect(c.status).toBe(201);
    expect(c.body.contact.email_trx_receipt).toBe(true);
    const id = c.body.contact.id as string;
    expect((await t.get(`/contacts/jane-1?api_id=1&location_id=${t.locationId}`)).body.contact.id).toBe(id);
    const withExpand = await t.get(`/contacts/${id}?expand=location,created_user,recurrings`);
    expect(withExpand.body.contact.location.id).toBe(t.locationId);
    expect(withExpand.body.contact.recurrings).toEqual([]);
    const up = await t.put(`/contacts/${id}`, { contact: { first_name: 'Janet', update_if_exists: 1 } });
    expect(up.status).toBe(200);
    expect(up.body.contact.first_name).toBe('Janet');
    expect(up.body.contact.modified_ts).toBeGreaterThanOrEqual(up.body.contact.created_ts);
    const byApiPut = await t.put(`/contacts/jane-1?api_id=true&location_id=${t.locationId}`, { contact: { city: 'Gainesville' } });
    expect(byApiPut.body.contact.city).toBe('Gainesville');
    expect((await t.get('/contacts?first_name=anet')).body.contacts).toHaveLength(1);
    expect((await t.del(`/contacts/${id}`)).status).toBe(204);
    expect((await t.del(`/contacts/${id}`)).status).toBe(404);
  });

  it('update_if_exists updates the existing contact; without it an existing contact is a 422', async () => {
    const first = await t.post('/contacts', { contact: { location_id: t.locationId, last_name: 'One', contact_api_id: 'dup-1', email_trx_receipt: 1 } });
    expect(first.status).toBe(201);
    const again = await t.post('/contacts', { contact: { location_id: t.locationId, last_name: 'Two', contact_api_id: 'dup-1' } });
    expect(again.status).toBe(422);
    expect(errorsOf(again, 'contact_api_id')).toEqual([fmt(MSG.TAKEN, { attribute: 'Contact Api Id', value: 'dup-1' })]);
    const upsert = await t.post('/contacts', { contact: { location_id: t.locationId, last_name: 'Three', contact_api_id: 'dup-1', update_if_exists: 1 } });
    expect(upsert.status).toBe(200);
    expect(upsert.body.contact.id).toBe(first.body.contact.id);
    expect(upsert.body.contact.last_name).toBe('Three');
    expect(upsert.body.contact.email_trx_receipt).toBe(true);
    const fresh = await t.post('/contacts', { contact: { location_id: t.locationId, last_name: 'New', contact_api_id: 'dup-2', update_if_exists: '1' } });
    expect(fresh.status).toBe(201);
    const noApi = await t.post('/contacts', { contact: { location_id: t.locationId, last_name: 'X', update_if_exists: 1 } });
    expect(errorsOf(noApi, 'contact_api_id')).toEqual([fmt(MSG.BLANK, { attribute: 'Contact Api Id' })]);
  });

  it('validates the field table', async () => {
    const bad = await t.post('/contacts', {
      contact: { location_id: t.locationId, last_name: 'X', email: 'not-an-email', zip: '12', header_message_type: 9, date_of_birth: '1990-02-30', contact_api_id: 'has space', home_phone: '123', state: 's'.repeat(25), email_trx_receipt: 'yes' },
    });
    expect(bad.status).toBe(422);
    expect(errorsOf(bad, 'email')).toEqual([fmt(MSG.BAD_EMAIL, { attribute: 'Email' })]);
    expect(errorsOf(bad, 'zip')).toEqual([fmt(MSG.TOO_SHORT, { attribute: 'Zip', min: 5 })]);
    expect(errorsOf(bad, 'header_message_type')).toEqual([fmt(MSG.TOO_BIG, { attribute: 'Header Message Type', max: 4 })]);
    expect(errorsOf(bad, 'date_of_birth')).toEqual([fmt(MSG.BAD_DATE, { attribute: 'Date Of Birth' })]);
    expect(errorsOf(bad, 'contact_api_id')).toEqual([fmt(MSG.HAS_SPACES, { attribute: 'Contact Api Id' })]);
    expect(errorsOf(bad, 'home_phone')).toEqual([fmt(MSG.EXACT_LENGTH, { attribute: 'Home Phone', length: 10 })]);
    expect(errorsOf(bad, 'state')).toEqual([fmt(MSG.TOO_LONG, { attribute: 'State', max: 24 })]);
    expect(errorsOf(bad, 'email_trx_receipt')).toEqual([fmt(MSG.NOT_BOOLEAN, { attribute: 'Email Trx Receipt' })]);
    const c = await t.post('/contacts', { contact: { location_id: t.locationId, last_name: 'Y' } });
    const move = await t.put(`/contacts/${c.body.contact.id}`, { contact: { location_id: t.engine.seed.parentLocationId } });
    expect(errorsOf(move, 'location_id')).toEqual([fmt(MSG.NOT_CHANGEABLE, { attribute: 'Location Id' })]);
    const blank = await t.put(`/contacts/${c.body.contact.id}`, { contact: { last_name: '' } });
    expect(errorsOf(blank, 'last_name')).toEqual([fmt(MSG.BLANK, { attribute: 'Last Name' })]);
    const wrongType = await t.put(`/contacts/${c.body.contact.id}`, { contact: { first_name: 5 } });
    expect(errorsOf(wrongType, 'first_name')).toEqual([fmt(MSG.NOT_STRING, { attribute: 'First Name' })]);
  });
});

describe('tags', () => {
  it('CRUD with DELETE /v2/tags/{id}', async () => {
    const a = await t.post('/tags', { tag: { title: 'Wholesale', location_id: t.locationId } });
    expect(a.status).toBe(201);
    const id = a.body.tag.id as string;
    expect((await t.put(`/tags/${id}`, { tag: { title: 'Retail' } })).body.tag.title).toBe('Retail');
    expect((await t.get(`/tags/${id}?expand=created_user`)).body.tag.created_user.id).toBe(t.creds.userId);
    const long = await t.put(`/tags/${id}`, { tag: { title: 't'.repeat(65) } });
    expect(errorsOf(long, 'title')).toEqual([fmt(MSG.TOO_LONG, { attribute: 'Title', max: 64 })]);
    expect((await t.del(`/tags/${id}`)).status).toBe(204);
    expect((await t.del(`/tags/${id}`)).status).toBe(404);
  });
});

describe('terminals', () => {
  it('defaults port 10009 and the timeout table, filters and expands', async () => {
    const a = await t.post('/terminals', terminalBody({ tip_enable: 1 }));
    expect(a.status).toBe(201);
    expect(a.body.terminal.port).toBe(10009);
    expect(a.body.terminal.active).toBe(true);
    expect(a.body.terminal.terminal_timeouts).toEqual(defaultTimeouts());
    const id = a.body.terminal.id as string;
    const filtered = await t.get(`/terminals?tip_enable=1&terminal_manufacturer_id=${REF.PAX}&expand=terminal_application,location`);
    const found = (filtered.body.terminals as { id: string; terminal_application: { id: string } }[]).find((x) => x.id === id)!;
    expect(found.terminal_application.id).toBe(REF.PAX_BROADPOS);
    const bad = await t.get('/terminals?tip_enable=maybe');
    expect(errorsOf(bad, 'tip_enable')).toEqual([fmt(MSG.BAD_FILTER, { attribute: 'Tip Enable' })]);
  });

  it('enforces each timeout min/max and merges timeouts on update', async () => {
    for (const [key, spec] of Object.entries(TERMINAL_TIMEOUTS)) {
      const low = await t.post('/terminals', terminalBody({ terminal_timeouts: { [key]: spec.min - 1 } }));
      expect(errorsOf(low, 'terminal_timeouts')).toEqual([fmt(MERCHANT_MSG.TIMEOUT_TOO_SMALL, { label: spec.label, min: spec.min })]);
      const high = await t.post('/terminals', terminalBody({ terminal_timeouts: { [key]: spec.max + 1 } }));
      expect(errorsOf(high, 'terminal_timeouts')).toEqual([fmt(MERCHANT_MSG.TIMEOUT_TOO_BIG, { label: spec.label, max: spec.max })]);
    }
    const unknown = await t.post('/terminals', terminalBody({ terminal_timeouts: { nap_timeout: 5 } }));
    expect(errorsOf(unknown, 'terminal_timeouts')).toEqual([fmt(MSG.UNKNOWN_KEY, { attribute: 'Terminal Timeouts', key: 'nap_timeout' })]);
    const frac = await t.post('/terminals', terminalBody({ terminal_timeouts: { overall_timeout: 45.5 } }));
    expect(errorsOf(frac, 'terminal_timeouts')).toEqual([fmt(MERCHANT_MSG.TIMEOUT_NOT_INTEGER, { label: 'Overall Timeout' })]);
    const a = await t.post('/terminals', terminalBody({ terminal_timeouts: { overall_timeout: 60 } }));
    expect(a.body.terminal.terminal_timeouts.overall_timeout).toBe(60);
    expect(a.body.terminal.terminal_timeouts.card_entry_timeout).toBe(120);
    const up = await t.put(`/terminals/${a.body.terminal.id}`, { terminal: { terminal_timeouts: { pin_entry_timeout: 45 } } });
    expect(up.body.terminal.terminal_timeouts).toEqual({ ...defaultTimeouts(), overall_timeout: 60, pin_entry_timeout: 45 });
  });

  it('enforces the tip_percents rules', async () => {
    const ok = await t.post('/terminals', terminalBody({ tip_percents: { percent_1: 0, percent_2: 15, percent_3: 99 } }));
    expect(ok.status).toBe(201);
    expect(ok.body.terminal.tip_percents).toEqual({ percent_1: 0, percent_2: 15, percent_3: 99 });
    expect((await t.post('/terminals', terminalBody({ tip_percents: { percent_1: null, percent_2: null, percent_3: null } }))).status).toBe(201);
    expect((await t.post('/terminals', terminalBody({ tip_percents: null }))).status).toBe(201);
    const mixed = await t.post('/terminals', terminalBody({ tip_percents: { percent_1: 10, percent_2: null, percent_3: 20 } }));
    expect(errorsOf(mixed, 'tip_percents')).toEqual([MERCHANT_MSG.TIP_PERCENTS_ALL_NULL]);
    const big = await t.post('/terminals', terminalBody({ tip_percents: { percent_1: 10, percent_2: 100, percent_3: 20 } }));
    expect(errorsOf(big, 'tip_percents')).toEqual([fmt(MERCHANT_MSG.TIP_PERCENT_RANGE, { key: 'Tip Percents percent_2' })]);
    const keys = await t.post('/terminals', terminalBody({ tip_percents: { percent_1: 10, percent_2: 15 } }));
    expect(errorsOf(keys, 'tip_percents')).toEqual([MERCHANT_MSG.TIP_PERCENTS_KEYS]);
    const extra = await t.post('/terminals', terminalBody({ tip_percents: { percent_1: 10, percent_2: 15, percent_3: 20, percent_4: 25 } }));
    expect(errorsOf(extra, 'tip_percents')).toEqual([MERCHANT_MSG.TIP_PERCENTS_KEYS]);
  });

  it('validates required fields, references, bounds; deletes with 204', async () => {
    const empty = await t.post('/terminals', { terminal: {} });
    for (const f of ['location_id', 'serial_number', 'terminal_application_id', 'terminal_manufacturer_id']) expect(errorsOf(empty, f)).toHaveLength(1);
    const mismatch = await t.post('/terminals', terminalBody({ terminal_application_id: REF.INGENICO_TETRA }));
    expect(errorsOf(mismatch, 'terminal_application_id')).toEqual([MERCHANT_MSG.APPLICATION_NOT_OF_MANUFACTURER]);
    const bad = await t.post('/terminals', terminalBody({ port: 70000, local_ip_address: '999.1.1.1', title: 'x'.repeat(65) }));
    expect(errorsOf(bad, 'port')).toEqual([fmt(MSG.TOO_BIG, { attribute: 'Port', max: 65535 })]);
    expect(errorsOf(bad, 'local_ip_address')).toEqual([fmt(MSG.BAD_FORMAT, { attribute: 'Local Ip Address' })]);
    expect(errorsOf(bad, 'title')).toEqual([fmt(MSG.TOO_LONG, { attribute: 'Title', max: 64 })]);
    const a = await t.post('/terminals', terminalBody());
    expect((await t.put(`/terminals/${a.body.terminal.id}`, { terminal: { active: 0 } })).body.terminal.active).toBe(false);
    expect((await t.del(`/terminals/${a.body.terminal.id}`)).status).toBe(204);
    expect((await t.get(`/terminals/${a.body.terminal.id}`)).status).toBe(404);
  });
});

describe('scanners and scanner models', () => {
  it('lists the seeded scanner models under scannermodels', async () => {
    const a = await t.get('/scannermodels?expand=scanner_manufacturer');
    expect(a.status).toBe(200);
    const titles = (a.body.scannermodels as { title: string }[]).map((m) => m.title);
    expect(titles).toEqual(['Digital Check CX30', 'TellerScan TS240', 'Panini mI:Deal', 'Epson TM-S1000']);
    expect(a.body.scannermodels[2].scanner_manufacturer.title).toBe('Panini');
    expect((await t.get('/scannermodels/4')).body.scannermodel.title).toBe('Epson TM-S1000');
    expect((await t.get('/scannermodels/99')).status).toBe(404);
    expect((await t.get('/scannermodels/abc')).status).toBe(404);
    expect((await t.post('/scannermodels', { scannermodel: { title: 'x' } })).status).toBe(405);
  });

  it('creates a scanner with a 24-character id; deleting an active one is a 409', async () => {
    const a = await t.post('/scanners', { scanner: { scanner_model_id: 1, title: 'Front desk', serial_number: 'CX30-0001', location_id: t.locationId } });
    expect(a.status).toBe(201);
    const id = a.body.scanner.id as string;
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(a.body.scanner.active).toBe(true);
    const view = await t.get(`/scanners/${id}?expand=scanner_model,scanner_manufacturer,location`);
    expect(view.body.scanner.scanner_model.title).toBe('Digital Check CX30');
    expect(view.body.scanner.scanner_manufacturer.title).toBe('Digital Check');
    expect((await t.get('/scanners?scanner_model_id=1&title=Front')).body.scanners).toHaveLength(1);
    // A newly created scanner, active, with nothing depending on it, can be deleted.
    expect((await t.del(`/scanners/${id}`)).status).toBe(204);
    expect((await t.get(`/scanners/${id}`)).status).toBe(404);
  });

  it('validates scanners', async () => {
    const bad = await t.post('/scanners', { scanner: { scanner_model_id: 99, title: 't'.repeat(25), serial_number: '', location_id: t.locationId } });
    expect(errorsOf(bad, 'scanner_model_id')).toEqual([fmt(MSG.INVALID, { attribute: 'Scanner Model Id' })]);
    expect(errorsOf(bad, 'title')).toEqual([fmt(MSG.TOO_LONG, { attribute: 'Title', max: 24 })]);
    expect(errorsOf(bad, 'serial_number')).toEqual([fmt(MSG.BLANK, { attribute: 'Serial Number' })]);
    const typ = await t.post('/scanners', { scanner: { scanner_model_id: 'one', title: 'a', serial_number: 'b', location_id: t.locationId } });
    expect(errorsOf(typ, 'scanner_model_id')).toEqual([fmt(MSG.NOT_INTEGER, { attribute: 'Scanner Model Id' })]);
  });
});

describe('device terms', () => {
  // A terminal without an address: the engine's built-in customer answers (a terminal with
  // one is prompted for real: test/gateway/router-endpoints.test.ts).
  let bare = '';
  beforeAll(async () => {
    bare = (await t.post('/terminals', terminalBody({ title: 'No address', local_ip_address: null }))).body.terminal.id as string;
  });
  const body = (extra: Record<string, unknown> = {}) => ({ deviceterm: { location_id: t.locationId, terminal_id: bare, require_signature: true, terms_conditions: 'I agree to pay.', ...extra } });

  it('records an accepted prompt with a signature; answers device_term_api_id', async () => {
    const a = await t.post('/deviceterms', body({ device_terms_api_id: 'dt-1' }));
    expect(a.status).toBe(201);
    expect(a.body.deviceterm.reason_code_id).toBe(DEVICE_TERMS_ACCEPTED);
    expect(a.body.deviceterm.device_term_api_id).toBe('dt-1');
    expect(a.body.deviceterm.device_terms_api_id).toBeUndefined();
    expect(a.body.deviceterm.signature.resource).toBe('deviceterm');
    expect(a.body.deviceterm.signature.resource_id).toBe(a.body.deviceterm.id);
    expect(a.body.deviceterm.created_user_id).toBe(t.creds.userId);
    const id = a.body.deviceterm.id as string;
    const view = await t.get(`/deviceterms/${id}?expand=terminal,reason_code,signature,location,created_user`);
    expect(view.body.deviceterm.terminal.id).toBe(bare);
    expect(view.body.deviceterm.reason_code.id).toBe(DEVICE_TERMS_ACCEPTED);
    expect((await t.get(`/deviceterms/dt-1?api_id=true&location_id=${t.locationId}`)).body.deviceterm.id).toBe(id);
    expect((await t.get('/deviceterms/?device_terms_api_id=dt-1')).body.deviceterms).toHaveLength(1);
    expect((await t.get('/deviceterms?device_term_api_id=dt-1')).body.deviceterms).toHaveLength(1);
    const sorted = await t.get('/deviceterms?sort=-device_term_api_id');
    expect(sorted.status).toBe(200);
    expect(sorted.body.meta.sort.attributes).toEqual({ device_term_api_id: 'desc' });
    expect((await t.get('/deviceterms?created_ts=today')).body.meta.pagination.totalCount).toBeGreaterThanOrEqual(1);
    expect((await t.get('/deviceterms?created_ts=last%20week')).body.meta.pagination.totalCount).toBe(0);
    const taken = await t.post('/deviceterms', body({ device_terms_api_id: 'dt-1' }));
    expect(errorsOf(taken, 'device_terms_api_id')).toEqual([fmt(MSG.TAKEN, { attribute: 'Device Terms Api Id', value: 'dt-1' })]);
    expect((await t.put(`/deviceterms/${id}`, body())).status).toBe(405);
  });

  it('a POST matching a declined record updates it', async () => {
    const declined = await t.post('/deviceterms', body({ device_terms_api_id: 'dt-2', terms_conditions: `Terms ${DECLINE_TRIGGER}` }));
    expect(declined.status).toBe(201);
    expect(declined.body.deviceterm.reason_code_id).toBe(DEVICE_TERMS_DECLINED);
    expect(declined.body.deviceterm.signature).toBeNull();
    const retry = await t.post('/deviceterms', body({ device_terms_api_id: 'dt-2', terms_conditions: 'Terms, again' }));
    expect(retry.status).toBe(200);
    expect(retry.body.deviceterm.id).toBe(declined.body.deviceterm.id);
    expect(retry.body.deviceterm.reason_code_id).toBe(DEVICE_TERMS_ACCEPTED);
    expect(retry.body.deviceterm.terms_conditions).toBe('Terms, again');
  });

  it('refuses a signature on a device that cannot capture one, and a terminal of another location', async () => {
    const term = await t.post('/terminals', terminalBody({ sig_capture_enable: 0, title: 'Lane 2' }));
    const a = await t.post('/deviceterms', body({ terminal_id: term.body.terminal.id }));
    expect(a.status).toBe(422);
    expect(errorsOf(a, 'terminal_id')).toEqual([fmt(MERCHANT_MSG.DEVICE_NOT_SIGNATURE_CAPABLE, { device: 'Lane 2' })]);
    expect((await t.post('/deviceterms', body({ terminal_id: term.body.terminal.id, require_signature: false }))).status).toBe(201);
    const other = await t.post('/deviceterms', body({ location_id: t.engine.seed.parentLocationId }));
    expect(errorsOf(other, 'terminal_id')).toEqual([MERCHANT_MSG.TERMINAL_NOT_IN_LOCATION]);
    const empty = await t.post('/deviceterms', { deviceterm: {} });
    for (const f of ['location_id', 'terminal_id', 'require_signature', 'terms_conditions']) expect(errorsOf(empty, f)).toHaveLength(1);
    const long = await t.post('/deviceterms', body({ terms_conditions: 'x'.repeat(4097) }));
    expect(errorsOf(long, 'terms_conditions')).toEqual([fmt(MSG.TOO_LONG, { attribute: 'Terms Conditions', max: 4096 })]);
  });
});

describe('postback configs', () => {
  it('CRUD; basic_auth_password accepted, never returned', async () => {
    const a = await t.post('/postbackconfigs', { postbackconfig: { location_id: t.locationId, resource: 'contact', url: 'https://hooks.example/pb', basic_auth_username: 'u', basic_auth_password: 'p', on_delete: '1' } });
    expect(a.status).toBe(201);
    const pb = a.body.postbackconfig;
    expect(pb.basic_auth_password).toBeUndefined();
    expect(pb.basic_auth_username).toBeUndefined();
    expect(pb.on_delete).toBe(true);
    expect(pb.format).toBe('api-default');
    expect(pb.is_active).toBe(true);
    const row = t.engine.db.prepare('SELECT basic_auth_password FROM postback_configs WHERE id = ?').get(pb.id) as { basic_auth_password: string };
    expect(row.basic_auth_password).toBe('p');
    const up = await t.put(`/postbackconfigs/${pb.id}`, { postbackconfig: { is_active: 0, number_of_attempts: 5 } });
    expect(up.body.postbackconfig.is_active).toBe(false);
    expect(up.body.postbackconfig.number_of_attempts).toBe(5);
    expect((await t.get(`/postbackconfigs/${pb.id}`)).status).toBe(200);
    expect((await t.get('/postbackconfigs?resource=contact')).body.postbackconfigs).toHaveLength(1);
    expect((await t.del(`/postbackconfigs/${pb.id}`)).status).toBe(204);
    expect((await t.get(`/postbackconfigs/${pb.id}`)).status).toBe(404);
  });

  it('requires product_transaction_id for transaction resources, of the same location', async () => {
    const base = { location_id: t.locationId, url: 'https://hooks.example/pb' };
    const none = await t.post('/postbackconfigs', { postbackconfig: { ...base, resource: 'transaction' } });
    expect(errorsOf(none, 'product_transaction_id')).toEqual([fmt(MSG.BLANK, { attribute: 'Product Transaction Id' })]);
    const ok = await t.post('/postbackconfigs', { postbackconfig: { ...base, resource: 'transactionbatch', product_transaction_id: t.engine.credentials.cc_product_transaction_id } });
    expect(ok.status).toBe(201);
    const clear = await t.put(`/postbackconfigs/${ok.body.postbackconfig.id}`, { postbackconfig: { product_transaction_id: null } });
    expect(errorsOf(clear, 'product_transaction_id')).toEqual([fmt(MSG.BLANK, { attribute: 'Product Transaction Id' })]);
    const other = await t.post('/postbackconfigs', { postbackconfig: { ...base, location_id: t.engine.seed.parentLocationId, resource: 'transaction', product_transaction_id: t.engine.credentials.cc_product_transaction_id } });
    expect(errorsOf(other, 'product_transaction_id')).toEqual([MERCHANT_MSG.PRODUCT_TRANSACTION_NOT_OF_LOCATION]);
    const bad = await t.post('/postbackconfigs', { postbackconfig: { ...base, resource: 'paylink', url: 'ftp://x' } });
    expect(errorsOf(bad, 'resource')).toEqual([fmt(MSG.INVALID, { attribute: 'Resource' })]);
    expect(errorsOf(bad, 'url')).toEqual([fmt(MSG.BAD_URL, { attribute: 'Url' })]);
  });
});
