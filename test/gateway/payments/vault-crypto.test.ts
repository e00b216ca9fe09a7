import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { VaultCrypto } from '../../../electron/gateway/payments/vault-crypto';

describe('vault crypto (AES-256-GCM)', () => {
  const v = new VaultCrypto(randomBytes(32));
  it('round-trips and never contains the plaintext', () => {
    const blob = v.encrypt('4111111111111111', 'vault-1');
    expect(blob).not.toContain('4111111111111111');
    expect(v.decrypt(blob, 'vault-1')).toBe('4111111111111111');
    expect(v.encrypt('4111111111111111', 'vault-1')).not.toBe(blob);
  });
  it('refuses another vault id, a tampered blob and a short key', () => {
    const blob = v.encrypt('4111111111111111', 'vault-1');
    expect(() => v.decrypt(blob, 'vault-2')).toThrow();
    const raw = Buffer.from(blob.slice(3), 'base64');
    raw[raw.length - 1] = (raw[raw.length - 1] ?? 0) ^ 1;
    expect(() => v.decrypt('v1:' + raw.toString('base64'), 'vault-1')).toThrow();
    expect(() => new VaultCrypto(randomBytes(16))).toThrow();
  });
});
