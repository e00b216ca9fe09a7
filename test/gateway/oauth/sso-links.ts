/** Builds SSO links as a partner would: hex of the JSON, or IV + AES-256-CBC (PKCS7) under the shared key. */
import { createCipheriv, randomBytes } from 'node:crypto';

export const hexData = (json: unknown): string => Buffer.from(JSON.stringify(json), 'utf8').toString('hex');

export function encryptData(json: unknown, keyHex: string, iv = randomBytes(16)): string {
  return encryptText(JSON.stringify(json), keyHex, iv);
}

/** Encrypts JSON text as written (a partner's pretty-printed payload, its own key order). */
export function encryptText(text: string, keyHex: string, iv = randomBytes(16)): string {
  const c = createCipheriv('aes-256-cbc', Buffer.from(keyHex, 'hex'), iv);
  return Buffer.concat([iv, c.update(Buffer.from(text, 'utf8')), c.final()]).toString('hex');
}

/**
 * The same e_data with byte `at` (0-15) of its IV XORed with `mask`: in CBC that changes byte
 * `at` of the first plaintext block the same way and nothing else, so one who saw a used link
 * can rewrite its first 16 characters without the key.
 */
export function flipIvByte(eData: string, at: number, mask: number): string {
  const raw = Buffer.from(eData, 'hex');
  raw[at] = (raw[at] ?? 0) ^ mask;
  return raw.toString('hex');
}

/** A ciphertext whose last block decrypts to bytes that are not valid PKCS7 padding. */
export function badPaddingData(keyHex: string): string {
  const iv = randomBytes(16);
  const c = createCipheriv('aes-256-cbc', Buffer.from(keyHex, 'hex'), iv);
  c.setAutoPadding(false);
  const block = Buffer.from('{"a":1}\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0005', 'latin1');
  return Buffer.concat([iv, c.update(block), c.final()]).toString('hex');
}

export function ssoUrl(origin: string, path: '/custom/sso' | '/custom/contactsso', developerId: string, param: { data?: string; e_data?: string }): string {
  const q = new URLSearchParams({ 'developer-id': developerId, ...param });
  return `${origin}${path}?${q}`;
}
