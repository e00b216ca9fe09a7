/** Messages of the recurring module (asserted by the tests). */
export const REC_MSG = {
  VAULT_INVALID: 'Account Vault Id is not an account vault of this location.',
  VAULT_REQUIRED: 'Account Vault Id cannot be blank.',
  PRODUCT_TRANSACTION_INVALID: 'Product Transaction Id is not a product transaction of this location.',
  PRODUCT_TRANSACTION_METHOD: 'Product Transaction Id is for {pt} payments but the account vault is {vault}.',
  AMOUNT_INVALID: 'Transaction Amount must be an amount above 0.00 such as "10.00".',
  START_PAST: 'Start Date must be today ({today}) or later at the location.',
  NEXT_RUN_PAST: 'Next Run Date must be today ({today}) or later at the location.',
  NEXT_RUN_DONE: 'A payment of this recurring already ran on {date}; choose a later Next Run Date.',
  END_BEFORE_START: 'End Date must be on or after the Start Date.',
  END_ON_INSTALLMENT: 'End Date of an installment recurring follows from its Installment Total Count and cannot be set.',
  START_AFTER_FIRST_RUN: 'Start Date cannot change after the recurring has run; change Next Run Date instead.',
  COUNT_INVALID: 'The count must be a whole number from 1 to 99.',
  NOT_ACTIVE: 'Only an active recurring can do this; this one is "{status}".',
  DEFER_ONGOING: 'Only installment recurrings can defer payments; skip a payment of an ongoing recurring instead.',
  HOLD_NOT_ACTIVE: 'Only an active recurring can be placed on hold; this one is "{status}".',
  ACTIVATE_NOT_ON_HOLD: 'Only a recurring on hold can be activated; this one is "{status}".',
} as const;
