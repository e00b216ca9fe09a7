import { test, expect } from 'vitest';
import { makeJoinCode, codeMatchesCertificate, groupCode, sealForCode, openWithCode, codeProof } from '../../electron/common/store-code';
import { joinCodeSchema } from '../../shared/store/store-wire';
test("a join code carries its secret and the certificate's fingerprint; the sealed ring opens only with the same code", async () => {
  const fp = 'AB:'.repeat(31) + 'CD';
  const c = makeJoinCode(fp);
  expect(c).toHaveLength(20);
  const typed = joinCodeSchema.parse(groupCode(c).toLowerCase());
  expect(typed).toBe(c);
  expect(codeMatchesCertificate(typed, fp)).toBe(true);
  expect(codeMatchesCertificate(typed, 'AC:'.repeat(31) + 'CD')).toBe(false);
  const s = await sealForCode(c, Buffer.from('pepper'));
  expect((await openWithCode(c, s))?.toString()).toBe('pepper');
  expect(await openWithCode(makeJoinCode(fp), s)).toBeNull();
  expect(codeProof(c)).toMatch(/^[0-9a-f]{64}$/);
});
