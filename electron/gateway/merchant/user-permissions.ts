/**
 * Who may do what to users. A user may always manage themselves (own password with
 * old_password, own key, own details). Another user's password, status, role (user_type_id)
 * or API key — or deleting them — needs the caller to be an admin (250) whose locations
 * (memberships and descendants) cover every location the target belongs to; otherwise a
 * plain member could take over the admin's key and reach the admin's other locations.
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

/** Fields whose change on another user needs admin rights over that user. */
export const GUARDED_USER_FIELDS = ['password', 'status_id', 'user_type_id'] as const;

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

/** On update: a guarded field that actually changes needs the rights above (own role too). */
export function assertMayUpdate(ctx: EngineContext, auth: AuthInfo, existing: Row, values: Row): void {
  const changes = (f: string) => values[f] !== undefined && (f === 'password' || values[f] !== existing[f]);
  if (changes('user_type_id') && !isAdminOverUser(ctx, auth, existing.id)) throw forbidden();
  if (existing.id === auth.userId) return;
  if (GUARDED_USER_FIELDS.some(changes) && !isAdminOverUser(ctx, auth, existing.id)) throw forbidden();
}

/** Whether `viewer` may see the secrets (user_hash_key) of `row`. */
export function seesSecretsOf(viewer: AuthInfo | undefined, row: Row): boolean {
  return viewer !== undefined && row.id === viewer.userId;
}
