/**
 * Encryption of vaulted account numbers at rest: AES-256-GCM with a 32-byte key from
 * the core's SecretStore (`getOrCreateKey(store, VAULT_KEY_NAME)`; the standalone engine
 * uses a FileSecretStore in its `<DIR>/secrets/`, the node host one outside its data
 * folder, the desktop app safeStorage).
 * Blob layout: "v1:" + base64(iv 12 bytes | tag 16 bytes | ciphertext). The vault id is
 * the associated data, so a blob copied onto another vault row does not decrypt.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export const VAULT_KEY_NAME = 'vault-key';

export class VaultCrypto {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('The vault key must be 32 bytes (AES-256).');
  }

  encrypt(plain: string, vaultId: string): string {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.key, iv);
    c.setAAD(Buffer.from(vaultId, 'utf8'));
    const ct = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return 'v1:' + Buffer.concat([iv, c.getAuthTag(), ct]).toString('base64');
  }

  decrypt(blob: string, vaultId: string): string {
    if (!blob.startsWith('v1:')) throw new Error('Unknown vault blob version.');
    const raw = Buffer.from(blob.slice(3), 'base64');
    const d = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    d.setAAD(Buffer.from(vaultId, 'utf8'));
    d.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
  }
}
