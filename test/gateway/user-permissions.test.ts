/**
 * Who may do what to users (issue 9, point 7; issue 19): any change to another user (password,
 * status, role, API key, but also username, e-mail, names, primary location) or its deletion
 * needs a manager or an admin of a type above the target's, over every location that user
 * belongs to; a user is created only of a type below the creator's; expands never show
 * another user's secrets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fmt } from '../../electron/gateway/framework/errors';
import { describeTypes, MANAGERS, PERMISSION_MSG } from '../../electron/gateway/framework/permissions';
import { MERCHANT_MSG } from '../../electron/gateway/merchant/messages';
import { TestEngine, errorsOf, type Creds } from './helpers/engine-fixture';

let t: TestEngine;
let admin: Creds;
let member: Creds;
let storeManager: Creds;
let otherLocUser: Creds;
let otherLoc: string;

async function newUser(by: Creds, location: string, userType: number, name: string): Promise<Creds> {
  const key = `key-${name}-${'k'.repeat(20)}`;
  const r = await t.post(
    '/users',
    { user: { username: name, email: `${name}@example.com`, last_name: name, user_type_id: userType, primary_location_id: location, password: 'Secret123', user_api_key: key } },
    { creds: by },
  );
  expect(r.status, r.text).toBe(201);
  return { developerId: admin.developerId, userId: r.body.user.id as string, apiKey: key };
}

beforeAll(async () => {
  t = await TestEngine.start();
  admin = t.creds;
  const loc = await t.post('/locations', { location: { name: 'Second Store', parent_id: t.engine.seed.parentLocationId, branding_domain_url: 'second.example' } });
  otherLoc = loc.body.location.id as string;
  member = await newUser(admin, t.locationId, 100, 'member');
  storeManager = await newUser(admin, t.locationId, 200, 'storemanager');
  otherLocUser = await newUser(admin, otherLoc, 100, 'elsewhere');
});
afterAll(async () => {
  await t.close();
});

const forbidden = (a: { status: number; body: unknown; text: string }, field = 'general', message: string = MERCHANT_MSG.USER_MANAGE_FORBIDDEN) => {
  expect(a.status, a.text).toBe(403);
  expect(errorsOf(a as never, field)).toEqual([message]);
};
/** The route-level refusal (framework/permissions.ts) of a user type that manages no users. */
const notForType = (type: number, what: string) => fmt(PERMISSION_MSG.FORBIDDEN, { type, what, who: describeTypes(MANAGERS) });

describe('changing other users', () => {
  it('a plain member cannot regenerate, lock out, re-password, promote or delete the admin', async () => {
    forbidden(await t.post(`/users/${admin.userId}/generateuserapikey`, undefined, { creds: member }));
    forbidden(await t.put(`/users/${admin.userId}`, { user: { status_id: 0 } }, { creds: member }));
    forbidden(await t.put(`/users/${admin.userId}`, { user: { password: 'Hacked123' } }, { creds: member }));
    forbidden(await t.put(`/users/${member.userId}`, { user: { user_type_id: 250 } }, { creds: member }), 'user_type_id', MERCHANT_MSG.USER_TYPE_OWN);
    forbidden(await t.del(`/users/${storeManager.userId}`, { creds: member }), 'general', notForType(100, 'call DELETE /v2/users/{id}'));
    // The admin still signs in with the same key.
    expect((await t.get('/users/me', { creds: admin })).status).toBe(200);
  });

  it("a plain member cannot change any of the admin's details (username, e-mail, names, primary location)", async () => {
    const before = (await t.get('/users/me', { creds: admin })).body.user;
    // A location the member can see (a child of the store), so the reference itself is valid.
    const child = await t.post('/locations', { location: { name: 'Store Annex', parent_id: t.locationId, branding_domain_url: 'annex.example' } });
    expect(child.status, child.text).toBe(201);
    for (const change of [{ username: 'pwned' }, { email: 'attacker@evil.example' }, { first_name: 'Evil' }, { last_name: 'Evil' }, { primary_location_id: child.body.location.id }, { tz: 'UTC' }]) {
      forbidden(await t.put(`/users/${admin.userId}`, { user: change }, { creds: member }));
    }
    const after = (await t.get('/users/me', { creds: admin })).body.user;
    expect(after).toMatchObject({ username: before.username, email: before.email, first_name: before.first_name, last_name: before.last_name, primary_location_id: before.primary_location_id });
    // Nor a manager's.
    forbidden(await t.put(`/users/${storeManager.userId}`, { user: { email: 'x@evil.example' } }, { creds: member }));
  });

  it('a plain member may still change their own password, key and details', async () => {
    expect((await t.put(`/users/${member.userId}`, { user: { password: 'Better123', old_password: 'Secret123', first_name: 'Mem' } }, { creds: member })).status).toBe(200);
    const g = await t.post(`/users/${member.userId}/generateuserapikey`, undefined, { creds: member });
    expect(g.status).toBe(200);
    member = { ...member, apiKey: g.body.user.user_api_key as string };
    expect((await t.get('/users/me', { creds: member })).status).toBe(200);
    // Unchanged values are not a change of role or status.
    expect((await t.put(`/users/${member.userId}`, { user: { user_type_id: 100, status_id: 1 } }, { creds: member })).status).toBe(200);
  });

  it('a manager of only one of the target’s locations may not; a manager or admin over all of them may', async () => {
    // The seed admin belongs to the parent and the store; the store manager is over the store only (and below the admin).
    forbidden(await t.put(`/users/${admin.userId}`, { user: { password: 'Taken1234' } }, { creds: storeManager }));
    // A user of a location the store manager cannot see does not exist for them.
    expect((await t.put(`/users/${otherLocUser.userId}`, { user: { status_id: 0 } }, { creds: storeManager })).status).toBe(404);
    expect((await t.put(`/users/${member.userId}`, { user: { password: 'Reset1234' } }, { creds: storeManager })).status).toBe(200);
    // A cashier of both stores: the store manager sees it but covers only one of its locations.
    const both = await newUser(admin, t.locationId, 100, 'bothstores');
    expect((await t.put(`/users/${both.userId}`, { user: { primary_location_id: otherLoc } }, { creds: admin })).status).toBe(200);
    forbidden(await t.put(`/users/${both.userId}`, { user: { status_id: 0 } }, { creds: storeManager }));
    forbidden(await t.post(`/users/${both.userId}/generateuserapikey`, undefined, { creds: storeManager }));
    expect((await t.put(`/users/${otherLocUser.userId}`, { user: { status_id: 0 } }, { creds: admin })).status).toBe(200);
    expect((await t.put(`/users/${otherLocUser.userId}`, { user: { status_id: 1 } }, { creds: admin })).status).toBe(200);
    const g = await t.post(`/users/${member.userId}/generateuserapikey`, undefined, { creds: admin });
    expect(g.status).toBe(200);
    member = { ...member, apiKey: g.body.user.user_api_key as string };
  });

  it('a plain member cannot create an admin, nor any user', async () => {
    for (const type of [250, 100, 50]) {
      const r = await t.post('/users', { user: { username: `sneaky${type}`, email: 's@example.com', last_name: 'S', user_type_id: type, primary_location_id: t.locationId } }, { creds: member });
      forbidden(r, 'general', notForType(100, 'call POST /v2/users'));
    }
  });
});

describe('secrets in expands and views', () => {
  it('created_user never shows the creator’s user_hash_key to another location', async () => {
    const me = await t.get('/users/me?expand=created_user', { creds: otherLocUser });
    expect(me.status).toBe(200);
    expect(me.body.user.user_hash_key).toEqual(expect.any(String));
    const creator = me.body.user.created_user as Record<string, unknown>;
    expect(creator.id).toBe(admin.userId);
    for (const k of ['user_hash_key', 'user_api_key', 'password_hash', 'user_api_key_hash', 'password']) expect(creator).not.toHaveProperty(k);
  });

  it('another user’s record, listed or viewed, has no secrets; your own has your hash key', async () => {
    const view = await t.get(`/users/${admin.userId}`, { creds: member });
    expect(view.body.user).not.toHaveProperty('user_hash_key');
    const list = await t.get('/users?page_size=100', { creds: member });
    for (const u of list.body.users as Record<string, unknown>[]) {
      if (u.id !== member.userId) expect(u, String(u.username)).not.toHaveProperty('user_hash_key');
      for (const k of ['user_api_key', 'password_hash', 'user_api_key_hash']) expect(u).not.toHaveProperty(k);
    }
    expect((await t.get('/users/me', { creds: admin })).body.user.user_hash_key).toEqual(expect.any(String));
  });
});
