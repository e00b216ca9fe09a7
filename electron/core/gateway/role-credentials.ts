/**
 * The embedded engine's users for the counter's cashier and installer roles. The engine's
 * declared permissions (gateway/framework/permissions.ts) let a plain user (user_type_id 100)
 * sell but not refund, void or settle, and a device installer (50) set up terminals, scanners
 * and device terms but move no money; the core sends a signed-in cashier's or installer's requests with that
 * role's engine user, so what the role may not do is refused by the gateway itself, not only
 * by the core's own checks. Managers use the engine's admin user (or the OAuth sign-in).
 *
 * Each user is made on first start through the engine's own API (as any integrator would)
 * and its key kept only in the SecretStore. If the engine's data no longer knows it (a
 * reset engine folder), a new one is made. Simplification: against a remote gateway there
 * is one set of credentials, so the core's own role checks are what refuse a cashier or an
 * installer there.
 */
import { randomBytes } from 'node:crypto';
import type { GatewayAuth } from '../../client/gateway-client';
import { gatewayClient } from './gateway-clients';
import type { SecretStore } from '../../secrets/secret-store';

export const CASHIER_CREDENTIALS_SECRET = 'engine-cashier-user';
export const INSTALLER_CREDENTIALS_SECRET = 'engine-installer-user';
/** The engine's plain selling user type (gateway/framework/permissions.ts). */
export const CASHIER_USER_TYPE = 100;
/** The engine's device installer type: devices only, no money (gateway/framework/permissions.ts). */
export const INSTALLER_USER_TYPE = 50;

/** Each counter role that has an engine user of its own, declared once. */
const ROLE_USERS = {
  cashier: { secret: CASHIER_CREDENTIALS_SECRET, userType: CASHIER_USER_TYPE, username: 'ringup-cashier', lastName: 'Counter cashier' },
  installer: { secret: INSTALLER_CREDENTIALS_SECRET, userType: INSTALLER_USER_TYPE, username: 'ringup-installer', lastName: 'Device installer' },
} as const;
export type EngineRole = keyof typeof ROLE_USERS;

interface StoredRoleUser {
  userId: string;
  userApiKey: string;
}

interface RoleOptions {
  baseUrl: string;
  admin: GatewayAuth;
  locationId: string;
  secrets: SecretStore;
}

/** A counter role's engine credentials, made once and kept in the SecretStore. */
export async function roleCredentials(role: EngineRole, opts: RoleOptions): Promise<GatewayAuth> {
  const r = ROLE_USERS[role];
  const stored = await opts.secrets.get(r.secret);
  if (stored) {
    const s = JSON.parse(stored.toString('utf8')) as StoredRoleUser;
    const auth = { developerId: opts.admin.developerId, userId: s.userId, userApiKey: s.userApiKey };
    try {
      await gatewayClient('probe', { baseUrl: opts.baseUrl, auth }).me();
      return auth;
    } catch {
      // The engine no longer knows this user (its data folder was replaced): make a new one.
    }
  }
  const suffix = randomBytes(4).toString('hex');
  const userApiKey = randomBytes(24).toString('hex');
  const user = await gatewayClient('probe', { baseUrl: opts.baseUrl, auth: opts.admin }).createUser({
    username: `${r.username}-${suffix}`,
    email: `${role}-${suffix}@ringup.localhost`,
    last_name: r.lastName,
    user_type_id: r.userType,
    primary_location_id: opts.locationId,
    // Never used to sign in: the counter uses the API key; a random password keeps the login closed.
    password: `Rg${randomBytes(12).toString('hex')}9`,
    user_api_key: userApiKey,
  });
  await opts.secrets.set(r.secret, Buffer.from(JSON.stringify({ userId: user.id, userApiKey } satisfies StoredRoleUser)));
  return { developerId: opts.admin.developerId, userId: user.id, userApiKey };
}
