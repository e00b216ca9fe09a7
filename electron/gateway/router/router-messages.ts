/** Messages of the router endpoints (named constants, asserted in tests). */
export const ROUTER_MSG = {
  TERMINAL_REQUIRED: 'Terminal Id cannot be blank.',
  TERMINAL_INACTIVE: 'The terminal is not active.',
  TERMINAL_NO_ADDRESS: 'The terminal has no address: set its local_ip_address (and port) or its serial path.',
  ACTION_INVALID: 'Action must be one of: sale, authonly, refund.',
  VAULT_ACTION_INVALID: 'Action must be "store".',
  PAYMENT_METHOD_CC: 'Payment Method must be "cc" for a terminal.',
  /** Ringup's tip_base_amount / tip_amounts (router-fields.ts). */
  TIP_BASE_INVALID: 'Tip Base Amount must be an amount like 10.00, at most the Transaction Amount.',
  TIP_AMOUNTS_INVALID: 'Tip Amounts must be three amounts like 1.00, each more than 0.00.',
  /** A terminal's answer that does not add up to what was asked (router/terminal-amounts.ts). */
  AMOUNT_NOT_ASKED: 'The terminal reported {reported} approved for a request of {asked} with a tip of at most {tip}: nothing was charged.',
  REVERSED: 'The terminal reversed its approval.',
  NOT_REVERSED: 'The terminal did not confirm the reversal of its approval: check it before its batch closes.',
} as const;

/** The error key of a refused terminal answer (terminal-answer.ts), for the router's callers. */
export { TERMINAL_ANSWER_KEY } from '../../devices/terminal-answer';
