/**
 * The SSO replay guard: a link signs its user in once, whatever its encoding.
 *
 * It keys on what the link signs in — the user, the location, the contact a standard link
 * names (none for a page link) and the link's timestamp — never on the link's bytes. Keying on
 * the JSON text let a used `e_data` link back in: flipping a byte of its IV rewrites the first
 * 16 characters of the JSON (CBC) without the key, so a space became a tab, "Ada" became "Eda"
 * or the page "contacts" became "accounts", the text hashed differently, and the same sign-in
 * was accepted again. Fields that only prefill or pick the landing page (names, amounts,
 * route) are not part of the key: changing them does not make another sign-in.
 *
 * The cost, named: two links for the same user, location and contact built in the same second
 * are one sign-in; the second answers 409. A partner that renders several page links at once
 * gives each its own second or sends one link.
 *
 * Rows expire with the link (its timestamp + the lifetime + the clock skew tolerated), so the
 * table holds at most the last 16 minutes of sign-ins.
 */
import type { EngineContext } from '../framework/context';
import { sha256Hex } from './secrets';

export interface SignIn {
  userId: string;
  locationId: string;
  /** The contact a standard link creates or updates; null for a page (virtual-terminal) link. */
  contactApiId: string | null;
  /** The link's timestamp, Unix seconds (as a number: "0170…" and 170… are one moment). */
  timestamp: number;
}

/** The key of one sign-in (versioned, so a later change of the key never matches an old row). */
export function signInDigest(s: SignIn): string {
  return sha256Hex(JSON.stringify(['sso-sign-in-1', s.userId, s.locationId, s.contactApiId, s.timestamp]));
}

/** Claims the sign-in; false when it was used before (a replay). */
export function claimSignIn(ctx: EngineContext, s: SignIn, expiresTs: number): boolean {
  ctx.stmt('DELETE FROM sso_links_used WHERE expires_ts < ?').run(ctx.clock.now());
  return ctx.stmt('INSERT OR IGNORE INTO sso_links_used (digest, expires_ts) VALUES (?, ?)').run(signInDigest(s), expiresTs).changes === 1;
}
