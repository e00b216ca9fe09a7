/**
 * A payment terminal's certificate fingerprint, as an installer reads it off the terminal's
 * screen and types it on the Devices screen (issue 20, point 1): the SHA-256 of the certificate,
 * 32 bytes in hex joined by colons ("3F:A2:…:9C", the form `openssl x509 -fingerprint -sha256`
 * and most terminals print). Terminals carry self-signed certificates, so the register trusts
 * the one certificate whose fingerprint was set up for the terminal, not a certificate authority.
 * One rule for the screen, the IPC schema and the engine's terminal record.
 * Simplification: only the colon form is accepted (either case); a run of 64 hex digits without
 * colons is refused rather than guessed at, so what is stored is what the terminal shows.
 */
export const FINGERPRINT_PATTERN = /^([0-9A-Fa-f]{2}:){31}[0-9A-Fa-f]{2}$/;

export const FINGERPRINT_MSG = {
  malformed: "A certificate fingerprint is 32 pairs of hex digits (0-9, A-F) joined by colons, as the terminal shows it: for example 3F:A2:07:…:9C.",
  missing: "Type the terminal's certificate fingerprint (SHA-256): TLS needs it to know the terminal.",
  serial: 'TLS is for a terminal on the network: a serial cable has no TLS. Turn TLS off or choose Network (TCP).',
} as const;

/** The fingerprint in its one stored form (upper case), or null when it is not one. */
export function normalFingerprint(text: string): string | null {
  const t = text.trim();
  return FINGERPRINT_PATTERN.test(t) ? t.toUpperCase() : null;
}
