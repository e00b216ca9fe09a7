/**
 * What the devices' handlers answer when a device is missing, busy, or a payment's answer was
 * lost: plain sentences, one place, so the screens and the tests read the same words.
 */
import { AUTH_ERRORS } from '../auth/users';

export const DEVICE_ERRORS = {
  installerOnly: AUTH_ERRORS.setupOnly,
  counterOnly: AUTH_ERRORS.counterOnly,
  noTerminal: 'No payment terminal is set up. Key the card, or ask an installer to add a terminal.',
  noScanner: 'No check scanner is set up. Ask an installer to add one.',
  scannerBusy: 'The check scanner is already reading a check.',
  terminalBusy: 'The terminal is busy with another sale.',
  checkPending: 'The check was accepted. The bank transfer is on its way (pending); offer the customer a receipt.',
  /** Issue 20, point 3: the answer was lost; the banner at the top says what became of it. */
  outcomeUnknown: 'The payment gateway did not answer. Checking whether the card was charged — do not charge it again; the note at the top of the screen says once it is known.',
  checkOutcomeUnknown: 'The payment gateway did not answer. Checking whether the check was taken — do not take it again; the note at the top of the screen says once it is known.',
} as const;
