/**
 * Record ids. The interface promises strings of 24 to 36 characters: most resources use
 * UUID v4 (36); scanners use 24 hex characters because their field table says length 24.
 *
 * Ids and generated keys never look like a card number: a random hex string holds a run of 13
 * or more digits that passes Luhn now and then (about one 32-character key in 200, one UUID in
 * 15,000), and such a value could be neither sent back (identifiers refuse card numbers,
 * card-mask.ts) nor kept in clear. One is drawn again until it holds none.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { cardSafe } from '../../../shared/payments/masking';

export type IdKind = 'uuid' | 'hex24';

export function newId(kind: IdKind = 'uuid'): string {
  return cardSafe(kind === 'hex24' ? () => randomBytes(12).toString('hex') : randomUUID);
}

/** A random secret of `bytes` bytes as hex (user api keys, location keys, form ids). */
export function newSecret(bytes = 16): string {
  return cardSafe(() => randomBytes(bytes).toString('hex'));
}
