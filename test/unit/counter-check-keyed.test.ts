import { describe, expect, it } from 'vitest';
import { checkPaySchema } from '../../shared/ipc/devices';
import { accountError, checkNumberError, KEYED_CHECK_MSG, routingError } from '../../shared/payments/check-entry';

describe('a check keyed from its printed numbers', () => {
  it('checks the routing checksum at the ninth digit, and the rest when the cashier is done', () => {
    expect(routingError('07200032', false)).toBeNull();
    expect(routingError('07200032', true)).toBe(KEYED_CHECK_MSG.routingShort);
    expect(routingError('072000327', false)).toBe(KEYED_CHECK_MSG.routingInvalid);
    expect(routingError('072000326', false)).toBeNull();
    expect(accountError('123', false)).toBeNull();
    expect(accountError('123', true)).toBe(KEYED_CHECK_MSG.account);
    expect(accountError('12345678', true)).toBeNull();
    expect(checkNumberError('', false)).toBeNull();
    expect(checkNumberError('', true)).toBe(KEYED_CHECK_MSG.checkNumber);
    expect(checkNumberError('2044', true)).toBeNull();
  });

  it('is refused by the core without a valid routing number or, keyed, without its check number', () => {
    const pay = (check: object) => checkPaySchema.safeParse({ subtotalCents: 2150, taxCents: 0, holderName: 'Pat Doe', clientRef: 'r1', check });
    const keyed = { routing: '072000326', account: '12345678', checkNumber: '2044', micr: null };
    expect(pay(keyed).success).toBe(true);
    const messages = (check: object) => {
      const r = pay(check);
      return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    };
    expect(messages({ ...keyed, routing: '072000327' })).toEqual([`check.routing: ${KEYED_CHECK_MSG.routingInvalid}`]);
    expect(messages({ ...keyed, checkNumber: null })).toEqual([`check.checkNumber: ${KEYED_CHECK_MSG.checkNumber}`]);
    // A scanned check may carry no check number (its line had none).
    expect(pay({ ...keyed, checkNumber: null, micr: 'T072000326T 12345678U' }).success).toBe(true);
  });
});
