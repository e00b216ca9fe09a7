/**
 * Who may do what to users (issue 9, point 7): any change to another user (password, status, role,
 * API key, but also username, e-mail, names, primary location) or its deletion needs an admin role (250) over every location that user belongs
 * to; expands never show another user's secrets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MERCHANT_MSG } from '../../electron/gateway/merchant/messages';
import { TestEngine, errorsOf, type Creds } from './helpers/engine-fixture';

let t: TestEngine;
let admin: Creds;
let member: Creds;
let storeAdmin: Creds;
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
  storeAdmin = await newUser(admin, t.locationId, 250, 'storeadmin');
  otherLocUser = await newUser(admin, otherLoc, 100, 'elsewhere');
});
afterAll(async () => {
  await t.close();
});

const forbidden = (a: { status: number; body: unknown; text: string }) => {
  expect(a.status, a.text).toBe(403);
  expect(errorsOf(a as never)).toEqual([MERCHANT_MSG.USER_ADMIN_ONLY]);
};

describe('changing other users', () => {
  it('a plain member cannot regenerate, lock out, re-password, promote or delete the admin', async () => {
    forbidden(await t.post(`/users/${admin.userId}/generateuserapikey`, undefined, { creds: member }));
    forbidden(await t.put(`/users/${admin.userId}`, { user: { status_id: 0 } }, { creds: member }));
    forbidden(await t.put(`/users/${admin.userId}`, { user: { password: 'Hacked123' } }, { creds: member }));
    forbidden(await t.put(`/users/${member.userId}`, { user: { user_type_id: 250 } }, { creds: member }));
    forbidden(await t.del(`/users/${storeAdmin.userId}`, { creds: member }));
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
    // Nor another plain member's.
    forbidden(await t.put(`/users/${storeAdmin.userId}`, { user: { email: 'x@evil.example' } }, { creds: member }));
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

  it('an admin of only one of the target’s locations may not; an admin over all of them may', async () => {
    // The seed admin belongs to the parent and the store; the store admin is over the store only.
    forbidden(await t.put(`/users/${admin.userId}`, { user: { password: 'Taken1234' } }, { creds: storeAdmin }));
    // A user of a location the store admin cannot see does not exist for them.
    expect((await t.put(`/users/${otherLocUser.userId}`, { user: { status_id: 0 } }, { creds: storeAdmin })).status).toBe(404);
    expect((await t.put(`/users/${member.userId}`, { user: { password: 'Reset1234' } }, { creds: storeAdmin })).status).toBe(200);
    expect((await t.put(`/users/${otherLocUser.userId}`, { user: { status_id: 0 } }, { creds: admin })).status).toBe(200);
    expect((await t.put(`/users/${otherLocUser.userId}`, { user: { status_id: 1 } }, { creds: admin })).status).toBe(200);
    const g = await t.post(`/users/${member.userId}/generateuserapikey`, undefined, { creds: admin });
    expect(g.status).toBe(200);
    member = { ...member, apiKey: g.body.user.user_api_key as string };
  });

  it('a plain member cannot create an admin', async () => {
    const r = await t.post('/users', { user: { username: 'sneaky', email: 's@example.com', last_name: 'S', user_type_id: 250, primary_location_id: t.locationId } }, { creds: member });
    forbidden(r);
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
