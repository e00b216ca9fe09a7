/** The pay page address rules (shared/pay-page-address.ts): what a manager may type, and which addresses a customer's phone cannot open. */
import { describe, expect, it } from 'vitest';
import { isPayAddress, PAY_ADDRESS_TEXT, unreachableReason } from '../../shared/pay-page-address';

describe('pay page address', () => {
  it('takes http and https web links only', () => {
    for (const ok of ['https://pay.example.com', 'http://pay.example.com:8080/shop', 'https://192.168.1.20', 'https://[2001:db8::1]:8443']) expect(isPayAddress(ok), ok).toBe(true);
    for (const bad of ['pay.example.com', 'ftp://pay.example.com', 'https://', 'https://user:pw@pay.example.com', 'https://pay example.com', 'javascript:alert(1)']) expect(isPayAddress(bad), bad).toBe(false);
  });

  it("flags this computer's own addresses in words, naming the host", () => {
    for (const [address, host] of [['http://127.0.0.1:43211', '127.0.0.1'], ['http://localhost:8080', 'localhost'], ['https://ringup.localhost', 'ringup.localhost'], ['http://[::1]:80', '::1'], ['http://0.0.0.0', '0.0.0.0'], ['http://127.1.2.3', '127.1.2.3']] as const) {
      expect(unreachableReason(address)).toMatch(new RegExp(`^A customer's phone cannot open this link: ${host.replace(/[.[\]]/g, '\\$&')} is this computer itself\\.`));
    }
    expect(unreachableReason('https://pay.example.com')).toBeNull();
    expect(unreachableReason('https://192.168.1.20')).toBeNull();
    expect(unreachableReason('nonsense')).toBe(PAY_ADDRESS_TEXT.invalid);
  });
});
