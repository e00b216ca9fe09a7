/** User passwords: scrypt hashes with a random salt; rules checked on every write. */
import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { MERCHANT_MSG } from './messages';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 64;

export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('hex')}$${scryptSync(password, salt, 32).toString('hex')}`;
}

export function verifyPassword(password: string, stored: unknown): boolean {
  if (typeof stored !== 'string') return false;
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const a = scryptSync(password, Buffer.from(salt, 'hex'), 32);
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Returns a message template when the password breaks a rule (length is checked by the field bounds). */
export function passwordRule(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  return /[A-Za-z]/.test(value) && /\d/.test(value) ? undefined : MERCHANT_MSG.PASSWORD_WEAK;
}
