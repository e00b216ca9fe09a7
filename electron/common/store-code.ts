/**
 * The one-time code that joins a register to a store (issue 24, point 2), made on both sides:
 * by the store server for the store's first register (printed at its setup), and by a register
 * already in the store for each further one (Manage → Registers → Add).
 *
 * 20 characters of Crockford base32 (100 bits), read out in four groups of five:
 * - the first 10 (50 bits) are a random **secret**. The code itself never travels: the server is
 *   given only `codeProof` (SHA-256 of the secret, with a label) and keeps only that, and the
 *   store's PIN pepper ring travels sealed with a key scrypt makes from the secret;
 * - the last 10 (50 bits) are the start of the SHA-256 **fingerprint of the store server's
 *   certificate**: the joining register connects, reads the certificate the server shows, and
 *   goes on only if its fingerprint starts with those bits. A machine in the middle would have to
 *   make a certificate matching 50 bits of SHA-256 within the code's 15 minutes. Once joined, the
 *   register pins the whole certificate (store-tls.ts).
 *
 * Why scrypt for the seal and not for the proof: the proof is checked once by the server against
 * a value it deletes when the code is used or expires; the sealed ring stays in PostgreSQL until
 * then, so guessing the secret from it must cost scrypt per try (2^50 tries).
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes, scrypt as scryptCb } from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCb) as (password: string, salt: string, keylen: number, opts: { N: number; r: number; p: number; maxmem: number }) => Promise<Buffer>;

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const SECRET_CHARS = 10;
const PRINT_CHARS = 10;

/** Crockford base32 of the first `chars` × 5 bits of `bytes`. */
function base32(bytes: Buffer, chars: number): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5 && out.length < chars) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
    if (out.length === chars) break;
  }
  return out;
}

/** SHA-256 fingerprint of a certificate (DER bytes, or PEM text), as Node writes it: AA:BB:…, upper case. */
export function certificateFingerprint(cert: Buffer | string): string {
  const der = typeof cert === 'string' ? Buffer.from(cert.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64') : cert;
  return createHash('sha256')
    .update(der)
    .digest('hex')
    .toUpperCase()
    .match(/../g)!
    .join(':');
}

/** The code's last half for a certificate fingerprint (AA:BB:… or hex). */
export function fingerprintPart(fingerprint: string): string {
  return base32(Buffer.from(fingerprint.replace(/:/g, ''), 'hex'), PRINT_CHARS);
}

/** A new code for the store server whose certificate has this fingerprint. */
export function makeJoinCode(fingerprint: string): string {
  return base32(randomBytes(8), SECRET_CHARS) + fingerprintPart(fingerprint);
}

/** XXXXX-XXXXX-XXXXX-XXXXX */
export function groupCode(code: string): string {
  return code.match(/.{1,5}/g)!.join('-');
}

/** A code as typed (joinCodeSchema has normalised it): its secret and the fingerprint part it expects. */
export function splitJoinCode(code: string): { secret: string; print: string } {
  return { secret: code.slice(0, SECRET_CHARS), print: code.slice(SECRET_CHARS) };
}

/** What the server is given for a code: SHA-256 of its secret, with a label, hex. */
export function codeProof(code: string): string {
  return createHash('sha256').update(`ringup-join:${splitJoinCode(code).secret}`).digest('hex');
}

/** Whether the certificate the server showed is the one the code was made for. */
export function codeMatchesCertificate(code: string, fingerprint: string): boolean {
  return splitJoinCode(code).print === fingerprintPart(fingerprint);
}

const SEAL_COST = { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

async function sealKey(code: string): Promise<Buffer> {
  return scrypt(splitJoinCode(code).secret, 'ringup-store-pepper', 32, SEAL_COST);
}

/** The PIN pepper ring sealed for whoever holds the code: base64 of iv (12) | tag (16) | ciphertext (AES-256-GCM). */
export async function sealForCode(code: string, plain: Buffer): Promise<string> {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', await sealKey(code), iv);
  const body = Buffer.concat([c.update(plain), c.final()]);
  return Buffer.concat([iv, c.getAuthTag(), body]).toString('base64');
}

/** The ring back, or null when the code is not the one it was sealed with. */
export async function openWithCode(code: string, sealed: string): Promise<Buffer | null> {
  const raw = Buffer.from(sealed, 'base64');
  if (raw.length < 29) return null;
  try {
    const d = createDecipheriv('aes-256-gcm', await sealKey(code), raw.subarray(0, 12));
    d.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([d.update(raw.subarray(28)), d.final()]);
  } catch {
    return null;
  }
}
