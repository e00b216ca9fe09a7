/**
 * The authenticated caller of a /v2 request (`req.auth`), in a file of its own: the
 * declarations (resource.ts), the permission check and the engine context all read it,
 * and none of them needs the others for it (no import circle).
 */

export interface AuthInfo {
  userId: string;
  developerId: string;
  /** The user's record (a users row). */
  user: Record<string, unknown>;
  /** Locations the user may read and change: memberships plus their descendants. */
  locationIds: readonly string[];
  locationSet: ReadonlySet<string>;
  /** Locations the user is a direct member of. */
  directLocationIds: readonly string[];
  /** `locationIds` as a JSON array, bound to `json_each(?)` in scoped SQL. */
  locationsJson: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth hook on every /v2 request (undefined only on /health). */
    auth: AuthInfo;
  }
}
