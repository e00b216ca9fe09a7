/**
 * A PIN hasher for unit tests that build a UserDirectory themselves: a random pepper (or the
 * one given) and a low scrypt cost, so a test checking many PINs — or searching all 10,000 —
 * runs in seconds. The app always hashes at PIN_COST with the pepper from its secret store.
 */
import { randomBytes } from 'node:crypto';
import { PinHasher, type PinCost } from '../../electron/core/auth/pin-hash';

export const TEST_PIN_COST: PinCost = { N: 256, r: 8, p: 1 };

export function testPins(pepper: Buffer = randomBytes(32), cost: PinCost = TEST_PIN_COST): PinHasher {
  return new PinHasher(pepper, cost);
}
