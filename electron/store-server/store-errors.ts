/**
 * Every refusal the store server answers, as named sentences (tests assert the constant), and
 * the error that carries one to the envelope: `{"errors": {"<field or general>": [sentence]}}`.
 */
import type { StoreErrorBody } from '../../shared/store/store-wire';

export const STORE_ERR = {
  badJson: 'The request body is not valid JSON.',
  bodyTooLarge: 'The request is too large: send at most 1,000 events at a time.',
  badRequest: 'The request could not be understood.',
  notFound: 'There is no such page on the store server.',
  methodNotAllowed: 'This address does not take that method.',
  unauthorized: 'This register is not one of the store\'s registers (it was removed, or its credentials are wrong). Join the store again with a new code.',
  codeUnknown: 'This code is not one this store server made. Check it on the register that showed it.',
  codeUsed: 'This code was used already. Make a new one on a register of the store (Manage → Registers → Add).',
  codeExpired: 'This code has expired. Make a new one on a register of the store (Manage → Registers → Add).',
  codeNotFirst: 'This store has a register already: add this one from it (Manage → Registers → Add).',
  codeTaken: 'That code is in use already: make another.',
  tooManyTries: 'Too many wrong codes from this machine: wait a minute and try again.',
  registerUnknown: 'There is no such register in this store.',
  removeSelf: 'A register cannot remove itself: remove it from another register of the store.',
  countUnknownRegister: 'This count names a register that is not in the store.',
  countTwice: 'Each register is counted once.',
  keyMismatch: 'The row\'s key does not match its key columns.',
  rowMissing: 'An upsert carries the whole row; a delete carries none.',
  busy: 'The store server is busy: try again in a moment.',
  internal: 'The store server could not do this just now; nothing was changed. Try again.',
  engineAway: 'The store\'s gateway engine is not answering just now.',
  noEngine: 'This store server does not host a gateway engine (start it with --engine).',
} as const;

export class StoreError extends Error {
  constructor(
    readonly status: number,
    readonly errors: StoreErrorBody['errors'],
  ) {
    super(Object.values(errors).flat().join(' '));
  }
}

export const refuse = (status: number, message: string, field = 'general'): StoreError => new StoreError(status, { [field]: [message] });
