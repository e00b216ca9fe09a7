import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, fmt } from '../../electron/gateway/framework/errors';
import { MERCHANT_MSG } from '../../electron/gateway/merchant/messages';
import { TestEngine, errorsOf, type Creds } from './helpers/engine-fixture';

let t: TestEngine;
let parentId: string;
beforeAll(async () => {
  t = await TestEngine.start();
  parentId = t.engine.seed.parentLocationId;
});
afterAll(async () => {
  await t.close();
});

let n = 0;
const uniq = (p: string) => `${p}${++n}${Date.now() % 100000}`;

async function newLocation(parent = parentId, extra: Record<string, unknown> = {}) {
  const a = await t.post('/locations', { location: { name: uniq('Store '), parent_id: parent, branding_domain_url: 'shop.example', ...extra } });
  expect(a.status).toBe(201);
  return a.body.location as { id: string; [k: string]: unknown };
}

async function newUser(locationId: string, extra: Record<string, unknown> = {}) {
  // Letters between the counter and the digits: with a counter of 100 and more, '123-0123456789' would be a Luhn run of 13 digits, which a key refuses (card-mask.ts).
  const key = `key-${uniq('k')}-abcdef0123456789`;
  const a = await t.post('/users', {
    user: { username: uniq('user'), email: 'u@example.com', last_name: 'User', user_type_id: 100, primary_location_id: locationId, user_api_key: key, password: 'secret123', ...extra },
  });
  expect(a.status).toBe(201);
  const creds: Creds = { developerId: t.creds.developerId, userId: a.body.user.id, apiKey: key };
  return { user: a.body.user as Record<string, unknown>, creds };
}

describe('users', () => {
  it('creates a user with a custom key that authenticates; secrets are never returned', async () => {
    const { user, creds } = await newUser(t.locationId);
    expect(user.user_api_key).toBe(creds.apiKey);
    expect(user.password).toBeUndefined();
    expect(user.password_hash).toBeUndefined();
    expect(user.user_api_key_hash).toBeUndefined();
    expect(user.requires_new_password).toBe('1');
    const me = await t.get('/users/me', { creds });
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe(creds.userId);
    expect(me.body.user.user_api_key).toBeUndefined();
    const view = await t.get(`/users/${creds.userId}`);
    expect(view.body.user.username).toBe(user.username);
    expect(view.body.user.ui_prefs.entry_page).toBe('dashboard');
    const list = await t.get(`/users?username=${user.username as string}`);
    expect(list.body.users).toHaveLength(1);
  });

  it('validates required fields, uniqueness, password rules and references', async () => {
    const empty = await t.post('/users', { user: {} });
    expect(empty.status).toBe(422);
    for (const f of ['username', 'email', 'user_type_id', 'primary_location_id', 'last_name']) {
      expect(errorsOf(empty, f)).toEqual([fmt(MSG.BLANK, { attribute: f.split('_').map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' ') })]);
    }
    const base = { email: 'a@b.co', last_name: 'X', user_type_id: 100, primary_location_id: t.locationId };
    const dup = await t.post('/users', { user: { ...base, username: 'admin' } });
    expect(errorsOf(dup, 'username')).toEqual([fmt(MSG.TAKEN, { attribute: 'Username', value: 'admin' })]);
    const weak = await t.post('/users', { user: { ...base, username: uniq('w'), password: 'onlyletters' } });
    expect(errorsOf(weak, 'password')).toEqual([MERCHANT_MSG.PASSWORD_WEAK]);
    const short = await t.post('/users', { user: { ...base, username: uniq('s'), password: 'a1' } });
    expect(errorsOf(short, 'password')).toEqual([fmt(MSG.TOO_SHORT, { attribute: 'Password', min: 8 })]);
    const email = await t.post('/users', { user: { ...base, username: uniq('e'), email: 'not-an-email' } });
    expect(errorsOf(email, 'email')).toEqual([fmt(MSG.BAD_EMAIL, { attribute: 'Email' })]);
    const loc = await t.post('/users', { user: { ...base, username: uniq('l'), primary_location_id: '00000000-0000-4000-8000-000000000000' } });
    expect(errorsOf(loc, 'primary_location_id')).toEqual([fmt(MSG.INVALID, { attribute: 'Primary Location Id' })]);
    const long = await t.post('/users', { user: { ...base, username: 'u'.repeat(65) } });
    expect(errorsOf(long, 'username')).toEqual([fmt(MSG.TOO_LONG, { attribute: 'Username', max: 64 })]);
  });

  it('generates a new API key; the old one stops working', async () => {
    const { creds } = await newUser(t.locationId);
    const gen = await t.post(`/users/${creds.userId}/generateuserapikey`);
    expect(gen.status).toBe(200);
    const key = gen.body.user.user_api_key as string;
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect((await t.get('/users/me', { creds })).status).toBe(401);
    expect((await t.get('/users/me', { creds: { ...creds, apiKey: key } })).status).toBe(200);
  });

  it('needs old_password to change your own password; another user gets a one-time password', async () => {
    const { creds } = await newUser(t.locationId);
    const noOld = await t.put(`/users/${creds.userId}`, { user: { password: 'newpass123' } }, { creds });
    expect(errorsOf(noOld, 'old_password')).toEqual([fmt(MSG.BLANK, { attribute: 'Old Password' })]);
    const wrongOld = await t.put(`/users/${creds.userId}`, { user: { password: 'newpass123', old_password: 'nope12345' } }, { creds });
    expect(errorsOf(wrongOld, 'old_password')).toEqual([MERCHANT_MSG.OLD_PASSWORD_WRONG]);
    const ok = await t.put(`/users/${creds.userId}`, { user: { password: 'newpass123', old_password: 'secret123' } }, { creds });
    expect(ok.status).toBe(200);
    expect(ok.body.user.requires_new_password).toBe('0');
    const byAdmin = await t.put(`/users/${creds.userId}`, { user: { password: 'resetpass1', first_name: 'Renamed' } });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.user.requires_new_password).toBe('1');
    expect(byAdmin.body.user.first_name).toBe('Renamed');
  });

  it('deletes with 204, refuses yourself with 409; no one deletes the admin', async () => {
    // Deleting users is a manager's (issue 19: a cashier deletes no one, itself included).
    const { creds } = await newUser(t.locationId, { user_type_id: 200 });
    const self = await t.del(`/users/${creds.userId}`, { creds });
    expect(self.status).toBe(409);
    expect(errorsOf(self)).toEqual([MERCHANT_MSG.CANNOT_DELETE_SELF]);
    // Only a type above the target's deletes it, so the admin (the highest type) stays: no "last admin" to lose.
    const admin = await t.del(`/users/${t.creds.userId}`, { creds });
    expect(admin.status).toBe(403);
    expect(errorsOf(admin)).toEqual([MERCHANT_MSG.USER_MANAGE_FORBIDDEN]);
    expect((await t.del(`/users/${t.creds.userId}`)).status).toBe(409);
    const gone = await t.del(`/users/${creds.userId}`);
    expect(gone.status).toBe(204);
    expect(gone.text).toBe('');
    expect((await t.get(`/users/${creds.userId}`)).status).toBe(404);
  });

  it('inactive users cannot authenticate', async () => {
    const { creds } = await newUser(t.locationId);
    expect((await t.put(`/users/${creds.userId}`, { user: { status_id: 0 } })).status).toBe(200);
    expect((await t.get('/users/me', { creds })).status).toBe(401);
  });
});

describe('location isolation', () => {
  it('a user of another location sees nothing of Demo Store (404, as if absent)', async () => {
    const other = await newLocation();
    // A manager, so that every request below passes the user-type check and meets the location's.
    const { creds } = await newUser(other.id, { user_type_id: 200 });
    const contact = await t.post('/contacts', { contact: { location_id: t.locationId, last_name: 'Private' } });
    const id = contact.body.contact.id as string;
    expect((await t.get(`/contacts/${id}`, { creds })).status).toBe(404);
    expect((await t.put(`/contacts/${id}`, { contact: { last_name: 'Hacked' } }, { creds })).status).toBe(404);
    expect((await t.del(`/contacts/${id}`, { creds })).status).toBe(404);
    expect((await t.get(`/locations/${t.locationId}`, { creds })).status).toBe(404);
    const list = await t.get('/contacts?page_size=100', { creds });
    expect(list.body.contacts).toEqual([]);
    const write = await t.post('/contacts', { contact: { location_id: t.locationId, last_name: 'X' } }, { creds });
    expect(errorsOf(write, 'location_id')).toEqual([fmt(MSG.INVALID, { attribute: 'Location Id' })]);
    expect((await t.get(`/contacts/${id}`)).body.contact.last_name).toBe('Private');
    const users = await t.get('/users?page_size=100', { creds });
    expect((users.body.users as { id: string }[]).map((u) => u.id)).not.toContain(t.creds.userId);
  });
});

describe('locations', () => {
  it('creates a location with generated 36-character keys and reads it back with expands', async () => {
    const loc = await newLocation(t.locationId, { is_new_domain: true, branding_domain_title: 'Shop', zip_code: '32606', country: 'USA', office_phone: '3525550100' });
    expect(loc.location_api_key).toMatch(/^[0-9a-f-]{36}$/);
    expect(loc.ticket_hash_key).toMatch(/^[0-9a-f-]{36}$/);
    // Keys are secrets: all random (UUID v4), never time-ordered record ids (v7), which would say when they were made.
    const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(loc.location_api_key).toMatch(V4);
    expect(loc.ticket_hash_key).toMatch(V4);
    const seeded = (await t.get(`/locations/${t.locationId}`)).body.location;
    expect(seeded.location_api_key).toMatch(V4);
    expect(seeded.ticket_hash_key).toMatch(V4);
    expect(loc.developer_company_id).toBe(t.creds.developerId);
    const view = await t.get(`/locations/${loc.id}?expand=parent,branding_domain,developer_company,created_user,product_transactions`);
    expect(view.status).toBe(200);
    expect(view.body.location.parent.id).toBe(t.locationId);
    expect(view.body.location.branding_domain.title).toBe('Shop');
    expect(view.body.location.developer_company.id).toBe(t.creds.developerId);
    expect(view.body.location.product_transactions).toEqual([]);
    const list = await t.get(`/locations?parent_id=${t.locationId}`);
    expect((list.body.locations as { id: string }[]).map((l) => l.id)).toContain(loc.id);
  });

  it('validates the field table', async () => {
    const empty = await t.post('/locations', { location: {} });
    expect(errorsOf(empty, 'name')).toEqual([fmt(MSG.BLANK, { attribute: 'Name' })]);
    expect(errorsOf(empty, 'parent_id')).toEqual([fmt(MSG.BLANK, { attribute: 'Parent Id' })]);
    expect(errorsOf(empty, 'branding_domain_url')).toEqual([fmt(MSG.BLANK, { attribute: 'Branding Domain Url' })]);
    const bad = await t.post('/locations', {
      location: { name: 'n'.repeat(65), parent_id: parentId, branding_domain_url: 'x', zip_code: '123', country: 'MEX', office_phone: '12345', aba: '12345678a', is_new_domain: true },
    });
    expect(errorsOf(bad, 'name')).toEqual([fmt(MSG.TOO_LONG, { attribute: 'Name', max: 64 })]);
    expect(errorsOf(bad, 'zip_code')).toEqual([fmt(MSG.TOO_SHORT, { attribute: 'Zip Code', min: 5 })]);
    expect(errorsOf(bad, 'country')).toEqual([fmt(MSG.INVALID, { attribute: 'Country' })]);
    expect(errorsOf(bad, 'office_phone')).toEqual([fmt(MSG.EXACT_LENGTH, { attribute: 'Office Phone', length: 10 })]);
    expect(errorsOf(bad, 'aba')).toEqual([fmt(MSG.BAD_FORMAT, { attribute: 'Aba' })]);
    const domain = await t.post('/locations', { location: { name: 'x', parent_id: parentId, branding_domain_url: 'x', is_new_domain: true } });
    expect(errorsOf(domain, 'branding_domain_title')).toEqual([MERCHANT_MSG.DOMAIN_TITLE_REQUIRED]);
  });

  it('updates fields; default_cc must be a cc product transaction of the location', async () => {
    const c = t.engine.credentials;
    const renamed = await t.put(`/locations/${t.locationId}`, { location: { city: 'Ocala', default_cc: c.cc_product_transaction_id } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.location.city).toBe('Ocala');
    const wrong = await t.put(`/locations/${t.locationId}`, { location: { default_cc: c.ach_product_transaction_id } });
    expect(errorsOf(wrong, 'default_cc')).toEqual([fmt(MERCHANT_MSG.DEFAULT_PT_WRONG_METHOD, { attribute: 'Default Cc', method: 'cc' })]);
    const parent = await t.put(`/locations/${t.locationId}`, { location: { parent_id: t.locationId } });
    expect(errorsOf(parent, 'parent_id')).toEqual([fmt(MSG.NOT_CHANGEABLE, { attribute: 'Parent Id' })]);
  });

  it('tz must be a time zone the engine can use (an unknown one would silently move schedules and the batch close to UTC)', async () => {
    for (const tz of ['tz1', 'America/Nowhere', 'EST5EDT; DROP']) {
      const bad = await t.put(`/locations/${t.locationId}`, { location: { tz } });
      expect(bad.status, tz).toBe(422);
      expect(errorsOf(bad, 'tz')).toEqual([fmt(MSG.BAD_TIME_ZONE, { attribute: 'Tz' })]);
      const user = await t.post('/users', { user: { username: uniq('tz'), email: 'tz@example.com', last_name: 'T', user_type_id: 100, primary_location_id: t.locationId, tz } });
      expect(errorsOf(user, 'tz')).toEqual([fmt(MSG.BAD_TIME_ZONE, { attribute: 'Tz' })]);
    }
    const ok = await t.put(`/locations/${t.locationId}`, { location: { tz: 'America/Chicago' } });
    expect(ok.status).toBe(200);
    expect(ok.body.location.tz).toBe('America/Chicago');
    expect((await t.put(`/locations/${t.locationId}`, { location: { tz: 'America/New_York' } })).status).toBe(200);
  });

  it('PUT /credentials sets location_api_id and the keys; api_id addressing works with the parent id', async () => {
    const loc = await newLocation();
    const apiId = uniq('store-');
    const a = await t.put(`/locations/${loc.id}/credentials`, { location: { location_api_id: apiId, ticket_hash_key: 'th-1' } });
    expect(a.status).toBe(200);
    expect(a.body.location.location_api_id).toBe(apiId);
    expect(a.body.location.ticket_hash_key).toBe('th-1');
    const byApi = await t.get(`/locations/${apiId}?api_id=true&location_id=${parentId}`);
    expect(byApi.status).toBe(200);
    expect(byApi.body.location.id).toBe(loc.id);
    const long = await t.put(`/locations/${loc.id}/credentials`, { location: { location_api_key: 'k'.repeat(37) } });
    expect(errorsOf(long, 'location_api_key')).toEqual([fmt(MSG.TOO_LONG, { attribute: 'Location Api Key', max: 36 })]);
    const spaces = await t.put(`/locations/${loc.id}/credentials`, { location: { location_api_id: 'a b' } });
    expect(errorsOf(spaces, 'location_api_id')).toEqual([fmt(MSG.HAS_SPACES, { attribute: 'Location Api Id' })]);
    const sibling = await newLocation();
    const taken = await t.put(`/locations/${sibling.id}/credentials`, { location: { location_api_id: apiId } });
    expect(errorsOf(taken, 'location_api_id')).toEqual([fmt(MSG.TAKEN, { attribute: 'Location Api Id', value: apiId })]);
    const noLoc = await t.get(`/locations/${apiId}?api_id=true`);
    expect(noLoc.status).toBe(422);
    expect(errorsOf(noLoc, 'location_id')).toEqual([fmt(MSG.API_ID_NEEDS_LOCATION, { attribute: 'Location Id' })]);
  });
});

describe('location infos', () => {
  it('aggregates product transactions, terminals and tags; relationship=direct limits to memberships', async () => {
    await t.post('/tags', { tag: { title: 'vip', location_id: t.locationId } });
    const a = await t.get('/locationinfos?page_size=100');
    expect(a.status).toBe(200);
    const demo = (a.body.locationinfos as Record<string, unknown>[]).find((l) => l.id === t.locationId)!;
    expect(demo.name).toBe('Demo Store');
    expect((demo.product_transactions as { payment_method: string }[]).map((p) => p.payment_method).sort()).toEqual(['ach', 'cc']);
    const terms = demo.terminals as { id: string; port: number; _links: { self: { href: string } } }[];
    expect(terms[0]!.port).toBe(10009);
    expect(terms[0]!._links.self.href).toBe(t.url(`/terminals/${terms[0]!.id}`));
    expect((demo.tags as { title: string }[]).map((x) => x.title)).toContain('vip');
    expect((demo._links as { location: { href: string } }).location.href).toBe(t.url(`/locations/${t.locationId}`));
    const direct = await t.get('/locationinfos?relationship=direct&page_size=100');
    const ids = (direct.body.locationinfos as { id: string }[]).map((l) => l.id).sort();
    expect(ids).toEqual([parentId, t.locationId].sort());
    expect((await t.get(`/locationinfos/${t.locationId}`)).body.locationinfo.id).toBe(t.locationId);
  });
});
