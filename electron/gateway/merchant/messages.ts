/** Error messages of the merchant resources (asserted by name in tests). */
import { TIP_PERCENT_MSG } from '../../../shared/payments/terminal-timeouts';

export const MERCHANT_MSG = {
  PASSWORD_WEAK: 'Password must contain at least one letter and one digit.',
  OLD_PASSWORD_WRONG: 'Old Password is incorrect.',
  USER_MANAGE_FORBIDDEN: 'Only a manager or an admin of a type above this user\'s, over every location this user belongs to, may change, re-key or delete them.',
  USER_TYPE_NOT_BELOW: 'User Type Id must be a type below your own.',
  USER_TYPE_OWN: 'You cannot change your own User Type Id.',
  CANNOT_DELETE_SELF: 'You cannot delete your own user.',
  SCANNER_IN_USE: 'This scanner cannot be deleted because other records depend on it.',
  DEVICE_NOT_SIGNATURE_CAPABLE: 'The device "{device}" is not signature capable.',
  TERMINAL_NOT_IN_LOCATION: 'Terminal Id must belong to the location.',
  APPLICATION_NOT_OF_MANUFACTURER: 'Terminal Application Id does not belong to the terminal manufacturer.',
  TIP_PERCENTS_KEYS: 'Tip Percents must have exactly the keys percent_1, percent_2 and percent_3.',
  // The tip-percent rules are shared with the installer screen (shared/payments/terminal-timeouts.ts).
  TIP_PERCENTS_ALL_NULL: TIP_PERCENT_MSG.ALL_OR_NONE,
  TIP_PERCENT_RANGE: TIP_PERCENT_MSG.RANGE,
  TIMEOUT_NOT_INTEGER: '{label} must be an integer.',
  TIMEOUT_TOO_SMALL: '{label} must be no less than {min}.',
  TIMEOUT_TOO_BIG: '{label} must be no greater than {max}.',
  PRODUCT_TRANSACTION_NOT_OF_LOCATION: 'Product Transaction Id must belong to the location.',
  DEFAULT_PT_WRONG_METHOD: '{attribute} must be a {method} product transaction of this location.',
  DOMAIN_TITLE_REQUIRED: 'Branding Domain Title cannot be blank when Is New Domain is true.',
  UI_PREFS_UNKNOWN: 'Ui Prefs has an unknown key "{key}".',
} as const;
