/**
 * A self-signed certificate for the terminal simulator's TLS (issue 20, point 1), as a real
 * terminal carries one: made with the `openssl` command (Node's crypto makes keys but not
 * X.509 certificates; Debian's openssl package is on every machine that runs the tests), or
 * read from PEM files the caller gives. Its SHA-256 fingerprint is what an installer reads off
 * the terminal's screen and pins on the Devices screen.
 * Simplification: a P-256 key, valid ten years, named after the terminal's serial number.
 */
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TlsIdentity {
  /** PEM private key and certificate. */
  key: string;
  cert: string;
  /** SHA-256 of the certificate, colon-separated upper-case hex. */
  fingerprint: string;
}

export function certificateFingerprint(certPem: string): string {
  return new X509Certificate(certPem).fingerprint256.toUpperCase();
}

export function selfSignedIdentity(commonName: string): TlsIdentity {
  const dir = mkdtempSync(join(tmpdir(), 'ringup-sim-cert-'));
  try {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', key, '-out', cert, '-days', '3650', '-subj', `/CN=${commonName.replace(/[^A-Za-z0-9 .-]/g, '')}`],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    return identityOf(readFileSync(key, 'utf8'), readFileSync(cert, 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function identityOf(key: string, cert: string): TlsIdentity {
  return { key, cert, fingerprint: certificateFingerprint(cert) };
}
