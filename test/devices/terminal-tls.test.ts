/**
 * The terminal link over TLS (issue 20, point 1) against the simulator over real TCP sockets on
 * 127.0.0.1: a sale goes through when the terminal presents the pinned certificate; another
 * certificate (another terminal, or a TLS man-in-the-middle relaying to the real one) and a
 * plain-TCP peer where TLS was set are refused before any request is sent, so nothing is charged.
 * Certificates are made with the openssl command, as the simulator makes its own.
 */
import { connect as netConnect, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defaultTimeouts } from '../../shared/payments/terminal-timeouts';
import { FINGERPRINT_PATTERN } from '../../shared/payments/terminal-fingerprint';
import { openLink, openTlsLink, type DeviceAddress } from '../../electron/devices/device-link';
import { DEVICE_MSG, DeviceError } from '../../electron/devices/device-messages';
import { selfSignedIdentity, type TlsIdentity } from '../../electron/devices/sim/self-signed-cert';
import { TerminalSimulator } from '../../electron/devices/sim/terminal-simulator';
import { TerminalCertificateError, presentedFingerprint } from '../../electron/devices/terminal-tls';
import { TerminalDriver } from '../../electron/devices/terminal-driver';
import { rejectionOf } from '../helpers/rejection';

const SECOND_MS = 4;
let terminalCert: TlsIdentity;
let otherCert: TlsIdentity;
let sim: TerminalSimulator;
const closers: (() => Promise<void> | void)[] = [];

beforeAll(() => {
  terminalCert = selfSignedIdentity('SIM-TLS-1');
  otherCert = selfSignedIdentity('IMPOSTOR');
});

function startSim(): TerminalSimulator {
  sim = new TerminalSimulator({ secondMs: SECOND_MS, serialNumber: 'SIM-TLS-1' });
  sim.script.stepMs = 5;
  closers.push(() => sim.close());
  return sim;
}

afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

const driverAt = (address: DeviceAddress) =>
  new TerminalDriver({ connect: () => openLink(address), settings: { timeouts: defaultTimeouts(), tipPercents: null }, secondMs: SECOND_MS, ackTimeoutMs: 1000 });

const tlsAt = (port: number, fingerprint: string): DeviceAddress => ({ kind: 'tcp', host: '127.0.0.1', port, tls: { fingerprint } });

/** Card requests that reached the terminal (a charge starts with one). */
const saleRequests = () => sim.received.filter((f) => f.command === 'T00' || f.command === 'T02');

function listening(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const a = server.address();
      resolve(typeof a === 'object' && a ? a.port : 0);
    }),
  );
}

describe('terminal link over TLS, pinned by certificate fingerprint', () => {
  it('the simulator makes a self-signed certificate whose fingerprint is the colon form installers type', () => {
    expect(terminalCert.fingerprint).toMatch(FINGERPRINT_PATTERN);
    expect(terminalCert.fingerprint).not.toBe(otherCert.fingerprint);
  });

  it('a sale goes through when the terminal presents the pinned certificate', async () => {
    const port = await startSim().listenTls(terminalCert);
    const r = await driverAt(tlsAt(port, terminalCert.fingerprint)).sale({ amountCents: 1000, ecrRef: 'tls-1' });
    expect(r).toMatchObject({ resultText: 'APPROVED', approvedCents: 1000 });
    expect(saleRequests()).toHaveLength(1);
    // The fingerprint as typed in lower case is the same pin.
    const again = await driverAt(tlsAt(port, terminalCert.fingerprint.toLowerCase())).sale({ amountCents: 1200, ecrRef: 'tls-2' });
    expect(again.approvedCents).toBe(1200);
  });

  it('the installer can read the presented fingerprint before pinning it (handshake only, no request sent)', async () => {
    const port = await startSim().listenTls(terminalCert);
    expect(await presentedFingerprint('127.0.0.1', port)).toBe(terminalCert.fingerprint);
    expect(sim.received).toHaveLength(0);
  });

  it('a terminal presenting another certificate is refused in words and nothing is charged', async () => {
    const port = await startSim().listenTls(otherCert);
    const e = await rejectionOf(driverAt(tlsAt(port, terminalCert.fingerprint)).sale({ amountCents: 1000, ecrRef: 'imp-1' }), TerminalCertificateError);
    expect(e.code).toBe('untrusted');
    expect(e.message).toBe(DEVICE_MSG.CERT_MISMATCH);
    expect(e.message).toMatch(/^The terminal's certificate is not the one set up for it/);
    expect(e.presented).toBe(otherCert.fingerprint);
    expect(sim.received).toHaveLength(0);
  });

  it('a TLS man-in-the-middle relaying to the real terminal is refused: no request reaches the terminal', async () => {
    const plainPort = await startSim().listenTcp(0);
    const relayed: Socket[] = [];
    const mitm = createTlsServer({ key: otherCert.key, cert: otherCert.cert }, (client) => {
      const up = netConnect({ host: '127.0.0.1', port: plainPort });
      relayed.push(up);
      client.pipe(up).pipe(client);
      client.on('error', () => up.destroy());
      up.on('error', () => client.destroy());
    });
    mitm.on('tlsClientError', () => undefined);
    const port = await listening(mitm);
    closers.push(() => new Promise<void>((r) => mitm.close(() => r())));
    closers.push(() => relayed.forEach((s) => s.destroy()));
    const e = await rejectionOf(driverAt(tlsAt(port, terminalCert.fingerprint)).sale({ amountCents: 1000, ecrRef: 'mitm-1' }), DeviceError);
    expect(e.message).toBe(DEVICE_MSG.CERT_MISMATCH);
    expect(sim.received).toHaveLength(0);
  });

  it('a plain-TCP peer where TLS was set is refused, never spoken to in plain TCP', async () => {
    const port = await startSim().listenTcp(0);
    // A short handshake bound: a plain peer reads the TLS greeting as noise and stays silent.
    const e = await rejectionOf(openTlsLink('127.0.0.1', port, terminalCert.fingerprint, 800), DeviceError);
    expect(e.code).toBe('untrusted');
    expect(e.message).toBe(DEVICE_MSG.TLS_FAILED);
    // The same through the driver with the stored address (the link's own bound).
    const viaDriver = await rejectionOf(driverAt(tlsAt(port, terminalCert.fingerprint)).sale({ amountCents: 1000, ecrRef: 'plain-1' }), DeviceError);
    expect(viaDriver.message).toBe(DEVICE_MSG.TLS_FAILED);
    expect(sim.received).toHaveLength(0);
  });

  it('a peer that closes on the TLS greeting is refused as not TLS, not as unreachable', async () => {
    const { createServer } = await import('node:net');
    const closing = createServer((s) => s.once('data', () => s.destroy()));
    const port = await listening(closing);
    closers.push(() => new Promise<void>((r) => closing.close(() => r())));
    const e = await rejectionOf(openTlsLink('127.0.0.1', port, terminalCert.fingerprint, 2000), DeviceError);
    expect(e.message).toBe(DEVICE_MSG.TLS_FAILED);
  });
});
