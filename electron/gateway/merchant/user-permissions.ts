/**
 * Who may do what to users. A user may always manage themselves (own password with
 * old_password, own key, own details; not their own role). Any change to another user —
 * password, status, role (user_type_id), API key, but also username, e-mail, names,
 * primary location or any other field — or deleting them, needs the caller to be an
 * admin (250) whose locations (memberships and descendants) cover every location the
 * target belongs to; otherwise a plain member could take over the admin's key, or rename
 * the admin (sign-in is domain + username + password) and point their e-mail elsewhere.
 * Creating an admin needs the same over the new user's primary location.
 *
 * Secrets: `user_hash_key` is shown to its own user only; key and password hashes never.
 * Simplification: roles other than 250 are not distinguished (the seed leaves them open).
 */
import type { AuthInfo, EngineContext } from '../framework/context';
import { ApiError } from '../framework/errors';
import type { Row } from '../framework/resource';
import { MERCHANT_MSG } from './messages';

export const ADMIN_USER_TYPE = 250;


export function isAdmin(auth: AuthInfo): boolean {
  return auth.user.user_type_id === ADMIN_USER_TYPE;
}

export function isAdminOverLocations(auth: AuthInfo, locationIds: readonly unknown[]): boolean {
  return isAdmin(auth) && locationIds.every((l) => typeof l === 'string' && auth.locationSet.has(l));
}

export function isAdminOverUser(ctx: EngineContext, auth: AuthInfo, userId: unknown): boolean {
  const locs = (ctx.stmt('SELECT location_id FROM user_locations WHERE user_id = ?').all(userId) as { location_id: string }[]).map((r) => r.location_id);
  return isAdminOverLocations(auth, locs);
}

export function forbidden(): ApiError {
  return new ApiError(403, { general: [MERCHANT_MSG.USER_ADMIN_ONLY] });
}

/** Throws 403 unless the caller may manage `target` (themselves, or as admin over all its locations). */
export function assertMayManage(ctx: EngineContext, auth: AuthInfo, target: Row): void {
  if (target.id === auth.userId) return;
  if (!isAdminOverUser(ctx, auth, target.id)) throw forbidden();
}

/**
 * On update: changing one's own role, or changing anything of another user, needs the
 * rights above. A value sent equal to the stored one is no change (a password always is).
 */
export function assertMayUpdate(ctx: EngineContext, auth: AuthInfo, existing: Row, values: Row): void {
  const changes = (f: string) => values[f] !== undefined && (f === 'password' || !sameValue(values[f], existing[f]));
  if (changes('user_type_id') && !isAdminOverUser(ctx, auth, existing.id)) throw forbidden();
  if (existing.id === auth.userId) return;
  if (Object.keys(values).some(changes) && !isAdminOverUser(ctx, auth, existing.id)) throw forbidden();
}

/** Stored booleans are 0/1 and JSON is text; compare what the value means. */
function sameValue(sent: unknown, stored: unknown): boolean {
  if (sent === stored) return true;
  if (typeof sent === 'boolean') return (sent ? 1 : 0) === stored;
  if (typeof sent === 'object' && sent !== null) return typeof stored === 'string' && JSON.stringify(sent) === stored;
  return false;
}

/** Whether `viewer` may see the secrets (user_hash_key) of `row`. */
export function seesSecretsOf(viewer: AuthInfo | undefined, row: Row): boolean {
  return viewer !== undefined && row.id === viewer.userId;
}
