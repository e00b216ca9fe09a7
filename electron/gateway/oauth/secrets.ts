/**
 * Random tokens and their stored form. Every bearer-like secret (client secret, code,
 * access/refresh token, CSRF token, session id) is 32 random bytes as base64url; only
 * its SHA-256 (hex) is stored, and lookups go by that hash, so a database copy grants
 * nothing. Comparisons of a presented secret against a stored hash are constant-time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const newToken = (): string => randomBytes(32).toString('base64url');

export const sha256Hex = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

/** Constant-time check of a presented secret against a stored SHA-256 hex. */
export function matchesHash(presented: string, storedHex: unknown): boolean {
  if (typeof storedHex !== 'string' || storedHex.length !== 64) return false;
  const a = Buffer.from(sha256Hex(presented), 'hex');
  const b = Buffer.from(storedHex, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** PKCE S256: base64url(SHA-256(verifier)). */
export const s256 = (verifier: string): string => createHash('sha256').update(verifier).digest('base64url');

/** Constant-time equality of two short strings (length leaks, content does not). */
export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
