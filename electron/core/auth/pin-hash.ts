/**
 * PIN hashing: scrypt with a random salt per user, then keyed with the PIN pepper (a
 * secret from the secret store, never in `ringup.db`), compared in constant time.
 *
 * Stored as `scrypt-hmac$<key id>$N$r$p$<salt b64>$<HMAC-SHA256(pepper, scrypt) b64>`.
 * Why keyed: a 4-digit PIN has only 10,000 values, so an unkeyed scrypt value in a copied
 * `ringup.db` fell to an offline search in minutes (issue 20). Without the pepper the
 * stored value says nothing about the PIN. Why HMAC over scrypt's output (and not the pepper
 * in scrypt's input): hashes stored before the pepper (`scrypt$N$r$p$salt$hash`) convert
 * at the first start without knowing any PIN — HMAC(pepper, old hash) — see `upgrade`.
 *
 * The key id (a short HMAC of a fixed label under the pepper, which reveals nothing of it)
 * names the pepper a value was made with. The secret holds a ring of peppers, newest
 * first: a key backup restored on a register adds the old register's pepper to the ring
 * instead of replacing this register's (key-backup.ts, `mergePepperRings`), so both
 * registers' PINs check. A value whose pepper is not in the ring cannot be checked at all
 * (`canCheck`): the sign-in then asks for the key backup or a PIN reset. Simplification:
 * a whole data folder moved without its keys has no PIN that checks, and a restore needs a
 * manager signed in: restore on a fresh data folder first, then move `ringup.db` in (README).
 *
 * scrypt runs on libuv's thread pool (async `scrypt`): checking many PINs never stalls
 * the event loop, so other windows keep being answered (issue 20). `hashSync` is kept for
 * seeding the default users once, at the first start, before any window is served.
 */
import { createHmac, randomBytes, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';
import { getOrCreateKey, type SecretStore } from '../../secrets/secret-store';

/** Name of the PIN pepper ring in the secret store (carried by the key backup). */
export const PIN_PEPPER_SECRET = 'pin-pepper';
const PEPPER_BYTES = 32;
const KEYED = 'scrypt-hmac';
const LEGACY = 'scrypt';
const KEY_LEN = 32;

export interface PinCost {
  N: number;
  r: number;
  p: number;
}
/** 2^14 × 8 × 1 (≈ 16 MiB, some tens of ms): the cost the stored values have always had. */
export const PIN_COST: PinCost = { N: 16384, r: 8, p: 1 };

/** A ring's peppers, newest first (each PEPPER_BYTES long). */
export function splitRing(ring: Buffer): Buffer[] {
  const keys: Buffer[] = [];
  for (let i = 0; i + PEPPER_BYTES <= ring.length; i += PEPPER_BYTES) keys.push(ring.subarray(i, i + PEPPER_BYTES));
  return keys;
}

/** A restored ring joins this register's: this register's current pepper stays first, the restored ones follow. */
export function mergePepperRings(current: Buffer | null, restored: Buffer): Buffer {
  const keys = [...(current ? splitRing(current) : []), ...splitRing(restored)];
  const seen = new Set<string>();
  return Buffer.concat(keys.filter((k) => !seen.has(k.toString('hex')) && seen.add(k.toString('hex'))));
}

/** The ring from the secret store, made with one new pepper on first use. */
export async function loadPinPepper(store: SecretStore): Promise<Buffer> {
  return getOrCreateKey(store, PIN_PEPPER_SECRET, PEPPER_BYTES);
}

const keyIdOf = (pepper: Buffer) => createHmac('sha256', pepper).update('ringup pin pepper id').digest('hex').slice(0, 16);

function scryptAsync(pin: string, salt: Buffer, len: number, cost: PinCost): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(pin, salt, len, cost, (err, key) => (err ? reject(err) : resolve(key))));
}

/** Stored values name their own cost: a bounded one only (a changed file cannot make a check allocate without limit). */
function costOf(n: string, r: string, p: string): PinCost | null {
  const c = { N: Number(n), r: Number(r), p: Number(p) };
  return Number.isInteger(c.N) && c.N >= 2 && c.N <= 1 << 17 && Number.isInteger(c.r) && c.r >= 1 && c.r <= 16 && Number.isInteger(c.p) && c.p >= 1 && c.p <= 4 ? c : null;
}

export class PinHasher {
  private peppers = new Map<string, Buffer>();
  private currentId = '';

  constructor(ring: Buffer, private readonly cost: PinCost = PIN_COST) {
    this.setRing(ring);
  }

  /**
   * A new ring, newest first: a register joining a store puts the store's pepper first
   * (store-join.ts), so the PINs it sets from then on check on every register of the store.
   */
  setRing(ring: Buffer): void {
    const keys = splitRing(ring);
    if (keys.length === 0) throw new Error('The PIN pepper is missing.');
    this.peppers = new Map(keys.map((k) => [keyIdOf(k), Buffer.from(k)]));
    this.currentId = keyIdOf(keys[0]!);
  }

  async hash(pin: string): Promise<string> {
    const salt = randomBytes(16);
    return this.format(salt, await scryptAsync(pin, salt, KEY_LEN, this.cost));
  }

  /** Seeding only (the first start, before any window): see the header. */
  hashSync(pin: string): string {
    const salt = randomBytes(16);
    return this.format(salt, scryptSync(pin, salt, KEY_LEN, this.cost));
  }

  /** Whether `stored` was made with a pepper this register holds (a legacy value converts first). */
  canCheck(stored: string): boolean {
    const parts = stored.split('$');
    return parts[0] === KEYED && this.peppers.has(parts[1] ?? '');
  }

  async verify(pin: string, stored: string): Promise<boolean> {
    const parts = stored.split('$');
    if (parts.length !== 7 || parts[0] !== KEYED) return false;
    const [, keyId, n, r, p, saltB64, macB64] = parts as [string, string, string, string, string, string, string];
    const pepper = this.peppers.get(keyId);
    const cost = costOf(n, r, p);
    if (!pepper || !cost) return false;
    const expected = Buffer.from(macB64, 'base64');
    try {
      const inner = await scryptAsync(pin, Buffer.from(saltB64, 'base64'), KEY_LEN, cost);
      const actual = createHmac('sha256', pepper).update(inner).digest();
      return actual.length === expected.length && timingSafeEqual(actual, expected);
    } catch {
      return false;
    }
  }

  /** A value stored before the pepper, keyed now without the PIN; null for anything else. */
  upgrade(stored: string): string | null {
    const parts = stored.split('$');
    if (parts.length !== 6 || parts[0] !== LEGACY) return null;
    const [, n, r, p, saltB64, hashB64] = parts as [string, string, string, string, string, string];
    const pepper = this.peppers.get(this.currentId)!;
    const mac = createHmac('sha256', pepper).update(Buffer.from(hashB64, 'base64')).digest();
    return `${KEYED}$${this.currentId}$${n}$${r}$${p}$${saltB64}$${mac.toString('base64')}`;
  }

  private format(salt: Buffer, inner: Buffer): string {
    const mac = createHmac('sha256', this.peppers.get(this.currentId)!).update(inner).digest();
    return `${KEYED}$${this.currentId}$${this.cost.N}$${this.cost.r}$${this.cost.p}$${salt.toString('base64')}$${mac.toString('base64')}`;
  }
}
