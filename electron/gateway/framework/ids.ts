/**
 * Record ids. The interface promises strings of 24 to 36 characters: most resources use
 * UUID v7 (36: RFC 9562, 48 bits of Unix milliseconds then 74 random bits); scanners use 24
 * hex characters because their field table says length 24.
 *
 * Why v7 and not v4: an id is the primary key of its table, and a random key lands on a
 * random leaf of the key's b-tree, so every insert of a group commit dirties (and writes to
 * the WAL) a page of its own. Time-ordered keys append at the right edge: a group of 32 sales
 * writes a handful of pages. Measured on this machine with the transactions table's columns
 * and indexes, 32 rows per commit: 31.4 µs per row with v4 keys, 12.9 µs with time-ordered
 * ones. The interface's own ids are time-ordered too. Ordering is by the wall clock, not the
 * sandbox clock (which can move back); ids are never compared for anything but equality.
 *
 * Ids and generated keys never look like a card number: a random hex string holds a run of 13
 * or more digits that passes Luhn now and then (about one 32-character key in 200, one UUID in
 * 15,000), and such a value could be neither sent back (identifiers refuse card numbers,
 * card-mask.ts) nor kept in clear. One is drawn again until it holds none.
 */
import { randomBytes, randomFillSync, randomUUID } from 'node:crypto';
import { cardSafe } from '../../../shared/payments/masking';

export type IdKind = 'uuid' | 'hex24';

/** Two hex digits for each byte value (a table costs less than toString(16) and padStart per byte). */
export const BYTE_HEX: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
/** Random bytes drawn 4 KiB at a time (one system call per 409 ids, as randomUUID caches too). */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;

function randomByte(): number {
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  return pool[poolAt++] as number;
}

/** A UUID v7: the time (ms) in the first 48 bits, version 7, variant 10, the rest random. */
export function uuidV7(nowMs: number = Date.now()): string {
  const hi = Math.floor(nowMs / 0x1000000); // the top 24 of the 48 bits
  const lo = nowMs % 0x1000000;
  const b = (n: number) => BYTE_HEX[n & 255] as string;
  return (
    b(hi >> 16) + b(hi >> 8) + b(hi) + b(lo >> 16) + '-' + b(lo >> 8) + b(lo) + '-' +
    b(0x70 | (randomByte() & 15)) + b(randomByte()) + '-' + b(0x80 | (randomByte() & 63)) + b(randomByte()) + '-' +
    b(randomByte()) + b(randomByte()) + b(randomByte()) + b(randomByte()) + b(randomByte()) + b(randomByte())
  );
}

export function newId(kind: IdKind = 'uuid'): string {
  return cardSafe(kind === 'hex24' ? () => randomBytes(12).toString('hex') : () => uuidV7());
}

/**
 * A secret in UUID form (a location's api key and ticket hash key): v4, all 122 bits random.
 * Never `newId`: a v7 id says when it was made and carries 74 random bits.
 */
export function newKeyUuid(): string {
  return cardSafe(randomUUID);
}

/** A random secret of `bytes` bytes as hex (user api keys, form ids). */
export function newSecret(bytes = 16): string {
  return cardSafe(() => randomBytes(bytes).toString('hex'));
}
