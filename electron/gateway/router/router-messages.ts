/** Messages of the router endpoints (named constants, asserted in tests). */
export const ROUTER_MSG = {
  TERMINAL_REQUIRED: 'Terminal Id cannot be blank.',
  TERMINAL_INACTIVE: 'The terminal is not active.',
  TERMINAL_NO_ADDRESS: 'The terminal has no address: set its local_ip_address (and port) or its serial path.',
  ACTION_INVALID: 'Action must be one of: sale, authonly, refund.',
  VAULT_ACTION_INVALID: 'Action must be "store".',
  PAYMENT_METHOD_CC: 'Payment Method must be "cc" for a terminal.',
} as const;
