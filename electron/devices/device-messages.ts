/**
 * Every message the device drivers end with, as named constants (asserted in tests). The
 * timeout messages are the interface's own, from shared/payments/terminal-timeouts.ts.
 */
export const DEVICE_MSG = {
  UNREACHABLE: 'The terminal cannot be reached. Check that it is on and its address is right.',
  DISCONNECTED: 'The terminal disconnected in the middle of the operation.',
  NAKED: 'The terminal refused the message three times.',
  NO_ACK: 'The terminal did not acknowledge the message.',
  GARBLED: 'The terminal sent a message that could not be read.',
  BUSY: 'The terminal is busy with another operation.',
  ABORTED: 'The customer cancelled on the terminal.',
  CANCELLED: 'Cancelled at the counter.',
  CONNECT_ERROR: 'The terminal could not reach the processor (connect error).',
  TERMINAL_TIMEOUT: 'The terminal timed out.',
  DECLINED_TERMS: 'The customer declined the terms.',
  /** A terminal's answer the register does not accept (terminal-answer.ts): nothing it says is believed. */
  FAULT: 'The terminal sent an answer that does not match the sale, so nothing was counted as paid.',
  /** TLS terminals (terminal-tls.ts): the peer presented another certificate than the one pinned; nothing was sent to it. */
  CERT_MISMATCH: "The terminal's certificate is not the one set up for it, so Ringup did not talk to it and nothing was charged. Something else may be answering at its address: ask an installer to compare the fingerprint on the terminal's screen with the one on the Devices screen.",
  /** TLS terminals: the peer answered but not over TLS (TLS off on the terminal, or something stripping it). */
  TLS_FAILED: 'The terminal did not answer over TLS, so Ringup did not talk to it and nothing was charged. Turn TLS on in the terminal\'s network settings, or have an installer check the terminal on the Devices screen.',
  SCANNER_UNREACHABLE: 'The check scanner cannot be reached. Check the cable and the port.',
  SCANNER_NO_CHECK: 'No check was scanned in time. Feed the check and try again.',
  MICR_UNREADABLE: 'The check could not be read (unreadable characters in the MICR line). Scan it again or key the numbers.',
  MICR_FORMAT: 'The MICR line has no routing number between transit symbols.',
  MICR_ROUTING: 'The routing number on the check fails its checksum. Scan it again or key the numbers.',
  MICR_ACCOUNT: 'The account number on the check must be 4 to 17 digits.',
  /** Receipt printers (printer-driver.ts): the receipt was not printed and the caller keeps it to print again. */
  PRINTER_OFFLINE: 'The receipt printer does not answer. Check that it is on, has its cable in, and its address is right; the receipt is kept and prints when it is back.',
  PRINTER_PAPER_OUT: 'The receipt printer is out of paper. Put in a new roll and close the cover; the receipt is kept and prints then.',
  PRINTER_COVER_OPEN: "The receipt printer's cover is open. Close it; the receipt is kept and prints then.",
  PRINTER_NOT_READY: 'The receipt printer is not ready (it reports an error). Turn it off and on again; the receipt is kept and prints when it is ready.',
  PRINTER_STOPPED: 'The receipt printer stopped while printing (out of paper, cover opened or switched off). The receipt may be cut short, so it is kept to print again.',
  PRINTER_BAD_IMAGE: 'The logo is not a PNG image the printer can print. Choose a PNG file.',
} as const;

export type DeviceErrorCode =
  | 'unreachable'
  | 'disconnected'
  | 'protocol'
  | 'busy'
  | 'aborted'
  | 'cancelled'
  | 'connect_error'
  | 'timeout'
  | 'declined'
  | 'unreadable'
  | 'fault'
  /** A TLS terminal that is not the one pinned (terminal-tls.ts). */
  | 'untrusted'
  /** Receipt printers: the printer cannot print now (offline, out of paper, cover open, error). */
  | 'printer_not_ready';

export class DeviceError extends Error {
  constructor(
    readonly code: DeviceErrorCode,
    message: string,
    /** For timeouts: which one (card_entry_timeout …). */
    readonly timeoutKey?: string,
  ) {
    super(message);
    this.name = 'DeviceError';
  }
}
