/**
 * TLS on the terminal link through the core's handlers (issue 20, point 1): the installer reads
 * the certificate a TLS terminal presents, pins its fingerprint (a malformed one is refused in
 * words), tests it and a cashier sells on it over TLS. When something else answers at the
 * terminal's address with another certificate (the simulator serving a second certificate, as a
 * man-in-the-middle would), the sale is refused in words, recorded as a device fault, and
 * nothing is asked of the terminal or charged at the engine.
 * Real pieces: a core with its embedded engine on port 0, the terminal simulator serving TLS on
 * real TCP ports, openssl-made certificates, the real SQLite files.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_DIR } from '../../electron/core/gateway/sealed-gateway';
import { DEVICE_MSG } from '../../electron/devices/device-messages';
import { selfSignedIdentity, type TlsIdentity } from '../../electron/devices/sim/self-signed-cert';
import { TerminalSimulator } from '../../electron/devices/sim/terminal-simulator';
import { DATABASE_FILE } from '../../electron/gateway/engine';
import type { TerminalSave } from '../../shared/ipc/contract';
import { FINGERPRINT_MSG } from '../../shared/payments/terminal-fingerprint';
import { defaultTimeouts } from '../../shared/payments/terminal-timeouts';
import { openCore, value, type OpenCore } from '../helpers/core-harness';
import { tempDirs } from '../helpers/temp-dirs';

const { newDir } = tempDirs();
let dir: string;
let c: OpenCore;
let sim: TerminalSimulator;
let cert: TlsIdentity;
let impostor: TlsIdentity;
let tlsPort: number;
let impostorPort: number;

beforeAll(async () => {
  cert = selfSignedIdentity('SIM-CORE-TLS');
  impostor = selfSignedIdentity('IMPOSTOR');
  dir = newDir('ringup-terminal-tls-');
  c = await openCore(dir, { deviceStatusIntervalMs: 0 });
  sim = new TerminalSimulator({ serialNumber: 'SIM-CORE-TLS' });
  sim.script.stepMs = 20;
  tlsPort = await sim.listenTls(cert);
  impostorPort = await sim.listenTls(impostor);
});
afterAll(async () => {
  await c?.core.close();
  await sim?.close();
});

const faultRows = () => {
  const db = new Database(join(dir, 'ringup.db'), { readonly: true });
  try {
    return db.prepare("SELECT detail FROM audit_log WHERE kind = 'device-fault' ORDER BY seq").all() as Array<{ detail: string }>;
  } finally {
    db.close();
  }
};
const approvedAtEngine = () => {
  const db = new Database(join(dir, GATEWAY_DIR, DATABASE_FILE), { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM transactions WHERE status_id = 101').get() as { n: number }).n;
  } finally {
    db.close();
  }
};
const cardRequests = () => sim.received.filter((f) => f.command === 'T00').length;

async function demoTerminal(): Promise<TerminalSave & { id: string }> {
  const { lastRegistrationTs: _ts, ...demo } = value(await c.call('devices:installer-data')).terminals[0]!;
  return { ...demo, timeouts: defaultTimeouts(), tipPercents: null };
}

describe('a TLS terminal set up and used through the core', () => {
  it('the installer reads the presented fingerprint, a malformed one is refused in words, the pinned one is saved and tested', async () => {
    await c.signInAs('Jordan', '2468');
    const read = value(await c.call('devices:terminal-certificate', { host: '127.0.0.1', port: tlsPort }));
    expect(read.fingerprint).toBe(cert.fingerprint);
    expect(sim.received).toHaveLength(0); // the handshake only

    const demo = await demoTerminal();
    const bad = await c.call('devices:terminal-save', { ...demo, address: { kind: 'tcp', host: '127.0.0.1', port: tlsPort, tls: { fingerprint: 'AB:CD' } } });
    // Refused by the channel's schema, the sentence under the field (the screen shows it as typed, with the same schema).
    expect(bad).toMatchObject({ ok: false, error: { code: 'bad_request', fields: { 'address.tls.fingerprint': [FINGERPRINT_MSG.malformed] } } });

    const saved = value(await c.call('devices:terminal-save', { ...demo, address: { kind: 'tcp', host: '127.0.0.1', port: tlsPort, tls: { fingerprint: read.fingerprint.toLowerCase() } } }));
    expect(saved.address).toEqual({ kind: 'tcp', host: '127.0.0.1', port: tlsPort, tls: { fingerprint: cert.fingerprint } });
    const tested = value(await c.call('devices:terminal-test', { address: saved.address, terminalId: saved.id }));
    expect(tested).toMatchObject({ serialNumber: 'SIM-CORE-TLS' });
    expect(tested.lastRegistrationTs).toBeGreaterThan(0);
    // An address not saved yet, pinned to another certificate, is tested directly and refused the same way.
    const wrong = await c.call('devices:terminal-test', { address: { kind: 'tcp', host: '127.0.0.1', port: impostorPort, tls: { fingerprint: cert.fingerprint } } });
    expect(wrong).toMatchObject({ ok: false, error: { message: DEVICE_MSG.CERT_MISMATCH } });
  });

  it('a cashier sells on it over TLS', async () => {
    await c.signInAs('Casey', '0000');
    const r = value(await c.call('devices:terminal-sale', { subtotalCents: 1500, taxCents: 0, tipCents: 0, clientRef: 'tls-counter-1' }));
    expect(r.approved).toBe(true);
    expect(r.transaction.amountCents).toBe(1500);
  });

  it('another certificate at its address: refused in words, recorded as a device fault, nothing asked or charged', async () => {
    await c.signInAs('Jordan', '2468');
    const demo = await demoTerminal();
    // The terminal's pin stays; what answers at its address now presents another certificate.
    value(await c.call('devices:terminal-save', { ...demo, address: { kind: 'tcp', host: '127.0.0.1', port: impostorPort, tls: { fingerprint: cert.fingerprint } } }));
    await c.signInAs('Casey', '0000');
    const asked = cardRequests();
    const charged = approvedAtEngine();
    const faults = faultRows().length;
    const r = await c.call('devices:terminal-sale', { subtotalCents: 1500, taxCents: 0, tipCents: 0, clientRef: 'tls-counter-2' });
    expect(r).toMatchObject({ ok: false, error: { code: 'device_fault', message: DEVICE_MSG.CERT_MISMATCH } });
    expect(r.ok ? '' : r.error.message).toMatch(/^The terminal's certificate is not the one set up for it/);
    expect(cardRequests()).toBe(asked);
    expect(approvedAtEngine()).toBe(charged);
    const rows = faultRows();
    expect(rows).toHaveLength(faults + 1);
    expect(rows.at(-1)!.detail).toContain(`certificate presented: ${impostor.fingerprint}; pinned: ${cert.fingerprint}`);
  });
});
