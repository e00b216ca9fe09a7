/**
 * The users resource's row rule, beside the resource (the route-level sets are in its
 * `allow`, checked by framework/permissions.ts before this runs):
 *
 * - A user may always manage themselves: own password (with old_password), own key, own
 *   details — but never their own type (no one promotes or demotes themselves).
 * - Anything done to another user (any field: password, status, type, key, but also
 *   username, e-mail, names, primary location — sign-in is domain + username + password,
 *   so a rename locks the user out), re-keying them, deleting them, needs a caller who
 *   manages users (MANAGERS), of a type above the target's, whose locations (memberships
 *   and descendants) cover every location the target belongs to.
 * - A user is created, or given a type, only of a type below the caller's own: a cashier
 *   or an installer makes no user at all, a manager makes cashiers and installers, an
 *   admin makes managers too. (No route makes another admin: the seed's is the first; a
 *   higher type than 250 would be the one to make more.)
 *
 * The order of types is their declared ranks (250 > 200 > 100 > 50); a type that is not
 * declared (only in a database made before types were checked) ranks lowest, so a manager
 * can still correct it. Secrets: `user_hash_key` is shown to its own user only; key and
 * password hashes never.
 */
import type { AuthInfo, EngineContext } from '../framework/context';
import { ApiError } from '../framework/errors';
import { MANAGERS, USER_TYPE_IDS, mayPerform, userTypeOf } from '../framework/permissions';
import type { Row } from '../framework/resource';
import { MERCHANT_MSG } from './messages';

/** The declared rank of a type; an undeclared one ranks below every declared type. */
export function rankOf(userType: unknown): number {
  const n = Number(userType);
  return (USER_TYPE_IDS as readonly number[]).includes(n) ? n : 0;
}

/** Whether the caller may give a user this type (create, or change another's). */
export function mayGrantType(auth: AuthInfo, userType: unknown): boolean {
  return mayPerform(auth, MANAGERS) && rankOf(userType) < rankOf(userTypeOf(auth));
}

function locationsOf(ctx: EngineContext, userId: unknown): string[] {
  return (ctx.stmt('SELECT location_id FROM user_locations WHERE user_id = ?').all(userId) as { location_id: string }[]).map((r) => r.location_id);
}

/** Whether the caller may manage another user: a user manager, of a higher type, over all the target's locations. */
export function mayManageOther(ctx: EngineContext, auth: AuthInfo, target: Row): boolean {
  return mayGrantType(auth, target.user_type_id) && locationsOf(ctx, target.id).every((l) => auth.locationSet.has(l));
}

export function refusal(): ApiError {
  return new ApiError(403, { general: [MERCHANT_MSG.USER_MANAGE_FORBIDDEN] });
}

/** Throws 403 unless the caller may create a user of this type. */
export function assertMayCreate(auth: AuthInfo, userType: unknown): void {
  if (!mayGrantType(auth, userType)) throw new ApiError(403, { user_type_id: [MERCHANT_MSG.USER_TYPE_NOT_BELOW] });
}

/** Throws 403 unless the caller may manage `target` (re-key, delete): themselves, or as above. */
export function assertMayManage(ctx: EngineContext, auth: AuthInfo, target: Row): void {
  if (target.id === auth.userId) return;
  if (!mayManageOther(ctx, auth, target)) throw refusal();
}

/**
 * On update: one's own type never changes; another user changes only under the rule
 * above, and a new type must be below the caller's too. A value sent equal to the stored
 * one is no change (a password always is).
 */
export function assertMayUpdate(ctx: EngineContext, auth: AuthInfo, existing: Row, values: Row): void {
  const changes = (f: string) => values[f] !== undefined && (f === 'password' || !sameValue(values[f], existing[f]));
  if (existing.id === auth.userId) {
    if (changes('user_type_id')) throw new ApiError(403, { user_type_id: [MERCHANT_MSG.USER_TYPE_OWN] });
    return;
  }
  if (!Object.keys(values).some(changes)) return;
  if (!mayManageOther(ctx, auth, existing)) throw refusal();
  if (changes('user_type_id')) assertMayCreate(auth, values.user_type_id);
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
