/**
 * Record ids. The interface promises strings of 24 to 36 characters: most resources use
 * UUID v4 (36); scanners use 24 hex characters because their field table says length 24.
 */
import { randomBytes, randomUUID } from 'node:crypto';

export type IdKind = 'uuid' | 'hex24';

export function newId(kind: IdKind = 'uuid'): string {
  return kind === 'hex24' ? randomBytes(12).toString('hex') : randomUUID();
}

/** A random secret of `bytes` bytes as hex (user api keys, location keys). */
export function newSecret(bytes = 16): string {
  return randomBytes(bytes).toString('hex');
}
