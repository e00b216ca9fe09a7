/**
 * The embedded engine's user for the counter's cashier role. The engine's roles
 * (gateway/merchant/roles.ts) let a plain user (user_type_id 100) sell but not refund,
 * void or settle; the core sends a signed-in cashier's requests with this user's key, so
 * a cashier's refund is refused by the gateway itself, not only by the core's own check.
 * Managers and installers use the engine's admin user.
 *
 * The user is made on first start through the engine's own API (as any integrator would)
 * and its key kept only in the SecretStore. If the engine's data no longer knows it (a
 * reset engine folder), a new one is made. Simplification: against a remote gateway there
 * is one set of credentials, so the core's own role check is what refuses a cashier there.
 */
import { randomBytes } from 'node:crypto';
import { GatewayClient, type GatewayAuth } from '../client/gateway-client';
import type { SecretStore } from '../secrets/secret-store';

export const CASHIER_CREDENTIALS_SECRET = 'engine-cashier-user';
/** The engine's plain selling user type (gateway/merchant/roles.ts). */
export const CASHIER_USER_TYPE = 100;

interface StoredCashier {
  userId: string;
  userApiKey: string;
}

/** The cashier role's engine credentials, made once and kept in the SecretStore. */
export async function cashierCredentials(opts: { baseUrl: string; admin: GatewayAuth; locationId: string; secrets: SecretStore }): Promise<GatewayAuth> {
  const stored = await opts.secrets.get(CASHIER_CREDENTIALS_SECRET);
  if (stored) {
    const s = JSON.parse(stored.toString('utf8')) as StoredCashier;
    const auth = { developerId: opts.admin.developerId, userId: s.userId, userApiKey: s.userApiKey };
    try {
      await new GatewayClient({ baseUrl: opts.baseUrl, auth }).me();
      return auth;
    } catch {
      // The engine no longer knows this user (its data folder was replaced): make a new one.
    }
  }
  const suffix = randomBytes(4).toString('hex');
  const userApiKey = randomBytes(24).toString('hex');
  const user = await new GatewayClient({ baseUrl: opts.baseUrl, auth: opts.admin }).createUser({
    username: `ringup-cashier-${suffix}`,
    email: `cashier-${suffix}@ringup.localhost`,
    last_name: 'Counter cashier',
    user_type_id: CASHIER_USER_TYPE,
    primary_location_id: opts.locationId,
    // Never used to sign in: the counter uses the API key; a random password keeps the login closed.
    password: `Rg${randomBytes(12).toString('hex')}9`,
    user_api_key: userApiKey,
  });
  await opts.secrets.set(CASHIER_CREDENTIALS_SECRET, Buffer.from(JSON.stringify({ userId: user.id, userApiKey } satisfies StoredCashier)));
  return { developerId: opts.admin.developerId, userId: user.id, userApiKey };
}
