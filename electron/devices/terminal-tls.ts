/**
 * The terminal link over TLS (issue 20, point 1), for terminals that offer it. A terminal's
 * certificate is self-signed, so no certificate authority can vouch for it: the register pins
 * the SHA-256 fingerprint the installer read off the terminal (shared/payments/terminal-fingerprint.ts)
 * and talks to whatever presents exactly that certificate, nothing else.
 *
 * - The check runs after the handshake and before the link is handed to the driver, so not one
 *   byte of a request reaches a peer that presented another certificate (CERT_MISMATCH).
 * - A peer that does not complete a TLS handshake (a terminal with TLS off, or something that
 *   strips it) is refused (TLS_FAILED). There is no fallback to plain TCP: a TLS terminal is only
 *   ever reached over TLS.
 * - Name checks (CN / subject alt names) are skipped on purpose: the pin names the one
 *   certificate, and terminals are set up by IP address.
 * Simplification: TLS 1.2 or newer, Node's default cipher list.
 */
import { connect, type TLSSocket } from 'node:tls';
import { DEVICE_MSG, DeviceError } from './device-messages';

/** Where the engine's refusal carries the fingerprint a refused peer presented (the counter records it in the device fault). */
export const TERMINAL_CERTIFICATE_KEY = 'terminal_certificate';

/** The link refused a peer because of its certificate; `presented` is what it showed (for the device-fault record). */
export class TerminalCertificateError extends DeviceError {
  constructor(
    message: string,
    readonly presented: string | null,
  ) {
    super('untrusted', message);
  }
}

/** Connects and completes the handshake; answers the socket and the fingerprint the peer presented. */
function handshake(host: string, port: number, timeoutMs: number): Promise<{ socket: TLSSocket; presented: string }> {
  return new Promise((resolve, reject) => {
    let tcpUp = false;
    // rejectUnauthorized off: a self-signed certificate fails CA verification by nature; the pin decides below.
    const socket = connect({ host, port, rejectUnauthorized: false, minVersion: 'TLSv1.2' });
    const fail = (e: DeviceError) => {
      clearTimeout(timer);
      socket.destroy();
      reject(e);
    };
    // Reached but no handshake: a plain-TCP peer (or one that stalls it) is not the TLS terminal set up.
    const notTls = () => new TerminalCertificateError(DEVICE_MSG.TLS_FAILED, null);
    const timer = setTimeout(() => fail(tcpUp ? notTls() : new DeviceError('unreachable', DEVICE_MSG.UNREACHABLE)), timeoutMs);
    socket.once('connect', () => (tcpUp = true));
    socket.once('secureConnect', () => {
      clearTimeout(timer);
      const presented = socket.getPeerCertificate().fingerprint256 ?? '';
      resolve({ socket, presented: presented.toUpperCase() });
    });
    socket.once('error', () => fail(tcpUp ? notTls() : new DeviceError('unreachable', DEVICE_MSG.UNREACHABLE)));
  });
}

/**
 * A TLS socket to the terminal whose certificate has this fingerprint (device-link.ts makes it
 * the link); refuses any other peer before anything is written.
 */
export async function openPinnedTlsSocket(host: string, port: number, fingerprint: string, connectTimeoutMs = 5000): Promise<TLSSocket> {
  const { socket, presented } = await handshake(host, port, connectTimeoutMs);
  if (presented !== fingerprint.trim().toUpperCase()) {
    socket.destroy();
    throw new TerminalCertificateError(DEVICE_MSG.CERT_MISMATCH, presented || null);
  }
  return socket;
}

/**
 * The fingerprint a terminal presents, for the installer to compare with the terminal's own
 * screen before saving it ("Read it from the terminal"): the handshake only, nothing is sent.
 */
export async function presentedFingerprint(host: string, port: number, connectTimeoutMs = 5000): Promise<string> {
  const { socket, presented } = await handshake(host, port, connectTimeoutMs);
  socket.destroy();
  if (!presented) throw new TerminalCertificateError(DEVICE_MSG.TLS_FAILED, null);
  return presented;
}
